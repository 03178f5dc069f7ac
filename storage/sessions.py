"""`SqliteSessionStore`: the engine's `SessionStore` over sessions, seats, actions, snapshots
and deadlines.

The log is the truth and snapshots only a cache over it. Optimistic concurrency comes from
two places: the stored `version` is checked inside the BEGIN IMMEDIATE transaction, and the
`(session_id, seq)` primary key makes a second entry at one version impossible anyway.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from games.engine.deadlines import Deadline, DeadlineUpdate
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord
from games.engine.step import LoggedAction
from games.engine.store import LoadedSession, Snapshot, VersionConflict
from storage.db import Database
from storage.migrations import LIVE

_KEY_CLASH = frozenset({"SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"})

_INSERT = """
INSERT INTO sessions (id, game_id, rules_version, guild_id, channel_id, host_id, locale,
    options, seed, status, version, config, table_message_id, created_at, updated_at,
    turn_timer)
VALUES (:id, :game_id, :rules_version, :guild_id, :channel_id, :host_id, :locale,
    :options, :seed, :status, :version, :config, :table_message_id, :created_at, :updated_at,
    :turn_timer)
"""

# Identity (game, guild, channel, seed, creation) never changes after create.
_UPDATE = """
UPDATE sessions SET host_id = :host_id, locale = :locale, options = :options,
    status = :status, version = :version, config = :config,
    table_message_id = :table_message_id, turn_timer = :turn_timer, updated_at = :updated_at
WHERE id = :id
"""


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _params(record: SessionRecord) -> dict[str, Any]:
    data = record.model_dump(mode="json", exclude={"seats"})
    data["options"] = dumps(data["options"])
    data["config"] = None if data["config"] is None else dumps(data["config"])
    data["updated_at"] = time.time()
    return data


def _record(row: aiosqlite.Row, seats: Iterable[aiosqlite.Row]) -> SessionRecord:
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
                }
                for s in seats
            ],
            "config": None if row["config"] is None else json.loads(row["config"]),
            "table_message_id": row["table_message_id"],
            "created_at": row["created_at"],
            "turn_timer": row["turn_timer"],
        }
    )


async def _write_seats(conn: aiosqlite.Connection, record: SessionRecord) -> None:
    await conn.execute("DELETE FROM seats WHERE session_id = ?", (record.id,))
    await conn.executemany(
        "INSERT INTO seats (session_id, seat, user_id, name, away, missed, ai_level) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (record.id, i, s.user_id, s.name, s.away, s.missed, s.ai_level)
            for i, s in enumerate(record.seats)
        ],
    )


_NO_SEAT = -1
"""The `seat` column of a window deadline (the whole table's), keeping NULL out of the key."""


def _deadline(row: aiosqlite.Row) -> Deadline:
    return Deadline(
        session_id=row["session_id"],
        kind=row["kind"],
        seat=None if row["seat"] == _NO_SEAT else row["seat"],
        due=row["due"],
        fired=bool(row["fired"]),
    )


async def _write_deadlines(conn: aiosqlite.Connection, update: DeadlineUpdate | None) -> None:
    """Drop and put deadline rows; no statement at all when the update is empty."""
    if update is None:
        return
    if update.drop:
        await conn.executemany(
            "DELETE FROM deadlines WHERE session_id = ? AND kind = ? AND seat = ?",
            [(d.session_id, d.kind, _NO_SEAT if d.seat is None else d.seat) for d in update.drop],
        )
    if update.put:
        await conn.executemany(
            "INSERT INTO deadlines (session_id, kind, seat, due, fired) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (session_id, kind, seat) DO UPDATE SET "
            "due = excluded.due, fired = excluded.fired",
            [
                (d.session_id, d.kind, _NO_SEAT if d.seat is None else d.seat, d.due, d.fired)
                for d in update.put
            ],
        )


async def _records(
    conn: aiosqlite.Connection, where: str, params: Sequence[Any]
) -> list[SessionRecord]:
    """Sessions matching `where` with their seats, oldest first, in two queries."""
    rows = await conn.execute_fetchall(
        f"SELECT * FROM sessions WHERE {where} ORDER BY created_at, id", params
    )
    seats: dict[str, list[aiosqlite.Row]] = {row["id"]: [] for row in rows}
    if rows:
        seat_rows = await conn.execute_fetchall(
            "SELECT session_id, seat, user_id, name, away, missed, ai_level FROM seats "
            "WHERE session_id IN "
            f"(SELECT id FROM sessions WHERE {where}) ORDER BY session_id, seat",
            params,
        )
        for seat in seat_rows:
            seats[seat["session_id"]].append(seat)
    return [_record(row, seats[row["id"]]) for row in rows]


async def _stored_version(conn: aiosqlite.Connection, session_id: str) -> int | None:
    async with conn.execute("SELECT version FROM sessions WHERE id = ?", (session_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else int(row[0])


def _check_chain(
    record: SessionRecord,
    from_version: int,
    entries: Sequence[LoggedAction],
    snapshot: Snapshot | None,
) -> None:
    """Catch a caller's bookkeeping bug before it reaches the log."""
    seqs = [entry.seq for entry in entries]
    if seqs != list(range(from_version + 1, from_version + 1 + len(entries))):
        raise ValueError(f"log entries {seqs} do not follow version {from_version}")
    if record.version != from_version + len(entries):
        raise ValueError(f"record version {record.version} != {from_version} + {len(entries)}")
    if snapshot is not None and snapshot.version > record.version:
        raise ValueError(f"snapshot version {snapshot.version} is ahead of {record.version}")


class SqliteSessionStore:
    """Implements `games.engine.store.SessionStore` (and so its `DeadlineStore`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, record: SessionRecord) -> None:
        """Insert a new session; GameError(CHANNEL_BUSY) if its channel has a live one."""
        if record.version != 0:
            raise ValueError("a new session starts at version 0")
        async with self.db.transaction() as conn:
            if record.status.live:
                async with conn.execute(
                    f"SELECT 1 FROM sessions WHERE channel_id = ? AND {LIVE}",
                    (record.channel_id,),
                ) as cursor:
                    if await cursor.fetchone() is not None:
                        raise GameError(Reason.CHANNEL_BUSY)
            params = _params(record)
            await conn.execute(_INSERT, {**params, "created_at": record.created_at or time.time()})
            await _write_seats(conn, record)

    async def save_record(
        self, record: SessionRecord, deadlines: DeadlineUpdate | None = None
    ) -> None:
        """Store lobby-level changes and `deadlines`; the version is not changed, only checked.

        VersionConflict when the stored version differs: a stale copy must not roll back the
        status or seats another writer set.
        """
        async with self.db.transaction() as conn:
            cursor = await conn.execute(_UPDATE + " AND version = :version", _params(record))
            if cursor.rowcount != 1:
                stored = await _stored_version(conn, record.id)
                raise VersionConflict(f"session {record.id}: stored version {stored}")
            await _write_seats(conn, record)
            await _write_deadlines(conn, deadlines)

    async def append(
        self,
        record: SessionRecord,
        from_version: int,
        entries: Sequence[LoggedAction],
        snapshot: Snapshot | None,
        deadlines: DeadlineUpdate | None = None,
    ) -> None:
        """Append `entries`, store `record` and write `deadlines` in one BEGIN IMMEDIATE
        transaction."""
        _check_chain(record, from_version, entries, snapshot)
        async with self.db.transaction() as conn:
            stored = await _stored_version(conn, record.id)
            if stored != from_version:
                raise VersionConflict(f"session {record.id}: at {stored}, not {from_version}")
            try:
                await conn.executemany(
                    "INSERT INTO actions (session_id, seq, actor, payload) VALUES (?, ?, ?, ?)",
                    [(record.id, e.seq, e.actor, dumps(e.action)) for e in entries],
                )
            except sqlite3.IntegrityError as error:
                if getattr(error, "sqlite_errorname", "") in _KEY_CLASH:
                    raise VersionConflict(f"session {record.id}: seq taken") from error
                raise
            await conn.execute(_UPDATE, _params(record))
            await _write_seats(conn, record)
            if snapshot is not None:
                await conn.execute(
                    "INSERT INTO snapshots (session_id, version, state) VALUES (?, ?, ?) "
                    "ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, "
                    "state = excluded.state WHERE excluded.version >= snapshots.version",
                    (record.id, snapshot.version, dumps(snapshot.state)),
                )
            await _write_deadlines(conn, deadlines)

    async def load(self, session_id: str) -> LoadedSession | None:
        """The record, the latest snapshot, and the log entries after that snapshot."""
        async with self.db.read() as conn:
            found = await _records(conn, "id = ?", (session_id,))
            if not found:
                return None
            async with conn.execute(
                "SELECT version, state FROM snapshots WHERE session_id = ?", (session_id,)
            ) as cursor:
                row = await cursor.fetchone()
            snapshot = (
                None
                if row is None
                else Snapshot(version=row["version"], state=json.loads(row["state"]))
            )
            log = await self._log(conn, session_id, 0 if snapshot is None else snapshot.version)
            rows = await conn.execute_fetchall(
                "SELECT * FROM deadlines WHERE session_id = ? ORDER BY due", (session_id,)
            )
        deadlines = tuple(_deadline(row) for row in rows)
        return LoadedSession(record=found[0], snapshot=snapshot, log=log, deadlines=deadlines)

    async def deadlines(self) -> list[Deadline]:
        """Every stored deadline, earliest first, in one query."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall("SELECT * FROM deadlines ORDER BY due")
        return [_deadline(row) for row in rows]

    async def update_deadlines(self, update: DeadlineUpdate) -> None:
        if update.empty:
            return
        async with self.db.transaction() as conn:
            await _write_deadlines(conn, update)

    async def log(self, session_id: str, after: int = 0) -> tuple[LoggedAction, ...]:
        """The log entries with `seq > after`, in order (the whole log by default)."""
        async with self.db.read() as conn:
            return await self._log(conn, session_id, after)

    @staticmethod
    async def _log(
        conn: aiosqlite.Connection, session_id: str, after: int
    ) -> tuple[LoggedAction, ...]:
        rows = await conn.execute_fetchall(
            "SELECT seq, actor, payload FROM actions WHERE session_id = ? AND seq > ? ORDER BY seq",
            (session_id, after),
        )
        return tuple(
            LoggedAction(seq=row["seq"], actor=row["actor"], action=json.loads(row["payload"]))
            for row in rows
        )

    async def live_in_channel(self, channel_id: int) -> SessionRecord | None:
        async with self.db.read() as conn:
            found = await _records(conn, f"channel_id = ? AND {LIVE}", (channel_id,))
        return found[-1] if found else None

    async def live_sessions(self, guild_id: int | None = None) -> list[SessionRecord]:
        """Sessions in lobby or play, oldest first: all of them, or one guild's."""
        async with self.db.read() as conn:
            if guild_id is None:
                return await _records(conn, LIVE, ())
            return await _records(conn, f"guild_id = ? AND {LIVE}", (guild_id,))
