"""The small interface every store writes its SQL against, once for SQLite and PostgreSQL.

A store's query is one string with PostgreSQL's numbered placeholders (`$1`, `$2`, …; SQLite
reads them as `?1`, `?2`, …), run through a `Conn`: the same five calls on an aiosqlite or an
asyncpg connection. What the two dialects spell differently is asked of `conn.dialect`, a few
fragments: a list parameter, a test of a boolean column, a count kept in a JSON object,
whether a JSON list holds a value, the migrations' bookkeeping. The rest — JSON columns (text
in, text out), booleans (bound as Python bools), upserts (`ON CONFLICT … DO UPDATE`, the table
named in front of its columns), `RETURNING`, the lower of two values that may be NULL — is
written the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, overload

import orjson

T = TypeVar("T")


class Row(Protocol):
    """A result row, by column name or position: `sqlite3.Row`, or asyncpg's `Record`."""

    @overload
    def __getitem__(self, key: str, /) -> Any: ...
    @overload
    def __getitem__(self, key: int, /) -> Any: ...


class JsonText:
    """A value given as its JSON text, which `dumps` writes as it is: no objects made of it
    to be written again (a snapshot's state, which its model writes itself). Not a dataclass,
    which orjson would write as an object of its fields."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _as_fragment(value: Any) -> orjson.Fragment:
    if isinstance(value, JsonText):
        return orjson.Fragment(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _as_value(value: Any) -> Any:
    if isinstance(value, JsonText):
        return json.loads(value.text)
    raise TypeError(f"{type(value).__name__} is not JSON")


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=_as_value)
"""Made once: `json.dumps` with options builds an encoder every call, half its cost."""


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as is (a JSON column in either database).

    orjson writes a batch's rows 10-30 times faster than the standard library (a float's
    text above all: every session row has one); a key that is not a string becomes one, as
    `json` does. An integer past 64 bits, which orjson refuses, is written by `json`."""
    try:
        return orjson.dumps(value, default=_as_fragment, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return _ENCODER.encode(value)


Clash = Literal["key", "unique"]
"""What a refused INSERT collided with: the table's primary key, or another unique index."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """What SQLite and PostgreSQL spell differently, as fragments of the stores' SQL."""

    name: Literal["sqlite", "postgresql"]
    begin_write: str
    """Opens a write transaction (SQLite: taking the file's write lock at once)."""
    begin_read: str
    """Opens a read transaction whose queries all see one snapshot."""
    lock_rows: str
    """Ends a SELECT whose `s` rows the transaction goes on to change: other writers wait."""
    notify: str
    """A statement telling the other processes, once the transaction commits, the text in
    column 1 of each row of `{rows}` kept by `{where}`, on channel `{channel}`
    (PostgreSQL's NOTIFY); empty where one process serves the file."""
    schema_version: str
    """Reads the version the migrations brought the database to (0: none)."""
    set_version: str
    """Sets it to `{}`."""
    lock_schema: str
    """Statements a migration's transaction starts with, so that processes migrating at once
    take turns (and that `schema_version` can be read); empty where its BEGIN does that."""
    _rows: str
    _field: str
    _in_list: str
    _true: str
    _counter: str
    _count_up: str
    _holds: str
    _json_rows: str
    _json_value: str
    _exact: str

    def rows(self, source: str) -> str:
        """A FROM item `r`: the rows of `source` (a parameter such as `$1`, or a `literal`),
        JSON text of a list of lists. One statement writes them all, the database parsing
        them: no round trip, no hand-over from Python, per row."""
        return self._rows.format(source=source)

    def literal(self, text: str) -> str:
        """`text` as a string literal of SQL."""
        if self.name == "sqlite":
            return "'" + text.replace("'", "''") + "'"
        tag = next(f"$t{n}$" for n in range(len(text) + 1) if f"$t{n}$" not in text)
        return f"{tag}{text}{tag}"  # dollar quotes: no escape of any kind inside

    def field(self, index: int, kind: str) -> str:
        """Column `index` of a row of `rows`, as SQL type `kind` (a JSON column's value is
        given as its text)."""
        return self._field.format(i=index, kind=kind)

    def in_list(self, column: str, param: int, kind: str) -> str:
        """`column` is one of the values of list parameter `$param` (bound with `listed`);
        `kind` its SQL type (PostgreSQL's arrays are typed)."""
        return self._in_list.format(column=column, p=param, kind=kind)

    def listed(self, values: Sequence[Any]) -> Any:
        """A Python list as a list parameter."""
        return dumps(list(values)) if self.name == "sqlite" else list(values)

    def true(self, column: str) -> str:
        """A boolean column is true (as the partial indexes spell it, so they apply)."""
        return self._true.format(column)

    def counter(self, key: str) -> str:
        """A new JSON object counting 1 under the text `key`."""
        return self._counter.format(key=key)

    def count_up(self, column: str, key: str) -> str:
        """The JSON object in `column` with its count under `key` one higher."""
        return self._count_up.format(column=column, key=key)

    def holds(self, array: str, value: str) -> str:
        """The JSON list `array` holds the integer `value`."""
        return self._holds.format(array=array, value=value)

    def json_rows(self, columns: str, source: str) -> str:
        """A scalar subquery: JSON text of a list holding, for each row of `source` (a FROM
        item and its WHERE), the list of `columns`' values ([] without a row). A read of rows
        of several tables is then one query, one call (`storage.sessions`); their order is
        the caller's to restore. A JSON column's value goes in through `json_value`; a
        DOUBLE PRECISION one through `exact`."""
        return self._json_rows.format(columns=columns, source=source)

    def json_value(self, column: str) -> str:
        """A JSON column as a value of `json_rows` (its JSON, not a string holding it)."""
        return self._json_value.format(column)

    def exact(self, column: str) -> str:
        """A DOUBLE PRECISION column as text that reads back as the same float: SQLite
        writes a REAL into JSON with 15 digits only."""
        return self._exact.format(column)


SQLITE = Dialect(
    name="sqlite",
    begin_write="BEGIN IMMEDIATE",
    begin_read="BEGIN",
    lock_rows="",
    notify="",
    schema_version="PRAGMA user_version",
    set_version="PRAGMA user_version = {}",
    lock_schema="",
    _rows="json_each({source}) AS r",
    _field="r.value ->> {i}",
    _in_list="{column} IN (SELECT value FROM json_each(${p}))",
    _true="{} = 1",
    _counter="json_object({key}, 1)",
    _count_up=(
        "json_set({column}, '$.' || json_quote({key}), "
        "COALESCE(json_extract({column}, '$.' || json_quote({key})), 0) + 1)"
    ),
    _holds="{value} IN (SELECT value FROM json_each({array}))",
    _json_rows="(SELECT json_group_array(json_array({columns})) FROM {source})",
    _json_value="json({})",
    _exact="printf('%!.17g', {})",
)

POSTGRESQL = Dialect(
    name="postgresql",
    begin_write="BEGIN",
    begin_read="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",  # never waits for the writer
    # Another process's move committed meanwhile is seen by the version check: refused, never
    # doubled.
    lock_rows=" FOR UPDATE OF s",
    notify="SELECT pg_notify('{channel}', r.value ->> 1) FROM {rows} {where}",
    schema_version="SELECT version FROM schema_version",
    set_version="UPDATE schema_version SET version = {}",
    lock_schema=(
        f"SELECT pg_advisory_xact_lock({0x7461626C65626F74});"  # "tablebot" in ASCII
        "CREATE TABLE IF NOT EXISTS schema_version (only_row BOOLEAN PRIMARY KEY DEFAULT TRUE "
        "CHECK (only_row), version INTEGER NOT NULL CHECK (version >= 0));"
        "INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING"
    ),
    _rows="json_array_elements({source}::JSON) AS r (value)",
    _field="(r.value ->> {i})::{kind}",
    _in_list="{column} = ANY(${p}::{kind}[])",
    _true="{}",
    _counter="jsonb_build_object({key}::TEXT, 1)",
    _count_up=(
        "{column} || jsonb_build_object({key}::TEXT, "
        "COALESCE(({column} ->> {key}::TEXT)::INTEGER, 0) + 1)"
    ),
    _holds="{array} @> to_jsonb({value})",
    _json_rows="(SELECT COALESCE(json_agg(json_build_array({columns})), '[]') FROM {source})",
    _json_value="{}",
    _exact="{}::TEXT",
)


def least(a: str, b: str) -> str:
    """The lower of two values, either of which may be NULL (then the other): one spelling for
    both databases (SQLite's MIN of two is NULL if either is, PostgreSQL has no such MIN)."""
    return f"CASE WHEN {a} IS NULL OR {b} < {a} THEN {b} ELSE {a} END"


def greatest(a: str, b: str) -> str:
    return f"CASE WHEN {a} IS NULL OR {b} > {a} THEN {b} ELSE {a} END"


class Conn(Protocol):
    """One connection of either database, as the stores use it."""

    dialect: Dialect

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; how many rows it changed."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of arguments."""

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first column of the first row (None without a row)."""

    async def script(self, sql: str) -> None:
        """Run statements separated by semicolons, without parameters, in one call; the
        first that fails stops the rest."""


def clash(error: BaseException) -> Clash | None:
    """What a refused INSERT collided with (either driver's error), or None for any other
    error."""
    name = getattr(error, "sqlite_errorname", None)
    if name is not None:
        return _SQLITE_CLASHES.get(name)
    if getattr(error, "sqlstate", None) == "23505":  # unique_violation
        return "key" if str(getattr(error, "constraint_name", "")).endswith("_pkey") else "unique"
    return None


_SQLITE_CLASHES: dict[str, Clash] = {
    "SQLITE_CONSTRAINT_PRIMARYKEY": "key",
    "SQLITE_CONSTRAINT_UNIQUE": "unique",
}

Write = Callable[[Conn], Awaitable[T]]
"""A write: a function of the writer connection, run inside a group commit's transaction."""

Read = Callable[[Conn], Awaitable[T]]


_NUMBERED = re.compile(r"\$(\d+)")


def qmarks(sql: str) -> str:
    """PostgreSQL's `$1` placeholders as SQLite's `?1`."""
    return _NUMBERED.sub(r"?\1", sql)
