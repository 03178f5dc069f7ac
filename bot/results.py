"""A finished game's result into this server's records (with each seat's result for its
player's stats, in one transaction; a game played with hints is marked with their count), and
the records the end table shows."""

from __future__ import annotations

from collections.abc import Mapping

from bot.context import Records
from bot.game_ui import GameUI
from bot.ratings import entrants
from games.engine import LoggedAction, Session
from storage import RatingStore, RecordStore, SeatRow
from storage.session_store import SessionStore


class Results:
    def __init__(
        self,
        records: RecordStore,
        ratings: RatingStore,
        sessions: SessionStore,
        games: Mapping[str, GameUI],
    ) -> None:
        self.records = records
        self.ratings = ratings
        self.sessions = sessions
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
        standing = ui.standing(session)
        rated = () if standing is None else entrants(session, standing, await self._log(session))
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
            entrants=rated,
        )

    async def _log(self, session: Session) -> tuple[LoggedAction, ...]:
        return await self.sessions.log(session.id)

    async def summary(self, session: Session) -> Records:
        """The records of the session's game in its server and its channel, and the change
        of each rated seat's rating."""
        record = session.record
        server = await self.records.stats(record.guild_id, record.game_id)
        channel = await self.records.stats(record.guild_id, record.game_id, record.channel_id)
        return Records(server, channel, await self.ratings.changes(record.id))
