"""Resident memory of the session service while games are played: does it stay flat?

    python bench/memory.py --sessions 10000 50000
    python bench/memory.py --sessions 10000 --bot-root ../old-checkout

For each size, a fresh service over a temporary SQLite store opens that many games of The Game
(two players each, as bench/service.py does) and plays them in a closed loop (one random legal
move in flight per session; a finished game is replaced by a rematch) for `--seconds`. The
process's resident set is read after `--early` seconds of play and at the end: once every
session is loaded and has moved a few times the service should hold what it holds, so the
later figure should be within a few percent of the earlier. Each size runs in a process of its
own (one size's heap never counts in the next). The loop keeps nothing per move (no latencies,
no verification: bench/service.py measures those), and a player holds nothing but ids while
its move or rematch waits on the service (`move`: the moves it chose from and the finished
game it rematches are let go first), so what grows is the service's.
`--bot-root DIR` runs the service and store of another checkout (an older commit, to compare).
`--trace FRAMES` also traces Python's allocations (`tracemalloc`, FRAMES deep) and prints,
after the line, what grew most from the first figure to the end of play, by traceback (each
line innermost first): slow (the play slows several times, so fewer moves are played), for
finding what grows, not for the figures.

Prints one line per size:
memory sessions=N rss_mb_5s=A rss_mb_60s=B growth_pct=G moves=M
(the labels follow `--early` and `--seconds`).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.service import (  # noqa: E402
    AI_ARGS,
    GAMES,
    Bench,
    GameError,
    Reason,
    SessionService,
    Status,
)
from storage import open_storage  # noqa: E402


class Unchecked:
    """Bench's verifier, keeping nothing: this bench measures memory, not durability."""

    def check(self, item: tuple[str, int, object]) -> None:
        pass


async def move(bench: Bench, session_id: str) -> tuple[str, bool]:
    """`Bench.move`, holding nothing but ids across its awaits: 10,000 players each holding
    the list of moves they chose from, or a finished game while its rematch waits in the
    commit queue, would be the bench's memory, not the service's."""
    session = await bench.service.get(session_id)
    if session.record.status is not Status.ACTIVE:
        host = session.record.host_id
        del session
        session = (await bench.service.rematch(session_id, host)).session
    rules = bench.rules
    seat = bench.rng.choice(sorted(session.waiting.seats))
    legal = rules.legal_actions(session.state, seat)
    action = bench.rng.choice([a for a in legal if a.kind not in bench.free])
    record = session.record
    session_id, version, user = record.id, record.version, record.seats[seat].user_id
    del session, record, legal
    assert user is not None  # every seat is a player's: no AI seats here
    try:
        await bench.service.submit(session_id, user, action, version)
    except GameError as error:  # the clock moved the session on (a window closed): again
        if error.reason is not Reason.STALE_VERSION:
            raise
        return session_id, False
    return session_id, True


def rss_mb() -> float:
    """This process's resident set now, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def measure(
    sessions: int, early: float, seconds: float, directory: Path, trace: int = 0
) -> str:
    if trace:
        tracemalloc.start(trace)
    storage = await open_storage(directory / "bench.db")
    seeds = itertools.count(1)
    service = SessionService(
        storage.sessions, GAMES, *AI_ARGS, ai_delay=0, seed_source=lambda: next(seeds)
    )
    bench = Bench(service, Unchecked(), "thegame", 2, 1)  # type: ignore[arg-type]
    ids: list[str] = []
    for start in range(0, sessions, 100):
        chunk = range(start, min(start + 100, sessions))
        ids += await asyncio.gather(*(bench.new_session(10_000 + c) for c in chunk))
    moves = 0
    end = time.perf_counter() + seconds

    async def player(session_id: str) -> None:
        nonlocal moves
        while time.perf_counter() < end:
            session_id, committed = await move(bench, session_id)
            moves += committed

    players = asyncio.gather(*(player(s) for s in ids))
    await asyncio.sleep(early)
    first = rss_mb()
    traced = tracemalloc.take_snapshot() if trace else None
    await players
    last = rss_mb()
    grew = "" if traced is None else _grown(traced, tracemalloc.take_snapshot())
    await service.close()
    await storage.close()
    growth = (last - first) / first * 100
    return (
        f"memory sessions={sessions} rss_mb_{early:g}s={first:.0f} "
        f"rss_mb_{seconds:g}s={last:.0f} growth_pct={growth:.1f} moves={moves}{grew}"
    )


def _grown(early: tracemalloc.Snapshot, late: tracemalloc.Snapshot, top: int = 15) -> str:
    """The tracebacks whose live allocations grew most from `early` to `late`."""
    lines = []
    for stat in late.compare_to(early, "traceback")[:top]:
        frames = " <- ".join(
            f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}" for f in reversed(stat.traceback)
        )
        lines.append(f"\n  {stat.size_diff / 1e6:+8.2f} MB {stat.count_diff:+9d} blocks  {frames}")
    return "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10_000, 50_000])
    parser.add_argument("--early", type=float, default=5.0, help="seconds of play, first figure")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play in all")
    parser.add_argument("--dir", default=None, help="where the temporary database goes")
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="checkout whose code runs")
    parser.add_argument("--trace", type=int, default=0, help="tracemalloc frames (slow)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:  # one size, in this process
        with tempfile.TemporaryDirectory(prefix="bench-memory-", dir=args.dir) as tmp:
            tmpdir = Path(tmp)
            line = asyncio.run(
                measure(args.sessions[0], args.early, args.seconds, tmpdir, args.trace)
            )
        print(line, flush=True)
        return
    for sessions in args.sessions:
        command = [sys.executable, __file__, "--one", "--sessions", str(sessions)]
        command += ["--early", str(args.early), "--seconds", str(args.seconds)]
        command += ["--bot-root", str(args.bot_root), "--trace", str(args.trace)]
        if args.dir is not None:
            command += ["--dir", args.dir]
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
