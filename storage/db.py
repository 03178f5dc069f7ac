"""The SQLite file: one writer connection with group commit, and reader connections.

Every write is a plain function of a `sqlite3.Connection`, run on the writer's own thread.
Writes that arrive together share one `BEGIN IMMEDIATE … COMMIT`, each inside its own
SAVEPOINT, so a refused write rolls back alone while the others commit; each caller is
answered only once that COMMIT is on disk. A batch costs one fsync, whatever its size, and no
asyncio lock is held while it runs: a caller waits for its own batch, never for another
session's lock. The writer thread takes writes straight from a thread-safe queue and answers
their futures itself, so the next batch starts the moment a COMMIT returns, and a busy event
loop delays neither (it only wakes each caller once its write is durable).

Reads are functions too, each run in one read transaction (a consistent snapshot) on a reader
connection of its own thread, so a load never queues behind a commit.

`synchronous=FULL` (the default) makes a COMMIT wait until the WAL is on stable storage: an
acknowledged write survives power loss. `NORMAL` syncs only at checkpoints: faster, still safe
against a crash of the process, but the last acknowledged writes may vanish if the machine
loses power.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

from games.engine.store import Durable

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000
"""How long a connection waits for another process's write lock before SQLITE_BUSY."""

MAX_BATCH = 512
"""Writes in one group commit at most; the rest go in the next one."""

Synchronous = Literal["FULL", "NORMAL"]

Write = Callable[[sqlite3.Connection], T]


def connect(path: str | Path, synchronous: Synchronous = "FULL") -> sqlite3.Connection:
    """Open `path` (creating its directory) in WAL mode with foreign keys enforced.

    Autocommit (`isolation_level=None`): only explicit BEGINs group statements, so every
    write's atomicity is visible in the code.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        # busy_timeout first, so switching to WAL waits for other openers too.
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raise RuntimeError(f"could not switch {path} to WAL: {mode and mode[0]}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
    except BaseException:
        conn.close()
        raise
    return conn


@dataclass(slots=True)
class _Pending:
    write: Write[object]
    future: Durable[object]
    loop: asyncio.AbstractEventLoop


Answer = tuple[Durable[object], bool, object]


def _answer(answers: list[Answer]) -> None:
    """Set the futures of a durable batch's writes (on their loop): result or exception."""
    for future, ok, value in answers:
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)  # type: ignore[arg-type]


def _run_batch(
    conn: sqlite3.Connection, writes: list[Write[object]]
) -> list[tuple[bool, object]]:
    """One transaction, a savepoint per write: (True, result) or (False, its exception)."""
    results: list[tuple[bool, object]] = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        for write in writes:
            conn.execute("SAVEPOINT w")
            try:
                result = write(conn)
            except Exception as error:
                conn.execute("ROLLBACK TO w")
                conn.execute("RELEASE w")
                results.append((False, error))
            else:
                conn.execute("RELEASE w")
                results.append((True, result))
        conn.execute("COMMIT")
    except Exception as error:  # BEGIN or COMMIT failed: nothing of the batch is stored
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        return [(False, error)] * len(writes)
    return results


class Database:
    """The writer (a thread, its connection and the group-commit queue) and the readers."""

    backend = "sqlite"

    def __init__(
        self, path: str | Path, *, synchronous: Synchronous = "FULL", readers: int = 2
    ) -> None:
        self.path = Path(path)
        self.synchronous = synchronous
        self._writer = connect(path, synchronous)
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._write_thread = threading.Thread(
            target=self._write_batches, name="db-writer", daemon=True
        )
        self._write_thread.start()
        self._read_threads = ThreadPoolExecutor(readers, thread_name_prefix="db-reader")
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._trace: Callable[[str], None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: Synchronous = "FULL") -> Database:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: cls(path, synchronous=synchronous))

    # Writing --------------------------------------------------------------------------------

    def submit(self, write: Write[T]) -> Durable[T]:
        """Queue `write(conn)` for the next group commit: a future of its result, set once the
        COMMIT is durable (or of the exception it raised, which rolled back its own savepoint
        only). A queued write always runs: its awaiter cannot cancel it (`Durable`)."""
        if self._closed:
            raise RuntimeError("the database is closed")
        loop = asyncio.get_running_loop()
        future: Durable[T] = Durable(loop=loop)
        self._queue.put(_Pending(write, future, loop))  # type: ignore[arg-type]
        return future

    async def write(self, write: Write[T]) -> T:
        """Run `write(conn)` in the next group commit; its result once the COMMIT is durable."""
        return await self.submit(write)

    def _write_batches(self) -> None:
        """The writer thread: commit whatever is queued, batch after batch, until `None`."""
        while True:
            batch: list[_Pending] = []
            item = self._queue.get()
            while item is not None:
                batch.append(item)
                if len(batch) == MAX_BATCH:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch:
                results = _run_batch(self._writer, [p.write for p in batch])
                by_loop: dict[asyncio.AbstractEventLoop, list[Answer]] = {}
                for pending, (ok, value) in zip(batch, results, strict=True):
                    by_loop.setdefault(pending.loop, []).append((pending.future, ok, value))
                for loop, answers in by_loop.items():
                    with contextlib.suppress(RuntimeError):  # that loop closed meanwhile
                        loop.call_soon_threadsafe(_answer, answers)
            if item is None:
                return

    # Reading --------------------------------------------------------------------------------

    def _reader(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = connect(self.path, self.synchronous)
            conn.set_trace_callback(self._trace)
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def _read(self, read: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._reader()
        conn.execute("BEGIN")
        try:
            return read(conn)
        finally:
            conn.execute("COMMIT")

    async def read(self, read: Callable[[sqlite3.Connection], T]) -> T:
        """Run `read(conn)` in one read transaction: its SELECTs see one snapshot of the file."""
        if self._closed:
            raise RuntimeError("the database is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._read_threads, self._read, read)

    def trace(self, callback: Callable[[str], None] | None) -> None:
        """Hand every statement any connection runs to `callback` (None: stop); for tests that
        check which SQL a read runs."""
        self._trace = callback
        with self._readers_lock:
            connections = [self._writer, *self._readers]
        for conn in connections:
            conn.set_trace_callback(callback)

    # Closing --------------------------------------------------------------------------------

    async def close(self) -> None:
        """Commit what is queued, then close every connection."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._shutdown)

    def _shutdown(self) -> None:
        self._write_thread.join()
        self._read_threads.shutdown(wait=True)
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
        self._writer.close()
