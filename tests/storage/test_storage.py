"""Storage: migrations, the session store's log/snapshot/concurrency rules, and the bot tables.

The store tests run on both backends (the `database` fixture: a SQLite file, then a fresh
PostgreSQL database); so do the migration tests (the `empty` fixture: never migrated)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest
from toygame import RULES, Vote

from games.engine import (
    CHANCE,
    Deadline,
    DeadlineUpdate,
    GameError,
    Reason,
    Seat,
    SessionRecord,
    Shards,
    Status,
    advance,
    replay,
)
from storage import (
    HandStore,
    PrefStore,
    PrefTable,
    RecordStore,
    Storage,
    Stores,
    open_storage,
)
from storage.database import Database
from storage.migrations import MIGRATIONS, Migration, migrate, schema_version, statements
from storage.postgres.db import PgDatabase
from storage.session_store import SessionStore, SessionWrite, Snapshot, VersionConflict
from storage.sql import Conn
from storage.sqlite import SqliteDatabase
from tests.pgserver import fresh_database
from tests.stores import INTEGRITY_ERRORS, REFUSED_UPDATE, execute, scalar

TABLES = {
    "sessions",
    "seats",
    "actions",
    "snapshots",
    "user_prefs",
    "guild_prefs",
    "records",
    "record_totals",
    "seat_results",
    "player_totals",
    "hand_messages",
    "deadlines",
}


def make_record(id: str = "s1", channel_id: int = 10, guild_id: int | None = 1) -> SessionRecord:
    return SessionRecord(
        id=id,
        game_id=RULES.game_id,
        rules_version=RULES.rules_version,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=100,
        locale="ja",
        options={"target": 30, "note": {"nested": [1, "二"]}},
        seed=2**62 + 7,
        seats=(Seat(user_id=100, name="Alice"), Seat(user_id=None, name="")),
        created_at=1234.5,
    )


async def append(
    store: SessionStore,
    before: SessionRecord,
    after: SessionRecord,
    entries: tuple[Any, ...] = (),
    snapshot: Snapshot | None = None,
    deadlines: DeadlineUpdate | None = None,
) -> None:
    await store.write(SessionWrite(before, after, tuple(entries), snapshot, deadlines))


async def start(store: SessionStore, record: SessionRecord) -> tuple[SessionRecord, Any]:
    """Create and start `record` the way the service does; returns the record and state."""
    await store.create(record)
    config = RULES.make_config(len(record.seats), {"target": 30})
    step = advance(RULES, RULES.setup(config), 0, 0, None, record.seed)
    update = {"status": Status.ACTIVE, "config": config.model_dump(mode="json")}
    started = record.model_copy(update={**update, "version": len(step.logged)})
    await append(store, record, started, step.logged)
    return started, step.state


async def move(
    store: SessionStore, record: SessionRecord, state: Any, *, snapshot: bool = False
) -> tuple[SessionRecord, Any]:
    """Play the lowest seat's last legal action and append it (with chance that follows)."""
    seat = min(RULES.to_move(state).seats)
    step = advance(
        RULES, state, record.version, seat, RULES.legal_actions(state, seat)[-1], record.seed
    )
    new = record.model_copy(update={"version": record.version + len(step.logged)})
    snap = Snapshot(version=new.version, state=step.state.model_dump(mode="json"))
    await append(store, record, new, step.logged, snap if snapshot else None)
    return new, step.state


# Migrations and connection ------------------------------------------------------------------

EXTRA = "CREATE TABLE extra (x INTEGER);"
BROKEN = "CREATE TABLE half (x INTEGER);\n\nCREATE TABLE sessions (x INTEGER);"


async def test_open_empty_file_migrates_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "bot.db"
    async with await open_storage(path) as storage:
        assert path.exists()
        assert await scalar(storage, "PRAGMA user_version") == len(MIGRATIONS)
        rows = await execute(storage, "SELECT name FROM sqlite_master WHERE type = 'table'")
        assert {row[0] for row in rows} >= TABLES
        assert await scalar(storage, "PRAGMA journal_mode") == "wal"
        assert await scalar(storage, "PRAGMA foreign_keys") == 1
        assert await scalar(storage, "PRAGMA busy_timeout") == 5000
        assert await execute(storage, "PRAGMA synchronous") == [(2,)]  # FULL: power-safe
    async with await open_storage(path, synchronous="NORMAL") as storage:
        assert await execute(storage, "PRAGMA synchronous") == [(1,)]


@pytest.fixture(params=("sqlite", "postgresql"))
async def empty(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """An empty database of each backend, never migrated: a SQLite path, a PostgreSQL URL."""
    if request.param == "sqlite":
        yield tmp_path / "bot.db"
        return
    async with fresh_database(request.getfixturevalue("pg_cluster")) as url:
        yield url


@contextlib.asynccontextmanager
async def opened(location: Path | str) -> AsyncIterator[Database]:
    """The database at `location`, opened but not migrated."""
    db = await (PgDatabase.open if isinstance(location, str) else SqliteDatabase.open)(location)
    try:
        yield db
    finally:
        await db.close()


async def tables(db: Database) -> set[str]:
    if db.backend == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    return {row[0] for row in await db.fetch(sql)}


async def test_reopen_applies_nothing_twice(empty: Path | str) -> None:
    async with await open_storage(empty) as storage:
        await storage.prefs.user.set(1, "locale", "ja")
    async with opened(empty) as db:
        assert await migrate(db) == []
        extra = (*MIGRATIONS, Migration(EXTRA, EXTRA))
        assert await migrate(db, extra) == [len(extra)]
        assert await migrate(db, extra) == []
        assert await schema_version(db) == len(extra)
        with pytest.raises(RuntimeError, match="newer"):
            await migrate(db)  # code older than the database: refuse rather than guess
        rows = await db.fetch("SELECT value FROM user_prefs")
        assert [row[0] for row in rows] == ["ja"]  # data survived the migrations


async def test_failed_migration_leaves_previous_version(empty: Path | str) -> None:
    async with opened(empty) as db:
        broken = (*MIGRATIONS, Migration(BROKEN, BROKEN))
        with pytest.raises((aiosqlite.OperationalError, asyncpg.DuplicateTableError)):
            await migrate(db, broken)
        assert await schema_version(db) == len(MIGRATIONS)
        assert "half" not in await tables(db)
        assert await db.write(lambda conn: conn.fetchval("SELECT 1")) == 1


async def test_processes_starting_at_once_apply_each_migration_once(empty: Path | str) -> None:
    async with opened(empty) as a, opened(empty) as b, opened(empty) as c:
        applied = await asyncio.gather(migrate(a), migrate(b), migrate(c))
        assert sorted(n for numbers in applied for n in numbers) == list(
            range(1, len(MIGRATIONS) + 1)
        )
        assert await schema_version(a) == len(MIGRATIONS)


def test_statements_split_triggers_whole() -> None:
    parts = list(statements(MIGRATIONS[0].sqlite))
    trigger = [p for p in parts if p.startswith("CREATE TRIGGER")]
    assert len(trigger) == 1 and trigger[0].endswith("END;")
    with pytest.raises(ValueError):
        list(statements("CREATE TABLE t (x INTEGER)"))


async def test_migrating_a_v1_database_keeps_its_data_and_marks_old_wins(
    empty: Path | str,
) -> None:
    async with opened(empty) as db:
        await migrate(db, MIGRATIONS[:1])

        async def fill(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO sessions (id, game_id, rules_version, channel_id, host_id, locale, "
                "options, seed, status, created_at, updated_at) "
                "VALUES ('s1', 'thegame', 1, 10, 100, 'en', '{}', 1, 'active', 0, 0)"
            )
            await conn.execute(
                "INSERT INTO seats (session_id, seat, user_id, name) VALUES ('s1', 0, 100, 'Alice')"
            )
            for result in ("perfect", "win", "loss", "burned"):
                await conn.execute(
                    "INSERT INTO records (guild_id, channel_id, game_id, session_id, result, "
                    "score, players, finished_at) VALUES (1, 10, 'thegame', $1, $1, 3, 1, 0)",
                    result,
                )

        await db.write(fill)
        assert await migrate(db) == list(range(2, len(MIGRATIONS) + 1))
        rows = await db.fetch("SELECT result, won FROM records ORDER BY id")
        assert [(r[0], bool(r[1])) for r in rows] == [
            ("perfect", True),
            ("win", True),
            ("loss", False),
            ("burned", False),
        ]
        totals = await db.fetch("SELECT result, games, wins FROM record_totals ORDER BY result")
        # the records kept before migration 4 are counted in its totals
        assert [tuple(row) for row in totals] == [
            ("burned", 1, 0),
            ("loss", 1, 0),
            ("perfect", 1, 1),
            ("win", 1, 1),
        ]
    async with await open_storage(empty) as storage:
        loaded = await storage.sessions.load("s1")
        assert loaded is not None and loaded.record.turn_timer is None
        assert loaded.record.to_move is None and loaded.record.quarantine is None
        assert loaded.record.seats == (Seat(user_id=100, name="Alice"),)


async def test_migration_4_replaces_the_records_index_on_sqlite(tmp_path: Path) -> None:
    async with opened(tmp_path / "bot.db") as db:
        await migrate(db)
        sql = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'"
        names = {row[0] for row in await db.fetch(sql)}
        assert "records_guild_game_channel_best" in names and "records_guild_game" not in names


V5_SEAT = (
    "INSERT INTO seats (session_id, seat, user_id, name, ai_level) "
    "VALUES ('s1', 0, 100, 'Alice', 'normal'), ('s1', 1, NULL, '', 'strong')"
)
V5_RECORD = (
    "INSERT INTO records (guild_id, channel_id, game_id, session_id, result, score, players, "
    "won, finished_at) VALUES (1, 10, 'thegame', 's0', 'win', 0, 2, TRUE, 0)"
)
V5_SEAT_RESULT = (
    "INSERT INTO seat_results (record_id, seat, guild_id, game_id, user_id, name, players, "
    "won, score, result, finished_at) VALUES (1, 0, 1, 'thegame', 100, 'Alice', 2, TRUE, 0, "
    "'win', 0)"
)
V6_HINTS = (
    "SELECT (SELECT SUM(hints) FROM seats) + (SELECT SUM(hints) FROM records) "
    "+ (SELECT SUM(hints) FROM seat_results)"
)


async def test_migration_6_counts_no_hints_before_it_and_keeps_the_ai_levels(
    empty: Path | str,
) -> None:
    async with opened(empty) as db:
        await migrate(db, MIGRATIONS[:5])

        async def fill(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO sessions (id, game_id, rules_version, channel_id, host_id, locale, "
                "options, seed, status, created_at, updated_at) "
                "VALUES ('s1', 'thegame', 1, 10, 100, 'en', '{}', 1, 'lobby', 0, 0)"
            )
            for sql in (V5_SEAT, V5_RECORD, V5_SEAT_RESULT):
                await conn.execute(sql)

        await db.write(fill)
        assert await migrate(db, MIGRATIONS[:6]) == [6]
        assert await db.fetchval(V6_HINTS) == 0
    async with await open_storage(empty) as storage:
        loaded = await storage.sessions.load("s1")
        assert loaded is not None
        assert [(s.ai_level, s.hints) for s in loaded.record.seats] == [
            ("normal", 0),
            ("strong", 0),
        ]
        [entry] = await storage.records.history(1)
        assert entry.record.hints == 0 and [s.hints for s in entry.seats] == [0]


async def test_postgres_store_reconnects_after_the_server_dropped_its_connections(
    pg_url: str,
) -> None:
    async with await open_storage(pg_url) as storage:
        await storage.prefs.user.set(1, "locale", "ja")
        assert await storage.prefs.user.get(1, "locale") == "ja"  # a reader is open now
        admin = await asyncpg.connect(pg_url)
        try:
            dropped = await admin.fetchval(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert dropped >= 2  # the writer and a reader
        await asyncio.sleep(0.2)  # the client sees its sockets closed
        await storage.prefs.user.set(1, "hands", "dm")
        assert await storage.prefs.user.all(1) == {"hands": "dm", "locale": "ja"}
        record, state = await start(storage.sessions, make_record())
        await move(storage.sessions, record, state)


def test_every_migration_has_both_dialects() -> None:
    for migration in MIGRATIONS:
        assert migration.sqlite.strip() and migration.postgresql.strip()


async def test_storage_instances_satisfy_their_protocols(storage: Storage) -> None:
    assert isinstance(storage, Stores)
    assert isinstance(storage.prefs, PrefStore)
    assert isinstance(storage.prefs.user, PrefTable)
    assert isinstance(storage.records, RecordStore)
    assert isinstance(storage.hand_messages, HandStore)


# Sessions -----------------------------------------------------------------------------------


async def test_create_load_round_trip(storage: Storage) -> None:
    record = make_record()
    await storage.sessions.create(record)
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None
    assert loaded.record == record
    assert loaded.snapshot is None and loaded.log == ()
    assert await storage.sessions.load("nope") is None


async def test_save_record_updates_lobby_but_not_version(storage: Storage) -> None:
    record = make_record()
    await storage.sessions.create(record)
    seats = (*record.seats, Seat(user_id=200, name="Bob"))
    changed = record.model_copy(
        update={"seats": seats, "options": {"target": 5}, "table_message_id": 2**60}
    )
    await append(storage.sessions, record, changed)
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None and loaded.record == changed
    ahead = changed.model_copy(update={"version": 3})
    with pytest.raises(VersionConflict):
        await append(storage.sessions, ahead, ahead.model_copy(update={"status": Status.ABANDONED}))
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None and loaded.record == changed


async def test_seat_state_and_turn_timer_round_trip(storage: Storage) -> None:
    seats = (
        Seat(user_id=100, name="Alice", away=True, missed=3),
        Seat(user_id=None, name="", ai_level="hard"),
    )
    record = make_record().model_copy(update={"seats": seats, "turn_timer": 120})
    await storage.sessions.create(record)
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None and loaded.record == record
    back = record.model_copy(update={"seats": (Seat(user_id=100, name="Alice"), seats[1])})
    await append(storage.sessions, record, back)
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None and loaded.record == back


async def test_moves_of_one_batch_store_every_column_they_change_and_keep_the_rest(
    storage: Storage,
) -> None:
    store = storage.sessions
    games = [await start(store, make_record(f"s{n}", 10 + n)) for n in range(2)]
    plain, _ = next_move(*games[0])
    turned = plain.after.model_copy(update={"to_move": (1,)})
    move, _ = next_move(*games[1])
    everything = move.after.model_copy(
        update={
            "host_id": 300,
            "locale": "ja",
            "options": {"target": "五"},
            "status": Status.FINISHED,
            "config": {"rounds": 3},
            "table_message_id": 2**60,
            "turn_timer": 45,
            "to_move": None,
        }
    )
    writes = [
        SessionWrite(plain.before, turned, plain.entries),
        SessionWrite(move.before, everything, move.entries),
    ]
    await asyncio.gather(*(store.write(w) for w in writes))
    for write in writes:
        loaded = await store.load(write.after.id)
        assert loaded is not None and loaded.record == write.after


def deadline(kind: str, seat: int | None, due: float, session_id: str = "s1") -> Deadline:
    return Deadline.model_validate(
        {"session_id": session_id, "kind": kind, "seat": seat, "due": due}
    )


async def test_deadlines_are_stored_with_the_session(storage: Storage) -> None:
    store = storage.sessions
    record, state = await start(store, make_record())
    window, turn = deadline("window", None, 50.5), deadline("turn", 0, 40.0)
    seat = min(RULES.to_move(state).seats)
    step = advance(RULES, state, record.version, seat, RULES.legal_actions(state, seat)[0], 1)
    new = record.model_copy(update={"version": record.version + len(step.logged)})
    await append(store, record, new, step.logged, None, DeadlineUpdate(put=(window, turn)))
    loaded = await store.load(record.id)
    assert loaded is not None and loaded.deadlines == (turn, window)  # earliest first
    assert await scalar(storage, "SELECT seat FROM deadlines WHERE kind = 'window'") == -1
    fired = turn.model_copy(update={"fired": True, "due": 45.0})
    await append(store, new, new, (), None, DeadlineUpdate(put=(fired,), drop=(window,)))
    loaded = await store.load(record.id)
    assert loaded is not None and loaded.deadlines == (fired,)
    await append(store, new, new, (), None, DeadlineUpdate(drop=(fired,)))
    loaded = await store.load(record.id)
    assert loaded is not None and loaded.deadlines == ()


async def test_a_refused_append_writes_no_deadline(storage: Storage) -> None:
    store = storage.sessions
    record, state = await start(store, make_record())
    old_record, old_state = record, state
    record, state = await move(store, record, state)
    seat = min(RULES.to_move(old_state).seats)
    action = RULES.legal_actions(old_state, seat)[0]
    step = advance(RULES, old_state, old_record.version, seat, action, old_record.seed)
    stale = old_record.model_copy(update={"version": old_record.version + len(step.logged)})
    update = DeadlineUpdate(put=(deadline("turn", 1, 99.0),))
    with pytest.raises(VersionConflict):
        await append(store, old_record, stale, step.logged, None, update)
    with pytest.raises(VersionConflict):
        await append(store, old_record, old_record, (), None, update)
    loaded = await store.load(record.id)
    assert loaded is not None and loaded.deadlines == ()


async def test_append_then_reload_from_snapshot_and_log(storage: Storage) -> None:
    store = storage.sessions
    record, state = await start(store, make_record())
    snapshot_version = 0
    for i in range(12):
        record, state = await move(store, record, state, snapshot=i == 7)
        if i == 7:
            snapshot_version = record.version
    loaded = await store.load(record.id)
    assert loaded is not None
    assert loaded.record == record
    assert loaded.snapshot is not None and loaded.snapshot.version == snapshot_version
    seqs = [entry.seq for entry in loaded.log]
    assert seqs == list(range(snapshot_version + 1, record.version + 1))
    config = RULES.config_model.model_validate(loaded.record.config)
    start_state = RULES.state_model.model_validate(loaded.snapshot.state)
    assert replay(RULES, config, loaded.log, start=start_state) == state
    full = await store.log(record.id)
    assert [entry.seq for entry in full] == list(range(1, record.version + 1))
    assert replay(RULES, config, full) == state
    assert any(entry.actor == CHANCE for entry in full)


async def test_stale_append_raises_and_changes_nothing(storage: Storage) -> None:
    store = storage.sessions
    record, state = await start(store, make_record())
    old_record, old_state = record, state
    record, state = await move(store, record, state)
    before = await store.load(record.id)
    with pytest.raises(VersionConflict):
        await move(store, old_record, old_state, snapshot=True)
    assert await store.load(record.id) == before
    # The primary key guards the log even if the version column were behind it.
    await execute(storage, "UPDATE sessions SET version = ? WHERE id = ?", 1, record.id)
    with pytest.raises(VersionConflict):
        await move(store, old_record, old_state)
    assert len(await store.log(record.id)) == record.version


async def test_append_rejects_broken_bookkeeping(storage: Storage) -> None:
    record, state = await start(storage.sessions, make_record())
    seat = min(RULES.to_move(state).seats)
    action = RULES.legal_actions(state, seat)[0]
    step = advance(RULES, state, record.version, seat, action, record.seed)
    with pytest.raises(ValueError):  # record.version not advanced
        await append(storage.sessions, record, record, step.logged)


async def test_concurrent_appends_from_two_connections(database: Path | str) -> None:
    async with await open_storage(database) as one, await open_storage(database) as two:
        record, state = await start(one.sessions, make_record())
        record, state = await move(one.sessions, record, state)
        record, state = await move(one.sessions, record, state)  # both seats moved: vote
        assert RULES.to_move(state).seats == {0, 1}
        for _ in range(5):
            choices = []
            for seat, yes in ((0, True), (1, False)):
                step = advance(RULES, state, record.version, seat, Vote(yes=yes), record.seed)
                new = record.model_copy(update={"version": record.version + len(step.logged)})
                choices.append((new, step))
            results = await asyncio.gather(
                append(one.sessions, record, choices[0][0], choices[0][1].logged),
                append(two.sessions, record, choices[1][0], choices[1][1].logged),
                return_exceptions=True,
            )
            conflicts = [r for r in results if isinstance(r, VersionConflict)]
            assert len(conflicts) == 1 and results.count(None) == 1
            winner = choices[results.index(None)]
            assert await two.sessions.log(record.id, after=record.version) == winner[1].logged
            # Continue from the winner to the next window where both seats vote.
            record, state = winner[0], winner[1].state
            record, state = await move(one.sessions, record, state)
            while not RULES.is_over(state) and RULES.to_move(state).seats != {0, 1}:
                record, state = await move(one.sessions, record, state)
            if RULES.is_over(state):
                break


async def test_foreign_keys_enforced_and_cascade(storage: Storage) -> None:
    if storage.backend == "sqlite":
        assert await scalar(storage, "PRAGMA foreign_keys") == 1
    with pytest.raises(INTEGRITY_ERRORS):
        await execute(
            storage,
            "INSERT INTO actions (session_id, seq, actor, payload) VALUES ('ghost', 1, 0, '{}')",
        )
    record, state = await start(storage.sessions, make_record())
    await move(storage.sessions, record, state, snapshot=True)
    await storage.hand_messages.upsert(record.id, 100, 5, 6)
    with pytest.raises(REFUSED_UPDATE, match="append-only"):
        await execute(storage, "UPDATE actions SET actor = 3")
    await execute(storage, "DELETE FROM sessions WHERE id = ?", record.id)
    for table in ("seats", "actions", "snapshots", "hand_messages"):
        assert await scalar(storage, f"SELECT COUNT(*) FROM {table}") == 0


async def test_live_queries_and_busy_channel(storage: Storage) -> None:
    store = storage.sessions
    await store.create(make_record("a", channel_id=10, guild_id=1))
    await start(store, make_record("b", channel_id=11, guild_id=1))
    await store.create(make_record("c", channel_id=12, guild_id=2))
    await store.create(make_record("d", channel_id=13, guild_id=None))
    with pytest.raises(GameError) as refused:
        await store.create(make_record("e", channel_id=10))
    assert refused.value.reason is Reason.CHANNEL_BUSY
    live = await store.live_in_channel(11)
    assert live is not None and live.id == "b" and live.status is Status.ACTIVE
    assert [r.id for r in await store.live_sessions()] == ["a", "b", "c", "d"]
    assert [r.id for r in await store.live_sessions(1)] == ["a", "b"]
    loaded = await store.load("a")
    assert loaded is not None
    abandoned = loaded.record.model_copy(update={"status": Status.ABANDONED})
    await append(store, loaded.record, abandoned)
    assert await store.live_in_channel(10) is None
    assert [r.id for r in await store.live_sessions(1)] == ["b"]
    await store.create(make_record("e", channel_id=10))  # the channel is free again
    assert (await store.live_in_channel(10)).id == "e"  # type: ignore[union-attr]


def on_shard(shard: int, count: int = 2, n: int = 1) -> int:
    """A guild id Discord routes to `shard` of `count`: `(id >> 22) % count == shard`."""
    return (n * count + shard) << 22


async def test_wakeups_and_sessions_awaiting_ai_keep_to_the_given_shards(
    storage: Storage,
) -> None:
    store = storage.sessions
    guilds = {"a": on_shard(0), "b": on_shard(1), "c": on_shard(1, n=7), "dm": None}
    for n, (session_id, guild) in enumerate(guilds.items()):
        record, state = await start(store, make_record(session_id, 10 + n, guild))
        while 1 not in RULES.to_move(state).seats:  # seat 1, the AI, is to move
            record, state = await move(store, record, state)
        awaiting = record.model_copy(update={"to_move": (1,)})
        due = DeadlineUpdate(put=(deadline("turn", 1, 100.0 - n, session_id),))
        await append(store, record, awaiting, (), None, due)
    assert set(await store.awaiting_ai()) == set(guilds)
    assert set(await store.awaiting_ai(Shards.of(2))) == set(guilds)  # both shards: all
    assert set(await store.awaiting_ai(Shards.of(2, (0,)))) == {"a", "dm"}  # DMs: shard 0
    assert set(await store.awaiting_ai(Shards.of(2, (1,)))) == {"b", "c"}
    assert await store.wakeups(Shards.of(2, (1,))) == [("c", 98.0), ("b", 99.0)]
    assert await store.wakeups(Shards.of(2, (0,))) == [("dm", 97.0), ("a", 100.0)]
    assert len(await store.wakeups()) == 4
    assert set(await store.awaiting_ai(Shards.of(4, (1, 3)))) == {"b", "c"}


def next_move(record: SessionRecord, state: Any) -> tuple[SessionWrite, Any]:
    """The lowest seat's last legal action as a write (not stored yet), and the state after."""
    seat = min(RULES.to_move(state).seats)
    action = RULES.legal_actions(state, seat)[-1]
    step = advance(RULES, state, record.version, seat, action, record.seed)
    new = record.model_copy(update={"version": record.version + len(step.logged)})
    return SessionWrite(record, new, step.logged), step.state


async def test_writes_that_arrive_together_commit_together_and_a_stale_one_alone(
    storage: Storage,
) -> None:
    store = storage.sessions
    games = [await start(store, make_record(f"s{n}", 10 + n)) for n in range(5)]
    stale, _ = next_move(*games[0])
    games[0] = await move(store, *games[0])
    # s4's version column is behind its log: its check passes, its log row clashes (an error
    # of the database, which rolls the batch back: it is run again, a savepoint each).
    clash, _ = next_move(*games[4])
    games[4] = await move(store, *games[4])
    await execute(
        storage, "UPDATE sessions SET version = ? WHERE id = ?", clash.before.version, "s4"
    )
    writes = [stale] + [next_move(*game)[0] for game in games[1:4]] + [clash]
    # Submitted in one go, they share the next group commit; the refused ones fail alone.
    results = await asyncio.gather(*(store.write(w) for w in writes), return_exceptions=True)
    assert isinstance(results[0], VersionConflict) and isinstance(results[4], VersionConflict)
    assert results[1:4] == [None, None, None]
    for write in writes[1:4]:
        assert len(await store.log(write.after.id)) == write.after.version
    assert len(await store.log("s0")) == games[0][0].version  # the stale move left nothing
    assert len(await store.log("s4")) == games[4][0].version


async def test_a_batch_of_sound_writes_is_one_transaction(storage: Storage) -> None:
    store = storage.sessions
    games = [await start(store, make_record(f"s{n}", 10 + n)) for n in range(4)]
    writes = [next_move(*game)[0] for game in games]
    await asyncio.gather(*(store.write(w) for w in writes))
    for write in writes:
        assert len(await store.log(write.after.id)) == write.after.version
    if storage.backend == "postgresql":  # every row of the batch has the same writer xid
        ids = [w.after.id for w in writes]
        sql = "SELECT DISTINCT xmin::TEXT FROM sessions WHERE id = ANY(?)"
        assert len(await execute(storage, sql, ids)) == 1


async def test_a_batch_of_moves_on_sqlite_is_one_statement_prepared_once(
    tmp_path: Path,
) -> None:
    async with await open_storage(tmp_path / "bot.db") as storage:
        assert isinstance(storage.db, SqliteDatabase)
        store = storage.sessions
        games = [await start(store, make_record(f"s{n}", 10 + n)) for n in range(4)]
        await move(store, *games[3])  # the writer's first batch of moves makes its view
        statements: list[str] = []
        await storage.db.trace(statements.append)
        writes = [next_move(*game)[0] for game in games[:3]]
        await asyncio.gather(*(store.write(w) for w in writes))
        await storage.db.trace(None)
        # The trace names the statement again for each one its trigger runs: no BEGIN, no
        # COMMIT, no script, only the batch's INSERT (its rows bound: one for the three moves).
        [run] = set(statements)
        assert run.startswith("INSERT INTO move_batch")
        for write in writes:
            assert len(await store.log(write.after.id)) == write.after.version


# Bot tables ---------------------------------------------------------------------------------


async def test_prefs_round_trip(storage: Storage) -> None:
    user, guild = storage.prefs.user, storage.prefs.guild
    assert await user.get(1, "locale") is None
    assert await user.get(1, "locale", "en") == "en"
    await user.set(1, "locale", "ja")
    await user.set(1, "hands", "dm")
    await user.set(1, "locale", "fr")
    await guild.set(1, "locale", "ja")
    assert await user.get(1, "locale") == "fr"
    assert await user.all(1) == {"hands": "dm", "locale": "fr"}
    assert await guild.all(1) == {"locale": "ja"}
    assert await user.delete(1, "locale") is True
    assert await user.delete(1, "locale") is False
    assert await user.get(1, "locale") is None and await guild.get(1, "locale") == "ja"


async def test_records_round_trip_and_stats(storage: Storage) -> None:
    records = storage.records
    games = [("s1", "win", 4, 1.0), ("s2", "loss", 20, 2.0), ("s3", "perfect", 0, 3.0)]
    games += [("s4", "win", 4, 4.0), ("s5", "perfect", 0, 5.0)]
    for session_id, result, score, at in games:
        added = await records.add(
            guild_id=1,
            channel_id=10,
            game_id="thegame",
            session_id=session_id,
            result=result,
            score=score,
            players=2,
            won=result != "loss",
            details={"left": score},
            finished_at=at,
        )
        assert added
    again = dict(
        guild_id=1, channel_id=10, game_id="thegame", result="win", score=9, players=2, won=True
    )
    assert await records.add(session_id="s1", **again) is False  # one record per session
    await records.add(session_id=None, **{**again, "game_id": "exhaust"})
    await records.add(session_id="dm", **{**again, "guild_id": None})
    stats = await records.stats(1, "thegame")
    assert stats.games == 5 and stats.wins == 4
    assert stats.results == {"perfect": 2, "win": 2, "loss": 1}
    assert stats.best is not None
    assert (stats.best.session_id, stats.best.score, stats.best.details) == ("s3", 0, {"left": 0})
    assert (await records.stats(1, "exhaust")).games == 1
    assert (await records.stats(None, "thegame")).games == 1
    empty = await records.stats(2, "thegame")
    assert empty.games == 0 and empty.best is None and empty.results == {}
    recent = await records.recent(1, "thegame", limit=2)
    assert [r.session_id for r in recent] == ["s5", "s4"]


async def add_record(
    storage: Storage, session_id: str, result: str, score: int, *, channel_id: int = 10
) -> None:
    await storage.records.add(
        guild_id=1,
        channel_id=channel_id,
        game_id="thegame",
        session_id=session_id,
        result=result,
        score=score,
        players=2,
        won=result in ("win", "perfect"),
        finished_at=float(len(session_id)),
    )


async def test_a_loss_never_beats_a_win_whatever_its_score(storage: Storage) -> None:
    await add_record(storage, "s1", "loss", 12)
    stats = await storage.records.stats(1, "thegame")
    assert stats.best is not None and stats.best.session_id == "s1" and stats.wins == 0
    await add_record(storage, "s2", "win", 8)
    await add_record(storage, "s3", "burned", 2)  # fewer cards left, but a loss
    stats = await storage.records.stats(1, "thegame")
    assert stats.best is not None and (stats.best.session_id, stats.best.won) == ("s2", True)
    assert stats.wins == 1 and stats.games == 3


async def test_stats_per_channel_and_per_server(storage: Storage) -> None:
    await add_record(storage, "s1", "win", 5, channel_id=10)
    await add_record(storage, "s2", "win", 3, channel_id=11)
    await add_record(storage, "s3", "loss", 30, channel_id=11)
    server = await storage.records.stats(1, "thegame")
    assert (server.games, server.wins, server.best and server.best.score) == (3, 2, 3)
    channel = await storage.records.stats(1, "thegame", channel_id=10)
    assert (channel.games, channel.wins, channel.best and channel.best.score) == (1, 1, 5)
    assert channel.results == {"win": 1}
    other = await storage.records.stats(1, "thegame", channel_id=11)
    assert other.results == {"win": 1, "loss": 1} and other.wins == 1
    assert (await storage.records.stats(1, "thegame", channel_id=12)).games == 0


async def test_hand_messages_round_trip(storage: Storage) -> None:
    await storage.sessions.create(make_record("s1"))
    await storage.sessions.create(make_record("s2", channel_id=11))
    hands = storage.hand_messages
    assert await hands.get("s1", 100) is None
    await hands.upsert("s1", 100, 500, 600)
    await hands.upsert("s1", 200, 501, 601)
    await hands.upsert("s2", 100, 500, 602)
    await hands.upsert("s1", 100, 500, 700)  # a fresh DM replaces the old one
    found = await hands.get("s1", 100)
    assert found is not None and (found.channel_id, found.message_id) == (500, 700)
    assert [(h.user_id, h.message_id) for h in await hands.for_session("s1")] == [
        (100, 700),
        (200, 601),
    ]
    assert await hands.delete("s1", 200) is True
    assert await hands.delete("s1", 200) is False
    assert await hands.clear("s1") == 1
    assert await hands.for_session("s1") == []
    assert len(await hands.for_session("s2")) == 1
    with pytest.raises(INTEGRITY_ERRORS):
        await hands.upsert("ghost", 1, 2, 3)


@pytest.mark.parametrize("ticks", range(12))
async def test_cancelled_append_leaves_a_usable_connection(storage: Storage, ticks: int) -> None:
    """Shutdown may cancel a move mid-transaction: all or nothing, and the next write works."""
    record, state = await start(storage.sessions, make_record())
    task = asyncio.create_task(move(storage.sessions, record, state, snapshot=True))
    for _ in range(ticks):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await storage.prefs.user.set(1, "k", "v")  # the writer is usable, and past that move
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None
    assert len(await storage.sessions.log(record.id)) == loaded.record.version
    assert loaded.record.version == record.version or loaded.snapshot is not None
    reader = asyncio.create_task(storage.sessions.load(record.id))
    for _ in range(ticks):
        await asyncio.sleep(0)
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader
    assert await storage.prefs.user.get(1, "k") == "v"
