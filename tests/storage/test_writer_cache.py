"""The SQLite writer's page cache holds the pages a full batch of moves dirties, so SQLite
never spills them into the WAL before the COMMIT (a page spilled and changed again costs a
read-back of every frame after it)."""

from __future__ import annotations

from pathlib import Path

from storage.database import MAX_BATCH
from storage.sqlite import SqliteDatabase

PAGES_A_MOVE = 3
"""Pages a move may dirty: its log's leaf, its session's row, its snapshot's."""


async def test_the_writers_page_cache_holds_every_page_a_full_batch_dirties(
    tmp_path: Path,
) -> None:
    db = await SqliteDatabase.open(tmp_path / "c.db")
    try:
        cache = await db.write(lambda conn: conn.fetchval("PRAGMA cache_size"))
        page = await db.fetchval("PRAGMA page_size")
    finally:
        await db.close()
    pages = -cache * 1024 // page if cache < 0 else cache  # negative: KiB
    assert pages >= MAX_BATCH * PAGES_A_MOVE
