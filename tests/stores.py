"""Raw SQL on either backend's storage, for tests that look under the stores."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import asyncpg

from storage import Storage

INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
"""What a broken key or foreign key raises, on SQLite or PostgreSQL."""

REFUSED_UPDATE = (sqlite3.IntegrityError, asyncpg.RaiseError)
"""What the append-only trigger of `actions` raises."""


def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …`."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


async def execute(storage: Storage, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement (`?` placeholders) in its own group commit on the writer."""
    if storage.backend == "sqlite":
        rows = await storage.db.write(lambda conn: conn.execute(sql, params).fetchall())
    else:
        rows = await storage.db.write(lambda conn: conn.fetch(numbered(sql), *params))
    return [tuple(row) for row in rows]


async def scalar(storage: Storage, sql: str, *params: Any) -> Any:
    """The first column of the first row of a query (`?` placeholders), on a reader."""
    if storage.backend == "sqlite":
        rows = await storage.db.read(lambda conn: conn.execute(sql, params).fetchall())
    else:
        rows = await storage.db.read(lambda conn: conn.fetch(numbered(sql), *params))
    return rows[0][0]
