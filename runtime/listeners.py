"""Telling the bot what changed: observers and listeners of committed changes.

A change is told once the session's lock is let go, never while a command or an AI move still
holds it, so whoever is told may call back into the service for the same session: a command
tells what it did right after its `async with` on the lock (`tell`); a change made deeper under
a lock (an AI's move, a deadline, a refusal) is published for its release (`publish`,
`Locks.when_free`). Observers run
at once then, before the command's caller gets the change back (they keep in-memory logs the
caller's reply draws from); listeners (DMs, pings, records, redraws) run after that, in a
background task per session. Both see a session's changes in commit order: the lock orders the
commits, and nothing awaits between a release and its telling.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from games.engine.contract import AiDecision, Event
from games.engine.live import Session
from runtime.core import Core
from runtime.logcontext import CURRENT, About, bind
from storage.session_store import StoreUnavailable

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Change:
    """A change the bot should show: the session after it and what happened. Nothing changes
    one once made; not frozen, as one is made on every move (a frozen dataclass sets each
    field through `object.__setattr__`, at about four times the cost).

    `kind`: lobby, start, move (a seat's, an AI's, or SYSTEM closing a window), leave,
    abandon, back (an away player retook the seat), warn (a turn is half over), hint (a
    player asked the AI for a hint: the seat's count went up) or quarantine
    (the session's log no longer loads: it was set aside as abandoned, `session.state` is None
    and its one event is `session.quarantined`; the table should say the game could not be
    restored and is closed).
    """

    session: Session
    events: tuple[Event, ...] = ()
    actor: int | None = None
    kind: str = "move"


@dataclass(frozen=True)
class Hint:
    """What the AI would play for `seat` at `version`, decided from that seat's view only."""

    seat: int
    version: int
    decision: AiDecision


Listener = Callable[[Change], Awaitable[None]]
Observer = Callable[[Change], None]


@dataclass
class _Outbox:
    """A session's changes not yet told to the listeners, and the task telling them."""

    changes: deque[Change] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


class Listeners:
    told: Callable[[str], None]
    """Run each time a session's listeners have caught up (the cache's `drop_if_over`; set as
    the service is wired)."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._listeners: list[Listener] = []
        self._observers: list[Observer] = []
        self.outboxes: dict[str, _Outbox] = {}
        """Sessions with changes being told (dropped once told)."""
        self._over: list[str] = []
        """Over games told with no listener to wait for, let go of together (`_let_go`)."""
        self._letting_go: asyncio.Task[None] | None = None

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every change, after its caller has it, in order per session,
        in a task of the session's own: it may call back into the service."""
        self._listeners.append(listener)

    def observe(self, observer: Observer) -> None:
        """Call `observer` with every change once its session's lock is let go and before the
        command that made it returns, in commit order: for in-memory bookkeeping only, no
        I/O."""
        self._observers.append(observer)

    def pumps(self) -> list[asyncio.Task[None]]:
        """The tasks telling listeners now: shutting down lets them finish."""
        return [o.task for o in self.outboxes.values() if o.task is not None]

    def publish(self, change: Change) -> Change:
        """Tell `change` once its session's lock is let go (at once if nobody holds it): for a
        change made deeper than the `async with` that took the lock; returns it."""
        self._core.locks.when_free(change.session.id, lambda: self.tell(change))
        return change

    def tell(self, change: Change) -> Change:
        """Tell `change` now; returns it for the caller. Called with its session's lock just
        let go and nothing awaited since, so whatever the release woke runs after this, and
        every change is told in commit order."""
        session_id = change.session.id
        if self._observers:
            token = CURRENT.set(About.of(change.session.record))  # (no context manager: per move)
            for observer in self._observers:
                try:
                    observer(change)
                except Exception:
                    log.exception("observer failed for session %s", session_id)
            CURRENT.reset(token)
        if not self._listeners:  # nobody to tell in the background: no task per move
            if not change.session.record.status.live:  # (`told` only lets go of an over game)
                self._over.append(session_id)
                if self._letting_go is None or self._letting_go.done():
                    self._letting_go = self._core.background.spawn(self._let_go())
            return change
        outbox = self.outboxes.get(session_id)
        if outbox is None:
            outbox = self.outboxes[session_id] = _Outbox()
        outbox.changes.append(change)
        if outbox.task is None or outbox.task.done():
            outbox.task = self._core.background.spawn(self._deliver(session_id, outbox))
        return change

    async def _let_go(self) -> None:
        """`told` of each over game, a turn of the loop later, as after a delivery: whoever
        ended the game and looks again at once (a rematch) finds it held instead of replaying
        it from the store. One task for the games one commit ended together, not one each."""
        over, self._over = self._over, []
        for session_id in over:
            self.told(session_id)

    async def _deliver(self, session_id: str, outbox: _Outbox) -> None:
        while outbox.changes:
            change = outbox.changes.popleft()
            bind(change.session.record)  # this task tells one session's changes only
            for listener in list(self._listeners):
                await self._run(listener, change)
        self.told(session_id)
        if self.outboxes.get(session_id) is outbox:
            del self.outboxes[session_id]

    async def _run(self, listener: Listener, change: Change) -> None:
        """Run a listener on a change; again after a store outage (records are idempotent),
        so a game that ended just before the outage still gets its record."""
        while True:
            try:
                await listener(change)
                return
            except StoreUnavailable as error:
                if self._core.closed:
                    self._core.outage(error)
                    return
                await self._core.wait_out(error)
            except Exception:
                log.exception("listener failed for session %s", change.session.id)
                return
