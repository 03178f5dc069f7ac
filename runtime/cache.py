"""The sessions held in memory: each loaded from the store on first touch, rebuilt from its
snapshot and the log after it, and kept while live. One whose log no longer loads is
quarantined (set aside, its table told) and never stops the others."""

from __future__ import annotations

import gc
import logging
from typing import Any

from games.engine.contract import Event, Rules
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import SessionRecord, Status
from games.engine.step import replay
from runtime.core import Core
from runtime.listeners import Change, Listeners
from runtime.logcontext import about
from storage.session_store import LoadedSession

log = logging.getLogger(__name__)

FREEZE_EVERY = 512
"""The heap is frozen (`gc.freeze()`) once this many more sessions are held than the fewest
held since the last freeze: what was built in bulk is long-lived, so full collections stop
walking it (with 10,000 sessions a full collection otherwise stalls the loop for a quarter of a
second). Objects that die later are still freed by reference counting. A rematch replaces a
finished game and adds no session, so it freezes nothing: at a steady number of games,
freezing every 512 rematches walked every object made since (the moves in flight too) for
15-50 ms each time, about 3 us a move of The Game's closed loop, where the youngest
generation, whose count the freed games' objects bring back down, is seldom collected."""


YOUNG_COLLECTION = 100_000
"""Allocations between two collections of the youngest generation (Python's default: 700).
A move allocates a few hundred objects that live until its commit, so at the default a
collection ran every couple of moves and promoted those still waiting for their batch, for the
middle generation to walk again: about a tenth of a move's CPU (`bench/service.py`, The Game,
closed loop: 138 against 123 us a move). A young collection walks every young object still
alive, which in a closed loop is the moves in flight (60,000 objects at 1,000 sessions: 25-40 ms
each, finding no garbage), whatever the threshold: at 20,000 one ran every 0.7 s (3 us a move),
at 100,000 every 5 s. Garbage without cycles is freed by reference counting whatever this is."""


class Cache:
    def __init__(self, core: Core, listeners: Listeners) -> None:
        gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
        self._core = core
        self._listeners = listeners
        self.sessions: dict[str, Session] = {}
        self._fewest = 0
        """The fewest sessions held since the last freeze."""

    def cached(self, session_id: str) -> Session | None:
        """The session if it is in memory (no load)."""
        return self.sessions.get(session_id)

    async def get(self, session_id: str) -> Session:
        """The session, loaded from the store on first touch.

        A session whose stored log no longer loads is quarantined (and UNKNOWN_SESSION raised)
        instead of raising whatever the replay raised.
        """
        session = self.sessions.get(session_id)
        if session is not None:
            return session
        loaded = await self._core.store.load(session_id)
        cached = self.sessions.get(session_id)
        if cached is not None:
            # Loaded meanwhile by another caller, maybe already moved on under its lock: a copy
            # replacing it would hold an old version and refuse every up-to-date click.
            return cached
        if loaded is None:
            raise GameError(Reason.UNKNOWN_SESSION)
        rules = self._core.rules(loaded.record.game_id)
        try:
            session = build(loaded, rules)
        except Exception as error:
            await self._quarantine(loaded.record, rules, error)
            raise GameError(Reason.UNKNOWN_SESSION, "quarantined") from error
        if session.record.status.live:  # a finished session is only looked at; nothing to hold
            self.hold(session)
        return session

    async def live_in_channel(self, channel_id: int) -> Session | None:
        record = await self._core.store.live_in_channel(channel_id)
        return None if record is None else await self.get(record.id)

    async def live_sessions(self, guild_id: int | None = None) -> list[Session]:
        return [await self.get(r.id) for r in await self._core.store.live_sessions(guild_id)]

    async def fresh(self, session_id: str) -> Session:
        """Drop the cached copy and load the session again (another process moved it on)."""
        self.sessions.pop(session_id, None)
        return await self.get(session_id)

    def hold(self, session: Session) -> None:
        """Keep a live session in memory; once `FREEZE_EVERY` more are held than the fewest
        since the last freeze, freeze the heap."""
        sessions = self.sessions
        self._fewest = min(self._fewest, len(sessions))  # only drops happened since the last hold
        sessions[session.id] = session
        if len(sessions) - self._fewest >= FREEZE_EVERY:
            self._fewest = len(sessions)
            freeze()

    def drop(self, session: Session) -> None:
        """Forget `session` if it is the copy held (the store may now be ahead of it)."""
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]

    def drop_if_over(self, session_id: str) -> None:
        """Over and told: stop holding it; a later look (rematch, redraw) reloads it."""
        session = self.sessions.get(session_id)
        if session is not None and not session.record.status.live:
            del self.sessions[session_id]
            self._core.timers.set(session_id, None)

    async def _quarantine(
        self, record: SessionRecord, rules: Rules[Any, Any, Any, Any], error: Exception
    ) -> None:
        """Set aside a session that cannot load: logged, marked in the store, its table told."""
        with about(record):
            log.error("session %s cannot be loaded; quarantined", record.id, exc_info=error)
        reason = f"{type(error).__name__}: {error}"
        if not await self._core.store.quarantine(record.id, reason):
            return  # another caller (or process) already did
        self._core.timers.set(record.id, None)
        closed = record.model_copy(update={"status": Status.ABANDONED, "quarantine": reason})
        event = Event(key="session.quarantined")
        change = Change(session=Session(closed, rules), events=(event,), kind="quarantine")
        self._listeners.publish(change)


def freeze() -> None:
    """Keep what was built so far out of every full collection (it lives on)."""
    gc.collect(1)  # young cyclic garbage goes first: a frozen cycle is never freed
    gc.freeze()


def build(loaded: LoadedSession, rules: Rules[Any, Any, Any, Any]) -> Session:
    """The live session from what the store holds: the snapshot plus the log after it."""
    record = loaded.record
    deadlines = {deadline.key: deadline for deadline in loaded.deadlines}
    session = Session(record=record, rules=rules, deadlines=deadlines)
    if record.config is not None and record.quarantine is None:
        session.config = rules.config_model.model_validate(record.config)
        start = (
            rules.state_model.model_validate(loaded.snapshot.state)
            if loaded.snapshot is not None
            else None
        )
        session.state = replay(rules, session.config, loaded.log, start=start)
        session.waiting = rules.to_move(session.state)
    return session
