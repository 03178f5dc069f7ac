"""`PgSessionStore`: the engine's `SessionStore` on PostgreSQL, the same tables and rules as
`storage.sessions` (whose row conversions it shares).

A write is one statement (`_WRITE`): the session row's update under a version check
(`UPDATE … WHERE version = $2`), then its log rows, changed seats, snapshot and deadlines,
each taken FROM that update, so nothing is written when the check fails. Under READ COMMITTED
a second writer at the same version waits for the first one's row lock, then finds the version
moved on and matches no row: a VersionConflict, never a doubled move; the `(session_id, seq)`
primary key guards the log anyway. One statement per write lets the group commit send a whole
batch in one round trip, without a savepoint per write (`storage.postgres.db`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import asyncpg

from games.engine.deadlines import DeadlineUpdate
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord, Status
from games.engine.shards import Shards
from games.engine.step import LoggedAction
from storage.migrations import LIVE
from storage.postgres.db import PgDatabase, Statement
from storage.rows import dumps
from storage.session_store import (
    Durable,
    LoadedSession,
    SessionIdTaken,
    SessionWrite,
    Snapshot,
    VersionConflict,
    Watcher,
)
from storage.sessions import MUTABLE, NO_SEAT, check_chain, column_value, deadline_of, record_of

_COLUMNS = (
    "id, game_id, rules_version, guild_id, channel_id, host_id, locale, options, seed, status, "
    "version, config, table_message_id, created_at, turn_timer, to_move, quarantine"
)

_ID_HELD = "SELECT 1 FROM records WHERE session_id = $1"
"""A finished game's record keeps its session's id even were the session pruned: a new session
must not take it (as in `storage.sessions`)."""

CHANGED = "tablebot_session_changed"
"""The NOTIFY channel of writes with `notify`; the payload is `"<session id> <guild id>"`."""

_INSERT = """
INSERT INTO sessions (id, game_id, rules_version, guild_id, channel_id, host_id, locale,
    options, seed, status, version, config, table_message_id, created_at, updated_at,
    turn_timer, to_move)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
"""

_SEAT_INSERT = """
INSERT INTO seats (session_id, seat, user_id, name, away, missed, ai_level, hints, ai_moves)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
"""

_DEADLINE_DROP = "DELETE FROM deadlines WHERE session_id = $1 AND kind = $2 AND seat = $3"

_DEADLINE_PUT = """
INSERT INTO deadlines (session_id, kind, seat, due, fired) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (session_id, kind, seat) DO UPDATE SET due = excluded.due, fired = excluded.fired
"""

_AWAITING_AI = f"""
SELECT DISTINCT s.id FROM sessions AS s JOIN seats AS t ON t.session_id = s.id
WHERE {LIVE.replace("status", "s.status")} AND s.status = 'active'
    AND (t.user_id IS NULL OR t.away)
    AND (s.to_move IS NULL OR s.to_move @> to_jsonb(t.seat))
"""


def shard_filter(shards: Shards | None) -> tuple[str, tuple[Any, ...]]:
    """`AND …` keeping the sessions (alias `s`) of `shards` (see `storage.sessions`), as the
    query's only parameters $1 and $2; empty when every shard is ours."""
    if shards is None or shards.all:
        return "", ()
    sql = " AND (COALESCE(s.guild_id, 0) >> 22) % $1 = ANY($2::INTEGER[])"
    return sql, (shards.count, sorted(shards.ids))


async def _insert_seats(conn: asyncpg.Connection, record: SessionRecord) -> None:
    rows = [
        (record.id, i, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints, s.ai_moves)
        for i, s in enumerate(record.seats)
    ]
    if rows:
        await conn.executemany(_SEAT_INSERT, rows)


async def _write_deadlines(conn: asyncpg.Connection, update: DeadlineUpdate | None) -> None:
    """Drop and put deadline rows; no statement at all when the update is empty."""
    if update is None:
        return
    if update.drop:
        await conn.executemany(
            _DEADLINE_DROP,
            [(d.session_id, d.kind, NO_SEAT if d.seat is None else d.seat) for d in update.drop],
        )
    if update.put:
        await conn.executemany(
            _DEADLINE_PUT,
            [
                (d.session_id, d.kind, NO_SEAT if d.seat is None else d.seat, d.due, d.fired)
                for d in update.put
            ],
        )


async def _records(
    conn: asyncpg.Connection, where: str, params: Sequence[Any]
) -> list[SessionRecord]:
    """Sessions matching `where` with their seats, oldest first, in two queries (call within
    one read transaction, so both see the same sessions)."""
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM sessions WHERE {where} ORDER BY created_at, id", *params
    )
    if not rows:
        return []
    seats: dict[str, list[asyncpg.Record]] = {row["id"]: [] for row in rows}
    seat_rows = await conn.fetch(
        "SELECT session_id, seat, user_id, name, away, missed, ai_level, hints, ai_moves "
        "FROM seats "
        "WHERE session_id = ANY($1::TEXT[]) ORDER BY session_id, seat",
        list(seats),
    )
    for seat in seat_rows:
        seats[seat["session_id"]].append(seat)
    return [record_of(row, seats[row["id"]]) for row in rows]


# A session write as one statement, so a batch of them goes to the server in one round trip
# (`storage.postgres.db.Statement`). The version-checked UPDATE comes first; every other part
# takes its rows FROM `moved`, so when the check matches no row the statement changes
# nothing. Seats are written only when given (those that changed), seats past the new count
# dropped; deadline puts and drops touch distinct keys (`games.engine.deadlines.changes`).
_WRITE = f"""
WITH moved AS (
    UPDATE sessions SET version = $3, updated_at = $4, host_id = $5, locale = $6, options = $7,
        status = $8, config = $9, table_message_id = $10, turn_timer = $11, to_move = $12
    WHERE id = $1 AND version = $2
    RETURNING id
),
logged AS (
    INSERT INTO actions (session_id, seq, actor, payload)
    SELECT moved.id, e.seq, e.actor, e.payload FROM moved,
        unnest($13::INTEGER[], $14::INTEGER[], $15::JSON[]) AS e (seq, actor, payload)
),
unseated AS (
    DELETE FROM seats USING moved WHERE seats.session_id = moved.id AND seats.seat >= $16
),
seated AS (
    INSERT INTO seats (session_id, seat, user_id, name, away, missed, ai_level, hints,
        ai_moves)
    SELECT moved.id, s.seat, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints,
        s.ai_moves
    FROM moved,
        unnest($17::INTEGER[], $18::BIGINT[], $19::TEXT[], $20::BOOLEAN[], $21::INTEGER[],
            $22::TEXT[], $23::INTEGER[], $35::INTEGER[])
            AS s (seat, user_id, name, away, missed, ai_level, hints, ai_moves)
    ON CONFLICT (session_id, seat) DO UPDATE SET user_id = excluded.user_id,
        name = excluded.name, away = excluded.away, missed = excluded.missed,
        ai_level = excluded.ai_level, hints = excluded.hints, ai_moves = excluded.ai_moves
),
snapped AS (
    INSERT INTO snapshots (session_id, version, state)
    SELECT moved.id, $24, $25 FROM moved WHERE $24::INTEGER IS NOT NULL
    ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, state = excluded.state
    WHERE excluded.version >= snapshots.version
),
dropped AS (
    DELETE FROM deadlines AS d USING moved,
        unnest($26::TEXT[], $27::TEXT[], $28::INTEGER[]) AS k (session_id, kind, seat)
    WHERE d.session_id = k.session_id AND d.kind = k.kind AND d.seat = k.seat
),
put AS (
    INSERT INTO deadlines (session_id, kind, seat, due, fired)
    SELECT k.session_id, k.kind, k.seat, k.due, k.fired FROM moved,
        unnest($29::TEXT[], $30::TEXT[], $31::INTEGER[], $32::DOUBLE PRECISION[],
            $33::BOOLEAN[]) AS k (session_id, kind, seat, due, fired)
    ON CONFLICT (session_id, kind, seat) DO UPDATE SET due = excluded.due, fired = excluded.fired
)
SELECT (SELECT COUNT(*) FROM moved)::INTEGER AS moved,
    CASE WHEN $34::TEXT IS NOT NULL AND EXISTS (SELECT 1 FROM moved)
        THEN pg_notify('{CHANGED}', $34) END AS notified
"""


def _write_args(change: SessionWrite) -> tuple[Any, ...]:
    """The parameters of `_WRITE` for one change."""
    before, after = change.before, change.after
    old = before.seats
    seats = [
        (i, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints, s.ai_moves)
        for i, s in enumerate(after.seats)
        if len(old) != len(after.seats) or old[i] != s
    ]
    update = change.deadlines
    drop = () if update is None else update.drop
    put = () if update is None else update.put
    snapshot = change.snapshot
    notice = None
    if change.notify:
        notice = f"{after.id} {'' if after.guild_id is None else after.guild_id}"
    return (
        after.id,
        before.version,
        after.version,
        time.time(),
        *(column_value(after, name) for name in MUTABLE),
        [e.seq for e in change.entries],
        [e.actor for e in change.entries],
        [dumps(e.action) for e in change.entries],
        len(after.seats) if len(old) != len(after.seats) else None,
        *_columns(seats, 7),
        None if snapshot is None else snapshot.version,
        None if snapshot is None else dumps(snapshot.state),
        [d.session_id for d in drop],
        [d.kind for d in drop],
        [NO_SEAT if d.seat is None else d.seat for d in drop],
        [d.session_id for d in put],
        [d.kind for d in put],
        [NO_SEAT if d.seat is None else d.seat for d in put],
        [d.due for d in put],
        [d.fired for d in put],
        notice,
        [seat[7] for seat in seats],
    )


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as one list per column (the arrays `unnest` turns back into rows)."""
    return [[row[i] for row in rows] for i in range(width)]


def _log_of(rows: Sequence[asyncpg.Record]) -> tuple[LoggedAction, ...]:
    return tuple(
        LoggedAction(seq=row["seq"], actor=row["actor"], action=json.loads(row["payload"]))
        for row in rows
    )


_LOG = "SELECT seq, actor, payload FROM actions WHERE session_id = $1 AND seq > $2 ORDER BY seq"


class PgSessionStore:
    """Implements `storage.session_store.SessionStore`."""

    def __init__(self, db: PgDatabase) -> None:
        self.db = db

    async def create(self, record: SessionRecord) -> None:
        """Insert a new session; GameError(CHANNEL_BUSY) if its channel has a live one."""
        if record.version != 0:
            raise ValueError("a new session starts at version 0")
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

        async def create(conn: asyncpg.Connection) -> None:
            if record.status.live:
                busy = await conn.fetchval(
                    f"SELECT 1 FROM sessions WHERE channel_id = $1 AND {LIVE}", record.channel_id
                )
                if busy is not None:
                    raise GameError(Reason.CHANNEL_BUSY)
            if await conn.fetchval(_ID_HELD, record.id) is not None:
                raise SessionIdTaken(record.id)
            try:
                await conn.execute(_INSERT, *params)
            except asyncpg.UniqueViolationError as error:  # another process got there first
                if error.constraint_name == "sessions_live_channel":
                    raise GameError(Reason.CHANNEL_BUSY) from None
                if error.constraint_name == "sessions_pkey":
                    raise SessionIdTaken(record.id) from None
                raise
            await _insert_seats(conn, record)

        await self.db.write(create)

    def write(self, change: SessionWrite) -> Durable[None]:
        """Store what `change` changes, as one statement of the next group commit."""
        check_chain(change)
        session_id, version = change.after.id, change.before.version

        def check(row: asyncpg.Record) -> None:
            if row["moved"] != 1:
                raise VersionConflict(f"session {session_id}: no longer at {version}")

        def failed(error: Exception) -> Exception:
            if isinstance(error, asyncpg.UniqueViolationError):  # the log is past the version
                return VersionConflict(f"session {session_id}: seq taken")
            return error

        return self.db.submit(Statement(_WRITE, _write_args(change), check, failed))

    async def load(self, session_id: str) -> LoadedSession | None:
        """The record, the latest snapshot, the log entries after it and the deadlines."""

        async def load(conn: asyncpg.Connection) -> LoadedSession | None:
            found = await _records(conn, "id = $1", (session_id,))
            if not found:
                return None
            row = await conn.fetchrow(
                "SELECT version, state FROM snapshots WHERE session_id = $1", session_id
            )
            snapshot = (
                None
                if row is None
                else Snapshot(version=row["version"], state=json.loads(row["state"]))
            )
            log = _log_of(
                await conn.fetch(_LOG, session_id, 0 if snapshot is None else snapshot.version)
            )
            rows = await conn.fetch(
                "SELECT * FROM deadlines WHERE session_id = $1 ORDER BY due", session_id
            )
            deadlines = tuple(deadline_of(row) for row in rows)
            return LoadedSession(record=found[0], snapshot=snapshot, log=log, deadlines=deadlines)

        return await self.db.read(load)

    async def version(self, session_id: str) -> int | None:
        version = await self.db.fetchval("SELECT version FROM sessions WHERE id = $1", session_id)
        return None if version is None else int(version)

    async def log(self, session_id: str, after: int = 0) -> tuple[LoggedAction, ...]:
        """The log entries with `seq > after`, in order (the whole log by default)."""
        return _log_of(await self.db.fetch(_LOG, session_id, after))

    async def wakeups(self, shards: Shards | None = None) -> list[tuple[str, float]]:
        """Each session's earliest deadline, earliest first (of `shards`' sessions only)."""
        where, params = shard_filter(shards)
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
        where, params = shard_filter(shards)
        return [row[0] for row in await self.db.fetch(_AWAITING_AI + where, *params)]

    async def watch(self, watcher: Watcher) -> None:
        """Call `watcher(session_id, guild_id)` for every write with `notify` another process
        commits (LISTEN on a connection of its own)."""

        def changed(payload: str) -> None:
            session_id, _, guild = payload.partition(" ")
            watcher(session_id, int(guild) if guild else None)

        await self.db.listen(CHANGED, changed)

    async def quarantine(self, session_id: str, reason: str) -> bool:
        """Abandon a session that cannot be loaded, keeping why (and dropping its deadlines).

        False when it was quarantined already.
        """

        async def write(conn: asyncpg.Connection) -> bool:
            done = await conn.execute(
                "UPDATE sessions SET status = $1, quarantine = $2, updated_at = $3 "
                "WHERE id = $4 AND quarantine IS NULL",
                Status.ABANDONED.value,
                reason[:500],
                time.time(),
                session_id,
            )
            await conn.execute("DELETE FROM deadlines WHERE session_id = $1", session_id)
            return bool(done == "UPDATE 1")

        return await self.db.write(write)
