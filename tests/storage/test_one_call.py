"""Each read and each plain write on a rematch's and a game end's path is one call to the
database (each call to SQLite waits for a turn of a busy event loop to come back), and what
those single statements read back is what was stored, on both databases."""

from __future__ import annotations

from pathlib import Path

import pytest
from toygame import RULES

from games.engine import Deadline, DeadlineUpdate, GameError, Reason, SessionRecord, Status, advance
from storage import Storage, open_storage
from storage.session_store import SessionIdTaken, SessionWrite, Snapshot
from storage.sqlite import SqliteDatabase
from tests.storage.test_storage import append, make_record, start


async def traced_sqlite(tmp_path: Path) -> Storage:
    storage = await open_storage(tmp_path / "bot.db")
    assert isinstance(storage.db, SqliteDatabase)
    return storage


async def test_a_load_reads_back_each_deadlines_due_to_the_last_digit(storage: Storage) -> None:
    store = storage.sessions
    record, state = await start(store, make_record())
    due = 1_795_677_184.2323334  # SQLite writes a REAL into JSON with 15 digits only
    turn = Deadline.model_validate({"session_id": "s1", "kind": "turn", "seat": 0, "due": due})
    window = Deadline.model_validate({"session_id": "s1", "kind": "window", "due": due - 1e-6})
    seat = min(RULES.to_move(state).seats)
    step = advance(RULES, state, record.version, seat, RULES.legal_actions(state, seat)[0], 1)
    new = record.model_copy(update={"version": record.version + len(step.logged)})
    await append(store, record, new, step.logged, None, DeadlineUpdate(put=(turn, window)))
    loaded = await store.load("s1")
    assert loaded is not None and loaded.deadlines == (window, turn)


async def test_a_load_is_one_statement_on_sqlite(tmp_path: Path) -> None:
    storage = await traced_sqlite(tmp_path)
    try:
        store = storage.sessions
        record, _ = await start(store, make_record())
        await store.load("s1")  # the reader connection is opened (its pragmas) before the trace
        statements: list[str] = []
        await storage.db.trace(statements.append)
        loaded = await store.load("s1")
        await storage.db.trace(None)
        assert loaded is not None and loaded.record == record
        [load] = statements  # no BEGIN, no COMMIT, no query per table
        assert load.startswith("SELECT")
    finally:
        await storage.close()


async def test_a_new_session_on_sqlite_is_one_statement_without_begin_or_commit(
    tmp_path: Path,
) -> None:
    storage = await traced_sqlite(tmp_path)
    try:
        store = storage.sessions
        await store.create(make_record("a", channel_id=1))  # the writer's first makes its view
        statements: list[str] = []
        await storage.db.trace(statements.append)
        await store.create(make_record("b", channel_id=2))
        await storage.db.trace(None)
        # The trace names the statement again for each one its trigger runs.
        [run] = set(statements)
        assert run.startswith("INSERT INTO move_batch")
        loaded = await store.load("b")
        assert loaded is not None and loaded.record == make_record("b", channel_id=2)
    finally:
        await storage.close()


async def test_a_new_session_is_refused_in_a_busy_channel_and_under_a_recorded_id(
    storage: Storage,
) -> None:
    store = storage.sessions
    await store.create(make_record("a", channel_id=10))
    with pytest.raises(GameError) as refused:
        await store.create(make_record("b", channel_id=10))
    assert refused.value.reason is Reason.CHANNEL_BUSY
    await storage.records.add(
        guild_id=1,
        channel_id=11,
        game_id="toy",
        session_id="c",
        result="win",
        score=1,
        players=1,
        won=True,
    )
    with pytest.raises(SessionIdTaken):
        await store.create(make_record("c", channel_id=11))
    with pytest.raises(SessionIdTaken):
        await store.create(make_record("a", channel_id=12))
    assert [r.id for r in await store.live_sessions()] == ["a"]


async def test_a_preference_alone_in_its_batch_is_written_without_begin_or_commit(
    tmp_path: Path,
) -> None:
    storage = await traced_sqlite(tmp_path)
    try:
        statements: list[str] = []
        await storage.db.trace(statements.append)
        await storage.prefs.user.set(1, "locale", "ja")
        assert await storage.prefs.user.delete(1, "locale") is True
        await storage.db.trace(None)
        assert [s.split()[0] for s in statements] == ["INSERT", "DELETE"]
    finally:
        await storage.close()


async def test_a_games_figures_are_one_statement_on_sqlite(tmp_path: Path) -> None:
    storage = await traced_sqlite(tmp_path)
    try:
        records = storage.records
        for n, (result, score) in enumerate([("win", 4), ("loss", 9), ("win", 2)]):
            await records.add(
                guild_id=1,
                channel_id=5,
                game_id="toy",
                session_id=f"s{n}",
                result=result,
                score=score,
                players=1,
                won=result == "win",
            )
        await records.stats(1, "toy")  # the reader connection is opened before the trace
        statements: list[str] = []
        await storage.db.trace(statements.append)
        stats = await records.stats(1, "toy", 5)
        await storage.db.trace(None)
        assert len(statements) == 1
        assert (stats.games, stats.wins, stats.results) == (3, 2, {"win": 2, "loss": 1})
        assert stats.best is not None and stats.best.session_id == "s2"
    finally:
        await storage.close()


def started(record: SessionRecord) -> SessionWrite:
    """`record`'s start, as the service makes it (with the deal's snapshot)."""
    config = RULES.make_config(len(record.seats), {"target": 30})
    step = advance(RULES, RULES.setup(config), 0, 0, None, record.seed)
    update = {"status": Status.ACTIVE, "config": config.model_dump(mode="json")}
    after = record.model_copy(update={**update, "version": len(step.logged)})
    snapshot = Snapshot(version=after.version, state=step.state.model_dump(mode="json"))
    return SessionWrite(record, after, step.logged, snapshot)


async def test_a_new_session_and_its_first_change_commit_together(storage: Storage) -> None:
    store = storage.sessions
    first = started(make_record("r", channel_id=20))
    await store.create(first.before, first)
    loaded = await store.load("r")
    assert loaded is not None and loaded.record == first.after
    assert loaded.record.status is Status.ACTIVE and loaded.snapshot == first.snapshot
    assert len(await store.log("r")) == first.after.version


async def test_a_refused_new_session_writes_not_its_first_change_either(
    storage: Storage,
) -> None:
    store = storage.sessions
    await store.create(make_record("a", channel_id=20))
    first = started(make_record("r", channel_id=20))
    with pytest.raises(GameError) as refused:
        await store.create(first.before, first)
    assert refused.value.reason is Reason.CHANNEL_BUSY
    assert await store.load("r") is None and await store.log("r") == ()


async def test_a_new_session_with_its_first_change_is_one_statement_on_sqlite(
    tmp_path: Path,
) -> None:
    storage = await traced_sqlite(tmp_path)
    try:
        store = storage.sessions
        await store.create(make_record("a", channel_id=1))  # the writer's first makes its view
        first = started(make_record("r", channel_id=2))
        statements: list[str] = []
        await storage.db.trace(statements.append)
        await store.create(first.before, first)
        await storage.db.trace(None)
        [run] = set(statements)  # named again for each statement its triggers run
        assert run.startswith("INSERT INTO move_batch")
        loaded = await store.load("r")
        assert loaded is not None and loaded.record == first.after
    finally:
        await storage.close()
