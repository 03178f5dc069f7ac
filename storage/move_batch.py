"""SQLite's batch of moves as one statement: an INSERT into a temporary view (`BATCH`) whose
trigger runs every table's statement (`storage.move_rows.writers`). The new sessions of the
batch (a rematch's, with its first change) go in the same statement: one call and one COMMIT
(one fsync) for the batch, where each was a call of its own and their transaction a second
COMMIT, rewriting pages the moves had just written.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Sequence
from typing import Any

from games.engine.session import SessionRecord
from storage.move_rows import KINDS, MUTABLE, STALE, row_value, seat_rows, table_rows, writers
from storage.new_rows import insert_new, params
from storage.session_store import SessionWrite
from storage.sql import Conn, Dialect, dumps

BATCH = "move_batch"
"""A temporary view of SQLite's writer connection: a row inserted into it is a batch of
moves, which its trigger (`batch_view`) writes. One statement, prepared once and cached by
the connection, where a script is parsed again every batch; and SQLite's thread takes the
interpreter lock back once for it, not after each statement of a script."""

PARTS = (
    "now",
    "moved",
    "turned",
    "columns",
    "news",
    "actions",
    "seats_past",
    "seats",
    "snapshots",
    "drops",
    "puts",
)
"""The columns of `BATCH`: the batch's time (every session's `updated_at`), then JSON rows
(`Dialect.rows`) for the sessions whose turn stays and those whose turn changes (each with
its version check), the sessions that change more than their turn, the new sessions
(`NewRow`), and each of the tables (`writers`)."""

FIRST = ("actions", "snapshots", "puts")
"""The tables a new session's first change writes rows to besides the session and its seats
(a new session has no deadline to drop, no seat left behind)."""

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

_seldom_of = operator.attrgetter(*SELDOM)


def batch_view(dialect: Dialect) -> list[str]:
    """`BATCH` and its trigger: each session's version, where it is at its move's old version
    (`moved`: `[id, old version, new version]`; `turned`: the same and the new turn), each
    followed by the version check (every row changed one, or `STALE`, which undoes the whole
    statement: nothing written); then the other columns a few sessions change (`columns`:
    `[id, new version, a bit per `SELDOM` column set, *their values]`), the new sessions
    (checked as new sessions are), and each table's statement over its column's rows. A
    row's every field costs a parse of its JSON: the batch's time is one column of its own,
    and a turn that stays is not in the row."""
    f = dialect.field
    sets = (
        f"{name} = CASE WHEN ({f(2, 'INTEGER')} & {1 << n}) <> 0 "
        f"THEN {f(3 + n, KINDS[name])} ELSE {name} END"
        for n, name in enumerate(SELDOM)
    )
    table_writers = writers(dialect, checked=False, maybe_null=True)
    at_version = f"WHERE sessions.id = {f(0, 'TEXT')} AND sessions.version = {f(1, 'INTEGER')}"
    version = f"version = {f(2, 'INTEGER')}, updated_at = NEW.now"
    statements = []
    for part, sets_turn in (("moved", ""), ("turned", f", {TURN} = {f(3, KINDS[TURN])}")):
        source = f"NEW.{part}"
        statements += [
            f"UPDATE sessions SET {version}{sets_turn} FROM {dialect.rows(source)} {at_version}",
            # changes(): the rows the UPDATE above changed (a trigger's statements set it too).
            f"SELECT RAISE(ABORT, '{STALE}') WHERE changes() < json_array_length({source})",
        ]
    statements += [
        f"UPDATE sessions SET {', '.join(sets)} FROM {dialect.rows('NEW.columns')} "
        f"WHERE sessions.id = {f(0, 'TEXT')} AND sessions.version = {f(1, 'INTEGER')}",
        *insert_new(dialect, "NEW.news"),
        *(table_writers[name](f"NEW.{name}") for name in PARTS[5:]),
    ]
    columns = ", ".join(f"NULL AS {name}" for name in PARTS)
    body = "".join(f"{statement};\n" for statement in statements)
    return [
        f"CREATE TEMP VIEW IF NOT EXISTS {BATCH} AS SELECT {columns}",
        f"CREATE TEMP TRIGGER IF NOT EXISTS {BATCH}_written INSTEAD OF INSERT ON {BATCH} "
        f"BEGIN\n{body}END",
    ]


NewRow = tuple[SessionRecord, SessionWrite | None, float]
"""A new session: its record, its first change (None: none), its creation time."""


def batch_args(changes: list[SessionWrite], sessions: Sequence[NewRow] = ()) -> list[Any]:
    """`BATCH`'s columns (`PARTS`) for `changes` (of distinct sessions) and new `sessions`.
    A value a move left alone is the same object: `is` tells most apart without comparing
    them."""
    moved: list[Any] = []
    turned: list[Any] = []
    columns: list[Any] = []
    for change in changes:
        before, after = change.before, change.after
        was, turn = before.to_move, after.to_move
        if was is not turn and was != turn:
            turned.append((after.id, before.version, after.version, turn))
        else:
            moved.append((after.id, before.version, after.version))
        olds, news = _seldom_of(before), _seldom_of(after)
        if olds != news:
            mask = 0
            values: list[Any] = []
            for n, (old, new) in enumerate(zip(olds, news, strict=True)):
                changed = old is not new and old != new
                mask |= changed << n
                values.append(row_value(after, SELDOM[n]) if changed else None)
            columns.append((after.id, after.version, mask, *values))
    rows = table_rows(changes)
    rows.update(moved=moved, turned=turned, columns=columns)
    if sessions:
        _add_news(rows, sessions)
    return [time.time(), *(dumps(rows[name]) if rows.get(name) else None for name in PARTS[1:])]


def _add_news(rows: dict[str, list[Any]], news: Sequence[NewRow]) -> None:
    """The rows of `news`: each session as its first change leaves it (no row to update
    after its INSERT, no version to check on a session the statement makes), all its seats,
    and that change's rows of the `FIRST` tables."""
    add = rows.setdefault
    for record, first, created_at in news:
        stored = record if first is None else first.after
        add("news", []).append((*params(stored, created_at), int(record.status.live)))
        add("seats", []).extend(seat_rows(None, stored))
        if first is not None:
            made = table_rows([first])
            for name in FIRST:
                add(name, []).extend(made.get(name, ()))


async def write_batch(conn: Conn, changes: list[SessionWrite], news: Sequence[NewRow] = ()) -> None:
    """Commit `changes` (of distinct sessions) and `news` on SQLite, or fail having written
    nothing (with `STALE` if a move failed its version check): one statement in a
    transaction of its own (autocommit), through `BATCH`. On a connection without `BATCH`
    yet (its first batch), it is made first: a statement at a time, not as a script, which
    would commit a transaction begun."""
    args = batch_args(changes, news)
    try:
        await conn.execute(_WRITE_BATCH, *args)
    except Exception as error:
        if f"no such table: {BATCH}" not in str(error):
            raise
        for statement in batch_view(conn.dialect):
            await conn.execute(statement)
        await conn.execute(_WRITE_BATCH, *args)
