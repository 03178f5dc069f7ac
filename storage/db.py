"""One aiosqlite connection with the pragmas the bot relies on, and explicit transactions.

The connection runs in autocommit mode (`isolation_level=None`): nothing is grouped unless a
caller opens a transaction, so every write's atomicity is visible in the code. Coroutines
sharing a connection share its transaction state, so `Database` hands the connection out
under an asyncio lock: two concurrent `transaction()` blocks on one connection queue up
instead of nesting (SQLite has no nested BEGIN).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

BUSY_TIMEOUT_MS = 5000
"""How long a writer waits for another connection's write lock before SQLITE_BUSY."""


async def connect(path: str | Path) -> aiosqlite.Connection:
    """Open `path` (creating its directory) in WAL mode with foreign keys enforced."""
    memory = str(path) == ":memory:"
    if not memory:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        # busy_timeout first, so switching to WAL waits for other openers too.
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not memory:
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
            if row is None or str(row[0]).lower() != "wal":
                raise RuntimeError(f"could not switch {path} to WAL: {row and row[0]}")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        await conn.close()
        raise
    return conn


@asynccontextmanager
async def transaction(conn: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error.

    IMMEDIATE takes the write lock up front, so a read-then-write (a version check) cannot be
    overtaken by another connection between the read and the write.
    """
    try:
        # Inside the try: a cancelled await still runs its statement in aiosqlite's thread,
        # so a BEGIN cancelled while queued must be rolled back like any other failure.
        await conn.execute("BEGIN IMMEDIATE")
        yield conn
        await conn.execute("COMMIT")
    except BaseException:
        await _end(conn, "ROLLBACK")
        raise


async def _end(conn: aiosqlite.Connection, statement: str) -> None:
    """End a transaction whatever happened: shielded, so a second cancellation cannot skip it,
    and quiet when there is none left (BEGIN failed, COMMIT ran, SQLite aborted it itself)."""
    with contextlib.suppress(sqlite3.OperationalError):
        await asyncio.shield(conn.execute(statement))


class Database:
    """The connection plus the lock that serialises its users."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        return cls(await connect(path))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction (BEGIN IMMEDIATE) with this connection to ourselves."""
        async with self._lock, transaction(self.conn) as conn:
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: several SELECTs see one consistent snapshot of the file."""
        async with self._lock:
            try:
                await self.conn.execute("BEGIN")
                yield self.conn
            finally:
                await _end(self.conn, "COMMIT")

    async def close(self) -> None:
        async with self._lock:
            await self.conn.close()
