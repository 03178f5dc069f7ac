"""A PostgreSQL database: one writer connection with group commit, and a pool of readers.

The same shape as the SQLite `storage.db.Database`, over asyncpg. Writes that arrive together
run in one transaction, so a burst of moves of many sessions costs one COMMIT (one WAL flush)
instead of one each. A write is either an async function of the connection, or a `Statement`:
one SQL statement whose single result row says whether it applied. Consecutive statements of
one SQL text (every session write is one) go to the server together, pipelined by asyncpg's
`fetchmany` (all their Bind/Execute messages, one Sync): a batch of moves costs one round trip,
not one per move.

The batch runs without savepoints: a statement refused by its result row changed nothing (its
check is part of it), and a savepoint per write would cost two round trips and a
subtransaction each (PostgreSQL slows every snapshot down once a transaction holds more than
64 of them). When a write raises instead (an error from the server, or a function that
refuses), the batch is rolled back and run again with a SAVEPOINT per write, so that write is
refused alone and the others commit. Each caller is answered once the COMMIT returns (with
`synchronous_commit` on, the server's default: once it is flushed).

Reads run on the pool, each in one read-only REPEATABLE READ transaction, so the queries of one
read see one snapshot and never wait for the writer.

While the server cannot be reached (down, restarting, the network gone) every write and read
fails with the engine's `StoreUnavailable`, never a driver error. A batch that lost its
connection is answered at once and the writer connection dropped (never reused half way
through an error: asyncpg then refuses the next command, "another operation is in progress");
the next batch connects anew, so writing resumes by itself once the server is back. Only one
batch uses the writer connection at a time, reconnects included (`_writing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import asyncpg

from storage.session_store import BatchObserver, Durable, StoreUnavailable

T = TypeVar("T")

MAX_BATCH = 512
"""Writes in one group commit at most; the rest go in the next one."""

READERS = 4
"""Reader connections at most, each opened on demand."""


@dataclass(frozen=True, slots=True)
class Statement(Generic[T]):
    """A write as one SQL statement returning one row; `check(row)` gives the write's result,
    or raises to refuse it, in which case the statement must have changed nothing. `failed`
    turns an error the server raised for it into the one its caller should see."""

    sql: str
    args: tuple[Any, ...]
    check: Callable[[asyncpg.Record], T]
    failed: Callable[[Exception], Exception] = lambda error: error


Write = Callable[[asyncpg.Connection], Awaitable[T]] | Statement[T]

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
"""What asyncpg raises when the server cannot be reached or the connection broke."""


def lost(error: BaseException) -> bool:
    """Whether `error` says the server is out of reach, rather than refusing a statement. An
    InterfaceError is ours (a wrong argument) unless it says the connection is closed."""
    if isinstance(error, asyncpg.InterfaceError):
        return "closed" in str(error)
    return isinstance(error, LOST)


def unavailable(error: BaseException) -> StoreUnavailable:
    return StoreUnavailable(f"PostgreSQL cannot be reached: {type(error).__name__}: {error}")


def _same(write: Write[Any], sql: str) -> bool:
    return isinstance(write, Statement) and write.sql == sql


async def _pipelined(
    conn: asyncpg.Connection, statements: list[Statement[object]]
) -> list[tuple[bool, object]]:
    """Run statements of one SQL text in one round trip; a refusal by `check` is kept (the
    statement changed nothing), an error of the server aborts the batch."""
    sql = statements[0].sql
    if len(statements) == 1:
        rows = [await conn.fetchrow(sql, *statements[0].args)]
    else:
        rows = await conn.fetchmany(sql, [s.args for s in statements])
    results: list[tuple[bool, object]] = []
    for statement, row in zip(statements, rows, strict=True):
        try:
            results.append((True, statement.check(row)))  # type: ignore[arg-type]
        except Exception as error:
            results.append((False, error))
    return results


def affected(status: str) -> int:
    """The row count of a command tag such as `DELETE 3` or `INSERT 0 1`."""
    return int(status.rsplit(" ", 1)[-1])


@dataclass(slots=True)
class _Pending:
    write: Write[object]
    future: Durable[object]


async def connect(url: str) -> asyncpg.Connection:
    return await asyncpg.connect(
        url, timeout=CONNECT_TIMEOUT, server_settings={"application_name": APPLICATION}
    )


class PgDatabase:
    """The writer (its connection and the group-commit queue) and the reader pool."""

    backend = "postgresql"

    def __init__(self, url: str, writer: asyncpg.Connection, pool: asyncpg.Pool) -> None:
        self.url = url
        self._writer = writer
        self._pool = pool
        self._queue: list[_Pending] = []
        self._wake: asyncio.Event | None = None
        self._flusher: asyncio.Task[None] | None = None
        self._in_flight = 0
        self._closed = False
        self._listener: asyncpg.Connection | None = None
        self._channels: dict[str, list[Callable[[str], None]]] = {}
        self._relisten: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()
        """Held while a batch (or `close`) uses the writer connection."""
        self.on_commit: BatchObserver | None = None

    @classmethod
    async def open(cls, url: str, *, readers: int = READERS) -> PgDatabase:
        writer = await connect(url)
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

    # Writing --------------------------------------------------------------------------------

    def submit(self, write: Write[T]) -> Durable[T]:
        """Queue `write(conn)` for the next group commit: a future of its result, set once the
        COMMIT returned (or of the exception it raised; nothing of it is stored then). A queued
        write always runs: its awaiter cannot cancel it (`Durable`)."""
        if self._closed:
            raise RuntimeError("the database is closed")
        loop = asyncio.get_running_loop()
        future: Durable[T] = Durable(loop=loop)
        self._queue.append(_Pending(write, future))  # type: ignore[arg-type]
        if self._flusher is None or self._flusher.done():
            self._wake = asyncio.Event()
            self._flusher = loop.create_task(self._flush())
        assert self._wake is not None
        self._wake.set()
        return future

    async def write(self, write: Write[T]) -> T:
        """Run `write(conn)` in the next group commit; its result once committed."""
        return await self.submit(write)

    async def _flush(self) -> None:
        """Commit whatever is queued, batch after batch, until the queue stays empty."""
        loop = asyncio.get_running_loop()
        assert self._wake is not None
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
            batch = self._queue[:MAX_BATCH]
            del self._queue[:MAX_BATCH]
            writes = [p.write for p in batch]
            self._in_flight += 1
            try:
                results = await asyncio.shield(loop.create_task(self._run_batch(writes)))
            except asyncio.CancelledError:
                closed = RuntimeError("the database closed before this write was confirmed")
                for pending in batch:
                    pending.future.set_exception(closed)
                raise
            finally:
                self._in_flight -= 1
            for pending, (ok, value) in zip(batch, results, strict=True):
                if ok:
                    pending.future.set_result(value)
                else:
                    pending.future.set_exception(value)  # type: ignore[arg-type]

    async def _run_batch(self, writes: list[Write[object]]) -> list[tuple[bool, object]]:
        """One transaction for the batch: (True, result) or (False, exception) per write."""
        async with self._writing:
            started = time.perf_counter()
            try:
                results = await self._run_transaction(writes)
            except Exception as error:
                if not lost(error):
                    raise
                self._writer.terminate()  # the next batch connects anew
                return [(False, unavailable(error))] * len(writes)
        if self.on_commit is not None:
            self.on_commit(len(writes), time.perf_counter() - started)
        return results

    async def _run_transaction(self, writes: list[Write[object]]) -> list[tuple[bool, object]]:
        try:
            if self._writer.is_closed():  # the server restarted or dropped us: reconnect
                self._writer = await connect(self.url)
            conn = self._writer
            results: list[tuple[bool, object]] = []
            async with conn.transaction():
                start = 0
                while start < len(writes):
                    write = writes[start]
                    if not isinstance(write, Statement):
                        results.append((True, await write(conn)))
                        start += 1
                        continue
                    end = start + 1
                    while end < len(writes) and _same(writes[end], write.sql):
                        end += 1
                    results += await _pipelined(conn, writes[start:end])  # type: ignore[arg-type]
                    start = end
            return results
        except Exception as error:
            if lost(error) or self._writer.is_closed():
                raise
            if len(writes) == 1:
                failed = writes[0].failed(error) if isinstance(writes[0], Statement) else error
                return [(False, failed)] * len(writes)
        return await self._run_isolated(writes)

    async def _run_isolated(self, writes: list[Write[object]]) -> list[tuple[bool, object]]:
        """The batch again, a SAVEPOINT per write: a refused write rolls back alone."""
        conn = self._writer
        results: list[tuple[bool, object]] = []
        try:
            async with conn.transaction():
                for write in writes:
                    try:
                        async with conn.transaction():  # nested: a savepoint
                            if isinstance(write, Statement):
                                try:
                                    row = await conn.fetchrow(write.sql, *write.args)
                                except asyncpg.PostgresError as error:
                                    raise write.failed(error) from error
                                results.append((True, write.check(row)))  # type: ignore[arg-type]
                            else:
                                results.append((True, await write(conn)))
                    except Exception as error:
                        if lost(error):
                            raise
                        results.append((False, error))
        except Exception as error:  # COMMIT failed: nothing of the batch is stored
            if lost(error):
                raise
            return [(False, error)] * len(writes)
        return results

    # Reading --------------------------------------------------------------------------------

    async def read(self, read: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run `read(conn)` in one read-only transaction: its queries see one snapshot."""

        async def run() -> T:
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                return await read(conn)

        return await self._reading(run())

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """One query's rows (a single statement needs no transaction of its own)."""
        return await self._reading(self._pool.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await self._reading(self._pool.fetchrow(sql, *args))

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._reading(self._pool.fetchval(sql, *args))

    async def _reading(self, query: Awaitable[T]) -> T:
        """`query`'s result; StoreUnavailable if the server is out of reach (the pool drops a
        broken connection and opens another on the next read)."""
        if self._closed:
            if asyncio.iscoroutine(query):
                query.close()
            raise RuntimeError("the database is closed")
        try:
            return await query
        except Exception as error:
            if lost(error):
                raise unavailable(error) from error
            raise

    # Notifications --------------------------------------------------------------------------

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for every NOTIFY on `channel` that another connection than
        our writer sends, on a connection of its own (opened on first use, and opened again
        if the server drops it; what was sent while it was down is not heard)."""
        known = channel in self._channels
        self._channels.setdefault(channel, []).append(callback)
        if self._listener is None:
            self._listener = await self._open_listener()
        elif not known:
            await self._listener.add_listener(channel, self._heard)

    async def _open_listener(self) -> asyncpg.Connection:
        conn = await connect(self.url)
        try:
            for channel in self._channels:
                await conn.add_listener(channel, self._heard)
        except BaseException:
            await conn.close()
            raise
        conn.add_termination_listener(self._listener_lost)
        return conn

    def _heard(self, conn: object, pid: int, channel: str, payload: str) -> None:
        if pid == self._writer.get_server_pid():
            return  # our own: this process knows what it wrote
        for callback in self._channels.get(channel, ()):
            callback(payload)

    def _listener_lost(self, conn: object) -> None:
        if not self._closed:
            self._listener = None
            self._relisten = asyncio.get_running_loop().create_task(self._listen_again())

    async def _listen_again(self) -> None:
        delay = 0.1
        while not self._closed and self._listener is None:
            try:
                self._listener = await self._open_listener()
            except (*LOST, asyncpg.InterfaceError, asyncpg.PostgresError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    # Closing --------------------------------------------------------------------------------

    async def close(self) -> None:
        """Commit what is queued, then close every connection."""
        if self._closed:
            return
        while (self._queue or self._in_flight) and self._flusher and not self._flusher.done():
            await asyncio.sleep(0.001)
        self._closed = True
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
        await self._pool.close()
        async with self._writing:
            await self._writer.close(timeout=CONNECT_TIMEOUT)
        if self._relisten is not None:
            self._relisten.cancel()
        if self._listener is not None:
            await self._listener.close()
