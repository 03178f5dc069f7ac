"""The persistence protocol the session service needs; `storage/` implements it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.engine.contract import Frozen
from games.engine.deadlines import Deadline, DeadlineUpdate
from games.engine.session import SessionRecord
from games.engine.step import LoggedAction


class VersionConflict(Exception):
    """Another writer already moved the session past the expected version."""


class Snapshot(Frozen):
    version: int
    state: dict[str, Any]


class LoadedSession(Frozen):
    record: SessionRecord
    snapshot: Snapshot | None
    log: tuple[LoggedAction, ...]
    """Entries after the snapshot (all of them when there is none)."""
    deadlines: tuple[Deadline, ...] = ()


class DeadlineStore(Protocol):
    async def deadlines(self) -> list[Deadline]:
        """Every stored deadline, earliest first, in one query (what a restart schedules)."""

    async def update_deadlines(self, update: DeadlineUpdate) -> None:
        """Write deadline rows that change without the session (a warning that fired)."""


class SessionStore(DeadlineStore, Protocol):
    async def create(self, record: SessionRecord) -> None: ...

    async def save_record(
        self, record: SessionRecord, deadlines: DeadlineUpdate | None = None
    ) -> None:
        """Store lobby-level changes (seats, options, message id, status) without touching the
        log, and `deadlines` in the same transaction.

        Raises VersionConflict when the stored version is not `record.version`.
        """

    async def append(
        self,
        record: SessionRecord,
        from_version: int,
        entries: Sequence[LoggedAction],
        snapshot: Snapshot | None,
        deadlines: DeadlineUpdate | None = None,
    ) -> None:
        """Atomically append entries, store `record` (whose version is the new one) and write
        `deadlines`.

        Raises VersionConflict when the stored version is not `from_version`.
        """

    async def load(self, session_id: str) -> LoadedSession | None: ...

    async def live_in_channel(self, channel_id: int) -> SessionRecord | None: ...

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRecord]:
        """Sessions in lobby or play, all of them or one guild's."""
