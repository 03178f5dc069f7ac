"""How moves are written: a batch of `SessionWrite`s in one transaction, a statement per
table, on either database.

A move writes only what it changes: its log rows, and the session row's version, status and
seats to move (seats and options only when they changed). Moves that arrive together are
written together (`Move`, a `Grouped` write of the group commit): one statement puts the
sessions still at their moves' old versions in a temporary table (locking those rows on
PostgreSQL, where other processes write too); a move whose session is no longer at its version
is refused (VersionConflict) and writes nothing; then one statement per table writes the rows
of all the others. The `(session_id, seq)` primary key makes a second entry at one version
impossible anyway.

The rows of a statement travel as one JSON list of lists, which the database unpacks
(`Dialect.rows`), so a batch costs one call however many moves it holds. On PostgreSQL the
whole transaction is one script (`Conn.script`): one round trip. On SQLite it is one INSERT
into a temporary view whose trigger runs the statements (`BATCH`): one hand-over to SQLite's
thread, of a statement prepared once (a script is parsed anew every batch, and its thread
waits for the interpreter lock after every statement while the loop is busy). Either expects
every move to pass the version check, and fails before writing anything if one did not
(`STALE`); only then is the batch written again as a script, the refused moves left out, and
the sessions that moved read back: a second call. (Each call handed to SQLite's thread costs
a turn of the event loop to come back.)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine.deadlines import Deadline
from games.engine.session import SessionRecord
from storage.database import Grouped, Outcome
from storage.session_store import SessionWrite, VersionConflict
from storage.sql import Conn, Dialect, clash, dumps

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


def seat_rows(before: SessionRecord | None, after: SessionRecord) -> list[list[Any]]:
    """The seats that changed (all of them when their number did)."""
    old = () if before is None else before.seats
    return [
        [after.id, i, s.user_id, s.name, s.away, s.missed, s.ai_level, s.hints, s.ai_moves]
        for i, s in enumerate(after.seats)
        if len(old) != len(after.seats) or old[i] != s
    ]


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


def _rows(
    changes: list[SessionWrite],
) -> tuple[dict[str, list[list[Any]]], dict[tuple[str, ...], list[list[Any]]]]:
    """The rows `changes` write, by table (`writers`), and their sessions' rows by the columns
    they change: `[id, old version, new version, now, *the changed columns' values]`. An
    action, a snapshot's state or a JSON column's value stays an object in its row: the rows'
    JSON holds it once, not as a string of JSON again, and the database gives its text
    (`->>`) to the column."""
    now = time.time()
    rows: dict[str, list[list[Any]]] = {}
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
        add = rows.setdefault
        add("actions", []).extend([after.id, e.seq, e.actor, e.action] for e in change.entries)
        past = range(len(after.seats), len(before.seats))
        add("seats_past", []).extend([after.id, seat] for seat in past)
        if before.seats != after.seats:
            add("seats", []).extend(seat_rows(before, after))
        if change.snapshot is not None:
            snapshot = [after.id, change.snapshot.version, change.snapshot.state]
            add("snapshots", []).append(snapshot)
        if change.deadlines is not None:
            add("drops", []).extend(list(deadline_key(d)) for d in change.deadlines.drop)
            add("puts", []).extend([*deadline_key(d), d.due, d.fired] for d in change.deadlines.put)
        if change.notify:
            add("notices", []).append([after.id, f"{after.id} {after.guild_id or ''}"])
    return rows, shapes


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


def _script(
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
    rows, shapes = _rows(changes)
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


BATCH = "move_batch"
"""A temporary view of SQLite's writer connection: a row inserted into it is a batch of
moves, which its trigger (`batch_view`) writes. One statement, prepared once and cached by
the connection, where a script is parsed again every batch; and SQLite's thread takes the
interpreter lock back once for it, not after each statement of a script."""

PARTS = (
    "checks",
    "sessions",
    "columns",
    "actions",
    "seats_past",
    "seats",
    "snapshots",
    "drops",
    "puts",
)
"""The columns of `BATCH`: JSON rows (`Dialect.rows`) for the version check, the sessions, the
sessions that change more than their turn, and each of the tables (`writers`)."""

_WRITE_BATCH = (
    f"INSERT INTO {BATCH} ({', '.join(PARTS)}) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, len(PARTS) + 1))})"
)

TURN = "to_move"
"""The one `MUTABLE` column most moves change; the others change seldom (a game's end, a
setting), and a statement setting one of them costs more than writing it: `status` is in the
partial indexes of live sessions (rewritten when it is set, however it changes), and options
and config have their JSON checked."""

SELDOM = tuple(name for name in MUTABLE if name != TURN)


def batch_view(dialect: Dialect) -> list[str]:
    """`BATCH` and its trigger: the version check (every session at its move's old version, or
    `STALE` and nothing written), then each session's version and turn (`sessions`: `[id, old
    version, new version, now, turn changed, turn]`), the other columns a few of them change
    (`columns`: `[id, new version, a bit per `SELDOM` column set, *their values]`), and each
    table's statement over its column's rows."""
    f = dialect.field
    at_version = (
        f"SELECT COUNT(*) FROM sessions AS s, {dialect.rows('NEW.checks')} "
        f"WHERE s.id = {f(0, 'TEXT')} AND s.version = {f(1, 'INTEGER')}"
    )
    sets = (
        f"{name} = CASE WHEN ({f(2, 'INTEGER')} & {1 << n}) <> 0 "
        f"THEN {f(3 + n, KINDS[name])} ELSE {name} END"
        for n, name in enumerate(SELDOM)
    )
    table_writers = writers(dialect, checked=False, maybe_null=True)
    statements = [
        f"SELECT RAISE(ABORT, '{STALE}') WHERE ({at_version}) < json_array_length(NEW.checks)",
        f"UPDATE sessions SET version = {f(2, 'INTEGER')}, "
        f"updated_at = {f(3, 'DOUBLE PRECISION')}, {TURN} = CASE WHEN {f(4, 'INTEGER')} = 1 "
        f"THEN {f(5, KINDS[TURN])} ELSE {TURN} END FROM {dialect.rows('NEW.sessions')} "
        f"WHERE sessions.id = {f(0, 'TEXT')} AND sessions.version = {f(1, 'INTEGER')}",
        f"UPDATE sessions SET {', '.join(sets)} FROM {dialect.rows('NEW.columns')} "
        f"WHERE sessions.id = {f(0, 'TEXT')} AND sessions.version = {f(1, 'INTEGER')}",
        *(table_writers[name](f"NEW.{name}") for name in PARTS[3:]),
    ]
    columns = ", ".join(f"NULL AS {name}" for name in PARTS)
    body = "".join(f"{statement};\n" for statement in statements)
    return [
        f"CREATE TEMP VIEW IF NOT EXISTS {BATCH} AS SELECT {columns}",
        f"CREATE TEMP TRIGGER IF NOT EXISTS {BATCH}_written INSTEAD OF INSERT ON {BATCH} "
        f"BEGIN\n{body}END",
    ]


def batch_args(changes: list[SessionWrite]) -> list[str | None]:
    """`BATCH`'s columns (`PARTS`) for `changes` (of distinct sessions)."""
    rows, shapes = _rows(changes)
    rows["checks"] = [[c.after.id, c.before.version] for c in changes]
    sessions = rows["sessions"] = []
    columns = rows["columns"] = []
    for changed, group in shapes.items():
        turn = int(TURN in changed)
        seldom = [name for name in changed if name != TURN]
        mask = sum(1 << SELDOM.index(name) for name in seldom)
        for row in group:
            by_name = dict(zip(changed, row[4:], strict=True))
            sessions.append([*row[:4], turn, by_name.get(TURN)])
            if seldom:
                columns.append([row[0], row[2], mask, *(by_name.get(n) for n in SELDOM)])
    return [dumps(rows[name]) if rows.get(name) else None for name in PARTS]


async def _write_batch(conn: Conn, changes: list[SessionWrite]) -> None:
    """Commit `changes` (of distinct sessions) on SQLite, or fail with `STALE` having written
    nothing: one statement in a transaction of its own (autocommit), through `BATCH`."""
    args = batch_args(changes)
    try:
        await conn.execute(_WRITE_BATCH, *args)
    except Exception as error:
        if f"no such table: {BATCH}" not in str(error):
            raise
        await make_views(conn, batch_view(conn.dialect))  # the connection's first batch
        await conn.execute(_WRITE_BATCH, *args)


async def make_views(conn: Conn, statements: list[str]) -> None:
    """Make a temporary view and its trigger on `conn`: statement by statement, not as a
    script, which would commit a transaction begun (they are part of it, then)."""
    for sql in statements:
        await conn.execute(sql)


async def _write(conn: Conn, changes: list[SessionWrite]) -> set[str]:
    """Commit `changes` (of distinct sessions); the ids of the sessions that moved."""
    sqlite = conn.dialect.name == "sqlite"
    try:
        if sqlite:
            await _write_batch(conn, changes)
        else:
            await conn.script(_script(conn.dialect, changes, strict=True))
        return {change.after.id for change in changes}
    except Exception as error:
        if STALE not in str(error) and MOVED not in str(error):
            raise  # not a refused move, nor a connection yet to make its `MOVED`
    if not sqlite:
        await conn.execute("ROLLBACK")  # the script stopped before its COMMIT
    await conn.script(_script(conn.dialect, changes, strict=False))
    return {row[0] for row in await conn.fetch(f"SELECT id FROM {MOVED}")}


async def write_begun(conn: Conn, change: SessionWrite) -> None:
    """Write `change` in the transaction `conn` has begun, on PostgreSQL (a script there
    commits nothing; SQLite's would): VersionConflict if its session is not at its old
    version."""
    await conn.script(_script(conn.dialect, [change], strict=False, transaction=False))
    if not await conn.fetchval(f"SELECT COUNT(*) FROM {MOVED}"):
        raise VersionConflict(f"session {change.after.id}: not at {change.before.version}")


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
            now: list[int] = []
            later: list[int] = []
            for i in todo:
                session_id = writes[i].change.after.id
                (later if session_id in seen else now).append(i)
                seen.add(session_id)
            changes = [writes[i].change for i in now]
            moved = await _write(conn, changes)
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
        return [outcome for outcome in outcomes if outcome is not None]  # each write has one

    def failed(self, error: Exception) -> Exception:
        """A log row that exists already: the session moved on meanwhile."""
        if clash(error) == "key":
            return VersionConflict(f"session {self.change.after.id}: seq taken")
        return error
