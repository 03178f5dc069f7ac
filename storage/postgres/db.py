"""A PostgreSQL database, through asyncpg (the dialect: `storage.sql.POSTGRESQL`): the
connections of `storage.database`'s group commit and reads, NOTIFY between shard processes,
and which of asyncpg's errors mean an outage.

The writer is one connection; readers come from a pool. A writer connection that lost the
server is dropped, never reused half way through an error (asyncpg then refuses the next
command, "another operation is in progress"): the next batch connects anew, so writing
resumes by itself once the server is back. At start, `open` waits for a server not up yet
(compose starts it beside the bot, a reboot both at once).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.database import Database
from storage.reconnect import Kept, OnWait, retry
from storage.session_store import StoreUnavailable
from storage.sql import POSTGRESQL, Row

READERS = 4
"""Reader connections at most, each opened on demand."""

APPLICATION = "tablebot"

CONNECT_TIMEOUT = 10.0
"""Seconds a connection attempt may take: a server out of reach fails a batch, not hangs it."""

LOST = (
    OSError,  # TimeoutError too
    asyncpg.PostgresConnectionError,
    asyncpg.InternalClientError,  # a command on a connection still failing its last one
    asyncpg.OperatorInterventionError,  # the server shutting down, starting, or crashed
)
"""What asyncpg raises when the server cannot be reached or the connection broke (and an
InterfaceError that says the connection is closed; any other is ours, a wrong argument)."""

NOT_UP_YET = (OSError, asyncpg.CannotConnectNowError)
"""A server not (yet) up: refused, unreachable or timed out, a host name not resolvable yet,
or "the database system is starting up". Anything else (a wrong password, no such database)
will not mend by waiting."""


class PgConn:
    """An asyncpg connection as a `storage.sql.Conn`."""

    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection | PoolConnectionProxy) -> None:
        self.conn = conn
        self.executemany = conn.executemany  # asyncpg's own where they mean the same
        self.fetchrow = conn.fetchrow
        self.fetchval = conn.fetchval

    async def execute(self, sql: str, *args: Any) -> int:
        status = await self.conn.execute(sql, *args)
        count = status.rsplit(" ", 1)[-1]  # the command tag: `DELETE 3`, `INSERT 0 1`, `BEGIN`
        return int(count) if count.isdigit() else 0

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.conn.fetch(sql, *args))

    async def script(self, sql: str) -> None:
        await self.conn.execute(sql)  # no arguments: one simple query, every statement


async def connect(
    url: str,
    patience: float = 0.0,
    on_wait: OnWait | None = None,
    settings: Mapping[str, str] | None = None,
) -> asyncpg.Connection:
    """A connection (`settings`: the server's, for it); a server not up yet is waited for up
    to `patience` seconds (`storage.reconnect.retry`)."""
    server = {"application_name": APPLICATION, **(settings or {})}

    def attempt(left: float) -> Awaitable[asyncpg.Connection]:
        # Waiting, an attempt takes at most the patience left (at least a second).
        timeout = min(CONNECT_TIMEOUT, max(1.0, left)) if patience else CONNECT_TIMEOUT
        return asyncpg.connect(url, timeout=timeout, server_settings=server)

    return await retry(attempt, NOT_UP_YET, patience=patience, on_wait=on_wait)


def kept(
    url: str,
    what: str,
    setup: Callable[[asyncpg.Connection], Awaitable[None]],
    on_error: Callable[[Exception], None] | None = None,
    **settings: str,
) -> Kept[asyncpg.Connection]:
    """A connection of its own to `url` (`storage.reconnect.Kept`), with server `settings`."""
    return Kept(
        what,
        functools.partial(connect, url, settings=settings),
        setup,
        close=asyncpg.Connection.close,
        watch=lambda conn, dropped: conn.add_termination_listener(lambda _: dropped()),
        lost=(*LOST, asyncpg.InterfaceError, asyncpg.PostgresError),
        on_error=on_error,
    )


class PgDatabase(Database):
    """The writer connection, the reader pool and the listening connection."""

    backend = "postgresql"
    dialect = POSTGRESQL

    def __init__(self, url: str, writer: asyncpg.Connection, pool: asyncpg.Pool) -> None:
        super().__init__()
        self.url = url
        self._write_conn: asyncpg.Connection | None = writer
        self._pool = pool
        self._listener: Kept[asyncpg.Connection] | None = None
        self._channels: dict[str, list[Callable[[str], None]]] = {}
        self._writer_pid = writer.get_server_pid()

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        readers: int = READERS,
        patience: float = 0.0,
        on_wait: OnWait | None = None,
    ) -> PgDatabase:
        """Open the writer (waiting for the server as `connect` does) and the readers."""
        writer = await connect(url, patience, on_wait)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=0,  # no floor to restore: an outage would log a traceback a second
                max_size=readers,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": APPLICATION},
            )
        except BaseException:
            await writer.close()
            raise
        return cls(url, writer, pool)

    async def _writer(self) -> PgConn:
        if self._write_conn is None or self._write_conn.is_closed():  # dropped: reconnect
            self._write_conn = await connect(self.url)
            self._writer_pid = self._write_conn.get_server_pid()
        return PgConn(self._write_conn)

    @contextlib.asynccontextmanager
    async def _reader(self) -> AsyncIterator[PgConn]:
        async with self._pool.acquire() as conn:
            yield PgConn(conn)

    def _unavailable(self, error: BaseException) -> StoreUnavailable | None:
        closed = isinstance(error, asyncpg.InterfaceError) and "closed" in str(error)
        if not closed and not isinstance(error, LOST):
            return None
        return StoreUnavailable(f"PostgreSQL cannot be reached: {type(error).__name__}: {error}")

    def _lost_writer(self) -> None:
        if self._write_conn is not None:
            self._write_conn.terminate()
            self._write_conn = None

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for every NOTIFY on `channel` that another connection than
        our writer sends, on a connection of its own (opened on first use, and opened again
        if the server drops it; what was sent while it was down is not heard)."""
        known = channel in self._channels
        self._channels.setdefault(channel, []).append(callback)
        if self._listener is None:
            self._listener = await kept(self.url, "listening for NOTIFY", self._listen).open()
        elif not known and self._listener.conn is not None:
            await self._listener.conn.add_listener(channel, self._heard)

    async def _listen(self, conn: asyncpg.Connection) -> None:
        for channel in self._channels:
            await conn.add_listener(channel, self._heard)

    def _heard(self, conn: object, pid: int, channel: str, payload: object) -> None:
        if pid == self._writer_pid:
            return  # our own: this process knows what it wrote
        for callback in self._channels.get(channel, ()):
            callback(str(payload))  # asyncpg hands the NOTIFY's text; its stubs say object

    async def _close_connections(self) -> None:
        await self._pool.close()
        if self._write_conn is not None:
            await self._write_conn.close(timeout=CONNECT_TIMEOUT)
        if self._listener is not None:
            await self._listener.stop()
