"""The SQLite writer: group commit through aiosqlite, callers answered after their COMMIT,
another process's write lock waited for without stalling the loop, the WAL checkpointed off
the commits, and the file held by one bot process at a time."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import storage.sqlite
from storage import FileInUse, open_storage
from storage.database import Grouped, Outcome
from storage.sql import Conn, Write
from storage.sqlite import SqliteDatabase, connect

CEILING = 60.0
"""Seconds a test waits for something that should happen at once: only a broken store takes
that long, whatever the machine's load."""


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await SqliteDatabase.open(tmp_path / "w.db")
    await database.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER, blob BLOB)"))
    try:
        yield database
    finally:
        await database.close()


def insert(n: int, blob: bytes = b"") -> Write[int]:
    async def write(conn: Conn) -> int:
        return await conn.execute("INSERT INTO t (n, blob) VALUES ($1, $2)", n, blob)

    return write


async def rows(db: SqliteDatabase) -> list[int]:
    return [row[0] for row in await db.fetch("SELECT n FROM t ORDER BY rowid")]


async def test_writes_that_arrive_while_a_batch_commits_go_together_in_the_next(
    db: SqliteDatabase,
) -> None:
    statements: list[str] = []
    await db.trace(statements.append)
    release = asyncio.Event()

    async def held(conn: Conn) -> None:  # keeps the first batch open
        await conn.execute("INSERT INTO t (n) VALUES (0)")
        await release.wait()

    first = db.submit(held)
    while not any(s.startswith("INSERT") for s in statements):
        await asyncio.sleep(0.001)
    later = [db.submit(insert(n)) for n in range(1, 6)]
    release.set()
    await asyncio.wait_for(asyncio.gather(first, *later), CEILING)
    await db.trace(None)
    assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == [
        "BEGIN IMMEDIATE",
        "COMMIT",
        "BEGIN IMMEDIATE",
        "COMMIT",
    ]
    second = statements[statements.index("COMMIT") + 1 :]
    assert sum(s.startswith("INSERT") for s in second) == 5
    assert await rows(db) == [0, 1, 2, 3, 4, 5]


async def test_a_committed_write_is_let_go_while_the_writer_waits_for_the_next(
    db: SqliteDatabase,
) -> None:
    write = insert(1)  # a move's write holds its session's new state: kept, a batch's states
    kept = weakref.ref(write)  # would stay in memory until the next batch came
    await asyncio.wait_for(db.submit(write), CEILING)
    del write
    gc.collect()
    assert kept() is None
    assert await rows(db) == [1]


class Tally(Grouped):
    """A kind of grouped write that notes the size of each group it is handed."""

    groups: ClassVar[list[int]] = []

    def __init__(self, n: int) -> None:
        self.n = n

    @classmethod
    async def commit(cls, conn: Conn, writes: list[Any]) -> list[Outcome]:
        cls.groups.append(len(writes))
        for write in writes:
            await conn.execute("INSERT INTO t (n) VALUES ($1)", write.n)
        return [(True, None)] * len(writes)


async def test_a_batch_commits_each_kind_of_write_once_whatever_their_order(
    db: SqliteDatabase,
) -> None:
    Tally.groups = []
    statements: list[str] = []
    await db.trace(statements.append)
    # Queued before the flusher runs: one batch, its kinds interleaved.
    queued = [db.submit(Tally(1)), db.submit(insert(2)), db.submit(Tally(3)), db.submit(insert(4))]
    queued.append(db.submit(Tally(5)))
    await asyncio.wait_for(asyncio.gather(*queued), CEILING)
    await db.trace(None)
    assert Tally.groups == [3]
    assert statements.count("BEGIN IMMEDIATE") == 1  # the two plain writes together
    assert sorted(await rows(db)) == [1, 2, 3, 4, 5]


async def test_a_write_is_answered_only_once_its_commit_ran(db: SqliteDatabase) -> None:
    statements: list[str] = []
    await db.trace(statements.append)
    seen_when_answered: list[list[str]] = []
    futures = [db.submit(insert(n)) for n in range(3)]
    for future in futures:
        future.add_done_callback(lambda _: seen_when_answered.append(list(statements)))
    await asyncio.wait_for(asyncio.gather(*futures), CEILING)
    await db.trace(None)
    for seen in seen_when_answered:
        assert seen[-1] == "COMMIT" and sum(s.startswith("INSERT") for s in seen) == 3


async def test_a_write_that_raises_fails_alone_and_the_others_commit(db: SqliteDatabase) -> None:
    async def refused(conn: Conn) -> None:
        await conn.execute("INSERT INTO t (n) VALUES (99)")
        raise ValueError("refused")

    results = await asyncio.gather(
        db.submit(insert(1)), db.submit(refused), db.submit(insert(2)), return_exceptions=True
    )
    assert results[0] == 1 and results[2] == 1 and isinstance(results[1], ValueError)
    assert await rows(db) == [1, 2]


async def test_another_processs_write_lock_is_waited_for_while_the_loop_runs_on(
    db: SqliteDatabase,
) -> None:
    other = await connect(db.path)
    try:
        await other.execute("BEGIN IMMEDIATE")
        write = db.submit(insert(1))
        assert await asyncio.wait_for(rows(db), CEILING) == []  # reads go on meanwhile
        assert not write.done()
        await other.execute("COMMIT")
    finally:
        await other.close()
    assert await asyncio.wait_for(write, CEILING) == 1
    assert await rows(db) == [1]


async def test_the_wal_is_checkpointed_though_no_commit_does_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.sqlite, "WAL_CHECKPOINT_BYTES", 64 * 1024)
    db = await SqliteDatabase.open(tmp_path / "c.db", synchronous="NORMAL")
    try:
        assert await db.write(lambda conn: conn.fetchval("PRAGMA wal_autocheckpoint")) == 0
        await db.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER, blob BLOB)"))
        blob, wal = bytes(8192), Path(f"{db.path}-wal")
        for n in range(300):  # many small batches
            await db.write(insert(n, blob))
        # Never checkpointed, the WAL would hold every blob: 300 × 8 KiB and more.
        assert wal.stat().st_size < 300 * len(blob) / 3
        assert len(await rows(db)) == 300
    finally:
        await db.close()


async def test_closing_commits_the_writes_still_queued(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "x.db")
    await db.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER, blob BLOB)"))
    pending = [db.submit(insert(n)) for n in range(3)]
    await db.close()
    assert all(future.done() and future.result() == 1 for future in pending)
    reopened = await SqliteDatabase.open(tmp_path / "x.db")
    try:
        assert await rows(reopened) == [0, 1, 2]
    finally:
        await reopened.close()


async def test_an_exclusive_storage_holds_its_file_until_it_closes(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with await open_storage(path, exclusive=True):
        with pytest.raises(FileInUse):
            await open_storage(path, exclusive=True)
        async with await open_storage(path) as reader:  # not exclusive: a reader, a test
            assert await reader.sessions.live_sessions() == []
    async with await open_storage(path, exclusive=True) as again:
        assert again.backend == "sqlite"
