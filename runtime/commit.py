"""Persisting a change: the record, its log entries, a snapshot now and then, and the deadlines
the change makes due, in one transaction, before the change reaches memory and the session's
timer. A cancelled caller cannot leave memory behind the store."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from games.engine.contract import Rules, ToMove, made
from games.engine.deadlines import NO_CHANGE, Deadline, Key, changes, plan
from games.engine.errors import GameError, Reason
from games.engine.fieldsets import joined
from games.engine.live import Session
from games.engine.session import SessionRecord, Status
from games.engine.step import Advance, LoggedAction
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

_NONE_LEFT: frozenset[int] = frozenset()


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
        core = self._core
        stored = session.deadlines
        entries: tuple[LoggedAction, ...]
        if step is None:
            state, waiting, entries, left = session.state, session.waiting, (), _NONE_LEFT
        else:
            state, waiting, entries, left = step.state, step.to_move, step.logged, step.left
        status = record.status
        # Nothing stored and nothing needed (an untimed game's move): the session keeps its
        # own empty dict, and no update is looked for.
        needed: dict[Key, Deadline] = {} if stored else stored
        # With no window open and no turn timer, `plan` needs nothing: not asked on such a move.
        timed = waiting.timeout is not None or record.turn_timer is not None
        if timed and status is Status.ACTIVE:
            needed = plan(
                record,
                waiting,
                session.waiting,
                stored if keep is None else keep,
                core.clock.now(),
                acted=acted,
                left=left,
            )
        update = changes(stored, needed) if stored or needed else NO_CHANGE
        old = session.record
        snapshot = None
        if step is not None:
            version = record.version
            if (
                version // SNAPSHOT_EVERY != old.version // SNAPSHOT_EVERY
                or status is Status.FINISHED
                or old.status is Status.LOBBY
            ):  # crossed a snapshot version, over, or dealt
                snapshot = Taken(version, state)  # dumped as its batch is built
        elif record == old and update.empty:
            return
        owned = core.owns(record)
        # (positional: `SessionWrite`'s fields in order; its owner must arm what a change of
        # another process's session made due, hence `notify`)
        rows = None if update is NO_CHANGE or update.empty else update  # (the usual: NO_CHANGE)
        write = SessionWrite(old, record, entries, snapshot, rows, not owned)
        on_commit = core.on_commit
        started = 0.0 if on_commit is None else time.perf_counter()
        store = core.store
        committing = store.create(old, write) if new else store.write(write)
        cancelled = False
        if isinstance(committing, Durable):  # the store's own: awaited here, without `_settle`
            try:
                await committing
            except asyncio.CancelledError:
                cancelled = True  # (a Durable tells its cancelled awaiter once it is done)
            except Exception:
                pass  # read from the future below
            else:  # committed: the usual move, nothing more to ask the future
                # (`_committed`, inline: once a move)
                session.record = record
                session.state = state
                session.deadlines = needed
                session.waiting = waiting
                if owned and not core.closed:
                    self._arm(session, record, status, needed, waiting)
                if on_commit is not None:
                    on_commit(time.perf_counter() - started)
                return
        else:  # another store's awaitable (a coroutine)
            committing = asyncio.ensure_future(committing)
        if not committing.done():  # not a Durable, or (never so far) not done yet
            cancelled = await _settle(committing) or cancelled
        error = committing.exception()
        if isinstance(error, VersionConflict):
            self._cache.drop(session)  # another writer moved on: reload next time
            if not cancelled:
                raise GameError(Reason.STALE_VERSION) from None
        elif error is None:
            self._committed(session, record, state, needed, waiting, started)
        else:
            if isinstance(error, StoreUnavailable):
                self._cache.drop(session)  # a lost COMMIT may yet have landed: reload
            if not cancelled:
                raise error
        if cancelled:
            raise asyncio.CancelledError

    def _committed(
        self,
        session: Session,
        record: SessionRecord,
        state: Any,
        deadlines: dict[Key, Deadline],
        waiting: ToMove,
        started: float,
    ) -> None:
        """Bring the live session level with what was just committed, arm it, and tell
        `on_commit` how long the commit took (since `started`)."""
        session.record = record
        session.state = state
        session.deadlines = deadlines
        session.waiting = waiting
        self.arm(session)
        on_commit = self._core.on_commit
        if on_commit is not None:
            on_commit(time.perf_counter() - started)

    def arm(self, session: Session) -> None:
        """Make the session's timer and AI driver match what it now waits for, on the process
        that owns it only: after each commit, and for a session seen again (a restart, another
        process's change, a deadline that found nothing due)."""
        core = self._core
        record = session.record
        if core.closed or not core.owns(record):
            return
        self._arm(session, record, record.status, session.deadlines, session.waiting)

    def _arm(
        self,
        session: Session,
        record: SessionRecord,
        status: Status,
        deadlines: dict[Key, Deadline],
        waiting: ToMove,
    ) -> None:
        """`arm` of an owned session, given what the caller read of it already."""
        active = status is Status.ACTIVE
        due = None
        if active and deadlines:
            due = min((d.due for d in deadlines.values() if not d.fired), default=None)
        self._core.timers.set(record.id, due)
        if not active:
            self.drive(session)
            return
        # `autoplay_seats` has any? (asked after every commit: no list, no sort)
        seats = waiting.seats
        if session.autoplays(seats) or (
            deadlines and any(_expiring(session, seat) for seat in seats)
        ):
            self.drive(session)


def autoplay_seats(session: Session) -> list[int]:
    """Seats to move that the AI plays now: AI and away seats, and expired turns."""
    return sorted(s for s in session.waiting.seats if _ai_plays(session, s))


def _ai_plays(session: Session, seat: int) -> bool:
    return session.record.seats[seat].autoplay or _expiring(session, seat)


def _expiring(session: Session, seat: int) -> bool:
    """The seat's turn timer ran out and the AI is playing the rest of that turn."""
    turn = session.deadlines.get(("turn", seat))
    return turn is not None and turn.fired


def advanced(
    record: SessionRecord, rules: Rules[Any, Any, Any, Any], step: Advance
) -> SessionRecord:
    """`record` after `step`: its version, whether the game is over, the seats to move (a
    copy made directly: `model_copy`'s, without its update dict and checks, once a move)."""
    to_move = step.to_move
    seats = to_move.seats
    values = dict(record.__dict__)
    values["version"] = record.version + len(step.logged)
    if not seats and not to_move.chance:
        values["status"] = Status.FINISHED
    values["to_move"] = (*seats,) if len(seats) < 2 else tuple(sorted(seats))
    return made(type(record), values, joined(record.__pydantic_fields_set__, _ADVANCED))


_ADVANCED = ("version", "status", "to_move")
"""The fields `advanced` sets."""


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
