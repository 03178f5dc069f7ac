"""Bench `/stats`, `/history` and `/leaderboard` storage reads on a server with many finished
games.

Usage (from the repo root):
    python bench/records.py [--games 100000] [--players 400] [--calls 200] [--seed S]

Builds a temporary database through the real migrations and `Records.add` (one transaction
per game, seats, totals and ratings included, as the bot writes them): `--games` finished
games in one server, spread over the registered games and three channels, each with 1–5
seats drawn from `--players` members (some seats AI, at either level), plus a little noise in
a second server. Every game is rated (a solo game against an NPC), the cooperative one too,
so the ratings are at their largest. Then it times what the commands read:

- stats: a player's `/stats` (their totals, their ratings with their ranks, and their streaks
  in every game they played), then the server's board (per game: its figures, this
  channel's, the best results and the top players), alternately;
- history: the latest 10 games of the server, of all games and of one game, alternately;
- leaderboard: `/leaderboard` of every game, then of one game, alternately (per game: the
  top players and the AIs' ratings).

Prints one line: `games=N stats_ms=X history_ms=Y leaderboard_ms=Z`, each the p99 of
`--calls` timed calls (after a few warm-up calls), in milliseconds. The p50s and the build
time go to stderr, with the time of `python -m storage.ratings --rebuild`'s work (every
rating replayed, once). The default size takes about 4 minutes on 2 shared cores (most of it
building).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from games.registry import GAME_IDS
from storage import Entrant, Storage, open_storage
from storage.players import SeatRow

GUILD, OTHER_GUILD = 1, 2
CHANNELS = (11, 12, 13)
AI = ("normal", "strong")


async def build(storage: Storage, games: int, members: int, rng: random.Random) -> None:
    """`games` finished games in GUILD (and a few elsewhere), as the bot records them."""
    start = 1_700_000_000.0
    for n in range(games + games // 100):
        guild = GUILD if n < games else OTHER_GUILD
        game_id = GAME_IDS[n % len(GAME_IDS)]
        players = rng.randint(1, 5)
        users = rng.sample(range(1, members + 1), players)
        won_all = rng.random() < 0.5
        seats = [
            SeatRow(
                seat=i,
                user_id=None if rng.random() < 0.2 else users[i],
                won=won_all if i % 2 == 0 else not won_all,
                score=rng.randint(0, 60),
                name="",
            )
            for i in range(players)
        ]
        places = [rng.randint(1, players + 1) for _ in range(players + 1)]
        entrants = [
            Entrant(s.seat, places[s.seat], s.user_id, "" if s.user_id else rng.choice(AI))
            for s in seats
        ]
        if players == 1:  # solo, against an NPC
            entrants.append(Entrant(-1, places[1], None, f"npc-{rng.randint(10, 20)}"))
        await storage.records.add(
            guild_id=guild,
            channel_id=rng.choice(CHANNELS),
            game_id=game_id,
            session_id=f"{n:08x}",
            result="win" if won_all else "loss",
            score=rng.randint(0, 60),
            players=players,
            won=won_all,
            finished_at=start + n * 60,
            seats=seats,
            entrants=entrants,
        )


async def user_stats(storage: Storage, user_id: int) -> None:
    """What `/stats user` reads: the player's totals and ratings, then the streaks of each
    game played."""
    totals = await storage.players.totals(GUILD, user_id)
    await storage.ratings.player(GUILD, user_id)
    for game_id in sorted({t.game_id for t in totals}):
        await storage.players.streaks(GUILD, user_id, game_id)


async def board(storage: Storage) -> None:
    """What `/stats` without a user reads: per game, server and channel figures, best
    results and the top players."""
    for game_id in GAME_IDS:
        await storage.records.stats(GUILD, game_id)
        await storage.records.stats(GUILD, game_id, CHANNELS[0])
        await storage.records.best(GUILD, game_id)
        await storage.players.top(GUILD, game_id)


async def leaderboard(storage: Storage, n: int) -> None:
    """What `/leaderboard` reads: per game (every game, or one), its board and its AIs."""
    for game_id in GAME_IDS if n % 2 else [GAME_IDS[n % len(GAME_IDS)]]:
        await storage.ratings.board(GUILD, game_id)
        await storage.ratings.ais(GUILD, game_id)


async def history(storage: Storage, n: int) -> None:
    await storage.records.history(GUILD, None if n % 2 else GAME_IDS[n % len(GAME_IDS)])


async def timed(calls: int, action: Callable[[int], Awaitable[object]]) -> list[float]:
    times = []
    for n in range(calls + 5):
        begin = time.perf_counter()
        await action(n)
        if n >= 5:
            times.append((time.perf_counter() - begin) * 1000)
    return times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        # Only reads are timed: the build need not wait for an fsync per game.
        storage = await open_storage(Path(tmp) / "bench.db", synchronous="NORMAL")
        async with storage:
            began = time.perf_counter()
            await build(storage, args.games, args.players, rng)
            built = time.perf_counter() - began

            async def stats(n: int) -> None:
                if n % 2:
                    await board(storage)
                else:
                    await user_stats(storage, rng.randint(1, args.players))

            stats_ms = await timed(args.calls, stats)
            history_ms = await timed(args.calls, lambda n: history(storage, n))
            leaderboard_ms = await timed(args.calls, lambda n: leaderboard(storage, n))
            began = time.perf_counter()
            await storage.ratings.rebuild()
            rebuilt = time.perf_counter() - began
    print(
        f"games={args.games} stats_ms={percentile(stats_ms, 0.99):.1f} "
        f"history_ms={percentile(history_ms, 0.99):.1f} "
        f"leaderboard_ms={percentile(leaderboard_ms, 0.99):.1f}"
    )
    print(
        f"p50 stats_ms={statistics.median(stats_ms):.1f} "
        f"history_ms={statistics.median(history_ms):.1f} "
        f"leaderboard_ms={statistics.median(leaderboard_ms):.1f} build_s={built:.0f} "
        f"rebuild_s={rebuilt:.1f} "
        f"players={args.players} calls={args.calls}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    asyncio.run(main())
