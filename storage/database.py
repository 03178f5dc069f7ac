"""A database: one writer connection with group commit, and readers. The same for SQLite
(`storage.sqlite`) and PostgreSQL (`storage.postgres.db`), which give it their connections.

Writes that arrive while a batch commits go together in the next one: one transaction, one
COMMIT (one fsync) per kind of write, however many moves it holds. The `Grouped` writes of
one kind (the session moves, and on SQLite the new sessions with them) are handed to that
kind at once, which writes them in one transaction, a statement per table, after deciding by
its version check which of them it refuses: a refused write fails alone, and the others
commit. The other writes (functions of the connection: a record, a preference, PostgreSQL's
new session) are a transaction too, except one write of one statement alone
(`OneStatement`), which is a transaction by itself.
Every caller is answered only after its COMMIT returned (durable: SQLite with
synchronous=FULL, PostgreSQL with synchronous_commit on).

A write that raises instead (an error of the database, or a function that refuses) rolls its
transaction back, and each write of it is committed again in a transaction of its own, so
that write fails alone. A database that cannot be reached (PostgreSQL down or restarting)
fails each write and read of that moment with the engine's `StoreUnavailable`; the next batch
connects anew.

Reads run on reader connections, never behind a commit: `read` runs a function in one read
transaction (one snapshot); `fetch`, `fetchrow` and `fetchval` one query.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from storage.session_store import Durable, StoreUnavailable
from storage.sql import Conn, Dialect, Read, Row, Write

T = TypeVar("T")

MAX_BATCH = 512
"""Writes in one group commit at most; the rest go in the next one."""

Outcome = tuple[Literal[True], object] | tuple[Literal[False], BaseException]
"""(True, result) or (False, the exception to raise in its caller)."""


class Grouped:
    """A write committed together with the consecutive writes of its kind in a batch:
    `commit` gets all of them, writes them in a transaction of its own and gives each its
    outcome. When it raises instead (an error of the database), each write is committed alone,
    and `failed` turns the error of one into the one its caller sees."""

    @classmethod
    async def commit(cls, conn: Conn, writes: list[Any]) -> list[Outcome]:
        raise NotImplementedError

    def failed(self, error: Exception) -> Exception:
        return error

    @classmethod
    def kind(cls) -> type[Grouped]:
        """The kind whose `commit` writes this one with the others of that kind: its own
        class, unless it shares another's."""
        return cls


@dataclass(frozen=True, slots=True)
class OneStatement(Generic[T]):
    """A plain write that runs one statement (`write`). Alone in its batch it needs no
    transaction of its own, the statement being one: one call to the database where BEGIN and
    COMMIT around it made three, each a turn of a busy event loop on SQLite."""

    write: Write[T]

    async def __call__(self, conn: Conn) -> T:
        return await self.write(conn)


def statement(sql: str, *args: Any) -> OneStatement[int]:
    """A write of the one statement `sql`: how many rows it changed."""
    return OneStatement(lambda conn: conn.execute(sql, *args))


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
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
            await self._commit_next()
            await self._between_batches()

    async def _commit_next(self) -> None:
        """Commit the next batch and settle its futures. A method of its own so that the
        batch (each write holds its session's new state) is let go as it returns, not kept
        by the flusher while it waits for the next one."""
        batch = self._queue[:MAX_BATCH]
        del self._queue[:MAX_BATCH]
        self._in_flight = True
        try:
            # In the flusher's task, not one of its own: every hand-over to another task
            # costs a turn of the loop, which is long when the loop is busy. `close` lets
            # the last batch end before it cancels this task.
            outcomes = await self._batch([write for write, _ in batch])
        except asyncio.CancelledError:
            closed = RuntimeError("the database closed before this write was confirmed")
            for _, future in batch:
                future.set_exception(closed)
            raise
        finally:
            self._in_flight = False
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if outcome[0]:
                future.set_result(outcome[1])
            else:
                future.set_exception(outcome[1])

    async def _batch(self, writes: list[Write[Any] | Grouped]) -> list[Outcome]:
        """The batch as one transaction per kind of write: all its `Grouped` writes of one
        kind (all of a batch of moves: one transaction), and all its other writes. Writes of a
        batch were each queued by a caller still waiting for it, so none follows from another
        and any order is theirs; kept in the order they came, a rematch's new session between
        moves split a batch into a COMMIT (an fsync) per run, up to a hundred a batch."""
        kinds: dict[type | None, list[int]] = {}
        for i, write in enumerate(writes):
            kinds.setdefault(write.kind() if isinstance(write, Grouped) else None, []).append(i)
        if len(kinds) == 1:  # most batches: moves alone
            return await self._transaction(writes)
        outcomes: list[Outcome] = [(True, None)] * len(writes)
        for indexes in kinds.values():
            done = await self._transaction([writes[i] for i in indexes])
            for i, outcome in zip(indexes, done, strict=True):
                outcomes[i] = outcome
        return outcomes

    async def _transaction(self, writes: list[Write[Any] | Grouped]) -> list[Outcome]:
        """Commit `writes` in one transaction; if one raised, each in a transaction of its
        own, so that it fails alone."""
        try:
            conn = await self._writer()
            try:
                if isinstance(writes[0], Grouped):
                    return await writes[0].kind().commit(conn, writes)
                if len(writes) == 1 and isinstance(writes[0], OneStatement):
                    return [(True, await writes[0](conn))]
                await conn.execute(self.dialect.begin_write)
                outcomes: list[Outcome] = []
                for write in writes:
                    assert not isinstance(write, Grouped)  # a run of plain writes (`_batch`)
                    outcomes.append((True, await write(conn)))
                await conn.execute("COMMIT")
                return outcomes
            except BaseException:
                await _rollback(conn)
                raise
        except Exception as error:
            if (unavailable := self._gone(error)) is not None:
                return [(False, unavailable)] * len(writes)
            if len(writes) == 1:
                write = writes[0]
                return [(False, write.failed(error) if isinstance(write, Grouped) else error)]
        return [outcome for write in writes for outcome in await self._transaction([write])]

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


async def _rollback(conn: Conn) -> None:
    with contextlib.suppress(Exception):
        await conn.execute("ROLLBACK")
