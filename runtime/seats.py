"""Driving the seats the AI plays: AI seats, away players' seats, and turns whose timer ran
out. Each session's driver is a task of its own that plays `ai_delay` after the change that
made the move due; a STRONG decision is made outside the session's lock, in the AI pool, so
players' clicks go on meanwhile. The writer's `arm` starts a driver (`drive`) when a commit
leaves the AI a seat to play, and stops it once the game is over."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import NORMAL, AiDecision, Event
from games.engine.deadlines import Deadline, Key
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import SessionRecord, Status
from games.engine.step import advance
from runtime.cache import Cache
from runtime.commit import Writer, advanced, autoplay_seats, with_seat
from runtime.core import Core
from runtime.listeners import Change, Listeners
from runtime.logcontext import bind
from runtime.thinking import Thinker, level_of
from storage.session_store import StoreUnavailable

log = logging.getLogger(__name__)


class Seats:
    def __init__(
        self,
        core: Core,
        cache: Cache,
        writer: Writer,
        listeners: Listeners,
        thinker: Thinker,
        ai_delay: float,
    ) -> None:
        self._core = core
        self._cache = cache
        self._writer = writer
        self._listeners = listeners
        self._thinker = thinker
        self.ai_delay = ai_delay
        self.drivers: dict[str, asyncio.Task[None]] = {}
        """Each session's AI driver while it runs."""

    def drive(self, session: Session) -> None:
        """Start the session's driver if none runs (the AI has a seat to play), or stop it once
        the game is no longer in play."""
        driver = self.drivers.get(session.id)
        if session.record.status is not Status.ACTIVE:
            if driver is not None and driver is not asyncio.current_task():
                driver.cancel()
        elif driver is None or driver.done():
            since = self._core.clock.now()
            self.drivers[session.id] = self._core.background.spawn(self._drive(session.id, since))

    async def _drive(self, session_id: str, since: float) -> None:
        """Play the AI's seats, `ai_delay` after the change that made each move due (in a store
        outage, again every `RETRY_AFTER` until the store is back)."""
        try:
            while True:
                try:
                    await self._play_seats(session_id, since)
                    return
                except StoreUnavailable as error:
                    await self._core.wait_out(error)
                    since = self._core.clock.now() - self.ai_delay  # the move is overdue: at once
        finally:
            if self.drivers.get(session_id) is asyncio.current_task():
                del self.drivers[session_id]

    async def _play_seats(self, session_id: str, since: float) -> None:
        core = self._core
        pause = True
        while True:
            if pause:
                await core.background.sleep_until(since + self.ai_delay)
            pause = True
            async with core.locks.hold(session_id):
                try:
                    session = await self._cache.get(session_id)
                except GameError:
                    return  # gone, or quarantined while loading
                if session.record.status is not Status.ACTIVE:
                    return
                bind(session.record)
                seats = autoplay_seats(session)
                if not seats:
                    return
                seat = seats[0]
                ai = core.ais[session.record.game_id]
                level = _level(session.record, ai, seat)
                if level == NORMAL:
                    try:
                        await self.play(session, seat)
                        since = core.clock.now()
                    except GameError as error:
                        if error.reason is not Reason.STALE_VERSION:
                            raise
                        pause = False  # another writer moved on: reload and play at once
                    continue
                version = session.record.version
                rules, view = session.rules, session.rules.view(session.state, seat)
                seed = ai_seed(session.record)
            # Off the loop and outside the lock: players' clicks (and hints) go on meanwhile.
            decision = await self._thinker.decide(rules, ai, view, seed, level)
            async with core.locks.hold(session_id):
                try:
                    session = await self._cache.get(session_id)
                except GameError:
                    return
                record = session.record
                moved_on = record.status is not Status.ACTIVE or record.version != version
                if moved_on or seat not in autoplay_seats(session):
                    pause = False  # decided for a table that changed: look again at once
                    continue
                try:
                    await self.play(session, seat, decision=decision)
                    since = core.clock.now()
                except GameError as error:
                    if error.reason is not Reason.STALE_VERSION:
                        raise
                    pause = False

    async def play(
        self,
        session: Session,
        seat: int,
        *,
        record: SessionRecord | None = None,
        keep: Mapping[Key, Deadline] | None = None,
        events: tuple[Event, ...] = (),
        decision: AiDecision | None = None,
    ) -> Change:
        """One AI action for `seat`, decided from its view (NORMAL, in place, unless
        `decision` was made already); `record` carries seat changes. Under the lock."""
        rules, state = session.rules, session.state
        base = session.record if record is None else record
        if base.seats[seat].user_id is not None:  # a player's seat the AI holds for them
            base = with_seat(base, seat, ai_moves=base.seats[seat].ai_moves + 1)
        if decision is None:
            ai = self._core.ais[base.game_id]
            decision = self._thinker.now(ai, rules.view(state, seat), ai_seed(base))
        waiting = session.waiting
        try:
            step = advance(rules, state, base.version, seat, decision.action, base.seed, waiting)
        except GameError:
            log.exception("AI chose a refused action in %s; playing a legal one", session.id)
            legal = rules.legal_actions(state, seat)[0]
            step = advance(rules, state, base.version, seat, legal, base.seed, waiting)
        await self._writer.write(session, advanced(base, rules, step), step, keep=keep)
        change = Change(session=session, events=(*events, *step.events), actor=seat)
        return self._listeners.publish(change)


def ai_seed(record: SessionRecord) -> str:
    """The seed of the AI's rng at the record's version: the same move after a restart."""
    return f"{record.seed}:ai:{record.version}"


def _level(record: SessionRecord, ai: GameAI[Any, Any], seat: int) -> str:
    """The level the AI plays `seat` at: an AI seat's own if its game offers it (else NORMAL),
    NORMAL for a player's seat it holds (away, or a turn whose timer ran out)."""
    held = record.seats[seat]
    return level_of(held.ai_level, ai.levels) if held.is_ai else NORMAL
