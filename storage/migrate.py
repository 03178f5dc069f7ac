"""Copy a bot's SQLite database to PostgreSQL, then check the copy.

    python -m storage.migrate --from sqlite:data/bot.sqlite3 --to postgresql://bot@db/bot

Every table (sessions with their seats, logs, snapshots and deadlines, DM hands, preferences,
records with their seats and totals) is read in one read transaction, so the copy is one
consistent moment of the file even while a bot still writes to it, and written in one
PostgreSQL transaction with COPY: the target gets all of it or nothing. The target must hold
no data yet (its schema is created or brought up to date first). Then each table's row count
is compared, and every copied session is replayed: its log as PostgreSQL returns it must
equal the file's (and so must its record, snapshot and deadlines), and replaying it from the
first action must give the state its snapshot and the log after it give (what the bot will
load). A difference fails the command.

Moves a bot makes after the read began are not copied: stop the bot for the final copy (a
copy while it runs is a fine rehearsal).

The file is never changed: it is read once, read-only, into a private copy in a temporary
directory (`snapshot`), and everything else (an older bot's schema brought up to date, the copy,
the check) reads that copy. A file that is missing, empty, damaged, not a bot's or of a newer
schema is refused with one line and exit status 2 before the target is touched; so is a
target that cannot be reached or already holds data.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from games.engine import Rules, replay
from storage import Storage, open_storage
from storage.migrations import MIGRATIONS
from storage.postgres.db import connect

TABLES = (
    "sessions",
    "seats",
    "actions",
    "snapshots",
    "deadlines",
    "hand_messages",
    "user_prefs",
    "guild_prefs",
    "records",
    "seat_results",
    "player_totals",
    "record_totals",
    "ratings",
    "rating_results",
)
"""Every table of the schema, parents before the tables whose keys point at them."""

CHUNK = 5000
"""Rows read from the file and sent with one COPY."""

REFUSED = 2
"""The exit status of a refusal (bad source or target): nothing was written anywhere."""

UNREACHABLE = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError)
"""What connecting to a target that is down, misnamed or refusing us raises."""


class Refusal(Exception):
    """The command will not run: one line for the admin says why; nothing was written."""


async def snapshot(source: Path, into: Path) -> None:
    """Check that `source` is a bot database this code can read, and copy one consistent
    moment of it to `into`, without writing anything beside `source`.

    The bot keeps its file in WAL mode. With a WAL beside it (a bot has it open, or stopped
    without a checkpoint) the file is read through it, read-only, in one read transaction;
    without one there is nothing to recover and no bot writing, so it is opened `immutable`
    (read-only alone, SQLite would leave -wal and -shm files beside it).
    """
    if not source.is_file():
        raise Refusal(f"no SQLite database at {source}")
    if source.stat().st_size == 0:
        raise Refusal(f"{source} is empty: not a bot database")
    live = Path(f"{source}-wal").exists()
    try:
        uri = f"{source.resolve().as_uri()}?mode=ro{'' if live else '&immutable=1'}"
        await _backup(uri, into)
        await _check_copy(into, source)
    except aiosqlite.DatabaseError as error:
        raise Refusal(f"{source} is not a readable SQLite database ({error})") from None


async def _backup(uri: str, into: Path) -> None:
    async with aiosqlite.connect(uri, uri=True) as file, aiosqlite.connect(into) as copy:
        await file.backup(copy)  # one read transaction: one moment of the file


async def _check_copy(copy: Path, source: Path) -> None:
    async with aiosqlite.connect(copy) as conn:
        [(damage,)] = await conn.execute_fetchall("PRAGMA quick_check")
        if damage != "ok":
            raise aiosqlite.DatabaseError(f"damaged: {damage}")
        [(version,)] = await conn.execute_fetchall("PRAGMA user_version")
    if version == 0:
        raise Refusal(f"{source} holds no bot database (no schema version)")
    if version > len(MIGRATIONS):
        raise Refusal(
            f"{source} has schema version {version}, newer than this code's "
            f"({len(MIGRATIONS)}): run the migration with the bot's current version"
        )


@dataclass
class Report:
    copied: dict[str, int] = field(default_factory=dict)
    """Rows per table, as counted in PostgreSQL after the copy."""
    sessions: dict[str, int] = field(default_factory=dict)
    """Replayed sessions per status."""
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        copied = " ".join(f"{table}={n}" for table, n in self.copied.items())
        statuses = " ".join(f"{status}={n}" for status, n in sorted(self.sessions.items()))
        verdict = "ok" if not self.problems else f"{len(self.problems)} problems"
        return [
            f"copied {copied}",
            f"replayed {sum(self.sessions.values())} sessions ({statuses}): {verdict}",
            *self.problems,
        ]


def _converter(kind: str) -> Any:
    """How a SQLite value becomes a value of the PostgreSQL column type `kind`."""
    if kind == "boolean":
        return lambda value: None if value is None else bool(value)
    if kind == "double precision":
        return lambda value: None if value is None else float(value)
    return lambda value: value


def _convert(convert: list[Any], row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(f(value) for f, value in zip(convert, row, strict=True))


async def _chunks(cursor: aiosqlite.Cursor) -> AsyncIterator[list[Sequence[Any]]]:
    while rows := await cursor.fetchmany(CHUNK):
        yield list(rows)


async def _columns(conn: asyncpg.Connection, table: str) -> list[tuple[str, str]]:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [(row["column_name"], row["data_type"]) for row in rows]


async def copy(source: Path, target: str) -> dict[str, int]:
    """Copy every table of the SQLite file to the (migrated, empty) PostgreSQL database in
    one transaction; returns the rows read per table."""
    file = await aiosqlite.connect(f"file:{source}?mode=ro", uri=True, isolation_level=None)
    conn = await connect(target)
    read: dict[str, int] = {}
    try:
        await file.execute("BEGIN")  # one snapshot of the file for every table
        async with conn.transaction():
            for table in TABLES:
                columns = await _columns(conn, table)
                names = [name for name, _ in columns]
                convert = [_converter(kind) for _, kind in columns]
                cursor = await file.execute(f"SELECT {', '.join(names)} FROM {table}")
                read[table] = 0
                async for rows in _chunks(cursor):
                    records = [_convert(convert, row) for row in rows]
                    await conn.copy_records_to_table(table, records=records, columns=names)
                    read[table] += len(rows)
            # Records keep their ids (seat rows point at them): new ones come after.
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('records', 'id'), "
                "COALESCE((SELECT MAX(id) FROM records), 0) + 1, false)"
            )
        await file.execute("COMMIT")
    finally:
        await file.close()
        await conn.close()
    return read


async def _tables_with_rows(storage: Storage) -> list[str]:
    """The tables of the target that hold rows already."""
    exists = "SELECT EXISTS (SELECT 1 FROM {})"
    return [t for t in TABLES if await storage.db.fetchval(exists.format(t))]


async def check(
    sqlite: Storage,
    postgres: Storage,
    sessions: list[tuple[str, str]],
    games: Mapping[str, Rules[Any, Any, Any, Any]],
) -> tuple[dict[str, int], list[str]]:
    """Replay each of the copied `sessions` (id, status); returns the sessions per status and
    the problems found."""
    statuses: dict[str, int] = {}
    problems: list[str] = []
    for session_id, status in sessions:
        statuses[status] = statuses.get(status, 0) + 1
        loaded = await postgres.sessions.load(session_id)
        log = await postgres.sessions.log(session_id)
        same = loaded == await sqlite.sessions.load(session_id)  # record, snapshot, deadlines
        if loaded is None or not same or log != await sqlite.sessions.log(session_id):
            problems.append(f"session {session_id}: differs from the file's")
            continue
        if loaded.record.config is None or loaded.record.quarantine is not None:
            continue  # a lobby, or a session set aside: nothing to replay
        rules = games.get(loaded.record.game_id)
        if rules is None:
            problems.append(f"session {session_id}: unknown game {loaded.record.game_id}")
            continue
        try:
            config = rules.config_model.model_validate(loaded.record.config)
            start = (
                None
                if loaded.snapshot is None
                else rules.state_model.model_validate(loaded.snapshot.state)
            )
            full = replay(rules, config, log)
            cached = replay(rules, config, loaded.log, start=start)
        except Exception as error:
            problems.append(f"session {session_id}: replay failed: {error!r}")
            continue
        if full != cached:
            problems.append(f"session {session_id}: its snapshot and its log disagree")
    return statuses, problems


async def migrate_to_postgres(
    source: Path, target: str, games: Mapping[str, Rules[Any, Any, Any, Any]]
) -> Report:
    """Copy the SQLite file `source` to the PostgreSQL database `target`, then check it.
    Raises Refusal, having written nothing, for a source or target it will not take."""
    with tempfile.TemporaryDirectory(prefix="tablebot-migrate-") as temporary:
        copied = Path(temporary) / "bot.sqlite3"
        await snapshot(source, copied)
        async with await open_storage(copied):  # brings an older bot's file up to this schema
            pass
        return await _copy_and_check(copied, target, games)


async def _prepared_target(target: str) -> None:
    """Connect, bring the schema up to date, and refuse a target that holds data already."""
    try:
        storage = await open_storage(target)
    except UNREACHABLE as error:
        raise Refusal(f"cannot connect to the target database: {error}") from None
    except RuntimeError as error:  # its schema is newer than this code's
        raise Refusal(f"the target database: {error}") from None
    async with storage:
        if used := await _tables_with_rows(storage):
            raise Refusal(f"the target database is not empty ({', '.join(used)}): refusing")


async def _copy_and_check(
    source: Path, target: str, games: Mapping[str, Rules[Any, Any, Any, Any]]
) -> Report:
    await _prepared_target(target)
    read = await copy(source, target)
    report = Report()
    conn = await connect(target)
    try:
        for table in TABLES:
            stored = int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
            report.copied[table] = stored
            if stored != read[table]:
                report.problems.append(f"{table}: {read[table]} rows read, {stored} stored")
        rows = await conn.fetch("SELECT id, status FROM sessions ORDER BY created_at, id")
    finally:
        await conn.close()
    sessions = [(row["id"], row["status"]) for row in rows]
    async with await open_storage(source) as sqlite, await open_storage(target) as postgres:
        report.sessions, problems = await check(sqlite, postgres, sessions, games)
    report.problems += problems
    return report


def _source(value: str) -> Path:
    if not value.startswith("sqlite:"):
        raise argparse.ArgumentTypeError("expected sqlite:PATH")
    return Path(value.removeprefix("sqlite:"))


def _target(value: str) -> str:
    if not value.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError("expected postgresql://…")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.migrate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--from", dest="source", type=_source, required=True, help="sqlite:PATH")
    parser.add_argument("--to", dest="target", type=_target, required=True, help="postgresql://…")
    args = parser.parse_args(argv)
    from games.registry import GAMES

    try:
        report = asyncio.run(migrate_to_postgres(args.source, args.target, GAMES))
    except Refusal as refusal:
        print(f"{parser.prog}: {refusal}", file=sys.stderr, flush=True)
        return REFUSED
    print("\n".join(report.lines()), flush=True)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
