"""A finished game's result into this server's records (with each seat's result for its
player's stats, in one transaction; a game played with hints is marked with their count), and
the records the end table shows."""

from __future__ import annotations

from collections.abc import Mapping

from bot.context import Records
from bot.game_ui import GameUI
from games.engine import Session
from storage import RecordStore, SeatRow


class Results:
    def __init__(self, records: RecordStore, games: Mapping[str, GameUI]) -> None:
        self.records = records
        self.games = games

    async def store(self, session: Session) -> None:
        """Record a finished session (idempotent: a session is recorded once)."""
        ui = self.games[session.record.game_id]
        result = ui.result(session)
        if result is None:
            return
        record = session.record
        seats = [
            SeatRow(
                seat=index,
                user_id=record.seats[index].user_id,
                won=seat.won,
                score=seat.score,
                result=seat.result,
                name=record.seats[index].name,
                hints=record.seats[index].hints,
            )
            for index, seat in enumerate(ui.seat_results(session) or ())
            if index < len(record.seats)
        ]
        await self.records.add(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            game_id=record.game_id,
            session_id=record.id,
            result=result.result,
            score=result.score,
            players=len(record.seats),
            won=result.won,
            seats=seats,
            hints=sum(seat.hints for seat in record.seats),
        )

    async def summary(self, session: Session) -> Records:
        """The records of the session's game in its server and its channel."""
        record = session.record
        server = await self.records.stats(record.guild_id, record.game_id)
        channel = await self.records.stats(record.guild_id, record.game_id, record.channel_id)
        return Records(server, channel)
