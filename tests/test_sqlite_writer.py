"""Where the SQLite store commits: on the loop's thread while commits are fast, in the writer
thread where they are slow or another process holds the write lock, never both at once, and
the WAL checkpointed outside any COMMIT.

Whether a COMMIT counts as slow is measured, and a loaded machine makes it so: every test here
fixes the threshold (`fast_disk`: none is slow) and makes the commits it wants slow itself, so
where a write commits never depends on the machine's load."""

from __future__ import annotations

import asyncio
import math
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage.db
from storage.db import Database, connect


@pytest.fixture(autouse=True)
def fast_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """No COMMIT counts as slow, however long a busy machine makes it take."""
    monkeypatch.setattr(storage.db, "SLOW_COMMIT_S", math.inf)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "w.db")
    await database.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER, blob BLOB)"))
    try:
        yield database
    finally:
        await database.close()


def insert(n: int, blob: bytes = b"") -> storage.db.Write[str]:
    """A write adding row `n`; its result is the name of the thread it ran on."""

    def write(conn: sqlite3.Connection) -> str:
        conn.execute("INSERT INTO t (n, blob) VALUES (?, ?)", (n, blob))
        return threading.current_thread().name

    return write


async def rows(db: Database) -> list[int]:
    return await db.read(
        lambda conn: [r[0] for r in conn.execute("SELECT n FROM t ORDER BY rowid")]
    )


async def test_writes_commit_on_the_loops_own_thread_while_no_commit_is_slow(db: Database) -> None:
    here = threading.current_thread().name
    assert await asyncio.gather(*(db.write(insert(n)) for n in range(3))) == [here] * 3
    assert await rows(db) == [0, 1, 2]


async def test_slow_commits_send_the_next_batches_to_the_writer_thread(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.db, "SLOW_COMMIT_S", -1.0)  # every COMMIT is too slow
    assert await db.write(insert(1)) == threading.current_thread().name  # measured here
    assert await db.write(insert(2)) == "db-writer"
    assert await db.write(insert(3)) == "db-writer"
    assert await rows(db) == [1, 2, 3]


async def test_another_processs_write_lock_is_waited_for_in_the_writer_thread(
    db: Database,
) -> None:
    other = connect(db.path)
    other.execute("BEGIN IMMEDIATE")
    first, second = db.submit(insert(1)), db.submit(insert(2))
    await asyncio.sleep(0.05)  # the loop runs on meanwhile
    assert not first.done() and not second.done()
    other.execute("COMMIT")
    other.close()
    assert await first == "db-writer" and await second == "db-writer"
    assert await db.write(insert(3)) == threading.current_thread().name  # back on the loop
    assert await rows(db) == [1, 2, 3]


async def test_writes_submitted_while_the_writer_thread_has_some_queue_behind_them(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = connect(db.path)
    other.execute("BEGIN IMMEDIATE")
    first = db.submit(insert(1))
    await asyncio.sleep(0.05)  # `first` found the lock taken: it waits in the writer thread
    monkeypatch.setattr(storage.db, "SLOW_COMMIT_S", 1.0)
    later = [db.submit(insert(n)) for n in range(2, 6)]
    other.execute("COMMIT")
    other.close()
    assert await asyncio.gather(first, *later) == ["db-writer"] * 5
    assert await rows(db) == [1, 2, 3, 4, 5]


async def test_the_wal_is_checkpointed_though_no_commit_does_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.db, "WAL_CHECKPOINT_BYTES", 64 * 1024)
    db = await Database.open(tmp_path / "c.db", synchronous="NORMAL")
    try:
        pages = await db.write(lambda conn: conn.execute("PRAGMA wal_autocheckpoint").fetchone())
        assert pages[0] == 0  # no COMMIT checkpoints (on the loop it would stall every click)
        await db.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER, blob BLOB)"))
        blob, wal = bytes(8192), Path(f"{db.path}-wal")
        for n in range(300):  # many small batches
            await db.write(insert(n, blob))
        # Never checkpointed, the WAL would hold every blob: 300 × 8 KiB and more.
        assert wal.stat().st_size < 300 * len(blob) / 3
        await asyncio.gather(*(db.write(insert(n, blob)) for n in range(300)))  # one batch
        for n in range(3):
            await db.write(insert(n, b""))
        assert wal.stat().st_size < 300 * len(blob) / 3  # cut back once it started over
        assert len(await rows(db)) == 603
    finally:
        await db.close()


async def test_closing_commits_the_writes_still_waiting_for_the_loop(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "x.db")
    await db.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER, blob BLOB)"))
    pending = db.submit(insert(7))
    await db.close()
    assert pending.done() and pending.result() == threading.current_thread().name
    reopened = await Database.open(tmp_path / "x.db")
    try:
        assert await rows(reopened) == [7]
    finally:
        await reopened.close()
