"""Bench the Hell Queue Club AI: full games through the real rules and engine stepping.

Usage (from the repo root):
    python bench/hellqueue_ai.py [--players 3 4] [--games N] [--opponents random greedy normal]
        [--level normal|strong] [--seed S] [--jobs 2] [--param NAME=VALUE ...]

Prints one line per player count and opponent kind:
    hellqueue players=4 level=strong opponents=normal games=N win=X% ci95=[L,H] even=25.0%
        us_per_decision=U
the AI in one seat, every other seat playing `random` (uniform among the legal actions),
`greedy` (the Queue that wins the most stones now, else the one that queues the most dice;
games/hellqueue/ai_policies.py) or `normal` (the NORMAL AI, what a 🤖 seat plays). A shared
win among k winners counts 1/k for the AI, so a seat no better than the others wins the even
share, 100/players % (25 % with 4 players, 33 % with 3); `ci95` is the win rate's 95 % Wilson
interval. The AI's seat goes round the table (game i: seat i mod players); the first player is
random. Game i uses seed S+i, so runs are reproducible (and levels compared on the same
deals). `--param` overrides a field of `games.hellqueue.ai.Params` (for tuning, NORMAL only).
`--level strong` plays the AI seat with `AI.decide` at STRONG
(games/hellqueue/strong.py); `us_per_decision` is the AI's mean microseconds per decision
(`--details` appends the 99th percentile, `p99_us=`).
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.duel import at_level, normal_policy, play_out
from bench.figures import mean, parse_params, percentile, wilson
from games.engine.contract import AI_LEVELS, NORMAL
from games.hellqueue import AI, RULES
from games.hellqueue.ai import PARAMS, Params, decide
from games.hellqueue.ai_policies import greedy_policy, random_policy

POLICIES = {"random": random_policy, "greedy": greedy_policy, "normal": normal_policy(AI)}


def play_game(
    players: int, opponents: str, seed: int, params: Params, level: str
) -> tuple[float, list[float]]:
    """One game; returns the AI seat's share of the win (1, 1/k for a shared win, or 0), and the
    seconds each of its decisions took."""
    ai_seat = seed % players
    ai = at_level(AI, decide, params, level)
    config = RULES.make_config(players, {})
    outcome, thinking = play_out(RULES, config, seed, ai_seat, ai, POLICIES[opponents])
    share = 1 / len(outcome.winners) if ai_seat in outcome.winners else 0.0
    return share, thinking


def _run(args: tuple[int, str, int, Params, str]) -> tuple[float, list[float]]:
    return play_game(*args)


def bench(
    players: int, opponents: str, games: int, seed: int, jobs: int, params: Params, level: str
) -> tuple[float, list[float]]:
    """Play `games` games (seeds seed..seed+games-1); the AI's wins (shares of shared wins
    added up) and the seconds each AI decision took, sorted."""
    tasks = [(players, opponents, seed + i, params, level) for i in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_run, tasks, chunksize=max(1, games // (jobs * 20)))
    else:
        results = [_run(task) for task in tasks]
    times = sorted(t for _, thinking in results for t in thinking)
    return sum(r[0] for r in results), times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4], choices=[3, 4])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--opponents", nargs="*", default=["random", "greedy"], choices=POLICIES)
    parser.add_argument("--level", choices=AI_LEVELS, default=NORMAL)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--details", action="store_true", help="append p99_us=")
    args = parser.parse_args(argv)
    params = parse_params(args.param, PARAMS)
    for players in args.players:
        for opponents in args.opponents:
            wins, times = bench(
                players, opponents, args.games, args.seed, args.jobs, params, args.level
            )
            low, high = wilson(wins, args.games)
            print(
                f"hellqueue players={players} level={args.level} opponents={opponents}"
                f" games={args.games} win={100 * wins / args.games:.1f}%"
                f" ci95=[{100 * low:.1f},{100 * high:.1f}] even={100 / players:.1f}%"
                f" us_per_decision={1e6 * mean(times):.0f}"
                + (f" p99_us={1e6 * percentile(times, 0.99):.0f}" if args.details else ""),
                flush=True,
            )


if __name__ == "__main__":
    main()
