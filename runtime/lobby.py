"""The lobby's commands: open one (one live session per channel), join, seat and remove AI
players, and remember the table's message."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.built import built, evolve
from games.engine.contract import AI_LEVELS, NORMAL
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import Seat, SessionRecord, Status
from runtime.cache import Cache
from runtime.commit import Writer
from runtime.core import Core
from runtime.listeners import Change, Listeners
from storage.session_store import SessionIdTaken

log = logging.getLogger(__name__)

ID_TRIES = 5
"""Ids a new session tries before its creation fails: only a broken id source runs out."""


def new_session_id() -> str:
    """64 random bits: at a million stored games, a new game clashes about once in 10^13 (a
    clash is retried with another id anyway)."""
    return secrets.token_hex(8)


FRESH_SEAT = {"away": False, "missed": 0, "hints": 0, "ai_moves": 0}
"""A seat's counts for one game, as a rematch starts them again."""


@dataclass(frozen=True, slots=True)
class Table:
    """What a new lobby is opened with, besides its seats."""

    game_id: str
    guild_id: int | None
    channel_id: int
    locale: str
    options: Mapping[str, Any]
    turn_timer: int | None


class Lobby:
    """`seeds()` and `ids()`: each new session's seed and id."""

    def __init__(
        self,
        core: Core,
        cache: Cache,
        writer: Writer,
        listeners: Listeners,
        seeds: Callable[[], int],
        ids: Callable[[], str],
    ) -> None:
        self._core = core
        self._cache = cache
        self._writer = writer
        self._listeners = listeners
        self._seeds = seeds
        self._ids = ids

    async def create(
        self,
        game_id: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        locale: str,
        options: Mapping[str, Any],
        turn_timer: int | None = None,
    ) -> Session:
        """Open a lobby. `turn_timer`: seconds per turn before an AI plays it (None: off)."""
        table = Table(game_id, guild_id, channel_id, locale, options, turn_timer)
        return await self._open(table, host_id, (Seat(user_id=host_id, name=host_name),))

    async def reopen(
        self,
        old: SessionRecord,
        by: int,
        options: Mapping[str, Any] | None = None,
        *,
        stored: bool = True,
    ) -> Session:
        """A new lobby at a finished game's table, hosted by `by`: its seats (each one's
        counts for the game reset), options (unless new ones are given) and turn timer, stored
        in one write (a rematch). Not `stored`: only held, its start stores it."""
        table = Table(
            old.game_id,
            old.guild_id,
            old.channel_id,
            old.locale,
            old.options if options is None else options,
            old.turn_timer,
        )
        # Copied even when fresh: a stored seat, validated as loaded, holds a fields-set of its
        # own (728 bytes a seat), which the new game would keep all its life; a copy shares one.
        seats = tuple(evolve(s, **FRESH_SEAT) for s in old.seats)
        # All of it the finished game's, validated when it was opened, unless new options came.
        return await self._open(table, by, seats, stored, checked=options is None)

    async def _open(
        self,
        table: Table,
        host_id: int,
        seats: tuple[Seat, ...],
        stored: bool = True,
        *,
        checked: bool = False,
    ) -> Session:
        """`checked`: the table, its options and seats are a stored game's (a rematch's), so
        neither they nor the record made of them are validated again; the start still builds
        the config from the options."""
        core = self._core
        rules = core.rules(table.game_id)
        if not checked:
            rules.make_config(rules.min_players, dict(table.options))  # validates the options
            if table.turn_timer is not None and table.turn_timer <= 0:
                raise GameError(Reason.BAD_OPTION, "turn_timer")
        async with core.locks.hold(f"channel:{table.channel_id}"):
            # The store refuses a second live session in a channel itself (CHANNEL_BUSY), in
            # the insert's own transaction: a read before it would cost a round trip more.
            values: dict[str, Any] = {
                "id": self._ids(),
                "game_id": table.game_id,
                "rules_version": rules.rules_version,
                "guild_id": table.guild_id,
                "channel_id": table.channel_id,
                "host_id": host_id,
                "locale": table.locale,
                "options": dict(table.options),
                "seed": self._seeds(),
                "seats": seats,
                "created_at": core.clock.now(),
                "turn_timer": table.turn_timer,
            }
            record = _built_record(values) if checked else SessionRecord(**values)
            if stored:
                record = await self._insert(record)
        session = Session(record=record, rules=rules)
        self._cache.hold(session)
        return session

    async def _insert(self, record: SessionRecord) -> SessionRecord:
        """Store a new session, under a fresh id while its id is taken (64 random bits make a
        clash all but impossible, but a clash must never cost a player their new game)."""
        for _ in range(ID_TRIES - 1):
            try:
                await self._core.store.create(record)
                return record
            except SessionIdTaken:
                log.warning("session id %s is taken: trying another", record.id)
                record = record.model_copy(update={"id": self._ids()})
        await self._core.store.create(record)
        return record

    async def _edit(
        self, session_id: str, edit: Callable[[SessionRecord], SessionRecord]
    ) -> Change:
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
            if session.record.status is not Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            await self._writer.write(session, edit(session.record))
        return self._listeners.tell(Change(session=session, kind="lobby"))

    def _seats_left(self, record: SessionRecord) -> None:
        if len(record.seats) >= self._core.rules(record.game_id).max_players:
            raise GameError(Reason.LOBBY_FULL)

    async def join(self, session_id: str, user_id: int, name: str) -> Change:
        def edit(record: SessionRecord) -> SessionRecord:
            if record.seat_of(user_id) is not None:
                raise GameError(Reason.ALREADY_SEATED)
            self._seats_left(record)
            return record.model_copy(
                update={"seats": (*record.seats, Seat(user_id=user_id, name=name))}
            )

        return await self._edit(session_id, edit)

    async def add_ai(self, session_id: str, by: int, level: str = NORMAL) -> Change:
        """Seat an AI that plays at `level` (one of the levels the game's AI offers)."""
        if level not in AI_LEVELS:
            raise GameError(Reason.BAD_OPTION, "ai_level")

        def edit(record: SessionRecord) -> SessionRecord:
            if level not in self._core.ais[record.game_id].levels:
                raise GameError(Reason.BAD_OPTION, "ai_level")
            require_host(record, by)
            self._seats_left(record)
            seat = Seat(user_id=None, name="", ai_level=level)
            return record.model_copy(update={"seats": (*record.seats, seat)})

        return await self._edit(session_id, edit)

    async def remove_ai(self, session_id: str, by: int) -> Change:
        def edit(record: SessionRecord) -> SessionRecord:
            require_host(record, by)
            ai = [i for i, seat in enumerate(record.seats) if seat.is_ai]
            if not ai:
                raise GameError(Reason.ILLEGAL_MOVE, "no_ai_seat")
            seats = record.seats[: ai[-1]] + record.seats[ai[-1] + 1 :]
            return record.model_copy(update={"seats": seats})

        return await self._edit(session_id, edit)

    async def set_table_message(self, session_id: str, message_id: int) -> None:
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
            update = {"table_message_id": message_id}
            await self._writer.write(session, session.record.model_copy(update=update))


_NEW_RECORD = {name: field.default for name, field in SessionRecord.model_fields.items()}
"""A new session record's defaults (a lobby at version 0), in the fields' order."""


def _built_record(values: dict[str, Any]) -> SessionRecord:
    """The record `SessionRecord(**values)` validates to, of values validated before (each a
    field's: merged into the defaults, they keep the fields' order)."""
    return built(SessionRecord, {**_NEW_RECORD, **values})


def require_host(record: SessionRecord, user_id: int) -> None:
    if record.host_id != user_id:
        raise GameError(Reason.NOT_HOST)
