"""Persistence: sessions and deadlines (the engine's SessionStore), preferences, records with
their per-player results, DM hands; on SQLite (one file, the default) or PostgreSQL (one
database several shard processes share, `storage.postgres`).

Depends on `games.engine` only, never on discord. `open_storage` opens a file or a
`postgresql://` URL, applies the pending migrations, and returns one `Storage` over its
database (one writer connection with group commit, and readers). The bot types against the
protocols in `storage.protocols` (`Stores` and the rest), which `Storage` meets.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from storage.db import Database, Synchronous
from storage.hands import HandMessage, HandMessages
from storage.migrations import migrate as apply_migrations  # (`storage.migrate` is the CLI)
from storage.players import Players, PlayerTally, SeatRow, Streaks
from storage.prefs import Prefs, SqlitePrefTable
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
from storage.sessions import SqliteSessionStore

if TYPE_CHECKING:
    from storage.postgres.db import PgDatabase

__all__ = [
    "Database",
    "Entrant",
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
    "SqlitePrefTable",
    "SqliteSessionStore",
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

    def __init__(self, db: Database | PgDatabase) -> None:
        self.db = db
        self.backend: str = db.backend
        stores: Any
        if isinstance(db, Database):
            stores = (SqliteSessionStore, Prefs, Records, Players, HandMessages, Ratings)
        else:
            from storage.postgres import stores as postgres

            stores = postgres.STORES
        sessions, prefs, records, players, hands, ratings = stores
        self.sessions = sessions(db)
        self.prefs = prefs(db)
        self.records = records(db)
        self.players = players(db)
        self.hand_messages = hands(db)
        self.ratings = ratings(db)

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


async def open_storage(location: str | Path, *, synchronous: Synchronous = "FULL") -> Storage:
    """Open and migrate the database at `location`: a SQLite file (created with its
    directory if needed), or a `postgresql://` URL (the database must exist; its tables are
    created by the migrations).

    `synchronous` (SQLite only): FULL (the default) keeps every acknowledged write through
    power loss; NORMAL is faster but may lose the last acknowledged writes if the machine
    loses power (never on a crash of the process alone). See `storage.db`. PostgreSQL keeps
    the server's `synchronous_commit` (on by default: a commit returns once flushed).
    """
    if is_postgres_url(location):
        from storage.postgres.open import open_postgres

        return Storage(await open_postgres(str(location)))
    db = await Database.open(location, synchronous=synchronous)
    try:
        await apply_migrations(db)
    except BaseException:
        await db.close()
        raise
    return Storage(db)
