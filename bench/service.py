"""Moves through the real session service and store, over a temporary database.

    python bench/service.py --sessions 1000 --seconds 10 --mode closed
    python bench/service.py --sessions 1000 --seconds 10 --mode open --rate 1000
    python bench/service.py ... --database-url postgresql://user@host/postgres
    python bench/service.py ... --bot-root ../old-checkout

SQLite by default (a temporary file); with `--database-url`, PostgreSQL: the bench creates a
temporary database on that server (the URL's own database is only used to create and drop
it, so its role needs CREATEDB) and drops it at the end. `--bot-root DIR` runs the service and
store of another checkout (an older commit, to compare) under this bench.

`sessions` games of The Game (two players each) are played with random legal moves. Closed
loop: one move in flight per session, the next sent as soon as the last is acknowledged. Open
loop: moves are sent at `rate` a second to idle sessions, whatever the answers do, and each
latency counts from the moment its move was due, so a stall shows in full. Every acknowledged
move is checked in the database (its log row, on a connection of its own) after its answer.
`raw_commits_per_s` is the rate, in the same run, of single-row INSERT+COMMIT transactions on
a file with the same settings (on PostgreSQL: on one connection to the same database): the
floor a store doing one transaction per move can reach.

Prints one line:
mode=… sessions=N moves=M moves_per_s=X p50_ms=A p99_ms=B max_ms=C synchronous=S
raw_commits_per_s=R
(on PostgreSQL, `backend=postgresql` is added and S is the server's synchronous_commit, with
its fsync setting: `on/fsync=on`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

ROOT = Path(__file__).resolve().parents[1]


def bot_root(argv: list[str]) -> Path:
    """`--bot-root DIR`, read before the service and store are imported: the checkout they
    come from (this one by default)."""
    if "--bot-root" in argv[:-1]:
        return Path(argv[argv.index("--bot-root") + 1]).resolve()
    return ROOT


sys.path[:0] = list(dict.fromkeys([str(bot_root(sys.argv)), str(ROOT)]))

from bench.figures import percentile  # noqa: E402
from games import registry  # noqa: E402
from games.engine import Status  # noqa: E402
from games.thegame.models import PILES, EndTurn, Play  # noqa: E402
from games.thegame.rules import can_place  # noqa: E402
from storage import Storage, open_storage  # noqa: E402

# An older tree (`--bot-root`) may have its service in games.engine and no AIS: the same bench
# measures it.
try:
    from runtime import SessionService
except ImportError:
    from games.engine import SessionService  # type: ignore[attr-defined,no-redef]
GAMES = registry.GAMES
AI_ARGS = (registry.AIS,) if hasattr(registry, "AIS") else ()

GAME = "thegame"
LEVELS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


async def synchronous_of(storage: Storage) -> str:
    """The store's `synchronous` level (read from its connection on a store that predates the
    setting, so the same bench measures the code before and after it)."""
    level = getattr(storage.db, "synchronous", None)
    if level is not None:
        return str(level)
    # Only an older tree's store (aiosqlite, one connection) gets here: not today's Database.
    async with storage.db.conn.execute("PRAGMA synchronous") as cursor:  # type: ignore[attr-defined]
        row = await cursor.fetchone()
    return LEVELS[int(row[0])]


async def raw_commits_per_s(directory: Path, synchronous: str, seconds: float = 2.0) -> float:
    """Single-row INSERT+COMMIT transactions per second on a fresh file, same settings."""
    async with aiosqlite.connect(directory / "raw.db", isolation_level=None) as conn:
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("INSERT INTO t (payload) VALUES (?)", ('{"kind":"play","card":42}',))
            await conn.execute("COMMIT")
            done += 1
        return done / (time.perf_counter() - start)


async def pg_synchronous(url: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        commit = await conn.fetchval("SHOW synchronous_commit")
        fsync = await conn.fetchval("SHOW fsync")
    finally:
        await conn.close()
    return f"{commit}/fsync={fsync}"


async def pg_raw_commits_per_s(url: str, seconds: float = 2.0) -> float:
    """Single-row INSERT+COMMIT transactions per second on one connection."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE raw_commits (id BIGSERIAL PRIMARY KEY, payload TEXT)")
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO raw_commits (payload) VALUES ($1)", '{"kind":"play","card":42}'
                )
            done += 1
        rate = done / (time.perf_counter() - start)
        await conn.execute("DROP TABLE raw_commits")
    finally:
        await conn.close()
    return rate


@contextlib.asynccontextmanager
async def temporary_database(url: str) -> AsyncIterator[str]:
    """A new database on the server of `url` (created through the URL's own database), the
    URL of it, dropped afterwards."""
    import asyncpg

    name = f"bench_service_{os.getpid()}"
    parts = urlsplit(url)
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


class Verifier:
    """Checks each acknowledged move's log row on a connection of its own."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.items: list[tuple[str, int, Any]] = []
        self.wake = asyncio.Event()
        self.done = False
        self.checked = 0
        self.missing: list[tuple[str, int]] = []
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    def check(self, item: tuple[str, int, Any]) -> None:
        self.items.append(item)
        self.wake.set()

    async def finish(self) -> None:
        self.done = True
        self.wake.set()
        assert self.task is not None
        await self.task

    async def run(self) -> None:
        postgres = self.location.startswith("postgresql://")
        if postgres:
            import asyncpg

            conn: Any = await asyncpg.connect(self.location)
        else:
            conn = await aiosqlite.connect(self.location)
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                while self.items:
                    items, self.items = self.items[:400], self.items[400:]
                    keys = [i[0] for i in items], [i[1] for i in items]
                    if postgres:
                        rows = await conn.fetch(
                            "SELECT a.session_id, a.seq, a.payload FROM "
                            "unnest($1::TEXT[], $2::INTEGER[]) AS k (session_id, seq) "
                            "JOIN actions AS a ON a.session_id = k.session_id AND a.seq = k.seq",
                            *keys,
                        )
                    else:
                        rows = await conn.execute_fetchall(
                            "SELECT a.session_id, a.seq, a.payload FROM actions AS a JOIN "
                            "json_each(?) AS k ON a.session_id = k.value ->> 0 "
                            "AND a.seq = k.value ->> 1",
                            (json.dumps(list(zip(*keys, strict=True))),),
                        )
                    found = {(row[0], row[1]): json.loads(row[2]) for row in rows}
                    for session_id, seq, payload in items:
                        if found.get((session_id, seq)) != payload:
                            self.missing.append((session_id, seq))
                    self.checked += len(items)
                if self.done and not self.items:
                    return
        finally:
            await conn.close()


class Bench:
    def __init__(self, service: SessionService, verifier: Verifier, seed: int) -> None:
        self.service = service
        self.verifier = verifier
        self.rng = random.Random(seed)
        self.rules = GAMES[GAME]
        self.latencies: list[float] = []
        self.ids = itertools.count(1)

    async def new_session(self, channel: int) -> str:
        host, guest = next(self.ids), next(self.ids)
        lobby = await self.service.create(
            GAME,
            guild_id=1,
            channel_id=channel,
            host_id=host,
            host_name=f"u{host}",
            locale="en",
            options={},
        )
        await self.service.join(lobby.id, guest, f"u{guest}")
        await self.service.start(lobby.id, host, 0)
        return lobby.id

    async def move(self, session_id: str) -> str:
        """One random legal move (a finished game is replaced by a rematch); the session id."""
        session = await self.service.get(session_id)
        if session.record.status is not Status.ACTIVE:
            change = await self.service.rematch(session_id, session.record.host_id)
            session = change.session
        state, record = session.state, session.record
        seat = state.turn
        # The legal plays and the end of the turn, as `legal_actions` has them without its
        # signals, but building only the chosen action: the players cost little CPU.
        moves: list[Any] = [
            (card, pile)
            for card in state.hands[seat]
            for pile in range(PILES)
            if can_place(state, card, pile)
        ]
        if state.played_this_turn >= state.minimum:
            moves.append(None)
        choice = self.rng.choice(moves)
        action = EndTurn() if choice is None else Play(card=choice[0], pile=choice[1])
        user = record.seats[seat].user_id
        version = record.version
        await self.service.submit(session.id, user, action, version)
        self.verifier.check((session.id, version + 1, self.rules.dump_action(action)))
        return session.id

    async def closed(self, sessions: list[str], seconds: float) -> float:
        end = time.perf_counter() + seconds

        async def player(session_id: str) -> None:
            while time.perf_counter() < end:
                sent = time.perf_counter()
                session_id = await self.move(session_id)
                self.latencies.append(time.perf_counter() - sent)

        start = time.perf_counter()
        await asyncio.gather(*(player(s) for s in sessions))
        return time.perf_counter() - start

    async def open(self, sessions: list[str], seconds: float, rate: float) -> float:
        idle = list(sessions)
        self.rng.shuffle(idle)
        backlog: list[float] = []
        pending: set[asyncio.Task[None]] = set()

        async def send(session_id: str, due: float) -> None:
            session_id = await self.move(session_id)
            self.latencies.append(time.perf_counter() - due)
            if backlog:  # a move waited for an idle session: it goes now, late
                self.spawn(send(session_id, backlog.pop(0)), pending)
            else:
                idle.append(session_id)

        start = time.perf_counter()
        for n in range(int(seconds * rate)):
            due = start + n / rate
            if (wait := due - time.perf_counter()) > 0:
                await asyncio.sleep(wait)
            if idle:
                self.spawn(send(idle.pop(), due), pending)
            else:
                backlog.append(due)
        while pending:
            await asyncio.gather(*list(pending))
        return time.perf_counter() - start

    @staticmethod
    def spawn(coro: Any, pending: set[asyncio.Task[None]]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        pending.add(task)
        task.add_done_callback(pending.discard)


async def run(args: argparse.Namespace) -> str:
    if args.database_url:
        async with temporary_database(args.database_url) as url:
            return await measure_postgres(args, url)
    with tempfile.TemporaryDirectory(prefix="bench-service-", dir=args.dir) as tmp:
        return await measure(args, Path(tmp))


async def measure(args: argparse.Namespace, directory: Path) -> str:
    path = directory / "bench.db"
    storage = await open_storage(path)
    synchronous = await synchronous_of(storage)
    raw = await raw_commits_per_s(directory, synchronous)
    verifier = Verifier(str(path))
    verifier.start()
    line = await play(args, storage, verifier)
    return f"{line} synchronous={synchronous} raw_commits_per_s={raw:.0f}"


async def measure_postgres(args: argparse.Namespace, url: str) -> str:
    storage = await open_storage(url)
    synchronous = await pg_synchronous(url)
    raw = await pg_raw_commits_per_s(url)
    verifier = Verifier(url)
    verifier.start()
    line = await play(args, storage, verifier)
    return f"{line} synchronous={synchronous} raw_commits_per_s={raw:.0f} backend=postgresql"


async def play(args: argparse.Namespace, storage: Storage, verifier: Verifier) -> str:
    """Open the sessions, play the moves, check them; the figures of the summary line."""
    seeds = itertools.count(args.seed)
    service = SessionService(
        storage.sessions, GAMES, *AI_ARGS, ai_delay=0, seed_source=lambda: next(seeds)
    )
    bench = Bench(service, verifier, args.seed)
    sessions: list[str] = []
    for start in range(0, args.sessions, 100):
        chunk = range(start, min(start + 100, args.sessions))
        sessions += await asyncio.gather(*(bench.new_session(10_000 + c) for c in chunk))
    if args.mode == "closed":
        elapsed = await bench.closed(sessions, args.seconds)
    else:
        elapsed = await bench.open(sessions, args.seconds, args.rate)
    await service.close()
    await storage.close()
    await verifier.finish()
    if verifier.missing or verifier.checked != len(bench.latencies):
        raise SystemExit(f"{len(verifier.missing)} acknowledged moves not in the database")
    values = sorted(bench.latencies)
    return (
        f"mode={args.mode} sessions={args.sessions} moves={len(values)} "
        f"moves_per_s={len(values) / elapsed:.0f} p50_ms={percentile(values, 0.5) * 1e3:.1f} "
        f"p99_ms={percentile(values, 0.99) * 1e3:.1f} max_ms={values[-1] * 1e3:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--mode", choices=("closed", "open"), default="closed")
    parser.add_argument("--rate", type=float, default=1000.0, help="moves a second (open loop)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dir", default=None, help="where the temporary database goes (a real disk, not tmpfs)"
    )
    parser.add_argument(
        "--bot-root", type=Path, default=ROOT, help="checkout whose service and store run"
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="postgresql://… of a server to bench PostgreSQL on (a temporary database is made)",
    )
    print(asyncio.run(run(parser.parse_args())), flush=True)


if __name__ == "__main__":
    main()
