"""A new session's write, maybe with its first change (a rematch's start): on SQLite one
statement through a temporary view (`NEW_SESSION`) inserting the session as its first change
leaves it, on PostgreSQL a check, the INSERTs and the change in one transaction.
"""

from __future__ import annotations

import time
from typing import Any

from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord
from storage.database import OneStatement
from storage.migrations import LIVE
from storage.move_batch import insert_into_view
from storage.move_rows import column_value, put_seats, seat_rows, table_rows, writers
from storage.moves import write_begun
from storage.session_store import SessionIdTaken, SessionWrite
from storage.sql import Conn, Dialect, clash, dumps

_NEW_COLUMNS = (
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
"""What a new session's INSERT gives (`session_write`'s parameters, in this order)."""

_INSERT = (
    f"INSERT INTO sessions ({', '.join(_NEW_COLUMNS)}) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, len(_NEW_COLUMNS) + 1))})"
)

_TAKEN = (
    f"SELECT EXISTS (SELECT 1 FROM sessions WHERE channel_id = $1 AND {LIVE}), "
    "EXISTS (SELECT 1 FROM records WHERE session_id = $2)"
)
"""Whether channel $1 has a live session, and whether a game record holds id $2: a finished
game's record keeps its session's id (one record per id), even were the session pruned, and a
new session must not take it. One query, on PostgreSQL (on SQLite, `NEW_SESSION`'s trigger
asks the same)."""


def _params(record: SessionRecord, created_at: float) -> tuple[Any, ...]:
    return (  # in the INSERT's column order
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
    )


def session_write(record: SessionRecord, first: SessionWrite | None, sqlite: bool) -> Any:
    created_at = record.created_at or time.time()

    async def create(conn: Conn) -> None:
        try:
            if sqlite:
                args = _new_args(record, first, created_at)
                await insert_into_view(conn, NEW_SESSION, _new_session_view, _WRITE_NEW, args)
                return
            channel = record.channel_id if record.status.live else None  # None: no live check
            row = await conn.fetchrow(_TAKEN, channel, record.id)
            assert row is not None  # a SELECT without FROM has its row
            if row[0]:
                raise GameError(Reason.CHANNEL_BUSY)
            if row[1]:
                raise SessionIdTaken(record.id)
            await conn.execute(_INSERT, *_params(record, created_at))
        except Exception as error:  # another process got there meanwhile (or SQLite's checks)
            clashed = clash(error)
            if clashed == "key" or SESSION_TAKEN in str(error):
                raise SessionIdTaken(record.id) from None
            if clashed == "unique" or CHANNEL_TAKEN in str(error):
                raise GameError(Reason.CHANNEL_BUSY) from None
            raise
        if seats := seat_rows(None, record):
            await conn.execute(put_seats(conn.dialect, "$1", False), dumps(seats))
        if first is not None:
            await write_begun(conn, first)

    # On SQLite: one statement, alone in its batch (a rematch's) one call in all.
    return OneStatement(create) if sqlite else create


def _new_args(record: SessionRecord, first: SessionWrite | None, created_at: float) -> list[Any]:
    """`NEW_SESSION`'s columns: the session as `first` leaves it (no row to update after its
    INSERT, no version to check on a session this statement makes), with `first`'s rows."""
    stored = record if first is None else first.after
    rows = {} if first is None else table_rows([first])
    return [
        *_params(stored, created_at),
        int(record.status.live),
        dumps(seat_rows(None, stored)),
        *(dumps(rows[name]) if name in rows else None for name in _FIRST),
    ]


NEW_SESSION = "new_session"
"""A temporary view of SQLite's writer connection: a row inserted into it is a new session as
its first change leaves it (a rematch's start), its seats and that change's rows (NULL without
one), which its trigger (`_new_session_view`) checks and writes, as `storage.move_batch`'s
view does a batch of moves: one statement, prepared once, where the checks and the two INSERTs
were four calls and a transaction (two more), and a rematch's start a batch of its own after
them."""

SESSION_TAKEN = "session_id_taken"
CHANNEL_TAKEN = "channel_busy"
"""The errors `NEW_SESSION`'s trigger raises: a game record holds the id; the channel has a
live session."""

_FIRST = ("actions", "snapshots", "puts")
"""The tables a first change writes rows to besides the session and its seats (a new session
has no deadline to drop, no seat left behind)."""


def _new_session_view(dialect: Dialect) -> list[str]:
    columns = ", ".join(f"NULL AS {name}" for name in _NEW_VIEW)
    news = ", ".join(f"NEW.{name}" for name in _NEW_COLUMNS)
    table_writers = writers(dialect, checked=False)
    body = [
        f"SELECT RAISE(ABORT, '{CHANNEL_TAKEN}') WHERE NEW.live AND "
        f"EXISTS (SELECT 1 FROM sessions WHERE channel_id = NEW.channel_id AND {LIVE})",
        f"SELECT RAISE(ABORT, '{SESSION_TAKEN}') "
        "WHERE EXISTS (SELECT 1 FROM records WHERE session_id = NEW.id)",
        f"INSERT INTO sessions ({', '.join(_NEW_COLUMNS)}) VALUES ({news})",
        put_seats(dialect, "NEW.lobby_seats", False),
        *(table_writers[name](f"NEW.{name}") for name in _FIRST),
    ]
    return [
        f"CREATE TEMP VIEW IF NOT EXISTS {NEW_SESSION} AS SELECT {columns}",
        f"CREATE TEMP TRIGGER IF NOT EXISTS {NEW_SESSION}_written INSTEAD OF INSERT ON "
        f"{NEW_SESSION} BEGIN\n{''.join(f'{line};{chr(10)}' for line in body)}END",
    ]


_NEW_VIEW = (*_NEW_COLUMNS, "live", "lobby_seats", *_FIRST)
"""`NEW_SESSION`'s columns: the session's, whether it was made live (its channel is checked
then), its seats (JSON rows), its first change's rows."""

_WRITE_NEW = (
    f"INSERT INTO {NEW_SESSION} ({', '.join(_NEW_VIEW)}) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, len(_NEW_VIEW) + 1))})"
)
