"""The numbered migrations of `storage.migrations` on PostgreSQL, tracked in `schema_version`.

Each migration runs in its own transaction together with the version bump, under a
transaction-scoped advisory lock: two processes starting at once serialise here, the second
finds the version moved on and applies nothing twice, and a failed migration (DDL is
transactional in PostgreSQL) leaves the database at the previous version.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from storage.migrations import MIGRATIONS, Migration, NewerSchema

LOCK = 0x7461626C65626F74
"""The advisory lock key migrations take ("tablebot" in ASCII)."""

_VERSION_TABLE = """
CREATE TABLE schema_version (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    version INTEGER NOT NULL CHECK (version >= 0)
);
INSERT INTO schema_version (version) VALUES (0);
"""


async def schema_version(conn: asyncpg.Connection) -> int:
    """The applied version; 0 for a database this code never migrated."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT version FROM schema_version"))


async def _locked_version(conn: asyncpg.Connection) -> int:
    """Take the migration lock (until the transaction ends) and read the version."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK)
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        await conn.execute(_VERSION_TABLE)
    return await schema_version(conn)


async def migrate(
    conn: asyncpg.Connection, migrations: Sequence[Migration] = MIGRATIONS
) -> list[int]:
    """Apply the migrations the database lacks; returns their numbers (empty when up to
    date)."""
    applied: list[int] = []
    while True:
        async with conn.transaction():
            current = await _locked_version(conn)
            if current > len(migrations):
                raise NewerSchema(current, len(migrations))
            if current == len(migrations):
                return applied
            number = current + 1
            await conn.execute(migrations[number - 1].postgresql)
            await conn.execute("UPDATE schema_version SET version = $1", number)
        applied.append(number)
