"""`SqliteSessionStore`: the engine's `SessionStore` over sessions, seats, actions, snapshots
and deadlines (and the row conversions the PostgreSQL store shares).

The log is the truth and snapshots only a cache over it. Each write is one function run in
the writer's group commit (see `storage.db`); each read one function on a reader. A move
writes only what it changes: its log rows, and the session row's version, seats to move and
status under a version check (`UPDATE … WHERE version = ?`), which is the optimistic
concurrency; the `(session_id, seq)` primary key makes a second entry at one version
impossible anyway.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from games.engine.deadlines import Deadline, DeadlineUpdate
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord, Status
from games.engine.shards import Shards
from games.engine.step import LoggedAction
from storage.db import Database
from storage.migrations import LIVE
from storage.rows import Row, dumps
from storage.session_store import (
    Durable,
    LoadedSession,
    SessionIdTaken,
    SessionWrite,
    Snapshot,
    VersionConflict,
    Watcher,
)

_KEY_CLASH = frozenset({"SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"})

_COLUMNS = (
    "id, game_id, rules_version, guild_id, channel_id, host_id, locale, options, seed, status, "
    "version, config, table_message_id, created_at, turn_timer, to_move, quarantine"
)

_INSERT = """
INSERT INTO sessions (id, game_id, rules_version, guild_id, channel_id, host_id, locale,
    options, seed, status, version, config, table_message_id, created_at, updated_at,
    turn_timer, to_move)
VALUES (:id, :game_id, :rules_version, :guild_id, :channel_id, :host_id, :locale,
    :options, :seed, :status, :version, :config, :table_message_id, :created_at, :updated_at,
    :turn_timer, :to_move)
"""

MUTABLE = (
    "host_id",
    "locale",
    "options",
    "status",
    "config",
    "table_message_id",
    "turn_timer",
    "to_move",
)
"""Columns a write may change besides the version; identity (game, guild, channel, seed,
creation) never changes after create."""


def column_value(record: SessionRecord, name: str) -> Any:
    value = getattr(record, name)
    if name in ("options", "config", "to_move"):
        return None if value is None else dumps(value)
    if name == "status":
        return value.value
    return value


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


def _write_seats(
    conn: sqlite3.Connection, before: SessionRecord | None, after: SessionRecord
) -> None:
    """Rewrite the seats that changed (all of them when their number did)."""
    old = () if before is None else before.seats
    rows = [
        (after.id, i, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints, s.ai_moves)
        for i, s in enumerate(after.seats)
        if len(old) != len(after.seats) or old[i] != s
    ]
    if len(old) != len(after.seats):
        conn.execute("DELETE FROM seats WHERE session_id = ?", (after.id,))
    conn.executemany(
        "INSERT OR REPLACE INTO seats "
        "(session_id, seat, user_id, name, away, missed, ai_level, hints, ai_moves) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


NO_SEAT = -1
"""The `seat` column of a window deadline (the whole table's), keeping NULL out of the key."""


def deadline_of(row: Row) -> Deadline:
    return Deadline(
        session_id=row["session_id"],
        kind=row["kind"],
        seat=None if row["seat"] == NO_SEAT else row["seat"],
        due=row["due"],
        fired=bool(row["fired"]),
    )


def _write_deadlines(conn: sqlite3.Connection, update: DeadlineUpdate | None) -> None:
    """Drop and put deadline rows; no statement at all when the update is empty."""
    if update is None:
        return
    if update.drop:
        conn.executemany(
            "DELETE FROM deadlines WHERE session_id = ? AND kind = ? AND seat = ?",
            [(d.session_id, d.kind, NO_SEAT if d.seat is None else d.seat) for d in update.drop],
        )
    if update.put:
        conn.executemany(
            "INSERT INTO deadlines (session_id, kind, seat, due, fired) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (session_id, kind, seat) DO UPDATE SET "
            "due = excluded.due, fired = excluded.fired",
            [
                (d.session_id, d.kind, NO_SEAT if d.seat is None else d.seat, d.due, d.fired)
                for d in update.put
            ],
        )


def _records(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[SessionRecord]:
    """Sessions matching `where` with their seats, oldest first, in two queries."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM sessions WHERE {where} ORDER BY created_at, id", params
    ).fetchall()
    seats: dict[str, list[sqlite3.Row]] = {row["id"]: [] for row in rows}
    if rows:
        seat_rows = conn.execute(
            "SELECT session_id, seat, user_id, name, away, missed, ai_level, hints, ai_moves "
            "FROM seats "
            f"WHERE session_id IN (SELECT id FROM sessions WHERE {where}) "
            "ORDER BY session_id, seat",
            params,
        ).fetchall()
        for seat in seat_rows:
            seats[seat["session_id"]].append(seat)
    return [record_of(row, seats[row["id"]]) for row in rows]


def _stored_version(conn: sqlite3.Connection, session_id: str) -> int | None:
    row = conn.execute("SELECT version FROM sessions WHERE id = ?", (session_id,)).fetchone()
    return None if row is None else int(row[0])


def check_chain(change: SessionWrite) -> None:
    """Catch a caller's bookkeeping bug before it reaches the log."""
    before, after, entries = change.before, change.after, change.entries
    if before.id != after.id:
        raise ValueError(f"a write of {before.id} cannot store {after.id}")
    seqs = [entry.seq for entry in entries]
    if seqs != list(range(before.version + 1, before.version + 1 + len(entries))):
        raise ValueError(f"log entries {seqs} do not follow version {before.version}")
    if after.version != before.version + len(entries):
        raise ValueError(f"record version {after.version} != {before.version} + {len(entries)}")
    if change.snapshot is not None and change.snapshot.version > after.version:
        raise ValueError(f"snapshot version {change.snapshot.version} is ahead of {after.version}")


_ID_HELD = "SELECT 1 FROM records WHERE session_id = ?"
"""A finished game's record keeps its session's id (one record per id), even were the session
pruned: a new session must not take it."""


def _create(record: SessionRecord) -> Any:
    def create(conn: sqlite3.Connection) -> None:
        if record.status.live:
            busy = conn.execute(
                f"SELECT 1 FROM sessions WHERE channel_id = ? AND {LIVE}", (record.channel_id,)
            ).fetchone()
            if busy is not None:
                raise GameError(Reason.CHANNEL_BUSY)
        if conn.execute(_ID_HELD, (record.id,)).fetchone() is not None:
            raise SessionIdTaken(record.id)
        params = {name: column_value(record, name) for name in MUTABLE}
        params |= {
            "id": record.id,
            "game_id": record.game_id,
            "rules_version": record.rules_version,
            "guild_id": record.guild_id,
            "channel_id": record.channel_id,
            "seed": record.seed,
            "version": record.version,
            "created_at": record.created_at or time.time(),
            "updated_at": time.time(),
        }
        try:
            conn.execute(_INSERT, params)
        except sqlite3.IntegrityError as error:  # another process got there meanwhile
            name = getattr(error, "sqlite_errorname", "")
            if name == "SQLITE_CONSTRAINT_PRIMARYKEY":
                raise SessionIdTaken(record.id) from None
            if name == "SQLITE_CONSTRAINT_UNIQUE":
                raise GameError(Reason.CHANNEL_BUSY) from None
            raise
        _write_seats(conn, None, record)

    return create


@functools.cache
def _update_sql(changed: tuple[str, ...]) -> str:
    """The version-checked UPDATE of a session row that sets only `changed` columns."""
    sets = ", ".join(f"{name} = ?" for name in ("version", "updated_at", *changed))
    return f"UPDATE sessions SET {sets} WHERE id = ? AND version = ?"


def _write(change: SessionWrite) -> Any:
    before, after = change.before, change.after
    changed = tuple(name for name in MUTABLE if getattr(before, name) != getattr(after, name))
    sql = _update_sql(changed)
    params = (
        after.version,
        time.time(),
        *(column_value(after, name) for name in changed),
        after.id,
        before.version,
    )

    def write(conn: sqlite3.Connection) -> None:
        if conn.execute(sql, params).rowcount != 1:
            stored = _stored_version(conn, after.id)
            raise VersionConflict(f"session {after.id}: at {stored}, not {before.version}")
        if change.entries:
            try:
                conn.executemany(
                    "INSERT INTO actions (session_id, seq, actor, payload) VALUES (?, ?, ?, ?)",
                    [(after.id, e.seq, e.actor, dumps(e.action)) for e in change.entries],
                )
            except sqlite3.IntegrityError as error:
                if getattr(error, "sqlite_errorname", "") in _KEY_CLASH:
                    raise VersionConflict(f"session {after.id}: seq taken") from error
                raise
        if before.seats != after.seats:
            _write_seats(conn, before, after)
        if change.snapshot is not None:
            conn.execute(
                "INSERT INTO snapshots (session_id, version, state) VALUES (?, ?, ?) "
                "ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, "
                "state = excluded.state WHERE excluded.version >= snapshots.version",
                (after.id, change.snapshot.version, dumps(change.snapshot.state)),
            )
        _write_deadlines(conn, change.deadlines)

    return write


def _log(conn: sqlite3.Connection, session_id: str, after: int) -> tuple[LoggedAction, ...]:
    rows = conn.execute(
        "SELECT seq, actor, payload FROM actions WHERE session_id = ? AND seq > ? ORDER BY seq",
        (session_id, after),
    ).fetchall()
    return tuple(
        LoggedAction(seq=row["seq"], actor=row["actor"], action=json.loads(row["payload"]))
        for row in rows
    )


def _load(session_id: str) -> Any:
    def load(conn: sqlite3.Connection) -> LoadedSession | None:
        found = _records(conn, "id = ?", (session_id,))
        if not found:
            return None
        row = conn.execute(
            "SELECT version, state FROM snapshots WHERE session_id = ?", (session_id,)
        ).fetchone()
        snapshot = (
            None
            if row is None
            else Snapshot(version=row["version"], state=json.loads(row["state"]))
        )
        log = _log(conn, session_id, 0 if snapshot is None else snapshot.version)
        rows = conn.execute(
            "SELECT * FROM deadlines WHERE session_id = ? ORDER BY due", (session_id,)
        ).fetchall()
        deadlines = tuple(deadline_of(row) for row in rows)
        return LoadedSession(record=found[0], snapshot=snapshot, log=log, deadlines=deadlines)

    return load


_AWAITING_AI = f"""
SELECT DISTINCT s.id FROM sessions AS s JOIN seats AS t ON t.session_id = s.id
WHERE {LIVE.replace("status", "s.status")} AND s.status = 'active'
    AND (t.user_id IS NULL OR t.away = 1)
    AND (s.to_move IS NULL OR t.seat IN (SELECT value FROM json_each(s.to_move)))
"""


def shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """`AND …` keeping the sessions (alias `s`) of `shards`, computed from the guild id as
    Discord routes it (`games.engine.shards.shard_of`); empty when every shard is ours."""
    if shards is None or shards.all:
        return "", ()
    ids = sorted(shards.ids)
    marks = ", ".join("?" * len(ids))
    return f" AND (COALESCE(s.guild_id, 0) >> 22) % ? IN ({marks})", (shards.count, *ids)


class SqliteSessionStore:
    """Implements `storage.session_store.SessionStore`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, record: SessionRecord) -> None:
        """Insert a new session; GameError(CHANNEL_BUSY) if its channel has a live one."""
        if record.version != 0:
            raise ValueError("a new session starts at version 0")
        await self.db.write(_create(record))

    def write(self, change: SessionWrite) -> Durable[None]:
        """Store what `change` changes in one savepoint of the next group commit."""
        check_chain(change)
        return self.db.submit(_write(change))

    async def load(self, session_id: str) -> LoadedSession | None:
        """The record, the latest snapshot, the log entries after it and the deadlines."""
        return await self.db.read(_load(session_id))

    async def version(self, session_id: str) -> int | None:
        return await self.db.read(lambda conn: _stored_version(conn, session_id))

    async def log(self, session_id: str, after: int = 0) -> tuple[LoggedAction, ...]:
        """The log entries with `seq > after`, in order (the whole log by default)."""
        return await self.db.read(lambda conn: _log(conn, session_id, after))

    async def wakeups(self, shards: Shards | None = None) -> list[tuple[str, float]]:
        """Each session's earliest deadline, earliest first (of `shards`' sessions only)."""
        where, params = shard_filter(shards)
        sql = (
            "SELECT session_id, MIN(due) FROM deadlines GROUP BY session_id ORDER BY 2"
            if not where
            else "SELECT d.session_id, MIN(d.due) FROM deadlines AS d "
            f"JOIN sessions AS s ON s.id = d.session_id WHERE 1{where} "
            "GROUP BY d.session_id ORDER BY 2"
        )

        def read(conn: sqlite3.Connection) -> list[tuple[str, float]]:
            rows = conn.execute(sql, params).fetchall()
            return [(row[0], row[1]) for row in rows]

        return await self.db.read(read)

    async def live_in_channel(self, channel_id: int) -> SessionRecord | None:
        found = await self.db.read(
            lambda conn: _records(conn, f"channel_id = ? AND {LIVE}", (channel_id,))
        )
        return found[-1] if found else None

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRecord]:
        """Sessions in lobby or play, oldest first: all of them, or one guild's."""
        if guild_id is None:
            return await self.db.read(lambda conn: _records(conn, LIVE, ()))
        return await self.db.read(
            lambda conn: _records(conn, f"guild_id = ? AND {LIVE}", (guild_id,))
        )

    async def awaiting_ai(self, shards: Shards | None = None) -> list[str]:
        """Active sessions whose AI (or away) seat is to move, or may be (of `shards`)."""
        where, params = shard_filter(shards)

        def read(conn: sqlite3.Connection) -> list[str]:
            return [row[0] for row in conn.execute(_AWAITING_AI + where, params).fetchall()]

        return await self.db.read(read)

    async def watch(self, watcher: Watcher) -> None:
        """Nothing to watch: a SQLite file serves the processes of one machine, and shards in
        several processes need PostgreSQL (whose store does tell). Writes with `notify` are
        stored like any other."""

    async def quarantine(self, session_id: str, reason: str) -> bool:
        """Abandon a session that cannot be loaded, keeping why (and dropping its deadlines).

        False when it was quarantined already.
        """

        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE sessions SET status = ?, quarantine = ?, updated_at = ? "
                "WHERE id = ? AND quarantine IS NULL",
                (Status.ABANDONED.value, reason[:500], time.time(), session_id),
            )
            conn.execute("DELETE FROM deadlines WHERE session_id = ?", (session_id,))
            return cursor.rowcount == 1

        return await self.db.write(write)
