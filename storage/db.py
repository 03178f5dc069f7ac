"""The SQLite file: one writer connection with group commit, and reader connections.

Every write is a plain function of a `sqlite3.Connection`. Writes that arrive together share
one `BEGIN IMMEDIATE … COMMIT`, each inside its own SAVEPOINT, so a refused write rolls back
alone while the others commit; each caller is answered only once that COMMIT is on disk. A
batch costs one fsync, whatever its size, and no asyncio lock is held while it runs: a caller
waits for its own batch, never for another session's lock.

Where the batch runs depends on the disk. On a local disk a COMMIT takes a fraction of a
millisecond, less than handing the batch to another thread and back (two wake-ups, and the
writer waiting for the GIL between statements while the loop is busy): the writes of one loop
iteration then commit on the loop's own thread, at the end of it. Where commits are slow (a
network disk), or another process holds the write lock, batches go to the writer thread, so
the loop never waits on a slow fsync or a lock; one mode at a time, so writes keep their order.
The WAL is checkpointed by a reader thread, never inside a COMMIT on the loop.

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
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

from storage.session_store import BatchObserver, Durable

T = TypeVar("T")

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
"""How long a connection waits for another process's write lock before SQLITE_BUSY."""

MAX_BATCH = 512
"""Writes in one group commit at most; the rest go in the next one."""

SLOW_COMMIT_S = 0.002
"""Batches commit on the loop's thread while COMMITs take less than this (a moving average);
above it the disk is slow and they go to the writer thread for `SLOW_DISK_FOR_S`."""

SLOW_DISK_FOR_S = 30.0

COMMIT_WEIGHT = 0.05
"""Weight of the latest COMMIT in the moving average: one stray slow fsync is not a slow disk."""

WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024
"""The WAL is checkpointed once its file grows past this (SQLite's own checkpoint, off here,
would run inside a COMMIT at 1,000 pages, about as much). `journal_size_limit` cuts the file
back to this size whenever the WAL starts over, so its size says when it holds more."""

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


@dataclass(slots=True)
class _Checkpoint:
    loop: asyncio.AbstractEventLoop


_STOP = object()
"""Queued last by `close`: the writer thread ends there."""

Answer = tuple[Durable[object], bool, object]


def _answer(answers: list[Answer]) -> None:
    """Set the futures of a durable batch's writes (on their loop): result or exception."""
    for future, ok, value in answers:
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)  # type: ignore[arg-type]


def _run_batch(conn: sqlite3.Connection, writes: list[Write[object]]) -> list[tuple[bool, object]]:
    """One transaction, a savepoint per write: (True, result) or (False, its exception)."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except Exception as error:
        return [(False, error)] * len(writes)
    return _run_begun(conn, writes)[0]


def _run_begun(
    conn: sqlite3.Connection, writes: list[Write[object]]
) -> tuple[list[tuple[bool, object]], float]:
    """`_run_batch` once its BEGIN IMMEDIATE went through; also how long the COMMIT took."""
    results: list[tuple[bool, object]] = []
    try:
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
        started = time.perf_counter()
        conn.execute("COMMIT")
    except Exception as error:  # COMMIT failed: nothing of the batch is stored
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        return [(False, error)] * len(writes), 0.0
    return results, time.perf_counter() - started


class Database:
    """The writer connection (used by the loop's thread or the writer thread, never both at
    once), the group-commit queues and the readers."""

    backend = "sqlite"

    def __init__(
        self, path: str | Path, *, synchronous: Synchronous = "FULL", readers: int = 2
    ) -> None:
        self.path = Path(path)
        self.synchronous = synchronous
        self._writer = connect(path, synchronous)
        self._writer.execute("PRAGMA wal_autocheckpoint = 0")  # `_checkpoint` does it
        self._writer.execute(f"PRAGMA journal_size_limit = {WAL_CHECKPOINT_BYTES}")
        self._wal = Path(f"{path}-wal")
        self._queue: queue.SimpleQueue[_Pending | _Checkpoint | object] = queue.SimpleQueue()
        self._write_thread = threading.Thread(
            target=self._write_batches, name="db-writer", daemon=True
        )
        self._write_thread.start()
        self._on_loop: list[_Pending] = []
        """Writes to commit at the end of this loop iteration."""
        self._in_thread = 0
        """Writes (and a checkpoint) handed to the writer thread and not done yet: while any
        is, the next writes go there too (behind them), so they commit in the order they were
        submitted and the connection is never used from two threads at once."""
        self._commit_s = 0.0
        """Moving average of the loop's COMMITs."""
        self._slow_until = 0.0
        self._checkpoint_queued = False
        self._read_threads = ThreadPoolExecutor(readers, thread_name_prefix="db-reader")
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._trace: Callable[[str], None] | None = None
        self._closed = False
        self.on_commit: BatchObserver | None = None

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
        pending = _Pending(write, future, loop)  # type: ignore[arg-type]
        if self._in_thread or time.monotonic() < self._slow_until:
            self._to_thread([pending])
        else:
            if not self._on_loop:
                loop.call_soon(self._commit_on_loop)
            self._on_loop.append(pending)
        return future

    async def write(self, write: Write[T]) -> T:
        """Run `write(conn)` in the next group commit; its result once the COMMIT is durable."""
        return await self.submit(write)

    def _commit_on_loop(self) -> None:
        """Commit the writes of the last loop iteration, here on the loop's thread."""
        batch, self._on_loop = self._on_loop[:MAX_BATCH], self._on_loop[MAX_BATCH:]
        if not batch:
            return
        if self._on_loop:
            batch[0].loop.call_soon(self._commit_on_loop)
        if self._in_thread:  # the writer thread has earlier writes: these go behind them
            self._to_thread(batch)
            return
        conn = self._writer
        try:
            # Never wait for another process's write lock here: the writer thread will.
            conn.execute("PRAGMA busy_timeout = 0")
            try:
                conn.execute("BEGIN IMMEDIATE")
            finally:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        except sqlite3.OperationalError:
            self._to_thread(batch)
            return
        started = time.perf_counter()
        results, commit_s = _run_begun(conn, [p.write for p in batch])
        self._commit_s += COMMIT_WEIGHT * (commit_s - self._commit_s)
        if self._commit_s > SLOW_COMMIT_S:
            self._commit_s = 0.0  # measured afresh when the loop tries again
            self._slow_until = time.monotonic() + SLOW_DISK_FOR_S
        _answer([(p.future, ok, value) for p, (ok, value) in zip(batch, results, strict=True)])
        self._committed(len(batch), time.perf_counter() - started)

    def _to_thread(self, batch: list[_Pending]) -> None:
        self._in_thread += len(batch)
        for pending in batch:
            self._queue.put(pending)

    def _answer_from_thread(self, answers: list[Answer], seconds: float) -> None:
        self._in_thread -= len(answers)
        _answer(answers)
        self._committed(len(answers), seconds)

    def _committed(self, size: int, seconds: float) -> None:
        """After a batch: tell `on_commit`; once the WAL is past `WAL_CHECKPOINT_BYTES`, have
        the writer thread checkpoint it (the writes meanwhile queue behind it there: the loop
        never waits)."""
        if self.on_commit is not None:
            self.on_commit(size, seconds)
        if self._checkpoint_queued or self._closed:
            return
        with contextlib.suppress(FileNotFoundError):
            if self._wal.stat().st_size > WAL_CHECKPOINT_BYTES:
                self._checkpoint_queued = True
                self._in_thread += 1
                self._queue.put(_Checkpoint(asyncio.get_running_loop()))

    def _checkpointed(self) -> None:
        self._in_thread -= 1
        self._checkpoint_queued = False

    def _write_batches(self) -> None:
        """The writer thread: commit whatever is queued, batch after batch, and checkpoint when
        asked, until `_STOP`."""
        carried: object | None = None
        while True:
            item = carried if carried is not None else self._queue.get()
            carried = None
            if isinstance(item, _Checkpoint):
                self._checkpoint(item.loop)
                continue
            if not isinstance(item, _Pending):
                return
            batch = [item]
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if not isinstance(item, _Pending):
                    carried = item
                    break
                batch.append(item)
            started = time.perf_counter()
            results = _run_batch(self._writer, [p.write for p in batch])
            seconds = time.perf_counter() - started
            by_loop: dict[asyncio.AbstractEventLoop, list[Answer]] = {}
            for pending, (ok, value) in zip(batch, results, strict=True):
                by_loop.setdefault(pending.loop, []).append((pending.future, ok, value))
            for loop, answers in by_loop.items():
                with contextlib.suppress(RuntimeError):  # that loop closed meanwhile
                    loop.call_soon_threadsafe(self._answer_from_thread, answers, seconds)

    def _checkpoint(self, loop: asyncio.AbstractEventLoop) -> None:
        # PASSIVE: copies what no reader still needs, waiting for no one. Run between two
        # batches of this connection, so the next write finds all of it copied and starts the
        # WAL over (a checkpoint racing the writes would never catch up with them).
        try:
            self._writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            log.warning("WAL checkpoint failed", exc_info=True)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._checkpointed)

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
        while self._on_loop:
            self._commit_on_loop()
        self._queue.put(_STOP)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._shutdown)

    def _shutdown(self) -> None:
        self._write_thread.join()
        self._read_threads.shutdown(wait=True)
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
        self._writer.close()
