"""A session as the runtime holds it: its stored record with the live state and deadlines.
Data only; loading it, its commands and its timers are `runtime/`'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.contract import Rules, ToMove
from games.engine.deadlines import Deadline, Key, Kind
from games.engine.session import Seat, SessionRecord


@dataclass(slots=True, weakref_slot=True)
class Session:
    """A session as the runtime holds it: the stored record, the live state, its deadlines.
    Slotted: a move reads several of its fields, each a dictionary lookup otherwise."""

    record: SessionRecord
    rules: Rules[Any, Any, Any, Any]
    config: Any = None
    state: Any = None
    deadlines: dict[Key, Deadline] = field(default_factory=dict)
    waiting: ToMove = field(default_factory=ToMove)
    """`rules.to_move(state)`, kept with the state so a move computes it once."""
    _indexed: tuple[Seat, ...] | None = field(default=None, init=False, repr=False, compare=False)
    """The seats tuple `_users` and `_autoplay` were read from: read again only when the
    record's seats change (a move reads them, and each field of a seat is a slow lookup)."""
    _users: tuple[int | None, ...] = field(default=(), init=False, repr=False, compare=False)
    _autoplay: int = field(default=0, init=False, repr=False, compare=False)
    """Bit `i` set: the AI plays seat `i` now (`Seat.autoplay`)."""

    @property
    def id(self) -> str:
        return self.record.id

    def seat_of(self, user_id: int) -> int | None:
        """`record.seat_of(user_id)`."""
        seats = self.record.seats
        if seats is not self._indexed:
            self._index(seats)
        users = self._users
        return users.index(user_id) if user_id in users else None

    def autoplays(self, seats: frozenset[int]) -> bool:
        """Whether the AI plays any of `seats` now (`Seat.autoplay`)."""
        record_seats = self.record.seats
        if record_seats is not self._indexed:
            self._index(record_seats)
        autoplay = self._autoplay
        if autoplay:
            for seat in seats:
                if autoplay >> seat & 1:
                    return True
        return False

    def _index(self, seats: tuple[Seat, ...]) -> None:
        self._users = tuple(seat.user_id for seat in seats)
        self._autoplay = sum(1 << i for i, seat in enumerate(seats) if seat.autoplay)
        self._indexed = seats

    def due(self, kind: Kind, seat: int | None = None) -> float | None:
        """When a deadline (`window`, or a seat's `warn`/`turn`) falls due; None if unset."""
        deadline = self.deadlines.get((kind, seat))
        return None if deadline is None else deadline.due
