"""The two kinds of SQLite connection as a `storage.sql.Conn`: a reader's, through aiosqlite
(each call a hand-over to its thread), and the writer's (`ThreadConn`), a plain sqlite3
connection used on the writer's own thread, where a batch of writes runs whole
(`run_here`)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Coroutine, Sequence
from typing import Any

import aiosqlite

from storage.sql import SQLITE, Row, qmarks

_q = functools.lru_cache(maxsize=1024)(qmarks)


class SqliteConn:
    """An aiosqlite connection (a reader) as a `storage.sql.Conn`."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self.conn.execute(_q(sql), args)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(_q(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.conn.execute_fetchall(_q(sql), args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]

    async def script(self, sql: str) -> None:
        await self.conn.executescript(sql)


class ThreadConn:
    """The writer's sqlite3 connection as a `storage.sql.Conn`, used on the writer's thread
    only: each call runs there and then, and returns without suspending."""

    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        return self.conn.execute(_q(sql), args).rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.conn.executemany(_q(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return self.conn.execute(_q(sql), args).fetchall()

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        return self.conn.execute(_q(sql), args).fetchone()  # type: ignore[no-any-return]

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = self.conn.execute(_q(sql), args).fetchone()
        return None if row is None else row[0]

    async def script(self, sql: str) -> None:
        self.conn.executescript(sql)


def run_here(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine of `ThreadConn` calls to its end, on this thread. One that awaits
    anything else (there is no loop here) gets an error where it awaits it."""
    awaited = RuntimeError("a SQLite write awaited something other than its connection")
    try:
        coro.send(None)
        while True:
            coro.throw(awaited)
    except StopIteration as done:
        return done.value
