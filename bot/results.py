"""A finished game's result into this server's records, and the records the end table shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.game_ui import GameUI
from games.engine import Session
from storage import Records


class Results:
    def __init__(self, records: Records, games: Mapping[str, GameUI]) -> None:
        self.records = records
        self.games = games

    async def store(self, session: Session) -> None:
        """Record a finished session (idempotent: a session is recorded once)."""
        result = self.games[session.record.game_id].result(session)
        if result is None:
            return
        record = session.record
        await self.records.add(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            game_id=record.game_id,
            session_id=record.id,
            result=result.result,
            score=result.score,
            players=len(record.seats),
            won=result.won,
        )

    async def summary(self, session: Session) -> dict[str, Any]:
        record = session.record
        server = await self.records.stats(record.guild_id, record.game_id)
        channel = await self.records.stats(record.guild_id, record.game_id, record.channel_id)
        return self.games[record.game_id].records_summary(server, channel)
