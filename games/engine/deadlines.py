"""Durable deadlines: which timed things a session needs after a change, as absolute times.

Every timed thing is stored with the session as a wall-clock moment, so a restart waits for
what is left rather than the whole period again. `plan` is pure: given the session after a
change, what was to move before it and the deadlines stored so far, it says which deadlines
the session needs now; `changes` turns that into the rows to write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import model_validator

from games.engine.built import built
from games.engine.contract import Frozen, ToMove
from games.engine.session import SessionRecord, Status

Kind = Literal["window", "warn", "turn"]
"""`window`: the rules' `ToMove.timeout` (no seat); `warn` and `turn`: one seat's turn timer."""

Key = tuple[Kind, int | None]


class Deadline(Frozen):
    session_id: str
    kind: Kind
    seat: int | None = None
    due: float
    """Wall-clock (Unix) seconds."""
    fired: bool = False
    """A `turn` deadline whose expiry is under way: the AI is playing the rest of that turn.
    Kept (in the past) until the turn is done, so a restart mid-way lets the AI finish it
    without counting the expiry twice."""

    @model_validator(mode="after")
    def _seat_matches_kind(self) -> Deadline:
        if (self.kind == "window") != (self.seat is None):
            raise ValueError("a window deadline has no seat; a turn timer has one")
        return self

    @property
    def key(self) -> Key:
        return (self.kind, self.seat)


class DeadlineUpdate(Frozen):
    """The deadline rows one change writes: `put` (insert or replace) and `drop`."""

    put: tuple[Deadline, ...] = ()
    drop: tuple[Deadline, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.put and not self.drop


NO_CHANGE = DeadlineUpdate()


def changes(stored: Mapping[Key, Deadline], needed: Mapping[Key, Deadline]) -> DeadlineUpdate:
    """The writes that turn `stored` into `needed`; empty when they are the same."""
    if not stored and not needed:
        return NO_CHANGE  # the usual move of an untimed game: nothing to build
    # A deadline kept is the stored object itself (`plan` keeps it): told apart by identity
    # before the models' own comparison, a Python call per deadline.
    put: list[Deadline] = []
    for key, deadline in needed.items():
        was = stored.get(key)
        if was is not deadline and (was is None or was != deadline):
            put.append(deadline)
    drop = [deadline for key, deadline in stored.items() if key not in needed]
    if not put and not drop:
        return NO_CHANGE  # a window still open, a turn timer still running
    return built(DeadlineUpdate, {"put": tuple(put), "drop": tuple(drop)})


def _deadline(session_id: str, kind: Kind, seat: int | None, due: float) -> Deadline:
    """A deadline `plan` makes, not validated (a claim window opens one on every discard):
    its kind and seat match by construction, a window with no seat, a turn timer with one."""
    values = {"session_id": session_id, "kind": kind, "seat": seat, "due": float(due)}
    return built(Deadline, {**values, "fired": False})


def plan(
    record: SessionRecord,
    after: ToMove,
    before: ToMove,
    old: Mapping[Key, Deadline],
    now: float,
    *,
    acted: int | None = None,
    left: frozenset[int] = frozenset(),
) -> dict[Key, Deadline]:
    """The deadlines `record` needs once the game waits for `after`.

    `before` is what the game waited for before the change; `old` the deadlines it had (minus
    one that just fired); `acted` the seat whose own player made the change; `left` the seats
    that stopped being to move at some point during it (their turn ended, even if another
    began). A window keeps its deadline while it stays open (answers only shrink it); a seat
    keeps its turn timer while it stays to move without acting.
    """
    if record.status is not Status.ACTIVE:
        return {}
    needed: dict[Key, Deadline] = {}
    if after.timeout is not None:
        window = old.get(("window", None))
        same = window is not None and before.timeout is not None and after.seats <= before.seats
        if window is None or not same:
            window = _deadline(record.id, "window", None, now + after.timeout)
        needed[window.key] = window
        return needed  # the rules' own window replaces turn timers while it is open
    if record.turn_timer is None:
        return needed
    for seat in sorted(after.seats):
        if record.seats[seat].autoplay:
            continue
        turn = old.get(("turn", seat))
        if turn is not None and seat != acted and seat not in left:
            needed[turn.key] = turn
            warn = old.get(("warn", seat))
            if warn is not None:  # once it has fired, a turn is not warned about again
                needed[warn.key] = warn
            continue
        timer = record.turn_timer
        for fresh in (
            _deadline(record.id, "turn", seat, now + timer),
            _deadline(record.id, "warn", seat, now + timer / 2),
        ):
            needed[fresh.key] = fresh
    return needed
