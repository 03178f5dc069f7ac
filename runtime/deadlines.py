"""Acting on deadlines as they fall due: a rules window closes (SYSTEM plays its timeout
action), a turn is half over (the player is warned), a turn timer runs out (the AI plays that
turn, and after `AWAY_AFTER` in a row holds the seat). Which deadlines a session needs is
`games.engine.deadlines.plan`; they are stored with each change (`runtime.commit`)."""

from __future__ import annotations

import math

from games.engine.contract import SYSTEM, Event
from games.engine.deadlines import Deadline, Key
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import Status
from games.engine.step import advance
from runtime.cache import Cache
from runtime.commit import Writer, advanced, with_seat
from runtime.core import Core
from runtime.listeners import Change, Listeners
from runtime.logcontext import bind
from runtime.seats import Seats
from storage.session_store import StoreUnavailable

AWAY_AFTER = 3
"""Turn-timer expiries in a row after which an AI holds the seat until its player is back."""


class Deadlines:
    def __init__(
        self, core: Core, cache: Cache, writer: Writer, listeners: Listeners, seats: Seats
    ) -> None:
        self._core = core
        self._cache = cache
        self._writer = writer
        self._listeners = listeners
        self._seats = seats

    async def fire(self, session_id: str) -> None:
        """A session's earliest deadline came: act on every deadline now due, one at a time.
        In a store outage, it comes again `RETRY_AFTER` later."""
        try:
            await self._due(session_id)
        except StoreUnavailable as error:
            self._core.retry_later(session_id, error)

    async def _due(self, session_id: str) -> None:
        async with self._core.locks.hold(session_id):
            try:
                session = await self._cache.get(session_id)
            except GameError:
                return  # gone, or quarantined while loading
            bind(session.record)
            now = self._core.clock.now()
            due_now = [d for d in session.deadlines.values() if not d.fired and d.due <= now]
            if session.record.status is not Status.ACTIVE or not due_now:
                self._writer.arm(session)
                return
            try:
                await self._act(session, min(due_now, key=lambda d: d.due))
            except GameError as error:
                if error.reason is not Reason.STALE_VERSION:
                    raise
                self._core.timers.set(session_id, now)  # another writer moved on: try again

    async def _act(self, session: Session, deadline: Deadline) -> None:
        """Act on a deadline that fell due; one that no longer applies is just dropped."""
        record, rules, state = session.record, session.rules, session.state
        rest = {key: d for key, d in session.deadlines.items() if key != deadline.key}
        to_move = session.waiting
        seat = deadline.seat
        write = self._writer.write
        if deadline.kind == "window":
            if to_move.timeout is not None:
                action = rules.timeout_action(state)
                step = advance(rules, state, record.version, SYSTEM, action, record.seed, to_move)
                await write(session, advanced(record, rules, step), step, keep=rest)
                change = Change(session=session, events=step.events, actor=SYSTEM)
                self._listeners.publish(change)
                return
        elif seat is not None and seat in to_move.seats and not record.seats[seat].autoplay:
            if deadline.kind == "turn":
                await self._expire(session, deadline, rest)
                return
            turn = session.deadlines.get(("turn", seat))
            if turn is not None and turn.due > self._core.clock.now():  # else: too late to warn
                await write(session, record, keep=rest)
                params = {"seat": seat, "due": math.ceil(turn.due)}
                warning = Event(key="session.turn_warning", params=params)
                self._listeners.publish(Change(session=session, events=(warning,), kind="warn"))
                return
        await write(session, record, keep=rest)

    async def _expire(self, session: Session, turn: Deadline, rest: dict[Key, Deadline]) -> None:
        """A seat's turn timer ran out: the AI plays its first action now, the rest of the turn
        as an AI seat would; the deadline stays (marked fired) until that turn is done."""
        seat = turn.seat
        assert seat is not None
        missed = session.record.seats[seat].missed + 1
        away = missed >= AWAY_AFTER
        events = [Event(key="session.turn_expired", params={"seat": seat})]
        if away:
            events.append(Event(key="session.seat_away", params={"seat": seat}))
        record = with_seat(session.record, seat, missed=missed, away=away)
        keep = {**rest, turn.key: turn.model_copy(update={"fired": True})}
        keep.pop(("warn", seat), None)
        await self._seats.play(session, seat, record=record, keep=keep, events=tuple(events))
