"""A new session's write, maybe with its first change (a rematch's start): on SQLite a write
of the moves' kind (`storage.moves.NewSession`), which the batch's statement inserts as its
first change leaves it; on PostgreSQL a check, the INSERTs and the change in one transaction.
"""

from __future__ import annotations

import time

from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord
from storage.database import Grouped
from storage.migrations import LIVE
from storage.move_rows import put_seats, seat_rows
from storage.moves import NewSession, write_begun
from storage.new_rows import NEW_COLUMNS, params, refusal
from storage.session_store import SessionIdTaken, SessionWrite
from storage.sql import Conn, Write, dumps

_INSERT = (
    f"INSERT INTO sessions ({', '.join(NEW_COLUMNS)}) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, len(NEW_COLUMNS) + 1))})"
)

_TAKEN = (
    f"SELECT EXISTS (SELECT 1 FROM sessions WHERE channel_id = $1 AND {LIVE}), "
    "EXISTS (SELECT 1 FROM records WHERE session_id = $2)"
)
"""Whether channel $1 has a live session, and whether a game record holds id $2: a finished
game's record keeps its session's id (one record per id), even were the session pruned, and a
new session must not take it. One query, on PostgreSQL (on SQLite, the batch's statement asks
the same: `storage.new_rows.insert_new`)."""


def session_write(
    record: SessionRecord, first: SessionWrite | None, sqlite: bool
) -> Write[None] | Grouped:
    created_at = record.created_at or time.time()
    if sqlite:  # in the statement of the batch's moves: no call, no COMMIT of its own
        return NewSession(record, first, created_at)

    async def create(conn: Conn) -> None:
        try:
            channel = record.channel_id if record.status.live else None  # None: no live check
            row = await conn.fetchrow(_TAKEN, channel, record.id)
            assert row is not None  # a SELECT without FROM has its row
            if row[0]:
                raise GameError(Reason.CHANNEL_BUSY)
            if row[1]:
                raise SessionIdTaken(record.id)
            await conn.execute(_INSERT, *params(record, created_at))
        except Exception as error:  # another process got there meanwhile
            refused = refusal(error, record.id)
            if refused is error:
                raise
            raise refused from None
        if seats := seat_rows(None, record):
            await conn.execute(put_seats(conn.dialect, "$1", False), dumps(seats))
        if first is not None:
            await write_begun(conn, first)

    return create
