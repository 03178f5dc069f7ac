"""The rows and statements of a batch of moves, on either database: which columns a move
changes, the JSON rows each table gets (`rows_of`), the statement writing each table's rows
(`writers`), and the whole batch as one script (`script`, PostgreSQL's way, and SQLite's when
a move of the batch was refused). `storage.moves` says how a batch is committed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from games.engine.deadlines import Deadline
from games.engine.session import SessionRecord
from storage.session_store import SessionWrite, Snapshot, Taken
from storage.sql import Dialect, JsonText, dumps

CHANGED = "tablebot_session_changed"
"""The PostgreSQL NOTIFY channel of writes with `notify`; the payload is
`"<session id> <guild id>"`."""

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


def row_value(record: SessionRecord, name: str) -> Any:
    """`column_value` in a batch's JSON rows: a JSON column's value is the object itself, whose
    text the database reads from the rows (`->>`), no string of JSON dumped first."""
    value = getattr(record, name)
    return value.value if name == "status" else value


def deadline_key(d: Deadline) -> tuple[str, str, int]:
    return (d.session_id, d.kind, NO_SEAT if d.seat is None else d.seat)


def seat_rows(before: SessionRecord | None, after: SessionRecord) -> list[tuple[Any, ...]]:
    """The seats that changed (all of them when their number did)."""
    old = () if before is None else before.seats
    return [
        (after.id, i, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints, s.ai_moves)
        for i, s in enumerate(after.seats)
        if len(old) != len(after.seats) or old[i] != s
    ]


def check_chain(change: SessionWrite) -> None:
    """Catch a caller's bookkeeping bug before it reaches the log."""
    before, after, entries = change.before, change.after, change.entries
    if before.id != after.id:
        raise ValueError(f"a write of {before.id} cannot store {after.id}")
    for seq, entry in enumerate(entries, before.version + 1):
        if entry.seq != seq:
            seqs = [entry.seq for entry in entries]
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

STALE = "stale_move"
"""The constraint of `MOVED` a batch's script breaks when a move of it failed the version
check (it inserts an empty id); also the error `BATCH`'s trigger raises then."""

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
    ("ai_moves", "INTEGER"),
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
DEADLINE_KEY = _DEADLINES[:3]


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


def delete_rows(
    dialect: Dialect,
    table: str,
    key: list[tuple[str, str]],
    source: str,
    checked: bool,
    maybe_null: bool = False,
) -> str:
    """Deletes the rows of `source`'s keys. `maybe_null`: `source` may be NULL (no rows), which
    the statement tests first: SQLite's DELETE … IN over no rows, in a trigger, cost a 1-move
    batch 60-200 us more than without it (sqlite3 on tmpfs, 1,000 sessions)."""
    names = ", ".join(name for name, _ in key)
    given = f"{source} IS NOT NULL AND " if maybe_null else ""
    return (
        f"DELETE FROM {table} WHERE {given}({names}) IN (SELECT {_values(dialect, key)} "
        f"FROM {dialect.rows(source)} {_moved(dialect, checked)})"
    )


def put_seats(dialect: Dialect, source: str, checked: bool) -> str:
    return _insert(
        dialect,
        "seats",
        _SEATS,
        source,
        checked,
        "ON CONFLICT (session_id, seat) DO UPDATE SET user_id = excluded.user_id, "
        "name = excluded.name, away = excluded.away, missed = excluded.missed, "
        "ai_level = excluded.ai_level, hints = excluded.hints, ai_moves = excluded.ai_moves",
    )


def put_deadlines(dialect: Dialect, source: str, checked: bool) -> str:
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


def rows_of(
    changes: list[SessionWrite],
) -> tuple[dict[str, list[Any]], dict[tuple[str, ...], list[list[Any]]]]:
    """The rows `changes` write, by table (`table_rows`), and their sessions' rows by the
    columns they change: `[id, old version, new version, now, *the changed columns' values]`."""
    now = time.time()
    shapes: dict[tuple[str, ...], list[list[Any]]] = {}
    for change in changes:
        before, after = change.before, change.after
        changed = tuple(
            n
            for n in MUTABLE  # a value the move left alone is the same object: no comparing
            if (old := getattr(before, n)) is not (new := getattr(after, n)) and old != new
        )
        values = (row_value(after, n) for n in changed)
        shapes.setdefault(changed, []).append(
            [after.id, before.version, after.version, now, *values]
        )
    return table_rows(changes), shapes


def table_rows(changes: list[SessionWrite]) -> dict[str, list[Any]]:
    """The rows `changes` write, by table (`writers`); a table without a row has no key. An
    action, a snapshot's state or a JSON column's value stays an object in its row: the rows'
    JSON holds it once, not as a string of JSON again, and the database gives its text
    (`->>`) to the column. Rows are tuples, each table's list local until the end: a batch
    builds about a row a move, and a list or a `setdefault` per row was a tenth of its cost."""
    actions: list[Any] = []
    seats_past: list[Any] = []
    seats: list[Any] = []
    snapshots: list[Any] = []
    drops: list[Any] = []
    puts: list[Any] = []
    notices: list[Any] = []
    for change in changes:
        before, after = change.before, change.after
        session_id = after.id
        if change.entries:
            actions += [(session_id, e.seq, e.actor, e.action) for e in change.entries]
        if before.seats is not after.seats and before.seats != after.seats:
            past = range(len(after.seats), len(before.seats))
            seats_past += [(session_id, seat) for seat in past]
            seats += seat_rows(before, after)
        if (snapshot := change.snapshot) is not None:
            snapshots.append((session_id, snapshot.version, state_json(snapshot)))
        if (deadlines := change.deadlines) is not None:
            drops += [deadline_key(d) for d in deadlines.drop]
            puts += [(*deadline_key(d), d.due, d.fired) for d in deadlines.put]
        if change.notify:
            notices.append((session_id, f"{session_id} {after.guild_id or ''}"))
    tables = (
        ("actions", actions),
        ("seats_past", seats_past),
        ("seats", seats),
        ("snapshots", snapshots),
        ("drops", drops),
        ("puts", puts),
        ("notices", notices),
    )
    return {name: rows for name, rows in tables if rows}


def state_json(snapshot: Snapshot | Taken) -> Any:
    """A snapshot's state in a batch's rows: a `Taken` one as the JSON its model writes
    itself (`JsonText`), which the rows' JSON holds as it is: no dicts and lists of a dump
    made, walked and dropped (a few KB a snapshot), at half the cost."""
    if isinstance(snapshot, Taken):
        return JsonText(snapshot.model.model_dump_json())
    return snapshot.state


def writers(
    dialect: Dialect, checked: bool, maybe_null: bool = False
) -> dict[str, Callable[[str], str]]:
    """The statement writing the rows of `source` (`Dialect.rows`), for each table;
    `maybe_null`: a NULL `source` is no rows (`delete_rows`)."""
    return {
        "actions": lambda source: _insert(dialect, "actions", _ACTIONS, source, checked),
        "seats_past": lambda source: delete_rows(
            dialect, "seats", _SEAT_KEY, source, checked, maybe_null
        ),
        "seats": lambda source: put_seats(dialect, source, checked),
        "snapshots": lambda source: _insert(
            dialect,
            "snapshots",
            _SNAPSHOTS,
            source,
            checked,
            "ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, "
            "state = excluded.state WHERE excluded.version >= snapshots.version",
        ),
        "drops": lambda source: delete_rows(
            dialect, "deadlines", DEADLINE_KEY, source, checked, maybe_null
        ),
        "puts": lambda source: put_deadlines(dialect, source, checked),
        "notices": lambda source: dialect.notify.format(
            channel=CHANGED, rows=dialect.rows(source), where=_moved(dialect, checked)
        ),
    }


def script(
    dialect: Dialect, changes: list[SessionWrite], strict: bool, transaction: bool = True
) -> str:
    """One transaction writing `changes` (of distinct sessions), as one script: sent at once,
    its data inline (JSON text in SQL literals), so a batch costs one round trip to PostgreSQL
    (or one hand-over to SQLite's thread), however many moves it holds.

    The version check comes first, locking the sessions' rows on PostgreSQL. When `strict`,
    a session not at its move's old version breaks `STALE` (and a connection without `MOVED`
    yet fails too): the script writes every move or nothing. Otherwise the sessions at their
    old versions go in `MOVED`, and every statement after it writes only theirs. A statement
    that fails stops the script before its COMMIT. Without `transaction`, no BEGIN and no
    COMMIT: statements of a transaction begun already.
    """
    rows, shapes = rows_of(changes)
    literal = dialect.literal
    f = dialect.field
    checks = literal(dumps([[c.after.id, c.before.version] for c in changes]))
    at_version = (
        f"SELECT s.id FROM sessions AS s, {dialect.rows(checks)} "
        f"WHERE s.id = {f(0, 'TEXT')} AND s.version = {f(1, 'INTEGER')}{dialect.lock_rows}"
    )
    statements = [dialect.begin_write] if transaction else []
    if strict:
        statements.append(
            f"INSERT INTO {MOVED} (id) SELECT '' "
            f"WHERE (SELECT COUNT(*) FROM ({at_version}) AS c) < {len(changes)}"
        )
    else:
        statements += [
            f"CREATE TEMP TABLE IF NOT EXISTS {MOVED} "
            f"(id TEXT PRIMARY KEY CONSTRAINT {STALE} CHECK (id <> ''))",
            f"DELETE FROM {MOVED}",
            f"INSERT INTO {MOVED} (id) {at_version}",
        ]
    statements += (_update(dialect, c, literal(dumps(r))) for c, r in shapes.items())
    for name, write in writers(dialect, checked=not strict).items():
        if rows.get(name) and (name != "notices" or dialect.notify):
            statements.append(write(literal(dumps(rows[name]))))
    if transaction:
        statements.append("COMMIT")
    return ";\n".join(statements) + ";"
