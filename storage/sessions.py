"""`SqlSessionStore`: the engine's `SessionStore` over sessions, seats, actions, snapshots and
deadlines, on either database.

The log is the truth and snapshots only a cache over it. Moves go through the group commit as
`storage.moves.Move` and a new session as `storage.new_session`; here are the reads, deadlines
and quarantine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from games.engine.deadlines import Deadline
from games.engine.session import SessionRecord, Status
from games.engine.shards import Shards
from games.engine.step import LoggedAction
from storage.database import Database
from storage.migrations import LIVE
from storage.move_rows import CHANGED, NO_SEAT, check_chain
from storage.moves import Move
from storage.new_session import session_write
from storage.session_store import (
    Durable,
    LoadedSession,
    SessionWrite,
    Snapshot,
    Watcher,
)
from storage.sql import Conn, Dialect, Row

_COLUMNS = (
    "id, game_id, rules_version, guild_id, channel_id, host_id, locale, options, seed, status, "
    "version, config, table_message_id, created_at, turn_timer, to_move, quarantine"
)

_LOG = "SELECT seq, actor, payload FROM actions WHERE session_id = $1 AND seq > $2 ORDER BY seq"


_SEAT_FIELDS = ("user_id", "name", "away", "missed", "ai_level", "hints", "ai_moves")


def _seats_of(dialect: Dialect, session: str) -> str:
    """The seats of session `session` (a column), as `Dialect.json_rows` of `[seat,
    *_SEAT_FIELDS]`: one query reads sessions with their seats."""
    return dialect.json_rows(
        f"seat, {', '.join(_SEAT_FIELDS)}", f"seats WHERE seats.session_id = {session}"
    )


def record_of(row: Row) -> SessionRecord:
    """A session's record from its row, whose `seats` column is `_seats_of`'s."""
    seats = sorted(json.loads(row["seats"]))  # by seat number
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
                    "user_id": s[1],
                    "name": s[2],
                    "away": bool(s[3]),
                    "missed": s[4],
                    "ai_level": s[5],
                    "hints": s[6],
                    "ai_moves": s[7],
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


async def _records(db: Database, where: str, params: Sequence[Any]) -> list[SessionRecord]:
    """Sessions matching `where` with their seats, oldest first: one query."""
    rows = await db.fetch(
        f"SELECT {_COLUMNS}, {_seats_of(db.dialect, 'sessions.id')} AS seats FROM sessions "
        f"WHERE {where} ORDER BY created_at, id",
        *params,
    )
    return [record_of(row) for row in rows]


def _log_of(rows: Sequence[Row]) -> tuple[LoggedAction, ...]:
    return tuple(
        LoggedAction(seq=row["seq"], actor=row["actor"], action=json.loads(row["payload"]))
        for row in rows
    )


def _load_sql(dialect: Dialect) -> str:
    """A session with its seats, snapshot, the log after it and its deadlines: one query (one
    snapshot of the database, one call), the rows of each as `Dialect.json_rows`."""
    after = "COALESCE(n.version, 0)"
    log = dialect.json_rows(
        f"seq, actor, {dialect.json_value('payload')}",
        f"actions WHERE actions.session_id = s.id AND seq > {after}",
    )
    deadlines = dialect.json_rows(
        f"kind, seat, {dialect.exact('due')}, fired", "deadlines WHERE deadlines.session_id = s.id"
    )
    columns = ", ".join(f"s.{name.strip()}" for name in _COLUMNS.split(","))
    return (
        f"SELECT {columns}, {_seats_of(dialect, 's.id')} AS seats, n.version AS snapshot, "
        f"n.state, {log} AS log, {deadlines} AS deadlines FROM sessions AS s "
        "LEFT JOIN snapshots AS n ON n.session_id = s.id WHERE s.id = $1"
    )


def _loaded(row: Row) -> LoadedSession:
    record = record_of(row)
    snapshot = (
        None
        if row["snapshot"] is None
        else Snapshot(version=row["snapshot"], state=json.loads(row["state"]))
    )
    log = tuple(
        LoggedAction(seq=seq, actor=actor, action=action)
        for seq, actor, action in sorted(json.loads(row["log"]), key=_first)
    )
    deadlines = [
        Deadline(
            session_id=record.id,
            kind=kind,
            seat=None if seat == NO_SEAT else seat,
            due=float(due),
            fired=bool(fired),
        )
        for kind, seat, due, fired in json.loads(row["deadlines"])
    ]
    deadlines.sort(key=lambda d: d.due)
    return LoadedSession(record=record, snapshot=snapshot, log=log, deadlines=tuple(deadlines))


def _first(row: list[Any]) -> Any:
    return row[0]


class SqlSessionStore:
    """Implements `storage.session_store.SessionStore` (and so its `DeadlineStore`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        dialect = db.dialect
        self._load = _load_sql(dialect)
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

    def create(self, record: SessionRecord, first: SessionWrite | None = None) -> Durable[None]:
        """Insert a new session; GameError(CHANNEL_BUSY) if its channel has a live one,
        SessionIdTaken if a session or a game record holds its id already. `first`: its
        first change too (a rematch's start), in the same commit: both or neither. The
        group commit's own future, as `write`'s: no coroutine, task and shield held per
        rematch while it waits (games started together rematch together)."""
        if record.version != 0:
            raise ValueError("a new session starts at version 0")
        if first is not None:
            check_chain(first)
            if first.before is not record and first.before != record:  # most are the same
                raise ValueError(f"the first change of {record.id} starts from another record")
        return self.db.submit(session_write(record, first, self.db.dialect.name == "sqlite"))

    def write(self, change: SessionWrite) -> Durable[None]:
        """Store what `change` changes in the next group commit."""
        check_chain(change)
        return self.db.submit(Move(change))

    async def load(self, session_id: str) -> LoadedSession | None:
        """The record, the latest snapshot, the log entries after it and the deadlines."""
        row = await self.db.fetchrow(self._load, session_id)
        return None if row is None else _loaded(row)

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
        found = await _records(self.db, f"channel_id = $1 AND {LIVE}", (channel_id,))
        return found[-1] if found else None

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRecord]:
        """Sessions in lobby or play, oldest first: all of them, or one guild's."""
        if guild_id is None:
            return await _records(self.db, LIVE, ())
        return await _records(self.db, f"guild_id = $1 AND {LIVE}", (guild_id,))

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
