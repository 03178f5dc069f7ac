"""The session and deadline store the session runtime needs, as a protocol, with what crosses
it (writes, loads, its errors); `storage/` implements it on SQLite and PostgreSQL, so nothing
here names a backend, and `runtime/` types against it alone."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from games.engine.contract import Frozen
from games.engine.deadlines import Deadline, DeadlineUpdate
from games.engine.session import SessionRecord
from games.engine.shards import Shards
from games.engine.step import LoggedAction

T = TypeVar("T")


class VersionConflict(Exception):
    """Another writer already moved the session past the expected version."""


class StoreUnavailable(Exception):
    """The store cannot be reached now (the database server is down or restarting): the
    request was not carried out. Work that meets it tries again `RETRY_AFTER` seconds later;
    a player is told nothing was changed."""


RETRY_AFTER = 1.0
"""Seconds background work waits after a StoreUnavailable before trying again."""


class SessionIdTaken(Exception):
    """A new session's id is held already (by a session or a game record): pick another."""


class Durable(asyncio.Future[T]):
    """A future its awaiter cannot cancel: the write it stands for goes on, and an awaiter
    cancelled meanwhile is told (CancelledError) only once the outcome is known. The service
    can then bring its memory level with the store without a task or a shield per move."""

    def cancel(self, msg: Any = None) -> bool:
        return False


class Snapshot(Frozen):
    version: int
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Taken:
    """A snapshot the runtime takes: its state dumped only as the batch writing it is built
    (as the JSON text its model writes, `storage.move_rows.state_json`; `state` gives it as
    a `Snapshot`'s). Its move holds the state until it is committed anyway, so a snapshot
    waiting for its commit holds nothing more; the dump (about 2 KB) waited as long, and the
    sessions a service starts together cross a snapshot version and finish together, a
    tenth of them at once."""

    version: int
    model: BaseModel

    @property
    def state(self) -> dict[str, Any]:
        return self.model.model_dump(mode="json")


class LoadedSession(Frozen):
    record: SessionRecord
    snapshot: Snapshot | None
    log: tuple[LoggedAction, ...]
    """Entries after the snapshot (all of them when there is none)."""
    deadlines: tuple[Deadline, ...] = ()


@dataclass(slots=True)
class SessionWrite:
    """One change of a session, stored atomically (never changed once made; not frozen, as
    the runtime makes one a move and a frozen one's fields cost four times as much to set).

    The store writes only what differs from `before` to `after` (a move: the new log entries
    and the version, status and seats to move; seats and options only when they changed), and
    only if the stored version is still `before.version`. `after.version` must be
    `before.version + len(entries)`.
    """

    before: SessionRecord
    after: SessionRecord
    entries: tuple[LoggedAction, ...] = ()
    snapshot: Snapshot | Taken | None = None
    deadlines: DeadlineUpdate | None = None
    notify: bool = False
    """Tell the other processes watching the store (`SessionStore.watch`) once this change is
    committed: a process changed a session another process drives (a click in a DM reaches
    shard 0 whatever the session's guild), and the owner must pick it up."""


Watcher = Callable[[str, int | None], None]
"""Told `(session_id, guild_id)` of a session another process changed with `notify`."""


class SessionStore(Protocol):
    def create(self, record: SessionRecord, first: SessionWrite | None = None) -> Awaitable[None]:
        """Insert a new session; GameError(CHANNEL_BUSY) if its channel has a live one,
        SessionIdTaken if a session or a game record holds its id already. `first`: its
        first change too (`write`'s), in the same commit: both or neither (a rematch starts
        its game in the write that opens it). Awaitable as `write`'s is."""

    def write(self, change: SessionWrite) -> Awaitable[None]:
        """Store `change` atomically; the awaitable completes once it is durable.

        It fails with VersionConflict when the stored version is not `change.before.version`.
        A coroutine will do; a `Durable` future spares the service a shield per move (both
        stores return one).
        """

    async def load(self, session_id: str) -> LoadedSession | None: ...

    async def version(self, session_id: str) -> int | None:
        """The stored version alone (None: no such session), to tell a stale cache."""

    async def log(self, session_id: str, after: int = 0) -> tuple[LoggedAction, ...]:
        """The log entries with `seq > after`, in order."""

    async def live_in_channel(self, channel_id: int) -> SessionRecord | None: ...

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRecord]:
        """Sessions in lobby or play, all of them or one guild's."""

    async def wakeups(self, shards: Shards | None = None) -> list[tuple[str, float]]:
        """Each session's earliest deadline, in one query: what a restart schedules (only the
        sessions of `shards` when given)."""

    async def awaiting_ai(self, shards: Shards | None = None) -> list[str]:
        """Active sessions where a seat the AI plays (an AI or away seat) is to move, or may
        be (`to_move` unknown): what a restart resumes without any deadline (only the
        sessions of `shards` when given)."""

    async def watch(self, watcher: Watcher) -> None:
        """From now on, call `watcher` for every change another process commits with
        `notify`. A store that only one process uses (SQLite) may never call it."""

    async def quarantine(self, session_id: str, reason: str) -> bool:
        """Set a session that cannot be loaded aside: abandoned, with `reason` kept, its
        deadlines dropped. False (nothing changed) when it was quarantined already."""
