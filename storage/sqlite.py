"""The SQLite file, through aiosqlite: one writer connection, readers, and the WAL kept small.

The group commit is `storage.database`'s; here are its connections. Each aiosqlite connection
runs its statements on a thread of its own, in the order they were handed to it; each call
costs a turn of the event loop to come back (see `storage.moves`).

`synchronous=FULL` (the default) makes a COMMIT wait until the WAL is on stable storage: an
acknowledged write survives power loss. `NORMAL` syncs only at checkpoints: faster, still safe
against a crash of the process, but the last acknowledged writes may vanish if the machine
loses power.

No COMMIT checkpoints the WAL (SQLite's own checkpoint would run inside one, at 1,000 pages,
and every caller of that batch would wait for it). Once the WAL is past
`WAL_CHECKPOINT_BYTES`, a connection of its own copies it into the file beside the writes
(PASSIVE: waiting for no one); then the writer copies the little written meanwhile between two
batches, so the next batch starts the WAL over, and `journal_size_limit` cuts its file back.
Should the writes outrun that copy, they wait for it (`WAL_BEHIND`).

`lock` holds the file for one process's life (`python -m bot`), so that two bots never drive
the same games: a lock file beside it, `flock`ed, which SQLite's own locks never see (a
reader such as `storage.migrate` is not stopped by it).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from storage.database import Database
from storage.sql import SQLITE, Row, qmarks

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

WRITER_CACHE_KIB = 16 * 1024
"""The writer's page cache (SQLite's default is 2,000 KiB: 500 pages of 4 KiB). A batch of
`MAX_BATCH` moves dirties a page or two a move (its log's leaf, its session's row) and a new
session several: past the cache, SQLite spilled dirty pages into the WAL before the COMMIT, and
a page written twice then made it read back and rewrite the header of every frame after it (its
checksum); the leaves the next batch needed were read again from the file. Measured with
bench/service.py (The Game, 1,000 sessions): the writer's reads went from 2 a move to 0.3, its
writes from 3.6 calls a move to 2.8. Taken as used, up to this size."""

Synchronous = Literal["FULL", "NORMAL"]

SWITCH_INTERVAL = 0.0005
"""Seconds the interpreter lets a thread hold the GIL while another waits for it (Python's
default 5 ms). Each aiosqlite connection runs its statements on a thread that takes the GIL
back after every SQLite call; while the event loop is busy, each of those waits up to this
interval, and a batch makes several. Set once a store is opened: measured with
bench/service.py and bench/clicks.py, 0.5 ms cut the open loop's p99 by about a quarter and
the clicks' p99 by a third, the closed loop a little faster too."""


class SqliteConn:
    """An aiosqlite connection as a `storage.sql.Conn`."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._sql: dict[str, str] = {}

    def _q(self, sql: str) -> str:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = qmarks(sql)
        return text

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self.conn.execute(self._q(sql), args)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(self._q(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.conn.execute_fetchall(self._q(sql), args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]

    async def script(self, sql: str) -> None:
        await self.conn.executescript(sql)


async def connect(path: str | Path, synchronous: Synchronous = "FULL") -> aiosqlite.Connection:
    """Open `path` (creating its directory) in WAL mode with foreign keys enforced.

    Autocommit (`isolation_level=None`): only explicit BEGINs group statements, so every
    write's atomicity is visible in the code.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # A file that cannot be opened fails here, where the caller sees why: inside aiosqlite's
    # thread it would fail once that thread has been told to stop, which it reports to a loop
    # that may have closed by then (a traceback at exit).
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o644))
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        # busy_timeout first, so switching to WAL waits for other openers too.
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        [mode] = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
        if str(mode[0]).lower() != "wal":
            raise aiosqlite.OperationalError(f"could not switch {path} to WAL: {mode[0]}")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
    except BaseException:
        await conn.close()
        raise
    return conn


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
    """The writer, the readers and the checkpoints of one SQLite file."""

    backend = "sqlite"
    dialect = SQLITE

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        *,
        synchronous: Synchronous = "FULL",
        readers: int = READERS,
    ) -> None:
        super().__init__()
        self.path = path
        self.synchronous = synchronous
        self._write_conn = SqliteConn(writer)
        self._readers: list[SqliteConn] = []
        self._most_readers = readers
        self._opening = 0
        self._idle: asyncio.Queue[SqliteConn] = asyncio.Queue()
        self._wal = Path(f"{path}-wal")
        self._checkpointer: SqliteConn | None = None
        self._checkpoint: asyncio.Task[None] | None = None
        self._tail = False
        """The checkpointer is done: the writer copies what was written meanwhile."""
        self._trace: Callable[[str], None] | None = None
        self._lock: int | None = None

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
        sys.setswitchinterval(SWITCH_INTERVAL)
        path = Path(path)
        writer = await connect(path, synchronous)
        try:
            await writer.execute("PRAGMA wal_autocheckpoint = 0")
            await writer.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KIB}")
            await writer.execute(f"PRAGMA journal_size_limit = {WAL_CHECKPOINT_BYTES}")
            held = lock(path) if exclusive else None
        except BaseException:
            await writer.close()
            raise
        db = cls(path, writer, synchronous=synchronous, readers=readers)
        db._lock = held
        return db

    async def _writer(self) -> SqliteConn:
        return self._write_conn

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

    async def _between_batches(self) -> None:
        try:
            size = self._wal.stat().st_size
        except FileNotFoundError:
            return
        copying = self._checkpoint is not None and not self._checkpoint.done()
        if copying and size > WAL_BEHIND * WAL_CHECKPOINT_BYTES:
            assert self._checkpoint is not None
            await asyncio.shield(self._checkpoint)  # the writes outran it: they wait for it
            copying = False
        if self._tail:
            # Copy the rest here, between two batches: the next batch starts the WAL over.
            self._tail = False
            await self._write_conn.fetch("PRAGMA wal_checkpoint(PASSIVE)")
        elif not copying and size > WAL_CHECKPOINT_BYTES:
            self._checkpoint = asyncio.get_running_loop().create_task(self._copy_wal())

    async def _copy_wal(self) -> None:
        """Copy the WAL into the file beside the writes, then have the writer finish it."""
        try:
            if self._checkpointer is None:
                self._checkpointer = SqliteConn(await connect(self.path, self.synchronous))
            await self._checkpointer.fetch("PRAGMA wal_checkpoint(PASSIVE)")
        except aiosqlite.Error:
            log.warning("WAL checkpoint failed", exc_info=True)
            return
        self._tail = True

    async def trace(self, callback: Callable[[str], None] | None) -> None:
        """Hand every statement any connection runs to `callback` (None: stop); for tests that
        check which SQL a read runs."""
        self._trace = callback
        for conn in [self._write_conn, *self._readers]:
            # aiosqlite annotates the handler as a bare Callable; sqlite3 takes None to stop.
            await conn.conn.set_trace_callback(callback)  # type: ignore[arg-type]

    async def _close_connections(self) -> None:
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        for conn in [*self._readers, self._checkpointer, self._write_conn]:
            if conn is not None:
                await conn.conn.close()
        if self._lock is not None:
            os.close(self._lock)
