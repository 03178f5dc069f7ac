"""The SQLite file: a writer thread with group commit, readers through aiosqlite, and the WAL
kept small.

The group commit is `storage.database`'s; here are its connections. The writer is a plain
sqlite3 connection on a thread of its own (`Writer`): `submit` hands a write to that thread,
which takes every write queued meanwhile as one batch, runs all of it there (BEGIN, the
version checks, the statements, COMMIT: each call of its `ThreadConn` returns at once), and
hands the answers back to the loop in one callback. A batch thus starts as soon as the writer
is free, whatever the loop is doing, and costs the loop one turn, however many statements it
runs; through aiosqlite each statement was a hop to its thread and back through the loop,
and on a loaded machine each hop waited for the loop to get the CPU (bench/service.py's open
loop). A write is a function of its connection awaiting nothing else: it runs on the writer's
thread, where there is no loop. Each reader is an aiosqlite connection, on a thread of its
own too.

`synchronous=FULL` (the default) makes a COMMIT wait until the WAL is on stable storage: an
acknowledged write survives power loss. `NORMAL` syncs only at checkpoints: faster, still safe
against a crash of the process, but the last acknowledged writes may vanish if the machine
loses power.

No COMMIT checkpoints the WAL (SQLite's own checkpoint would run inside one, at 1,000 pages,
and every caller of that batch would wait for it). Once the WAL is past
`WAL_CHECKPOINT_BYTES`, a connection of its own copies it into the file beside the writes, on
a thread of its own (PASSIVE: waiting for no one); then the writer copies the little written
meanwhile between two batches, so the next batch starts the WAL over, and
`journal_size_limit` cuts its file back. Should the writes outrun that copy, they wait for it
(`WAL_BEHIND`).

`lock` holds the file for one process's life (`python -m bot`), so that two bots never drive
the same games: a lock file beside it, `flock`ed, which SQLite's own locks never see (a
reader such as `storage.migrate` is not stopped by it).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from games.engine.store import Durable
from storage.database import MAX_BATCH, Database, Grouped, Outcome
from storage.sql import SQLITE, Write
from storage.sqliteconn import SqliteConn, ThreadConn, run_here

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
"""How long a connection waits for another process's write lock before SQLITE_BUSY."""

READERS = 2
"""Reader connections at most, each opened on first need."""

WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024
"""The WAL is checkpointed once its file grows past this, and cut back to it once it starts
over."""

WAL_BEHIND = 4
"""Once the WAL grows past this many times the size above while it is being copied (the writes
outrun the copy), the next batch waits for the copy to end: the WAL stays bounded."""

Synchronous = Literal["FULL", "NORMAL"]


def open_connection(path: str | Path, synchronous: Synchronous = "FULL") -> sqlite3.Connection:
    """Open `path` (creating its directory) in WAL mode with foreign keys enforced, for use
    on any one thread at a time.

    Autocommit (`isolation_level=None`): only explicit BEGINs group statements, so every
    write's atomicity is visible in the code.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        # busy_timeout first, so switching to WAL waits for other openers too.
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        [mode] = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"could not switch {path} to WAL: {mode}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
    except BaseException:
        conn.close()
        raise
    return conn


def open_writer(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    """The writer's connection: it never checkpoints in a COMMIT (see the module's doc)."""
    conn = open_connection(path, synchronous)
    try:
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute(f"PRAGMA journal_size_limit = {WAL_CHECKPOINT_BYTES}")
    except BaseException:
        conn.close()
        raise
    return conn


async def connect(path: str | Path, synchronous: Synchronous = "FULL") -> aiosqlite.Connection:
    """`open_connection` as an aiosqlite connection (opened on its thread)."""
    # A file that cannot be opened fails here, where the caller sees why: inside aiosqlite's
    # thread it would fail once that thread has been told to stop, which it reports to a loop
    # that may have closed by then (a traceback at exit).
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o644))
    # What aiosqlite.connect does, with this module's connector.
    return await aiosqlite.Connection(functools.partial(open_connection, path, synchronous), 64)


class FileInUse(Exception):
    """Another process holds the database file (`lock`)."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path} is used by another process ({holder or 'unknown'})")
        self.path = path
        self.holder = holder


def lock(path: Path) -> int:
    """Hold `path` for this process until the returned descriptor is closed (or the process
    ends, however it ends); FileInUse if another process holds it."""
    name = Path(f"{path}.lock")
    fd = os.open(name, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 200, 0).decode(errors="replace").strip()
        os.close(fd)
        raise FileInUse(path, holder) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()}\n".encode(), 0)
    return fd


class SqliteDatabase(Database):
    """The writer thread, the readers and the checkpoints of one SQLite file."""

    backend = "sqlite"
    dialect = SQLITE

    def __init__(
        self,
        path: Path,
        writer: sqlite3.Connection,
        *,
        synchronous: Synchronous = "FULL",
        readers: int = READERS,
    ) -> None:
        super().__init__()
        self.path = path
        self.synchronous = synchronous
        self._write_conn = ThreadConn(writer)
        self._inbox: queue.SimpleQueue[tuple[Write[Any] | Grouped | None, Durable[Any]]] = (
            queue.SimpleQueue()
        )
        self._readers: list[SqliteConn] = []
        self._most_readers = readers
        self._opening = 0
        self._idle: asyncio.Queue[SqliteConn] = asyncio.Queue()
        self._wal = Path(f"{path}-wal")
        self._checkpointer: sqlite3.Connection | None = None
        self._copier: threading.Thread | None = None
        self._tail = False
        """The copier is done: the writer copies what was written meanwhile."""
        self._trace: Callable[[str], None] | None = None
        self._lock: int | None = None
        threading.Thread(target=self._write_batches, name=f"writer {path}", daemon=True).start()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        readers: int = READERS,
        exclusive: bool = False,
    ) -> SqliteDatabase:
        """Open the file; with `exclusive`, also hold it for this process (`lock`)."""
        path = Path(path)
        writer = await asyncio.to_thread(open_writer, path, synchronous)
        try:
            held = lock(path) if exclusive else None
        except BaseException:
            writer.close()
            raise
        db = cls(path, writer, synchronous=synchronous, readers=readers)
        db._lock = held
        return db

    # The writer's thread --------------------------------------------------------------------

    def _queue_write(self, write: Write[Any] | Grouped, future: Durable[Any]) -> None:
        self._inbox.put((write, future))

    async def _writer(self) -> ThreadConn:
        return self._write_conn

    def _write_batches(self) -> None:
        """The writer's thread: every write queued while the last batch ran is the next batch
        (`MAX_BATCH` at most), run to its COMMIT here, its callers answered on their loop."""
        batch: list[tuple[Write[Any] | Grouped, Durable[Any]]] = []
        while True:
            write, future = self._inbox.get()
            while write is not None:
                batch.append((write, future))
                if len(batch) == MAX_BATCH:
                    break
                try:
                    write, future = self._inbox.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._commit(batch)
                batch = []
                self._between_batches()
            if write is None:  # `close`: every write queued before it has run
                self._close_writer()
                _call_in(future.get_loop(), future.set_result, None)
                return

    def _commit(self, batch: list[tuple[Write[Any] | Grouped, Durable[Any]]]) -> None:
        started = time.perf_counter()
        try:
            outcomes: list[Outcome] = run_here(self._batch([write for write, _ in batch]))
        except Exception as error:  # a fault of the writer itself: its callers are told
            log.exception("a batch of writes failed")
            outcomes = [(False, error)] * len(batch)
        seconds = time.perf_counter() - started
        by_loop: dict[asyncio.AbstractEventLoop, list[int]] = {}
        for i, (_, future) in enumerate(batch):
            by_loop.setdefault(future.get_loop(), []).append(i)
        for loop, indexes in by_loop.items():
            futures = [batch[i][1] for i in indexes]
            _call_in(loop, self._answer, futures, [outcomes[i] for i in indexes], seconds)

    def _between_batches(self) -> None:
        try:
            size = self._wal.stat().st_size
        except FileNotFoundError:
            return
        copier = self._copier
        copying = copier is not None and copier.is_alive()
        if copier is not None and copying and size > WAL_BEHIND * WAL_CHECKPOINT_BYTES:
            copier.join()  # the writes outran the copy: they wait for it
            copying = False
        if self._tail:
            # Copy the rest here, between two batches: the next batch starts the WAL over.
            self._tail = False
            try:
                self._write_conn.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error:
                log.warning("WAL checkpoint failed", exc_info=True)
        elif not copying and size > WAL_CHECKPOINT_BYTES:
            self._copier = threading.Thread(target=self._copy_wal, name=f"checkpoint {self.path}")
            self._copier.start()

    def _copy_wal(self) -> None:
        """Copy the WAL into the file beside the writes, then have the writer finish it."""
        try:
            if self._checkpointer is None:
                self._checkpointer = open_connection(self.path, self.synchronous)
            self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            log.warning("WAL checkpoint failed", exc_info=True)
            return
        self._tail = True

    def _close_writer(self) -> None:
        if self._copier is not None:
            self._copier.join()
        for conn in (self._checkpointer, self._write_conn.conn):
            if conn is not None:
                conn.close()

    # Readers --------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _reader(self) -> AsyncIterator[SqliteConn]:
        if self._idle.empty() and len(self._readers) + self._opening < self._most_readers:
            self._opening += 1
            try:
                conn = SqliteConn(await connect(self.path, self.synchronous))
                if self._trace is not None:
                    await conn.conn.set_trace_callback(self._trace)
            finally:
                self._opening -= 1
            self._readers.append(conn)
        else:
            conn = await self._idle.get()
        try:
            yield conn
        finally:
            self._idle.put_nowait(conn)

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Hand every statement any connection runs to `callback` (None: stop); for tests that
        check which SQL a read runs. (The writer's statements reach it on the writer's
        thread.)"""
        self._trace = callback
        self._write_conn.conn.set_trace_callback(callback)
        for conn in self._readers:
            await conn.conn.set_trace_callback(callback)

    async def _stop_writing(self) -> None:
        self._closed = True  # no write is taken from now on
        stopped: Durable[None] = Durable(loop=asyncio.get_running_loop())
        self._inbox.put((None, stopped))
        await stopped  # the writes queued before it committed, the writer closed

    async def _close_connections(self) -> None:
        for conn in self._readers:
            await conn.conn.close()
        if self._lock is not None:
            os.close(self._lock)


def _call_in(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # that loop closed meanwhile
        loop.call_soon_threadsafe(callback, *args)
