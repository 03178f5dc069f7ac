"""Bench the Angels & Demons Rummy AI: whole matches through the real rules and engine stepping.

Usage (from the repo root):
    python bench/rummy_ai.py [--players 2 3 4] [--games N] [--rules basic advanced]
        [--opponents random greedy normal] [--level normal|strong] [--seed S] [--jobs 2]
        [--param NAME=VALUE ...]

Prints one line per player count, rule set and opponent kind:
    rummy players=4 rules=basic level=strong opponents=normal games=N win=41.2%
        ci95=[36.0,46.5] even=25.0% us_per_decision=U
the AI's match win rate with every other seat played by `opponents`
(games/rummy/ai_policies.py: uniformly random legal actions, or the greedy seat; `normal` is
the NORMAL AI with its default weights, as a 🤖 seat plays: against it `--level strong` shows
what STRONG adds and `--param` what a tuning does). A match won by k players together (a
shared top score, R) counts 1/k for the AI, so a seat no better than the others wins `even`
= 1/players of the matches; `ci95` is the Wilson interval of the win rate. Match i uses seed
S+i and puts the AI in seat i mod players; the first player is random. Every claim window is
answered by every seat at once (the bench never lets a deadline pass). `--param` overrides a
field of `games.rummy.ai.Params` (for tuning, NORMAL only). `--level strong` plays the AI
seat with `AI.decide` at STRONG (games/rummy/strong.py); `us_per_decision` is the
AI's mean microseconds per decision (`--details` appends the 99th percentile, `p99_us=`, and
writes each match's seed and share to stderr as it ends).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.duel import at_level, normal_policy, play_out
from bench.figures import mean, parse_params, percentile, wilson
from games.engine.contract import AI_LEVELS, NORMAL
from games.rummy import AI, RULES
from games.rummy.ai import PARAMS, Params, decide
from games.rummy.ai_policies import greedy_policy, random_policy

POLICIES = {"random": random_policy, "greedy": greedy_policy, "normal": normal_policy(AI)}


def play_match(
    players: int, advanced: bool, opponents: str, seed: int, params: Params, level: str
) -> tuple[float, list[float]]:
    """One match; returns the AI's share of the win (1/k among k winners, else 0), and the
    seconds each of its decisions took.

    Opponents `normal` are the NORMAL AI with its default weights, as a 🤖 seat plays."""
    ai_seat = seed % players
    ai = at_level(AI, decide, params, level)
    config = RULES.make_config(players, {"advanced": advanced})
    outcome, thinking = play_out(RULES, config, seed, ai_seat, ai, POLICIES[opponents])
    share = 1 / len(outcome.winners) if ai_seat in outcome.winners else 0.0
    return share, thinking


def _run(args: tuple[int, bool, str, int, Params, str]) -> tuple[float, list[float]]:
    return play_match(*args)


def bench(
    players: int,
    advanced: bool,
    opponents: str,
    games: int,
    seed: int,
    jobs: int,
    params: Params,
    level: str,
    details: bool = False,
) -> tuple[float, list[float]]:
    """The AI's match win rate in % over `games` matches (seeds seed..seed+games-1) and the
    seconds each AI decision took, sorted. `details` writes each match's seed and share to
    stderr as it ends (matches at STRONG are slow; the same seeds at two levels pair up)."""
    tasks = [(players, advanced, opponents, seed + i, params, level) for i in range(games)]
    with Pool(jobs) if jobs > 1 else nullcontext() as pool:
        played = pool.imap(_run, tasks) if pool is not None else map(_run, tasks)
        shares = []
        for task, result in zip(tasks, played, strict=True):
            shares.append(result)
            if details:
                print(f"match seed={task[3]} share={result[0]:.3f}", file=sys.stderr, flush=True)
    times = sorted(t for _, thinking in shares for t in thinking)
    return 100 * sum(r[0] for r in shares) / games, times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--games", type=int, default=60, help="matches per line")
    parser.add_argument("--rules", nargs="*", default=["basic", "advanced"])
    parser.add_argument("--opponents", nargs="*", default=["random", "greedy"], choices=POLICIES)
    parser.add_argument("--level", choices=AI_LEVELS, default=NORMAL)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--details", action="store_true", help="append p99_us=; each match's share to stderr"
    )
    args = parser.parse_args(argv)
    params = parse_params(args.param, PARAMS)
    for players in args.players:
        for rules in args.rules:
            for opponents in args.opponents:
                advanced = rules == "advanced"
                win, times = bench(
                    players,
                    advanced,
                    opponents,
                    args.games,
                    args.seed,
                    args.jobs,
                    params,
                    args.level,
                    args.details,
                )
                low, high = wilson(win / 100 * args.games, args.games)
                print(
                    f"rummy players={players} rules={rules} level={args.level} "
                    f"opponents={opponents} games={args.games} win={win:.1f}% "
                    f"ci95=[{100 * low:.1f},{100 * high:.1f}] even={100 / players:.1f}% "
                    f"us_per_decision={1e6 * mean(times):.0f}"
                    + (f" p99_us={1e6 * percentile(times, 0.99):.0f}" if args.details else ""),
                    flush=True,
                )


if __name__ == "__main__":
    main()
