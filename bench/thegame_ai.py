"""Bench The Game AI: full games with AI seats through the real rules and engine stepping.

Usage (from the repo root):
    python bench/thegame_ai.py --games 10000 --players 1 2 3 4 5 [--on-fire] [--seed S] [--jobs 2]

Prints exactly one line per player count, e.g.
    players=2 games=10000 excellent=75.3% perfect=18.1% mean_left=6.2
(excellent: at most 9 cards left, perfect: none left; a burned game counts as neither).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.step import advance
from games.registry import GAMES
from games.thegame.rules import BURNED

RULES = GAMES["thegame"]


def play_game(players: int, on_fire: bool, seed: int) -> tuple[int, bool, int, float]:
    """One full game; returns (cards left, burned, AI decisions, seconds spent deciding)."""
    config = RULES.make_config(players, {"on_fire": on_fire})
    state = RULES.setup(config)
    result = advance(RULES, state, 0, -1, None, seed)
    state, version = result.state, len(result.logged)
    rng = random.Random(seed)
    decisions, thinking = 0, 0.0
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        view = RULES.view(state, seat)
        start = time.perf_counter()
        action = RULES.ai_action(view, rng)
        thinking += time.perf_counter() - start
        decisions += 1
        result = advance(RULES, state, version, seat, action, seed)
        state, version = result.state, version + len(result.logged)
    outcome = RULES.outcome(state)
    assert outcome is not None
    return state.cards_left, outcome.result == BURNED, decisions, thinking


def _run(args: tuple[int, bool, int]) -> tuple[int, bool, int, float]:
    return play_game(*args)


def bench(players: int, games: int, on_fire: bool, seed: int, jobs: int) -> dict[str, float]:
    """Play `games` games (seeds seed..seed+games-1) and summarise them."""
    tasks = [(players, on_fire, seed + i) for i in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_run, tasks, chunksize=max(1, games // (jobs * 20)))
    else:
        results = [_run(task) for task in tasks]
    lefts = [left for left, _, _, _ in results]
    burned = sum(1 for _, b, _, _ in results if b)
    excellent = sum(1 for left, b, _, _ in results if not b and left <= 9)
    perfect = sum(1 for left, b, _, _ in results if not b and left == 0)
    decisions = sum(d for _, _, d, _ in results)
    thinking = sum(t for _, _, _, t in results)
    return {
        "excellent": 100 * excellent / games,
        "perfect": 100 * perfect / games,
        "mean_left": sum(lefts) / games,
        "burned": 100 * burned / games,
        "us_per_decision": 1e6 * thinking / max(1, decisions),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="*", default=None)
    parser.add_argument("--on-fire", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--details", action="store_true", help="append burned%% and microseconds per decision"
    )
    args = parser.parse_args(argv)
    for players in args.players or [1, 2, 3, 4, 5]:
        stats = bench(players, args.games, args.on_fire, args.seed, args.jobs)
        line = (
            f"players={players} games={args.games} excellent={stats['excellent']:.1f}% "
            f"perfect={stats['perfect']:.1f}% mean_left={stats['mean_left']:.1f}"
        )
        if args.details:
            line += f" burned={stats['burned']:.1f}% us_per_decision={stats['us_per_decision']:.0f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
