"""`SqlSessionStore`: the engine's `SessionStore` over sessions, seats, actions, snapshots and
deadlines, on either database.

The log is the truth and snapshots only a cache over it. A move writes only what it changes:
its log rows, and the session row's version, status and seats to move (seats and options only
when they changed). Moves that arrive together are written together (`Move`, a `Grouped`
write of the group commit): one query reads the stored versions of their sessions, locking
those rows on PostgreSQL, where other processes write too; a move whose session is no longer
at its version is refused (VersionConflict) and writes nothing; the others are written with
one `executemany` per table. The `(session_id, seq)` primary key makes a second entry at one
version impossible anyway.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.deadlines import Deadline, DeadlineUpdate
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord, Status
from games.engine.shards import Shards
from games.engine.step import LoggedAction
from games.engine.store import (
    Durable,
    LoadedSession,
    SessionIdTaken,
    SessionWrite,
    Snapshot,
    VersionConflict,
    Watcher,
)
from storage.database import Database, Grouped, Outcome
from storage.migrations import LIVE
from storage.sql import Conn, Dialect, Row, clash, dumps

CHANGED = "tablebot_session_changed"
"""The PostgreSQL NOTIFY channel of writes with `notify`; the payload is
`"<session id> <guild id>"`."""

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

_ID_HELD = "SELECT 1 FROM records WHERE session_id = $1"
"""A finished game's record keeps its session's id (one record per id), even were the session
pruned: a new session must not take it."""

_SELECT_SEATS = "SELECT session_id, seat, user_id, name, away, missed, ai_level, hints FROM seats"


_LOG = "SELECT seq, actor, payload FROM actions WHERE session_id = $1 AND seq > $2 ORDER BY seq"

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

NO_SEAT = -1
"""The `seat` column of a window deadline (the whole table's), keeping NULL out of the key."""


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


def _key(d: Deadline) -> tuple[str, str, int]:
    return (d.session_id, d.kind, NO_SEAT if d.seat is None else d.seat)


def _seat_rows(before: SessionRecord | None, after: SessionRecord) -> list[list[Any]]:
    """The seats that changed (all of them when their number did)."""
    old = () if before is None else before.seats
    return [
        [after.id, i, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints]
        for i, s in enumerate(after.seats)
        if len(old) != len(after.seats) or old[i] != s
    ]


async def _write_deadlines(conn: Conn, update: DeadlineUpdate) -> None:
    """Drop and put deadline rows; no statement at all when the update is empty."""
    dialect = conn.dialect
    if update.drop:
        drops = dumps([list(_key(d)) for d in update.drop])
        await conn.execute(_delete(dialect, "deadlines", _DEADLINE_KEY, "$1", False), drops)
    if update.put:
        puts = dumps([[*_key(d), d.due, d.fired] for d in update.put])
        await conn.execute(_put_deadlines(dialect, "$1", False), puts)


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


KINDS = {
    "host_id": "BIGINT",
    "locale": "TEXT",
    "options": "JSON",
    "status": "TEXT",
    "config": "JSON",
    "table_message_id": "BIGINT",
    "turn_timer": "INTEGER",
    "to_move": "JSONB",
}
"""The SQL type of each of the `MUTABLE` columns."""


MOVED = "moved_sessions"
"""A temporary table of the writer's connection: the sessions of the batch the version check
passed."""

_ACTIONS = [("session_id", "TEXT"), ("seq", "INTEGER"), ("actor", "INTEGER"), ("payload", "JSON")]
_SEATS = [
    ("session_id", "TEXT"),
    ("seat", "INTEGER"),
    ("user_id", "BIGINT"),
    ("name", "TEXT"),
    ("away", "BOOLEAN"),
    ("missed", "INTEGER"),
    ("ai_level", "TEXT"),
    ("hints", "INTEGER"),
]
_SNAPSHOTS = [("session_id", "TEXT"), ("version", "INTEGER"), ("state", "JSON")]
_DEADLINES = [
    ("session_id", "TEXT"),
    ("kind", "TEXT"),
    ("seat", "INTEGER"),
    ("due", "DOUBLE PRECISION"),
    ("fired", "BOOLEAN"),
]
_SEAT_KEY = _SEATS[:2]
_DEADLINE_KEY = _DEADLINES[:3]


def _moved(dialect: Dialect, checked: bool) -> str:
    """The WHERE clause keeping the rows of sessions the version check passed (when
    `checked`; every row otherwise)."""
    return (
        f"WHERE {dialect.field(0, 'TEXT')} IN (SELECT id FROM {MOVED})" if checked else "WHERE TRUE"
    )


def _values(dialect: Dialect, columns: list[tuple[str, str]]) -> str:
    return ", ".join(dialect.field(i, kind) for i, (_, kind) in enumerate(columns))


def _insert(
    dialect: Dialect,
    table: str,
    columns: list[tuple[str, str]],
    source: str,
    checked: bool,
    conflict: str = "",
) -> str:
    """Inserts the rows of `source` (`Dialect.rows`), upserting them with `conflict`.
    (`WHERE …` before ON CONFLICT: SQLite would read it as a join's ON otherwise.)"""
    names = ", ".join(name for name, _ in columns)
    return (
        f"INSERT INTO {table} ({names}) SELECT {_values(dialect, columns)} "
        f"FROM {dialect.rows(source)} {_moved(dialect, checked)} {conflict}"
    )


def _delete(
    dialect: Dialect, table: str, key: list[tuple[str, str]], source: str, checked: bool
) -> str:
    names = ", ".join(name for name, _ in key)
    return (
        f"DELETE FROM {table} WHERE ({names}) IN (SELECT {_values(dialect, key)} "
        f"FROM {dialect.rows(source)} {_moved(dialect, checked)})"
    )


def _put_seats(dialect: Dialect, source: str, checked: bool) -> str:
    return _insert(
        dialect,
        "seats",
        _SEATS,
        source,
        checked,
        "ON CONFLICT (session_id, seat) DO UPDATE SET user_id = excluded.user_id, "
        "name = excluded.name, away = excluded.away, missed = excluded.missed, "
        "ai_level = excluded.ai_level, hints = excluded.hints",
    )


def _put_deadlines(dialect: Dialect, source: str, checked: bool) -> str:
    return _insert(
        dialect,
        "deadlines",
        _DEADLINES,
        source,
        checked,
        "ON CONFLICT (session_id, kind, seat) DO UPDATE SET due = excluded.due, "
        "fired = excluded.fired",
    )


def _update(dialect: Dialect, changed: tuple[str, ...], source: str) -> str:
    """Sets the version and the `changed` columns of each row's session, if it is still at
    the row's old version."""
    f = dialect.field
    sets = [
        f"version = {f(2, 'INTEGER')}",
        f"updated_at = {f(3, 'DOUBLE PRECISION')}",
        *(f"{name} = {f(4 + n, KINDS[name])}" for n, name in enumerate(changed)),
    ]
    return (
        f"UPDATE sessions SET {', '.join(sets)} FROM {dialect.rows(source)} "
        f"WHERE sessions.id = {f(0, 'TEXT')} AND sessions.version = {f(1, 'INTEGER')}"
    )


def _script(dialect: Dialect, changes: list[SessionWrite]) -> str:
    """One transaction writing `changes` (of distinct sessions), as one script: sent at once,
    its data inline (JSON text in SQL literals), so a batch costs one hand-over to SQLite's
    thread or one round trip to PostgreSQL, however many moves it holds.

    The version check comes first: the sessions still at their moves' old versions go in
    `MOVED` (their rows locked, on PostgreSQL); every statement after it writes only theirs.
    A statement that fails stops the script before its COMMIT.
    """
    now = time.time()
    rows: dict[str, list[list[Any]]] = {}
    shapes: dict[tuple[str, ...], list[list[Any]]] = {}
    for change in changes:
        before, after = change.before, change.after
        changed = tuple(n for n in MUTABLE if getattr(before, n) != getattr(after, n))
        values = (column_value(after, n) for n in changed)
        shapes.setdefault(changed, []).append(
            [after.id, before.version, after.version, now, *values]
        )
        add = rows.setdefault
        add("actions", []).extend(
            [after.id, e.seq, e.actor, dumps(e.action)] for e in change.entries
        )
        past = range(len(after.seats), len(before.seats))
        add("seats_past", []).extend([after.id, seat] for seat in past)
        if before.seats != after.seats:
            add("seats", []).extend(_seat_rows(before, after))
        if change.snapshot is not None:
            snapshot = [after.id, change.snapshot.version, dumps(change.snapshot.state)]
            add("snapshots", []).append(snapshot)
        if change.deadlines is not None:
            add("drops", []).extend(list(_key(d)) for d in change.deadlines.drop)
            add("puts", []).extend([*_key(d), d.due, d.fired] for d in change.deadlines.put)
        if change.notify:
            add("notices", []).append([after.id, f"{after.id} {after.guild_id or ''}"])
    literal = dialect.literal
    f = dialect.field
    checks = literal(dumps([[c.after.id, c.before.version] for c in changes]))
    statements = [
        dialect.begin_write,
        f"CREATE TEMP TABLE IF NOT EXISTS {MOVED} (id TEXT PRIMARY KEY)",
        f"DELETE FROM {MOVED}",
        f"INSERT INTO {MOVED} (id) SELECT s.id FROM sessions AS s, {dialect.rows(checks)} "
        f"WHERE s.id = {f(0, 'TEXT')} AND s.version = {f(1, 'INTEGER')}{dialect.lock_rows}",
        *(_update(dialect, changed, literal(dumps(r))) for changed, r in shapes.items()),
    ]
    writers = {
        "actions": lambda source: _insert(dialect, "actions", _ACTIONS, source, True),
        "seats_past": lambda source: _delete(dialect, "seats", _SEAT_KEY, source, True),
        "seats": lambda source: _put_seats(dialect, source, True),
        "snapshots": lambda source: _insert(
            dialect,
            "snapshots",
            _SNAPSHOTS,
            source,
            True,
            "ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, "
            "state = excluded.state WHERE excluded.version >= snapshots.version",
        ),
        "drops": lambda source: _delete(dialect, "deadlines", _DEADLINE_KEY, source, True),
        "puts": lambda source: _put_deadlines(dialect, source, True),
        "notices": lambda source: dialect.notify.format(
            channel=CHANGED, rows=dialect.rows(source), where=_moved(dialect, True)
        ),
    }
    for name, write in writers.items():
        if rows.get(name) and (name != "notices" or dialect.notify):
            statements.append(write(literal(dumps(rows[name]))))
    statements.append("COMMIT")
    return ";\n".join(statements) + ";"


@dataclass(slots=True)
class Move(Grouped):
    """One `SessionWrite` in the group commit."""

    change: SessionWrite

    @classmethod
    async def commit(cls, conn: Conn, writes: list[Any]) -> list[Outcome]:
        """Each session once per transaction (its next move may follow in the same batch)."""
        outcomes: list[Outcome | None] = [None] * len(writes)
        todo = list(range(len(writes)))
        while todo:
            seen: set[str] = set()
            now, later = [], []
            for i in todo:
                session_id = writes[i].change.after.id
                (later if session_id in seen else now).append(i)
                seen.add(session_id)
            changes = [writes[i].change for i in now]
            script = _script(conn.dialect, changes)
            _, rows = await conn.together(
                functools.partial(conn.script, script),
                functools.partial(conn.fetch, f"SELECT id FROM {MOVED}"),
            )
            moved = {row[0] for row in rows}
            for i, change in zip(now, changes, strict=True):
                outcomes[i] = (
                    (True, None)
                    if change.after.id in moved
                    else (
                        False,
                        VersionConflict(
                            f"session {change.after.id}: not at {change.before.version}"
                        ),
                    )
                )
            todo = later
        return outcomes  # type: ignore[return-value]

    def failed(self, error: Exception) -> Exception:
        """A log row that exists already: the session moved on meanwhile."""
        if clash(error) == "key":
            return VersionConflict(f"session {self.change.after.id}: seq taken")
        return error


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
        if record.status.live:
            sql = f"SELECT 1 FROM sessions WHERE channel_id = $1 AND {LIVE}"
            if await conn.fetchval(sql, record.channel_id) is not None:
                raise GameError(Reason.CHANNEL_BUSY)
        if await conn.fetchval(_ID_HELD, record.id) is not None:
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
        if rows := _seat_rows(None, record):
            await conn.execute(_put_seats(conn.dialect, "$1", False), dumps(rows))

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
    """Implements `games.engine.store.SessionStore` (and so its `DeadlineStore`)."""

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

    async def deadlines(self) -> list[Deadline]:
        """Every stored deadline, earliest first, in one query."""
        rows = await self.db.fetch("SELECT * FROM deadlines ORDER BY due, session_id, kind, seat")
        return [deadline_of(row) for row in rows]

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

    async def update_deadlines(self, update: DeadlineUpdate) -> None:
        if not update.empty:
            await self.db.write(lambda conn: _write_deadlines(conn, update))

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
