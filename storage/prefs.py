"""Per-user and per-guild preferences (language, hand delivery, …) as string key/values.

Values are plain strings so the storage layer needs no knowledge of what the bot keeps;
the bot parses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from storage.database import statement

if TYPE_CHECKING:
    from storage.database import Database


class SqlPrefTable:
    """get/all/set/delete over one `(owner_id, key) -> value` table (a `PrefTable`)."""

    def __init__(self, db: Database, table: Literal["user_prefs", "guild_prefs"]) -> None:
        self.db = db
        self.table = table
        self.owner = "user_id" if table == "user_prefs" else "guild_id"

    async def get(self, owner_id: int, key: str, default: str | None = None) -> str | None:
        sql = f"SELECT value FROM {self.table} WHERE {self.owner} = $1 AND key = $2"
        value = await self.db.fetchval(sql, owner_id, key)
        return default if value is None else str(value)

    async def all(self, owner_id: int) -> dict[str, str]:
        sql = f"SELECT key, value FROM {self.table} WHERE {self.owner} = $1 ORDER BY key"
        return {row["key"]: row["value"] for row in await self.db.fetch(sql, owner_id)}

    async def set(self, owner_id: int, key: str, value: str) -> None:
        sql = (
            f"INSERT INTO {self.table} ({self.owner}, key, value) VALUES ($1, $2, $3) "
            f"ON CONFLICT ({self.owner}, key) DO UPDATE SET value = excluded.value"
        )
        await self.db.write(statement(sql, owner_id, key, value))

    async def delete(self, owner_id: int, key: str) -> bool:
        """Remove a value; True if there was one."""
        sql = f"DELETE FROM {self.table} WHERE {self.owner} = $1 AND key = $2"
        return await self.db.write(statement(sql, owner_id, key)) > 0


class Prefs:
    """`prefs.user.get(user_id, "locale")`, `prefs.guild.set(guild_id, "locale", "ja")`."""

    def __init__(self, db: Database) -> None:
        self.user = SqlPrefTable(db, "user_prefs")
        self.guild = SqlPrefTable(db, "guild_prefs")
