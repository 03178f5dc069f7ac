"""Open a PostgreSQL database for the bot: connect, migrate, return the group-commit database."""

from __future__ import annotations

from storage.postgres.db import PgDatabase, connect
from storage.postgres.migrations import migrate


async def open_postgres(url: str) -> PgDatabase:
    """Apply the pending migrations (on a connection of their own), then open the writer and
    the readers."""
    conn = await connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()
    return await PgDatabase.open(url)
