"""Where each player's DM hand message is, so the bot can edit it after a restart."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from storage.db import Database


@dataclass(frozen=True, slots=True)
class HandMessage:
    session_id: str
    user_id: int
    channel_id: int
    message_id: int


def _hand(row: aiosqlite.Row) -> HandMessage:
    return HandMessage(row["session_id"], row["user_id"], row["channel_id"], row["message_id"])


class HandMessages:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(self, session_id: str, user_id: int, channel_id: int, message_id: int) -> None:
        """Remember (or replace) the DM message holding `user_id`'s hand in a session."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO hand_messages (session_id, user_id, channel_id, message_id) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (session_id, user_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id",
                (session_id, user_id, channel_id, message_id),
            )

    async def get(self, session_id: str, user_id: int) -> HandMessage | None:
        async with (
            self.db.read() as conn,
            conn.execute(
                "SELECT * FROM hand_messages WHERE session_id = ? AND user_id = ?",
                (session_id, user_id),
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return None if row is None else _hand(row)

    async def for_session(self, session_id: str) -> list[HandMessage]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT * FROM hand_messages WHERE session_id = ? ORDER BY user_id", (session_id,)
            )
        return [_hand(row) for row in rows]

    async def delete(self, session_id: str, user_id: int) -> bool:
        """Forget one hand message (say, after the DM was deleted); True if there was one."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM hand_messages WHERE session_id = ? AND user_id = ?",
                (session_id, user_id),
            )
            return cursor.rowcount > 0

    async def clear(self, session_id: str) -> int:
        """Forget every hand message of a session; returns how many there were."""
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM hand_messages WHERE session_id = ?", (session_id,)
            )
            return cursor.rowcount
