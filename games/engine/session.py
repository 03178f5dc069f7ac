"""Session records: what storage keeps about one game table."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.engine.contract import Frozen

SESSION_ID_PATTERN = r"(?:[0-9a-f]{16}|[0-9a-f]{8})"
"""A session id: 16 hex digits (64 random bits), or the 8 of sessions stored before ids grew,
which every control, command and store still accepts."""


class Status(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def live(self) -> bool:
        return self in _LIVE  # (read on every move: one set lookup, not two through the class)


_LIVE = frozenset({Status.LOBBY, Status.ACTIVE})


class Seat(Frozen):
    """A seat: a Discord user, or an AI when `user_id` is None."""

    user_id: int | None
    name: str
    away: bool = False
    """A player's seat an AI holds (after too many turn-timer expiries) until they come back."""
    missed: int = 0
    """Turn-timer expiries in a row; reset when the player acts."""
    ai_level: str = "normal"
    """The level an AI seat plays at (`games.engine.contract.AI_LEVELS`)."""
    hints: int = 0
    """Hints (/hint) the seat's player asked for in this game."""
    ai_moves: int = 0
    """Moves an AI played for this player's seat (their timer ran out, or they were away): a
    seat an AI held for most of its moves is not rated for its player."""

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def autoplay(self) -> bool:
        """The AI plays this seat now (`is_ai or away`, read once a seat on every move)."""
        return self.user_id is None or self.away


class SessionRecord(Frozen):
    id: str
    game_id: str
    rules_version: int
    guild_id: int | None
    channel_id: int
    host_id: int
    locale: str
    options: dict[str, Any]
    seed: int
    status: Status = Status.LOBBY
    version: int = 0
    seats: tuple[Seat, ...] = ()
    config: dict[str, Any] | None = None
    table_message_id: int | None = None
    created_at: float = 0.0
    turn_timer: int | None = None
    """Seconds a player has for a turn before an AI plays it for them; None: no timer."""
    to_move: tuple[int, ...] | None = ()
    """The seats the game waits for at `version`, kept with the record so a restart finds the
    sessions whose AI is to move without loading any; None: not known (stored before it was
    kept)."""
    quarantine: str | None = None
    """Why this session was set aside (its log no longer loads); None for a sound one. A
    quarantined session is stored as abandoned, so it holds no channel and is never resumed."""

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None
