"""Where each player's DM hand message is, so the bot can edit it after a restart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from storage.database import statement
from storage.sql import Row

if TYPE_CHECKING:
    from storage.database import Database


@dataclass(frozen=True, slots=True)
class HandMessage:
    session_id: str
    user_id: int
    channel_id: int
    message_id: int


def hand_of(row: Row) -> HandMessage:
    return HandMessage(row["session_id"], row["user_id"], row["channel_id"], row["message_id"])


class HandMessages:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(self, session_id: str, user_id: int, channel_id: int, message_id: int) -> None:
        """Remember (or replace) the DM message holding `user_id`'s hand in a session."""
        sql = (
            "INSERT INTO hand_messages (session_id, user_id, channel_id, message_id) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, user_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id"
        )
        args = (session_id, user_id, channel_id, message_id)
        await self.db.write(statement(sql, *args))

    async def get(self, session_id: str, user_id: int) -> HandMessage | None:
        sql = "SELECT * FROM hand_messages WHERE session_id = $1 AND user_id = $2"
        row = await self.db.fetchrow(sql, session_id, user_id)
        return None if row is None else hand_of(row)

    async def for_session(self, session_id: str) -> list[HandMessage]:
        sql = "SELECT * FROM hand_messages WHERE session_id = $1 ORDER BY user_id"
        return [hand_of(row) for row in await self.db.fetch(sql, session_id)]

    async def delete(self, session_id: str, user_id: int) -> bool:
        """Forget one hand message (say, after the DM was deleted); True if there was one."""
        sql = "DELETE FROM hand_messages WHERE session_id = $1 AND user_id = $2"
        return await self.db.write(statement(sql, session_id, user_id)) > 0

    async def clear(self, session_id: str) -> int:
        """Forget every hand message of a session; returns how many there were."""
        sql = "DELETE FROM hand_messages WHERE session_id = $1"
        return await self.db.write(statement(sql, session_id))
