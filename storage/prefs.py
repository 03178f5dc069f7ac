"""Per-user and per-guild preferences (language, hand delivery, …) as string key/values.

Values are plain strings so the storage layer needs no knowledge of what the bot keeps;
the bot parses them.
"""

from __future__ import annotations

from typing import Literal

from storage.db import Database


class SqlitePrefTable:
    """get/all/set/delete over one `(owner_id, key) -> value` table (a `PrefTable`)."""

    def __init__(self, db: Database, table: Literal["user_prefs", "guild_prefs"]) -> None:
        self.db = db
        self.table = table
        self.owner = "user_id" if table == "user_prefs" else "guild_id"

    async def get(self, owner_id: int, key: str, default: str | None = None) -> str | None:
        sql = f"SELECT value FROM {self.table} WHERE {self.owner} = ? AND key = ?"
        row = await self.db.read(lambda conn: conn.execute(sql, (owner_id, key)).fetchone())
        return default if row is None else str(row[0])

    async def all(self, owner_id: int) -> dict[str, str]:
        sql = f"SELECT key, value FROM {self.table} WHERE {self.owner} = ? ORDER BY key"
        rows = await self.db.read(lambda conn: conn.execute(sql, (owner_id,)).fetchall())
        return {row["key"]: row["value"] for row in rows}

    async def set(self, owner_id: int, key: str, value: str) -> None:
        sql = (
            f"INSERT INTO {self.table} ({self.owner}, key, value) VALUES (?, ?, ?) "
            f"ON CONFLICT ({self.owner}, key) DO UPDATE SET value = excluded.value"
        )
        await self.db.write(lambda conn: conn.execute(sql, (owner_id, key, value)))

    async def delete(self, owner_id: int, key: str) -> bool:
        """Remove a value; True if there was one."""
        sql = f"DELETE FROM {self.table} WHERE {self.owner} = ? AND key = ?"
        return await self.db.write(lambda conn: conn.execute(sql, (owner_id, key)).rowcount > 0)


class Prefs:
    """`prefs.user.get(user_id, "locale")`, `prefs.guild.set(guild_id, "locale", "ja")`."""

    def __init__(self, db: Database) -> None:
        self.user = SqlitePrefTable(db, "user_prefs")
        self.guild = SqlitePrefTable(db, "guild_prefs")
