"""What the bot may rely on from storage, as protocols: it types against these, not against
the SQLite classes, so another backend (PostgreSQL) or a test double can stand in.

The session and deadline store is `storage.session_store.SessionStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from storage.hands import HandMessage
from storage.players import PlayerTally, SeatRow, Streaks
from storage.ratings import Entrant, Rating, RatingChange
from storage.records import GameRecord, GameStats, HistoryEntry
from storage.session_store import SessionStore


@runtime_checkable
class PrefTable(Protocol):
    """String key/values per owner (a user or a guild)."""

    async def get(self, owner_id: int, key: str, default: str | None = None) -> str | None: ...

    async def all(self, owner_id: int) -> dict[str, str]: ...

    async def set(self, owner_id: int, key: str, value: str) -> None: ...

    async def delete(self, owner_id: int, key: str) -> bool:
        """Remove a value; True if there was one."""


@runtime_checkable
class PrefStore(Protocol):
    @property
    def user(self) -> PrefTable: ...

    @property
    def guild(self) -> PrefTable: ...


@runtime_checkable
class RecordStore(Protocol):
    async def add(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        session_id: str | None,
        result: str,
        score: int | None,
        players: int,
        won: bool,
        details: dict[str, Any] | None = None,
        finished_at: float | None = None,
        seats: Sequence[SeatRow] = (),
        hints: int = 0,
        entrants: Sequence[Entrant] = (),
    ) -> bool:
        """Record a finished game with its seats, in one transaction; False (nothing stored)
        if the session has one already. `hints`: how many the players asked for; `entrants`:
        the sides of a competitive game with their places, rated in the same transaction."""

    async def stats(
        self, guild_id: int | None, game_id: str, channel_id: int | None = None
    ) -> GameStats: ...

    async def best(
        self, guild_id: int | None, game_id: str, channel_id: int | None = None, limit: int = 3
    ) -> list[GameRecord]: ...

    async def history(
        self, guild_id: int | None, game_id: str | None = None, limit: int = 10
    ) -> list[HistoryEntry]: ...

    async def recent(
        self, guild_id: int | None, game_id: str, limit: int = 10
    ) -> list[GameRecord]: ...


@runtime_checkable
class PlayerStore(Protocol):
    """Per-player results of a server, from the seats `RecordStore.add` wrote."""

    async def totals(
        self, guild_id: int, user_id: int, game_id: str | None = None
    ) -> list[PlayerTally]: ...

    async def streaks(self, guild_id: int, user_id: int, game_id: str) -> Streaks: ...

    async def top(self, guild_id: int, game_id: str, limit: int = 5) -> list[PlayerTally]: ...


@runtime_checkable
class RatingStore(Protocol):
    """Ratings per server and game (`storage.ratings`), written by `RecordStore.add`."""

    async def board(self, guild_id: int, game_id: str, limit: int = 10) -> list[Rating]: ...

    async def ais(self, guild_id: int, game_id: str) -> list[Rating]: ...

    async def player(self, guild_id: int, user_id: int) -> list[Rating]: ...

    async def changes(self, session_id: str) -> list[RatingChange]: ...

    async def rebuild(self) -> int: ...


@runtime_checkable
class HandStore(Protocol):
    """Where each player's DM hand message is."""

    async def upsert(
        self, session_id: str, user_id: int, channel_id: int, message_id: int
    ) -> None: ...

    async def get(self, session_id: str, user_id: int) -> HandMessage | None: ...

    async def for_session(self, session_id: str) -> list[HandMessage]: ...

    async def delete(self, session_id: str, user_id: int) -> bool: ...

    async def clear(self, session_id: str) -> int: ...


@runtime_checkable
class Stores(Protocol):
    """Everything the bot persists."""

    @property
    def sessions(self) -> SessionStore: ...

    @property
    def prefs(self) -> PrefStore: ...

    @property
    def records(self) -> RecordStore: ...

    @property
    def players(self) -> PlayerStore: ...

    @property
    def hand_messages(self) -> HandStore: ...

    @property
    def ratings(self) -> RatingStore: ...
