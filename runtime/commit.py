"""Persisting a change: the record, its log entries, a snapshot now and then, and the deadlines
the change makes due, in one transaction, before the change reaches memory and the session's
timer. A cancelled caller cannot leave memory behind the store."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from games.engine.contract import Rules
from games.engine.deadlines import Deadline, Key, changes, plan
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import SessionRecord, Status
from games.engine.step import Advance
from runtime.cache import Cache
from runtime.core import Core
from storage.session_store import (
    Durable,
    SessionWrite,
    StoreUnavailable,
    Taken,
    VersionConflict,
)

SNAPSHOT_EVERY = 20
"""Versions between snapshots (one is also taken at the deal and at the end): no load replays
more than this many actions, whatever the game's length. A snapshot is only a cache."""


class Writer:
    drive: Callable[[Session], None]
    """Start or stop a session's AI driver (the seats' `drive`; set as the service is wired):
    asked by `arm` only when the AI has a seat to play or the game is no longer in play."""

    def __init__(self, core: Core, cache: Cache) -> None:
        self._core = core
        self._cache = cache

    async def write(
        self,
        session: Session,
        record: SessionRecord,
        step: Advance | None = None,
        *,
        acted: int | None = None,
        keep: Mapping[Key, Deadline] | None = None,
        new: bool = False,
    ) -> None:
        """Persist `record` (and `step`'s log entries) with the deadlines they need, then bring
        the live session and its timers level with the store: both or neither, even if the
        caller is cancelled in between (a commit may still land after a cancel, and memory must
        follow it before the session's lock is let go, or the next click at the shown version
        would be refused). Call under the session's lock.

        `acted`: the seat whose own player made this change. `keep`: the deadlines to plan
        from when not the stored ones (one that fired is left out or marked). `new`: the
        session is not stored yet (a rematch's lobby): it is, with this change, in one commit.
        """
        stored = session.deadlines
        state = session.state if step is None else step.state
        needed: dict[Key, Deadline] = {}
        waiting = session.waiting if step is None else step.to_move
        # With no window open and no turn timer, `plan` needs nothing: not asked on such a move.
        timed = waiting.timeout is not None or record.turn_timer is not None
        if timed and record.status is Status.ACTIVE:
            needed = plan(
                record,
                waiting,
                session.waiting,
                stored if keep is None else keep,
                self._core.clock.now(),
                acted=acted,
                left=frozenset() if step is None else step.left,
            )
        update = changes(stored, needed)
        old = session.record
        snapshot = None
        if step is not None:
            dealt = old.status is Status.LOBBY
            crossed = record.version // SNAPSHOT_EVERY != old.version // SNAPSHOT_EVERY
            if dealt or crossed or record.status is Status.FINISHED:
                snapshot = Taken(record.version, state)  # dumped as its batch is built
        elif record == old and update.empty:
            return
        write = SessionWrite(
            before=old,
            after=record,
            entries=() if step is None else step.logged,
            snapshot=snapshot,
            deadlines=None if update.empty else update,
            notify=not self._core.owns(record),  # its owner must arm what this change made due
        )
        core = self._core
        started = 0.0 if core.on_commit is None else time.perf_counter()
        store = core.store
        committing = asyncio.ensure_future(store.create(old, write) if new else store.write(write))
        cancelled = False
        if isinstance(committing, Durable):  # the store's own: awaited here, without `_settle`
            try:
                await committing
            except asyncio.CancelledError:
                cancelled = True  # (a Durable tells its cancelled awaiter once it is done)
            except Exception:
                pass  # read from the future below
        if not committing.done():  # not a Durable, or (never so far) not done yet
            cancelled = await _settle(committing) or cancelled
        error = committing.exception()
        if isinstance(error, VersionConflict):
            self._cache.drop(session)  # another writer moved on: reload next time
            if not cancelled:
                raise GameError(Reason.STALE_VERSION) from None
        elif error is None:
            session.record, session.state, session.deadlines = record, state, needed
            session.waiting = waiting
            self.arm(session)
            if core.on_commit is not None:
                core.on_commit(time.perf_counter() - started)
        else:
            if isinstance(error, StoreUnavailable):
                self._cache.drop(session)  # a lost COMMIT may yet have landed: reload
            if not cancelled:
                raise error
        if cancelled:
            raise asyncio.CancelledError

    def arm(self, session: Session) -> None:
        """Make the session's timer and AI driver match what it now waits for, on the process
        that owns it only: after each commit, and for a session seen again (a restart, another
        process's change, a deadline that found nothing due)."""
        core = self._core
        if core.closed or not core.owns(session.record):
            return
        active = session.record.status is Status.ACTIVE
        deadlines = session.deadlines
        due = None
        if active and deadlines:
            due = min((d.due for d in deadlines.values() if not d.fired), default=None)
        core.timers.set(session.id, due)
        if not active or _autoplays(session):
            self.drive(session)


def autoplay_seats(session: Session) -> list[int]:
    """Seats to move that the AI plays now: AI and away seats, and expired turns."""
    return sorted(s for s in session.waiting.seats if _ai_plays(session, s))


def _autoplays(session: Session) -> bool:
    """Whether `autoplay_seats` has any (asked after every commit: no list, no sort)."""
    return any(_ai_plays(session, s) for s in session.waiting.seats)


def _ai_plays(session: Session, seat: int) -> bool:
    return session.record.seats[seat].autoplay or _expiring(session, seat)


def _expiring(session: Session, seat: int) -> bool:
    """The seat's turn timer ran out and the AI is playing the rest of that turn."""
    turn = session.deadlines.get(("turn", seat))
    return turn is not None and turn.fired


def advanced(
    record: SessionRecord, rules: Rules[Any, Any, Any, Any], step: Advance
) -> SessionRecord:
    """`record` after `step`: its version, whether the game is over, the seats to move."""
    over = not step.to_move.seats and not step.to_move.chance
    return record.model_copy(
        update={
            "version": record.version + len(step.logged),
            "status": Status.FINISHED if over else record.status,
            "to_move": tuple(sorted(step.to_move.seats)),
        }
    )


def with_seat(record: SessionRecord, seat: int, **update: Any) -> SessionRecord:
    seats = list(record.seats)
    seats[seat] = seats[seat].model_copy(update=update)
    return record.model_copy(update={"seats": tuple(seats)})


async def _settle(future: asyncio.Future[Any]) -> bool:
    """Wait until `future` is done, even through cancellations of the caller; True if the
    caller was cancelled meanwhile (the caller then re-raises it once its work is level)."""
    cancelled = False
    while not future.done():
        try:
            await (future if isinstance(future, Durable) else asyncio.shield(future))
        except asyncio.CancelledError:
            if future.cancelled():
                raise
            cancelled = True
        except Exception:
            break  # done, with an error the caller reads from the future
    if future.cancelled():
        raise asyncio.CancelledError
    return cancelled
