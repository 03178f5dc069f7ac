"""A PostgreSQL database, through asyncpg: the connections of `storage.database`'s group commit
and reads, the dialect, NOTIFY between shard processes, and outages.

The writer is one connection; readers come from a pool, each read in one read-only REPEATABLE
READ transaction (one snapshot, never waiting for the writer). Each batch of moves locks the
rows of its sessions (`FOR UPDATE`) before its version check, so a move another process
committed meanwhile is seen, and refused, never doubled.

While the server cannot be reached (down, restarting, the network gone) every write and read
fails with the engine's `StoreUnavailable`, never a driver error. A batch that lost its
connection is answered at once and the writer connection dropped (never reused half way
through an error: asyncpg then refuses the next command, "another operation is in progress");
the next batch connects anew, so writing resumes by itself once the server is back. At start,
`open` waits for a server not up yet (compose starts it beside the bot, a reboot both at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.database import Database
from storage.session_store import StoreUnavailable
from storage.sql import Dialect, Row

log = logging.getLogger(__name__)

POSTGRESQL = Dialect(
    name="postgresql",
    begin_write="BEGIN",
    begin_read="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
    lock_rows=" FOR UPDATE OF s",
    notify="SELECT pg_notify('{channel}', r.value ->> 1) FROM {rows} {where}",
    schema_version="SELECT version FROM schema_version",
    set_version="UPDATE schema_version SET version = {}",
    lock_schema=(
        f"SELECT pg_advisory_xact_lock({0x7461626C65626F74});"  # "tablebot" in ASCII
        "CREATE TABLE IF NOT EXISTS schema_version (only_row BOOLEAN PRIMARY KEY DEFAULT TRUE "
        "CHECK (only_row), version INTEGER NOT NULL CHECK (version >= 0));"
        "INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING"
    ),
    _rows="json_array_elements({source}::JSON) AS r (value)",
    _field="(r.value ->> {i})::{kind}",
    _in_list="{column} = ANY(${p}::{kind}[])",
    _true="{}",
    _counter="jsonb_build_object({key}::TEXT, 1)",
    _count_up=(
        "{column} || jsonb_build_object({key}::TEXT, "
        "COALESCE(({column} ->> {key}::TEXT)::INTEGER, 0) + 1)"
    ),
    _holds="{array} @> to_jsonb({value})",
)

READERS = 4
"""Reader connections at most, each opened on demand."""

APPLICATION = "tablebot"

CONNECT_TIMEOUT = 10.0
"""Seconds a connection attempt may take: a server out of reach fails a batch, not hangs it."""

LOST = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InternalClientError,  # a command on a connection still failing its last one
    asyncpg.OperatorInterventionError,  # the server shutting down, starting, or crashed
)
"""What asyncpg raises when the server cannot be reached or the connection broke (and an
InterfaceError that says the connection is closed; any other is ours, a wrong argument)."""


class PgConn:
    """An asyncpg connection as a `storage.sql.Conn`."""

    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection | PoolConnectionProxy) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        status = await self.conn.execute(sql, *args)
        count = status.rsplit(" ", 1)[-1]  # the command tag: `DELETE 3`, `INSERT 0 1`, `BEGIN`
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.conn.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        return await self.conn.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchval(sql, *args)

    async def script(self, sql: str) -> None:
        await self.conn.execute(sql)  # no arguments: one simple query, every statement


NOT_UP_YET = (OSError, asyncpg.CannotConnectNowError)
"""A server not (yet) up: refused, unreachable or timed out, a host name not resolvable yet,
or "the database system is starting up". Anything else (a wrong password, no such database)
will not mend by waiting."""


async def connect(
    url: str,
    patience: float = 0.0,
    on_wait: Callable[[Exception, float, float], None] | None = None,
    settings: Mapping[str, str] | None = None,
) -> asyncpg.Connection:
    """A connection (`settings`: the server's, for it); a server not up yet is tried again,
    with backoff, for up to `patience` seconds, `on_wait(error, delay, seconds left)` told
    before each wait; then the last error is raised."""
    deadline = time.monotonic() + patience
    delay = 0.5
    while True:
        try:
            return await asyncpg.connect(
                url,
                timeout=max(1.0, min(CONNECT_TIMEOUT, deadline - time.monotonic())),
                server_settings={"application_name": APPLICATION, **(settings or {})},
            )
        except NOT_UP_YET as error:
            left = deadline - time.monotonic()
            if left <= 0:
                raise
            if on_wait is not None:
                on_wait(error, min(delay, left), left)
            await asyncio.sleep(min(delay, left))
            delay = min(delay * 2, 10.0)


class Kept:
    """A connection of its own, opened again (with backoff) whenever the server drops it (a
    restart, a network cut), `setup` run on each before it counts as open: LISTENs, leases.
    An error of `setup` that a lost server does not explain ends the retries: `on_error`."""

    def __init__(
        self,
        url: str,
        what: str,
        setup: Callable[[asyncpg.Connection], Awaitable[None]],
        on_error: Callable[[Exception], None] | None = None,
        **settings: str,
    ) -> None:
        self.url, self.what, self.setup, self.on_error = url, what, setup, on_error
        self.settings = settings
        self.conn: asyncpg.Connection | None = None
        self._stopped = False
        self._again: asyncio.Task[None] | None = None

    async def open(self) -> Kept:
        conn = await connect(self.url, settings=self.settings)
        try:
            await self.setup(conn)
            if self._stopped:  # while it opened
                raise asyncio.CancelledError
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._dropped)
        self.conn = conn
        return self

    def _dropped(self, conn: object) -> None:
        if not self._stopped:
            log.warning("lost the connection %s; opening it again", self.what)
            self.conn = None
            self._again = asyncio.get_running_loop().create_task(self._open_again())

    async def _open_again(self) -> None:
        delay = 0.1
        while not self._stopped:
            try:
                await self.open()
            except (*LOST, asyncpg.InterfaceError, asyncpg.PostgresError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
                continue
            except Exception as error:
                if self.on_error is None:
                    raise
                self.on_error(error)
            else:
                log.info("the connection %s is open again", self.what)
            return

    def stop(self) -> asyncpg.Connection | None:
        """Open it no more; the connection, if open, for the caller to close."""
        self._stopped = True
        if self._again is not None:
            self._again.cancel()
        conn, self.conn = self.conn, None
        return conn


class PgDatabase(Database):
    """The writer connection, the reader pool and the listening connection."""

    backend = "postgresql"
    dialect = POSTGRESQL

    def __init__(self, url: str, writer: asyncpg.Connection, pool: asyncpg.Pool) -> None:
        super().__init__()
        self.url = url
        self._write_conn: asyncpg.Connection | None = writer
        self._pool = pool
        self._listener: Kept | None = None
        self._channels: dict[str, list[Callable[[str], None]]] = {}
        self._writer_pid = writer.get_server_pid()

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        readers: int = READERS,
        patience: float = 0.0,
        on_wait: Callable[[Exception, float, float], None] | None = None,
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

    # Notifications --------------------------------------------------------------------------

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for every NOTIFY on `channel` that another connection than
        our writer sends, on a connection of its own (opened on first use, and opened again
        if the server drops it; what was sent while it was down is not heard)."""
        known = channel in self._channels
        self._channels.setdefault(channel, []).append(callback)
        if self._listener is None:
            self._listener = await Kept(self.url, "listening for NOTIFY", self._listen).open()
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
        if self._listener is not None and (conn := self._listener.stop()) is not None:
            await conn.close()
