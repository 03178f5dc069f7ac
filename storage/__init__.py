"""Persistence: sessions and deadlines (the engine's SessionStore), preferences, records with
their per-player results, DM hands; on SQLite (one file, the default) or PostgreSQL (one
database several shard processes share, `storage.postgres`).

Depends on `games.engine` only, never on discord. `open_storage` opens a file or a
`postgresql://` URL, applies the pending migrations, and returns one `Storage` over its
database (one writer connection with group commit, and readers). The bot types against the
protocols in `storage.protocols` (`Stores` and the rest), which `Storage` meets.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from storage.database import Database
from storage.hands import HandMessage, HandMessages
from storage.migrations import migrate as apply_migrations  # (`storage.migrate` is the CLI)
from storage.players import Players, PlayerTally, SeatRow, Streaks
from storage.prefs import Prefs, SqlPrefTable
from storage.protocols import (
    HandStore,
    PlayerStore,
    PrefStore,
    PrefTable,
    RatingStore,
    RecordStore,
    Stores,
)
from storage.ratings import Entrant, Rating, RatingChange, Ratings
from storage.records import GameRecord, GameStats, HistoryEntry, Records, StoredSeat
from storage.sessions import SqlSessionStore
from storage.sqlite import FileInUse, SqliteDatabase, Synchronous

__all__ = [
    "Database",
    "Entrant",
    "FileInUse",
    "GameRecord",
    "GameStats",
    "HandMessage",
    "HandMessages",
    "HandStore",
    "HistoryEntry",
    "PlayerStore",
    "PlayerTally",
    "Players",
    "PrefStore",
    "PrefTable",
    "Prefs",
    "Rating",
    "RatingChange",
    "RatingStore",
    "RecordStore",
    "Records",
    "SeatRow",
    "SqlPrefTable",
    "SqlSessionStore",
    "Storage",
    "StoredSeat",
    "Stores",
    "Streaks",
    "Synchronous",
    "is_postgres_url",
    "open_storage",
]


def is_postgres_url(location: str | Path) -> bool:
    """Whether `location` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


class Storage:
    """Everything the bot persists, over one database (a `Stores`). Also an async context
    manager. `backend`: "sqlite" or "postgresql"."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.backend: str = db.backend
        self.sessions = SqlSessionStore(db)
        self.prefs = Prefs(db)
        self.records = Records(db)
        self.players = Players(db)
        self.hand_messages = HandMessages(db)
        self.ratings = Ratings(db)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


async def open_storage(
    location: str | Path,
    *,
    synchronous: Synchronous = "FULL",
    exclusive: bool = False,
    patience: float = 0.0,
    on_wait: Callable[[Exception, float, float], None] | None = None,
) -> Storage:
    """Open and migrate the database at `location`: a SQLite file (created with its
    directory if needed), or a `postgresql://` URL (the database must exist; its tables are
    created by the migrations).

    SQLite only: `synchronous` FULL (the default) keeps every acknowledged write through
    power loss; NORMAL is faster but may lose the last acknowledged writes if the machine
    loses power (never on a crash of the process alone). See `storage.sqlite`. `exclusive`
    holds the file for this process until it is closed (FileInUse if another process holds
    it), before anything is migrated. PostgreSQL keeps the server's `synchronous_commit` (on
    by default: a commit returns once flushed), and its shards are held by leases
    (`storage.postgres.leases`); a server not up yet is waited for up to `patience` seconds,
    `on_wait(error, delay, seconds left)` told before each wait.
    """
    db: Database
    if is_postgres_url(location):
        from storage.postgres.db import PgDatabase

        db = await PgDatabase.open(str(location), patience=patience, on_wait=on_wait)
    else:
        db = await SqliteDatabase.open(location, synchronous=synchronous, exclusive=exclusive)
    try:
        await apply_migrations(db)
    except BaseException:
        await db.close()
        raise
    return Storage(db)
