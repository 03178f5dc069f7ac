"""Bench The Game AI: full games with AI seats through the real rules and engine stepping.

Usage (from the repo root):
    python bench/thegame_ai.py --games 10000 --players 1 2 3 4 5 [--no-signals] [--on-fire]
        [--level normal|strong] [--seed S] [--jobs 2] [--details]

Prints exactly one line per player count, e.g.
    players=2 games=10000 excellent=75.3% perfect=18.1% mean_left=6.2 signals=on level=normal
(excellent: at most 9 cards left, perfect: none left; a burned game counts as neither).
`--no-signals` plays the variant without pile signals (config option `signals`), so nobody
can set or read one: the figure compares with published no-communication results.
`--details` appends burned%, the mean and the 99th percentile of the AI's microseconds per
decision (`us_per_decision=`, `p99_us=`). Game i uses seed S+i.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import mean, percentile
from games.engine.contract import AI_LEVELS, NORMAL
from games.engine.step import advance
from games.registry import AIS, GAMES
from games.thegame.rules import BURNED

RULES, AI = GAMES["thegame"], AIS["thegame"]


def play_game(
    players: int, options: dict[str, bool], level: str, seed: int
) -> tuple[int, bool, list[float]]:
    """One full game; returns (cards left, burned, seconds each AI decision took)."""
    config = RULES.make_config(players, options)
    state = RULES.setup(config)
    result = advance(RULES, state, 0, -1, None, seed)
    state, version = result.state, len(result.logged)
    rng = random.Random(seed)
    thinking: list[float] = []
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        view = RULES.view(state, seat)
        start = time.perf_counter()
        action = AI.decide(view, rng, level).action
        thinking.append(time.perf_counter() - start)
        result = advance(RULES, state, version, seat, action, seed)
        state, version = result.state, version + len(result.logged)
    outcome = RULES.outcome(state)
    assert outcome is not None
    return state.cards_left, outcome.result == BURNED, thinking


def _run(args: tuple[int, dict[str, bool], str, int]) -> tuple[int, bool, list[float]]:
    return play_game(*args)


def bench(
    players: int, games: int, options: dict[str, bool], level: str, seed: int, jobs: int
) -> dict[str, float]:
    """Play `games` games (seeds seed..seed+games-1) and summarise them."""
    tasks = [(players, options, level, seed + i) for i in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_run, tasks, chunksize=max(1, games // (jobs * 20)))
    else:
        results = [_run(task) for task in tasks]
    lefts = [left for left, _, _ in results]
    burned = sum(1 for _, b, _ in results if b)
    excellent = sum(1 for left, b, _ in results if not b and left <= 9)
    perfect = sum(1 for left, b, _ in results if not b and left == 0)
    times = sorted(t for _, _, thinking in results for t in thinking)
    return {
        "excellent": 100 * excellent / games,
        "perfect": 100 * perfect / games,
        "mean_left": sum(lefts) / games,
        "burned": 100 * burned / games,
        "us_per_decision": 1e6 * mean(times),
        "p99_us": 1e6 * percentile(times, 0.99),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="*", default=None)
    parser.add_argument("--on-fire", action="store_true")
    parser.add_argument("--no-signals", action="store_true", help="the variant without signals")
    parser.add_argument("--level", choices=AI_LEVELS, default=NORMAL)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--details", action="store_true", help="append burned%%, us_per_decision and p99_us"
    )
    args = parser.parse_args(argv)
    options = {"on_fire": args.on_fire, "signals": not args.no_signals}
    for players in args.players or [1, 2, 3, 4, 5]:
        stats = bench(players, args.games, options, args.level, args.seed, args.jobs)
        line = (
            f"players={players} games={args.games} excellent={stats['excellent']:.1f}% "
            f"perfect={stats['perfect']:.1f}% mean_left={stats['mean_left']:.1f} "
            f"signals={'off' if args.no_signals else 'on'} level={args.level}"
        )
        if args.details:
            line += (
                f" burned={stats['burned']:.1f}% us_per_decision={stats['us_per_decision']:.0f}"
                f" p99_us={stats['p99_us']:.0f}"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
