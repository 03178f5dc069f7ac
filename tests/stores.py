"""Raw SQL on either backend's storage, for tests that look under the stores."""

from __future__ import annotations

import re
from typing import Any

import aiosqlite
import asyncpg

from storage import Storage

INTEGRITY_ERRORS = (aiosqlite.IntegrityError, asyncpg.IntegrityConstraintViolationError)
"""What a broken key or foreign key raises, on SQLite or PostgreSQL."""

REFUSED_UPDATE = (aiosqlite.IntegrityError, asyncpg.RaiseError)
"""What the append-only trigger of `actions` raises."""


def numbered(sql: str) -> str:
    """`?` placeholders as `$1, $2, …` (what the stores write, on either database)."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


async def execute(storage: Storage, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement (`?` placeholders) in its own group commit on the writer."""
    rows = await storage.db.write(lambda conn: conn.fetch(numbered(sql), *params))
    return [tuple(row) for row in rows]


async def scalar(storage: Storage, sql: str, *params: Any) -> Any:
    """The first column of the first row of a query (`?` placeholders), on a reader."""
    return await storage.db.fetchval(numbered(sql), *params)
