"""A new session's row, as PostgreSQL's INSERT takes it (`storage.new_session`), and as
SQLite's batch of moves writes new sessions (`storage.move_batch`) with their checks.
"""

from __future__ import annotations

import time
from typing import Any

from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord
from storage.migrations import LIVE
from storage.move_rows import column_value
from storage.session_store import SessionIdTaken
from storage.sql import Dialect, clash

NEW_COLUMNS = (
    "id",
    "game_id",
    "rules_version",
    "guild_id",
    "channel_id",
    "host_id",
    "locale",
    "options",
    "seed",
    "status",
    "version",
    "config",
    "table_message_id",
    "created_at",
    "updated_at",
    "turn_timer",
    "to_move",
)
"""What a new session's INSERT gives (`params`, in this order)."""

LIVE_FIELD = len(NEW_COLUMNS)
"""The field of a batch's new-session row after its columns: whether the session was made
live (its channel is checked then)."""

SESSION_TAKEN = "session_id_taken"
CHANNEL_TAKEN = "channel_busy"
"""The errors the batch's statement raises: a game record holds a new session's id; a new
session's channel has a live one."""


def refusal(error: Exception, session_id: str) -> Exception:
    """What `SessionStore.create` raises for `error`, met writing new session `session_id`:
    SessionIdTaken for a taken id, GameError(CHANNEL_BUSY) for a channel with a live session
    (a constraint's clash, or the batch's own checks), else `error` itself."""
    clashed, text = clash(error), str(error)
    if clashed == "key" or SESSION_TAKEN in text:
        return SessionIdTaken(session_id)
    if clashed == "unique" or CHANNEL_TAKEN in text:
        return GameError(Reason.CHANNEL_BUSY)
    return error


def params(record: SessionRecord, created_at: float) -> list[Any]:
    """`record`'s values of `NEW_COLUMNS`, a JSON column's as its text."""
    return [
        record.id,
        record.game_id,
        record.rules_version,
        record.guild_id,
        record.channel_id,
        record.host_id,
        record.locale,
        column_value(record, "options"),
        record.seed,
        column_value(record, "status"),
        record.version,
        column_value(record, "config"),
        record.table_message_id,
        created_at,
        time.time(),
        record.turn_timer,
        column_value(record, "to_move"),
    ]


def insert_new(dialect: Dialect, source: str) -> list[str]:
    """SQLite's statements inserting the new sessions of `source` (`Dialect.rows`: `params`
    and the live flag), checked first as a new session is (`CHANNEL_TAKEN`, `SESSION_TAKEN`):
    one check per table for all of them."""
    f = dialect.field
    channel_busy = (
        f"SELECT 1 FROM {dialect.rows(source)}, sessions WHERE {f(LIVE_FIELD, 'BOOLEAN')} "
        f"AND channel_id = {f(4, 'BIGINT')} AND {LIVE}"
    )
    recorded = (
        f"SELECT 1 FROM {dialect.rows(source)}, records WHERE records.session_id = {f(0, 'TEXT')}"
    )
    values = ", ".join(f(n, "ANY") for n in range(len(NEW_COLUMNS)))
    return [
        f"SELECT RAISE(ABORT, '{CHANNEL_TAKEN}') WHERE EXISTS ({channel_busy})",
        f"SELECT RAISE(ABORT, '{SESSION_TAKEN}') WHERE EXISTS ({recorded})",
        f"INSERT INTO sessions ({', '.join(NEW_COLUMNS)}) "
        f"SELECT {values} FROM {dialect.rows(source)}",
    ]
