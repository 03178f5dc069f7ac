"""SQLite persistence: sessions and deadlines (the engine's SessionStore), preferences,
records with their per-player results, DM hands.

Depends on `games.engine` only, never on discord. `open_storage` opens the file, applies the
pending migrations, and returns one `Storage` over its `Database` (one writer connection with
group commit, and readers). The bot types against the protocols in `storage.protocols`
(`Stores` and the rest), which `Storage` meets.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from storage.db import Database, Synchronous
from storage.hands import HandMessage, HandMessages
from storage.migrations import migrate
from storage.players import Players, PlayerTally, SeatRow, Streaks
from storage.prefs import Prefs, SqlitePrefTable
from storage.protocols import HandStore, PlayerStore, PrefStore, PrefTable, RecordStore, Stores
from storage.records import GameRecord, GameStats, HistoryEntry, Records, StoredSeat
from storage.sessions import SqliteSessionStore

__all__ = [
    "Database",
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
    "open_storage",
]


class Storage:
    """Everything the bot persists, over one `Database` (a `Stores`). Also an async context
    manager."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.sessions = SqliteSessionStore(db)
        self.prefs = Prefs(db)
        self.records = Records(db)
        self.players = Players(db)
        self.hand_messages = HandMessages(db)

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


async def open_storage(path: str | Path, *, synchronous: Synchronous = "FULL") -> Storage:
    """Open (creating it and its directory if needed) and migrate the database at `path`.

    `synchronous`: FULL (the default) keeps every acknowledged write through power loss;
    NORMAL is faster but may lose the last acknowledged writes if the machine loses power
    (never on a crash of the process alone). See `storage.db`.
    """
    db = await Database.open(path, synchronous=synchronous)
    try:
        await migrate(db)
    except BaseException:
        await db.close()
        raise
    return Storage(db)
