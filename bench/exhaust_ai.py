"""Bench the Exhaust AI: full games through the real rules and engine stepping.

Usage (from the repo root):
    python bench/exhaust_ai.py [--level normal|strong] [--games N] [--jobs 2] [--seed S]
        [--sizes 15 20 25] [--opponents npc random normal] [--players 4] [--long]
        [--param NAME=VALUE ...] [--details]

Prints one line of `key=value` figures per setting:
    solo npc_size=15 games=N ai_win=50.0% us_per_decision=1900 level=normal
        the AI in the human's seat against the solo NPC, for NPC piles of 15, 20 and 25
        (`--sizes` with no value skips them);
    exhaust players=4 level=normal opponents=npc games=N loss=10.8% ci95=[..] even_loss=25.0%
        win=89.2% ci95=[..] even=75.0% us_per_decision=1900
        one AI seat among seats playing the NPC's preference order (`npc_policy`), uniformly
        random legal actions (`random`) or the NORMAL AI (`normal`, what a 🤖 seat plays).
A game (with `--long`, a match of the long variant) has one loser and every other player
wins, so a seat no better than the others loses the even share 1/players of the games and
wins the rest: a lower loss rate is better. `ci95` is a rate's 95 % Wilson interval.
The AI's seat goes round the table (game i: seat i mod players); the first player is random.
Game i uses seed S+i, so runs are reproducible (and levels compared on the same deals).
`us_per_decision` is the AI's own mean time; `--details` appends its 99th percentile
(`p99_us=`). `--level` picks the AI level (`AI.decide`; games/exhaust/strong.py).
`--param` overrides a field of `games.exhaust.ai.Params` (for tuning the NORMAL level). The
default --games (1200 NORMAL, 200 STRONG) runs the NORMAL bench in about 3-4 minutes on 2
shared cores; STRONG thinks up to about 1 s a decision, so a table game takes a minute or so.
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
from games.exhaust import AI, RULES
from games.exhaust.ai import PARAMS, Params, decide
from games.exhaust.ai_policies import npc_policy, random_policy

POLICIES = {"npc": npc_policy, "random": random_policy, "normal": normal_policy(AI)}


def play_game(
    players: int, table: str, npc_size: int, long: bool, seed: int, params: Params, level: str
) -> tuple[bool, list[float]]:
    """One game (a match with `long`); returns (the AI seat lost, the seconds each AI
    decision took)."""
    options: dict[str, object] = {"npc_size": npc_size} if players == 1 else {"long_game": long}
    ai_seat = seed % players
    ai = at_level(AI, decide, params, level)
    config = RULES.make_config(players, options)
    outcome, thinking = play_out(RULES, config, seed, ai_seat, ai, POLICIES[table])
    return ai_seat not in outcome.winners, thinking


def _run(args: tuple[int, str, int, bool, int, Params, str]) -> tuple[bool, list[float]]:
    return play_game(*args)


def bench(
    players: int,
    table: str,
    npc_size: int,
    long: bool,
    games: int,
    seed: int,
    jobs: int,
    params: Params,
    level: str,
) -> tuple[float, float, float]:
    """Play `games` games (seeds seed..seed+games-1): (AI losses, mean and p99 µs per
    decision)."""
    tasks = [(players, table, npc_size, long, seed + i, params, level) for i in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(_run, tasks, chunksize=max(1, games // (jobs * 20)))
    else:
        results = [_run(task) for task in tasks]
    lost = sum(1 for lose, _ in results if lose)
    times = sorted(t for _, thinking in results for t in thinking)
    return lost, 1e6 * mean(times), 1e6 * percentile(times, 0.99)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=AI_LEVELS, default=NORMAL)
    parser.add_argument("--games", type=int, default=None, help="default 1200, STRONG 200")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--sizes", type=int, nargs="*", default=[15, 20, 25], help="NPC piles")
    parser.add_argument(
        "--opponents", "--tables", nargs="*", default=["npc", "random"], choices=POLICIES
    )
    parser.add_argument("--players", type=int, default=4, help="table size (2-5)")
    parser.add_argument("--long", action="store_true", help="matches of the long variant")
    parser.add_argument("--details", action="store_true", help="append p99_us=")
    args = parser.parse_args(argv)
    params = parse_params(args.param, PARAMS)
    games = args.games or (1200 if args.level == NORMAL else 200)
    run = (games, args.seed, args.jobs, params, args.level)
    for size in args.sizes:
        lost, mean, p99 = bench(1, "npc", size, False, *run)
        line = (
            f"solo npc_size={size} games={games} ai_win={100 - 100 * lost / games:.1f}% "
            f"us_per_decision={mean:.0f} level={args.level}"
        )
        print(line + (f" p99_us={p99:.0f}" if args.details else ""), flush=True)
    n = args.players
    for table in args.opponents:
        lost, mean, p99 = bench(n, table, 15, args.long, *run)
        low, high = wilson(lost, games)
        line = (
            f"exhaust players={n} level={args.level} opponents={table} games={games}"
            f"{' long' if args.long else ''} loss={100 * lost / games:.1f}%"
            f" ci95=[{100 * low:.1f},{100 * high:.1f}] even_loss={100 / n:.1f}%"
            f" win={100 - 100 * lost / games:.1f}% ci95=[{100 - 100 * high:.1f},"
            f"{100 - 100 * low:.1f}] even={100 - 100 / n:.1f}% us_per_decision={mean:.0f}"
        )
        print(line + (f" p99_us={p99:.0f}" if args.details else ""), flush=True)


if __name__ == "__main__":
    main()
