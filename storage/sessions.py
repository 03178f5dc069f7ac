"""`SqlSessionStore`: the engine's `SessionStore` over sessions, seats, actions, snapshots and
deadlines, on either database.

The log is the truth and snapshots only a cache over it. Moves go through the group commit as
`storage.moves.Move`; here are the reads, a new session, deadlines and quarantine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from games.engine.deadlines import Deadline
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord, Status
from games.engine.shards import Shards
from games.engine.step import LoggedAction
from storage.database import Database
from storage.migrations import LIVE
from storage.moves import (
    CHANGED,
    NO_SEAT,
    Move,
    check_chain,
    column_value,
    put_seats,
    seat_rows,
)
from storage.session_store import (
    Durable,
    LoadedSession,
    SessionIdTaken,
    SessionWrite,
    Snapshot,
    Watcher,
)
from storage.sql import Conn, Row, clash, dumps

_COLUMNS = (
    "id, game_id, rules_version, guild_id, channel_id, host_id, locale, options, seed, status, "
    "version, config, table_message_id, created_at, turn_timer, to_move, quarantine"
)

_INSERT = """
INSERT INTO sessions (id, game_id, rules_version, guild_id, channel_id, host_id, locale,
    options, seed, status, version, config, table_message_id, created_at, updated_at,
    turn_timer, to_move)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
"""

_TAKEN = (
    f"SELECT EXISTS (SELECT 1 FROM sessions WHERE channel_id = $1 AND {LIVE}), "
    "EXISTS (SELECT 1 FROM records WHERE session_id = $2)"
)
"""Whether channel $1 has a live session, and whether a game record holds id $2: a finished
game's record keeps its session's id (one record per id), even were the session pruned, and a
new session must not take it. One query: each is a hand-over to SQLite's thread."""

_SELECT_SEATS = (
    "SELECT session_id, seat, user_id, name, away, missed, ai_level, hints, ai_moves FROM seats"
)


_LOG = "SELECT seq, actor, payload FROM actions WHERE session_id = $1 AND seq > $2 ORDER BY seq"


def record_of(row: Row, seats: Sequence[Row]) -> SessionRecord:
    return SessionRecord.model_validate(
        {
            "id": row["id"],
            "game_id": row["game_id"],
            "rules_version": row["rules_version"],
            "guild_id": row["guild_id"],
            "channel_id": row["channel_id"],
            "host_id": row["host_id"],
            "locale": row["locale"],
            "options": json.loads(row["options"]),
            "seed": row["seed"],
            "status": row["status"],
            "version": row["version"],
            "seats": [
                {
                    "user_id": s["user_id"],
                    "name": s["name"],
                    "away": bool(s["away"]),
                    "missed": s["missed"],
                    "ai_level": s["ai_level"],
                    "hints": s["hints"],
                    "ai_moves": s["ai_moves"],
                }
                for s in seats
            ],
            "config": None if row["config"] is None else json.loads(row["config"]),
            "table_message_id": row["table_message_id"],
            "created_at": row["created_at"],
            "turn_timer": row["turn_timer"],
            "to_move": None if row["to_move"] is None else json.loads(row["to_move"]),
            "quarantine": row["quarantine"],
        }
    )


def deadline_of(row: Row) -> Deadline:
    return Deadline(
        session_id=row["session_id"],
        kind=row["kind"],
        seat=None if row["seat"] == NO_SEAT else row["seat"],
        due=row["due"],
        fired=bool(row["fired"]),
    )


async def _records(conn: Conn, where: str, params: Sequence[Any]) -> list[SessionRecord]:
    """Sessions matching `where` with their seats, oldest first, in two queries (call within
    one read transaction, so both see the same sessions)."""
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM sessions WHERE {where} ORDER BY created_at, id", *params
    )
    if not rows:
        return []
    seats: dict[str, list[Row]] = {row["id"]: [] for row in rows}
    seat_rows = await conn.fetch(
        f"{_SELECT_SEATS} WHERE session_id IN (SELECT id FROM sessions WHERE {where}) "
        "ORDER BY session_id, seat",
        *params,
    )
    for seat in seat_rows:
        seats[seat["session_id"]].append(seat)
    return [record_of(row, seats[row["id"]]) for row in rows]


def _log_of(rows: Sequence[Row]) -> tuple[LoggedAction, ...]:
    return tuple(
        LoggedAction(seq=row["seq"], actor=row["actor"], action=json.loads(row["payload"]))
        for row in rows
    )


def _create(record: SessionRecord) -> Any:
    params = (  # in the INSERT's column order
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
        record.created_at or time.time(),
        time.time(),
        record.turn_timer,
        column_value(record, "to_move"),
    )

    async def create(conn: Conn) -> None:
        channel = record.channel_id if record.status.live else None  # None: no live check
        row = await conn.fetchrow(_TAKEN, channel, record.id)
        assert row is not None  # a SELECT without FROM has its row
        if row[0]:
            raise GameError(Reason.CHANNEL_BUSY)
        if row[1]:
            raise SessionIdTaken(record.id)
        try:
            await conn.execute(_INSERT, *params)
        except Exception as error:  # another process got there meanwhile
            clashed = clash(error)
            if clashed == "key":
                raise SessionIdTaken(record.id) from None
            if clashed == "unique":
                raise GameError(Reason.CHANNEL_BUSY) from None
            raise
        if rows := seat_rows(None, record):
            await conn.execute(put_seats(conn.dialect, "$1", False), dumps(rows))

    return create


async def _load(conn: Conn, session_id: str) -> LoadedSession | None:
    found = await _records(conn, "id = $1", (session_id,))
    if not found:
        return None
    row = await conn.fetchrow(
        "SELECT version, state FROM snapshots WHERE session_id = $1", session_id
    )
    snapshot = (
        None if row is None else Snapshot(version=row["version"], state=json.loads(row["state"]))
    )
    log = _log_of(await conn.fetch(_LOG, session_id, 0 if snapshot is None else snapshot.version))
    rows = await conn.fetch(
        "SELECT * FROM deadlines WHERE session_id = $1 ORDER BY due", session_id
    )
    deadlines = tuple(deadline_of(row) for row in rows)
    return LoadedSession(record=found[0], snapshot=snapshot, log=log, deadlines=deadlines)


class SqlSessionStore:
    """Implements `storage.session_store.SessionStore` (and so its `DeadlineStore`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        dialect = db.dialect
        self._awaiting_ai = f"""
SELECT DISTINCT s.id FROM sessions AS s JOIN seats AS t ON t.session_id = s.id
WHERE {LIVE.replace("status", "s.status")} AND s.status = 'active'
    AND (t.user_id IS NULL OR {dialect.true("t.away")})
    AND (s.to_move IS NULL OR {dialect.holds("s.to_move", "t.seat")})"""

    def _shard_filter(self, shards: Shards | None) -> tuple[str, tuple[Any, ...]]:
        """`AND …` keeping the sessions (alias `s`) of `shards`, computed from the guild id as
        Discord routes it (`games.engine.shards.shard_of`), as the query's only parameters $1
        and $2; empty when every shard is ours."""
        if shards is None or shards.all:
            return "", ()
        dialect = self.db.dialect
        shard = dialect.in_list("(COALESCE(s.guild_id, 0) >> 22) % $1", 2, "INTEGER")
        return f" AND {shard}", (shards.count, dialect.listed(sorted(shards.ids)))

    async def create(self, record: SessionRecord) -> None:
        """Insert a new session; GameError(CHANNEL_BUSY) if its channel has a live one,
        SessionIdTaken if a session or a game record holds its id already."""
        if record.version != 0:
            raise ValueError("a new session starts at version 0")
        await self.db.write(_create(record))

    def write(self, change: SessionWrite) -> Durable[None]:
        """Store what `change` changes in the next group commit."""
        check_chain(change)
        return self.db.submit(Move(change))

    async def load(self, session_id: str) -> LoadedSession | None:
        """The record, the latest snapshot, the log entries after it and the deadlines."""
        return await self.db.read(lambda conn: _load(conn, session_id))

    async def version(self, session_id: str) -> int | None:
        version = await self.db.fetchval("SELECT version FROM sessions WHERE id = $1", session_id)
        return None if version is None else int(version)

    async def log(self, session_id: str, after: int = 0) -> tuple[LoggedAction, ...]:
        """The log entries with `seq > after`, in order (the whole log by default)."""
        return _log_of(await self.db.fetch(_LOG, session_id, after))

    async def wakeups(self, shards: Shards | None = None) -> list[tuple[str, float]]:
        """Each session's earliest deadline, earliest first (of `shards`' sessions only)."""
        where, params = self._shard_filter(shards)
        sql = (
            "SELECT session_id, MIN(due) FROM deadlines GROUP BY session_id ORDER BY 2"
            if not where
            else "SELECT d.session_id, MIN(d.due) FROM deadlines AS d "
            f"JOIN sessions AS s ON s.id = d.session_id WHERE TRUE{where} "
            "GROUP BY d.session_id ORDER BY 2"
        )
        return [(row[0], row[1]) for row in await self.db.fetch(sql, *params)]

    async def live_in_channel(self, channel_id: int) -> SessionRecord | None:
        found = await self.db.read(
            lambda conn: _records(conn, f"channel_id = $1 AND {LIVE}", (channel_id,))
        )
        return found[-1] if found else None

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRecord]:
        """Sessions in lobby or play, oldest first: all of them, or one guild's."""
        if guild_id is None:
            return await self.db.read(lambda conn: _records(conn, LIVE, ()))
        return await self.db.read(
            lambda conn: _records(conn, f"guild_id = $1 AND {LIVE}", (guild_id,))
        )

    async def awaiting_ai(self, shards: Shards | None = None) -> list[str]:
        """Active sessions whose AI (or away) seat is to move, or may be (of `shards`)."""
        where, params = self._shard_filter(shards)
        return [row[0] for row in await self.db.fetch(self._awaiting_ai + where, *params)]

    async def watch(self, watcher: Watcher) -> None:
        """Call `watcher(session_id, guild_id)` for every write with `notify` another process
        commits. Only PostgreSQL tells (a SQLite file serves one process: shards in several
        processes need PostgreSQL); on SQLite, writes with `notify` are stored like any other."""

        def changed(payload: str) -> None:
            session_id, _, guild = payload.partition(" ")
            watcher(session_id, int(guild) if guild else None)

        await self.db.listen(CHANGED, changed)

    async def quarantine(self, session_id: str, reason: str) -> bool:
        """Abandon a session that cannot be loaded, keeping why (and dropping its deadlines).

        False when it was quarantined already.
        """

        async def write(conn: Conn) -> bool:
            done = await conn.execute(
                "UPDATE sessions SET status = $1, quarantine = $2, updated_at = $3 "
                "WHERE id = $4 AND quarantine IS NULL",
                Status.ABANDONED.value,
                reason[:500],
                time.time(),
                session_id,
            )
            await conn.execute("DELETE FROM deadlines WHERE session_id = $1", session_id)
            return done == 1

        return await self.db.write(write)
