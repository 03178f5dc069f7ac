"""A database: one writer connection with group commit, and readers. The same for SQLite
(`storage.sqlite`) and PostgreSQL (`storage.postgres.db`), which give it their connections.

Writes that arrive while a batch commits go together in the next one: one transaction, one
COMMIT (one fsync), however many moves it holds. A batch runs its writes in order; a run of
`Grouped` writes of one kind (the session moves) is handed to that kind at once, which writes
each table with one `executemany` after deciding, by one query, which of them its version
check refuses: a refused write fails alone, and the others commit. Every caller is answered
only after the COMMIT returned (durable: SQLite with synchronous=FULL, PostgreSQL with
synchronous_commit on).

A write that raises instead (an error of the database, or a function that refuses) rolls the
batch back, which then runs again with a SAVEPOINT per write, so that write fails alone. A
database that cannot be reached (PostgreSQL down or restarting) fails each write and read of
that moment with the engine's `StoreUnavailable`; the next batch connects anew.

Reads run on reader connections, never behind a commit: `read` runs a function in one read
transaction (one snapshot); `fetch`, `fetchrow` and `fetchval` one query.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, ClassVar, TypeVar

from games.engine.store import Durable, StoreUnavailable
from storage.sql import Conn, Dialect, Read, Row, Write

T = TypeVar("T")

MAX_BATCH = 512
"""Writes in one group commit at most; the rest go in the next one."""

Outcome = tuple[bool, object]
"""(True, result) or (False, the exception to raise in its caller)."""


class Grouped:
    """A write run together with the consecutive writes of its kind in a batch: `run` gets
    all of them and gives each its outcome. It may raise for the whole run (an error of the
    database); the batch is then run again, a savepoint per write, this write alone in its
    run, and `failed` turns that error into the one its caller sees."""

    @classmethod
    async def run(cls, conn: Conn, writes: list[Any]) -> list[Outcome]:
        raise NotImplementedError

    def failed(self, error: Exception) -> Exception:
        return error


class Database:
    """The group commit and the reads, over the connections a driver subclass opens."""

    backend: ClassVar[str]
    dialect: ClassVar[Dialect]

    def __init__(self) -> None:
        self._queue: list[tuple[Write[Any] | Grouped, Durable[Any]]] = []
        self._wake = asyncio.Event()
        self._flusher: asyncio.Task[None] | None = None
        self._in_flight = False
        self._closed = False

    # What a driver provides -----------------------------------------------------------------

    async def _writer(self) -> Conn:
        """The writer connection (opened again if it was lost)."""
        raise NotImplementedError

    def _reader(self) -> contextlib.AbstractAsyncContextManager[Conn]:
        """A reader connection for one read."""
        raise NotImplementedError

    def _unavailable(self, error: BaseException) -> StoreUnavailable | None:
        """`error` as a StoreUnavailable if it says the database is out of reach."""
        return None

    def _lost_writer(self) -> None:
        """The writer connection broke: drop it (the next batch connects anew)."""

    async def _between_batches(self) -> None:
        """Run after each batch, before the next (SQLite checkpoints its WAL here)."""

    async def _close_connections(self) -> None:
        raise NotImplementedError

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for every notice on `channel` another process sends (see
        `Dialect.notify`); none ever comes where one process serves the database."""

    # Writing --------------------------------------------------------------------------------

    def submit(self, write: Write[T] | Grouped) -> Durable[T]:
        """Queue a write for the next group commit: a future of its result, set once the
        COMMIT returned (or of its exception: nothing of it is stored then). A queued write
        always runs: its awaiter cannot cancel it (`Durable`)."""
        if self._closed:
            raise RuntimeError("the database is closed")
        loop = asyncio.get_running_loop()
        future: Durable[T] = Durable(loop=loop)
        self._queue.append((write, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        self._wake.set()
        return future

    async def write(self, write: Write[T]) -> T:
        """Run `write(conn)` in the next group commit; its result once committed."""
        return await self.submit(write)

    async def _flush(self) -> None:
        """Commit whatever is queued, batch after batch, until closed."""
        loop = asyncio.get_running_loop()
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
            batch = self._queue[:MAX_BATCH]
            del self._queue[:MAX_BATCH]
            self._in_flight = True
            try:
                # Shielded: a batch that began runs to its end, even if the loop stops.
                writes = [write for write, _ in batch]
                outcomes = await asyncio.shield(loop.create_task(self._batch(writes)))
            except asyncio.CancelledError:
                closed = RuntimeError("the database closed before this write was confirmed")
                for _, future in batch:
                    future.set_exception(closed)
                raise
            finally:
                self._in_flight = False
            for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)  # type: ignore[arg-type]
            await self._between_batches()

    async def _batch(self, writes: list[Write[Any] | Grouped]) -> list[Outcome]:
        """One transaction for the batch; if a write raised, again with a savepoint each."""
        try:
            conn = await self._writer()
            await conn.execute(self.dialect.begin_write)
            try:
                outcomes = await _run(conn, writes)
                await conn.execute("COMMIT")
            except BaseException:
                await _rollback(conn)
                raise
            return outcomes
        except Exception as error:
            if (unavailable := self._gone(error)) is not None:
                return [(False, unavailable)] * len(writes)
            if len(writes) == 1:
                return [(False, _failed(writes[0], error))]
        return await self._isolated(writes)

    async def _isolated(self, writes: list[Write[Any] | Grouped]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        try:
            conn = await self._writer()
            await conn.execute(self.dialect.begin_write)
            try:
                for write in writes:
                    await conn.execute("SAVEPOINT w")
                    try:
                        [outcome] = await _run(conn, [write])
                    except Exception as error:
                        if self._unavailable(error) is not None:
                            raise
                        await conn.execute("ROLLBACK TO w")
                        outcome = (False, _failed(write, error))
                    await conn.execute("RELEASE w")
                    outcomes.append(outcome)
                await conn.execute("COMMIT")
            except BaseException:
                await _rollback(conn)
                raise
        except Exception as error:  # nothing of the batch is stored
            return [(False, self._gone(error) or error)] * len(writes)
        return outcomes

    def _gone(self, error: BaseException) -> StoreUnavailable | None:
        unavailable = self._unavailable(error)
        if unavailable is not None:
            self._lost_writer()
        return unavailable

    # Reading --------------------------------------------------------------------------------

    async def read(self, read: Read[T]) -> T:
        """Run `read(conn)` in one read transaction: its queries see one snapshot."""
        async with self._reading() as conn:
            await conn.execute(self.dialect.begin_read)
            try:
                return await read(conn)
            finally:
                with contextlib.suppress(Exception):
                    await conn.execute("COMMIT")

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """One query's rows (one statement needs no transaction of its own)."""
        async with self._reading() as conn:
            return await conn.fetch(sql, *args)

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        async with self._reading() as conn:
            return await conn.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        async with self._reading() as conn:
            return await conn.fetchval(sql, *args)

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[Conn]:
        if self._closed:
            raise RuntimeError("the database is closed")
        try:
            async with self._reader() as conn:
                yield conn
        except Exception as error:
            if (unavailable := self._unavailable(error)) is not None:
                raise unavailable from error
            raise

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
        await self._close_connections()


async def _run(conn: Conn, writes: list[Write[Any] | Grouped]) -> list[Outcome]:
    """Run the writes in order, consecutive `Grouped` writes of one kind at once."""
    outcomes: list[Outcome] = []
    start = 0
    while start < len(writes):
        write = writes[start]
        if not isinstance(write, Grouped):
            outcomes.append((True, await write(conn)))
            start += 1
            continue
        end = start + 1
        while end < len(writes) and type(writes[end]) is type(write):
            end += 1
        outcomes += await type(write).run(conn, writes[start:end])
        start = end
    return outcomes


def _failed(write: Write[Any] | Grouped, error: Exception) -> Exception:
    return write.failed(error) if isinstance(write, Grouped) else error


async def _rollback(conn: Conn) -> None:
    with contextlib.suppress(Exception):
        await conn.execute("ROLLBACK")
