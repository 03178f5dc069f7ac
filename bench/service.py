"""Moves through the real session service and store, over a temporary database.

    python bench/service.py --sessions 1000 --seconds 10 --mode closed
    python bench/service.py --sessions 1000 --seconds 10 --mode open --rate 1000

`sessions` games of The Game (two players each) are played with random legal moves. Closed
loop: one move in flight per session, the next sent as soon as the last is acknowledged. Open
loop: moves are sent at `rate` a second to idle sessions, whatever the answers do, and each
latency counts from the moment its move was due, so a stall shows in full. Every acknowledged
move is checked in the database (its log row, on a connection of its own) after its answer.
`raw_commits_per_s` is the rate, in the same run, of single-row INSERT+COMMIT transactions on
a file with the same settings: the floor a store doing one transaction per move can reach.

Prints one line:
mode=… sessions=N moves=M moves_per_s=X p50_ms=A p99_ms=B max_ms=C synchronous=S
raw_commits_per_s=R
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import queue
import random
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import SessionService, Status  # noqa: E402
from games.registry import GAMES  # noqa: E402
from games.thegame.models import PILES, EndTurn, Play  # noqa: E402
from games.thegame.rules import can_place  # noqa: E402
from storage import Storage, open_storage  # noqa: E402

GAME = "thegame"
LEVELS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


async def synchronous_of(storage: Storage) -> str:
    """The store's `synchronous` level (read from its connection on a store that predates the
    setting, so the same bench measures the code before and after it)."""
    level = getattr(storage.db, "synchronous", None)
    if level is not None:
        return str(level)
    async with storage.db.conn.execute("PRAGMA synchronous") as cursor:  # type: ignore[attr-defined]
        row = await cursor.fetchone()
    return LEVELS[int(row[0])]


def raw_commits_per_s(directory: Path, synchronous: str, seconds: float = 2.0) -> float:
    """Single-row INSERT+COMMIT transactions per second on a fresh file, same settings."""
    conn = sqlite3.connect(directory / "raw.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (payload) VALUES (?)", ('{"kind":"play","card":42}',))
        conn.execute("COMMIT")
        done += 1
    rate = done / (time.perf_counter() - start)
    conn.close()
    return rate


class Verifier(threading.Thread):
    """Checks each acknowledged move's log row on a connection of its own."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.todo: queue.SimpleQueue[tuple[str, int, Any] | None] = queue.SimpleQueue()
        self.checked = 0
        self.missing: list[tuple[str, int]] = []

    def run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        done = False
        while not done:
            batch = [self.todo.get()]
            while not self.todo.empty() and len(batch) < 400:
                batch.append(self.todo.get())
            if batch[-1] is None:
                done = True
                batch.pop()
            items = [item for item in batch if item is not None]
            if not items:
                continue
            keys = ", ".join("(?, ?)" for _ in items)
            rows = conn.execute(
                f"SELECT a.session_id, a.seq, a.payload FROM (VALUES {keys}) AS k "
                "JOIN actions AS a ON a.session_id = k.column1 AND a.seq = k.column2",
                [value for session_id, seq, _ in items for value in (session_id, seq)],
            ).fetchall()
            found = {(row[0], row[1]): json.loads(row[2]) for row in rows}
            for session_id, seq, payload in items:
                if found.get((session_id, seq)) != payload:
                    self.missing.append((session_id, seq))
            self.checked += len(items)
        conn.close()


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
        await self.service.submit(session.id, user, action, version)  # type: ignore[arg-type]
        self.verifier.todo.put((session.id, version + 1, self.rules.dump_action(action)))
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


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


async def run(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="bench-service-", dir=args.dir) as tmp:
        return await measure(args, Path(tmp))


async def measure(args: argparse.Namespace, directory: Path) -> str:
    path = directory / "bench.db"
    storage = await open_storage(path)
    synchronous = await synchronous_of(storage)
    raw = raw_commits_per_s(directory, synchronous)
    verifier = Verifier(path)
    verifier.start()
    seeds = itertools.count(args.seed)
    service = SessionService(storage.sessions, GAMES, ai_delay=0, seed_source=lambda: next(seeds))
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
    verifier.todo.put(None)
    verifier.join()
    if verifier.missing or verifier.checked != len(bench.latencies):
        raise SystemExit(f"{len(verifier.missing)} acknowledged moves not in the database")
    values = sorted(bench.latencies)
    return (
        f"mode={args.mode} sessions={args.sessions} moves={len(values)} "
        f"moves_per_s={len(values) / elapsed:.0f} p50_ms={percentile(values, 0.5) * 1e3:.1f} "
        f"p99_ms={percentile(values, 0.99) * 1e3:.1f} max_ms={values[-1] * 1e3:.1f} "
        f"synchronous={synchronous} raw_commits_per_s={raw:.0f}"
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
    print(asyncio.run(run(parser.parse_args())), flush=True)


if __name__ == "__main__":
    main()
