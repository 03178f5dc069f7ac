"""A session as the runtime holds it: its stored record with the live state and deadlines.
Data only; loading it, its commands and its timers are `runtime/`'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.contract import Rules, ToMove
from games.engine.deadlines import Deadline, Key, Kind
from games.engine.session import SessionRecord


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

    @property
    def id(self) -> str:
        return self.record.id

    def seat_of(self, user_id: int) -> int | None:
        return self.record.seat_of(user_id)

    def due(self, kind: Kind, seat: int | None = None) -> float | None:
        """When a deadline (`window`, or a seat's `warn`/`turn`) falls due; None if unset."""
        deadline = self.deadlines.get((kind, seat))
        return None if deadline is None else deadline.due
