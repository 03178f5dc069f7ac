"""New sessions queued beside moves (a rematch's start while other games play): on SQLite in
the moves' one statement, no BEGIN, no COMMIT, no call of their own; on both databases each
refused alone, whatever else the batch holds."""

from __future__ import annotations

import asyncio
from pathlib import Path

from games.engine import GameError, Reason
from storage import Storage, open_storage
from storage.session_store import SessionIdTaken, VersionConflict
from tests.storage.test_one_call import started
from tests.storage.test_storage import make_record, next_move, start


async def test_a_new_session_queued_with_moves_is_written_in_their_one_statement_on_sqlite(
    tmp_path: Path,
) -> None:
    storage = await open_storage(tmp_path / "bot.db")
    try:
        store = storage.sessions
        game = await start(store, make_record("a", channel_id=1))  # the writer's view is made
        write, _ = next_move(*game)
        first = started(make_record("r", channel_id=2))
        statements: list[str] = []
        await storage.db.trace(statements.append)
        await asyncio.gather(store.create(first.before, first), store.write(write))
        await storage.db.trace(None)
        [run] = set(statements)  # named again for each statement its trigger runs
        assert run.startswith("INSERT INTO move_batch")
        loaded = await store.load("r")
        assert loaded is not None and loaded.record == first.after
        assert loaded.snapshot == first.snapshot
        assert len(await store.log("r")) == first.after.version
        moved = await store.load("a")
        assert moved is not None and moved.record == write.after
    finally:
        await storage.close()


async def test_a_new_session_beside_a_stale_move_is_stored_and_the_move_refused_alone(
    storage: Storage,
) -> None:
    store = storage.sessions
    games = [await start(store, make_record(f"s{n}", channel_id=10 + n)) for n in range(2)]
    stale, _ = next_move(*games[0])
    await store.write(stale)  # the same move again is stale
    sound, _ = next_move(*games[1])
    first = started(make_record("r", channel_id=20))
    results = await asyncio.gather(
        store.create(first.before, first),
        store.write(stale),
        store.write(sound),
        return_exceptions=True,
    )
    assert isinstance(results[1], VersionConflict)
    assert results[0] is None and results[2] is None
    loaded = await store.load("r")
    assert loaded is not None and loaded.record == first.after
    moved = await store.load("s1")
    assert moved is not None and moved.record == sound.after


async def test_a_refused_new_session_leaves_the_moves_of_its_batch_stored(
    storage: Storage,
) -> None:
    store = storage.sessions
    game = await start(store, make_record("a", channel_id=1))
    write, _ = next_move(*game)
    results = await asyncio.gather(
        store.create(make_record("b", channel_id=1)), store.write(write), return_exceptions=True
    )
    assert isinstance(results[0], GameError) and results[0].reason is Reason.CHANNEL_BUSY
    assert results[1] is None
    assert await store.load("b") is None
    moved = await store.load("a")
    assert moved is not None and moved.record == write.after


async def test_of_two_new_sessions_in_one_batch_the_second_of_a_channel_or_an_id_is_refused(
    storage: Storage,
) -> None:
    store = storage.sessions
    results = await asyncio.gather(
        store.create(make_record("x", channel_id=5)),
        store.create(make_record("y", channel_id=5)),
        store.create(make_record("x", channel_id=6)),
        store.create(make_record("z", channel_id=7)),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], GameError) and results[1].reason is Reason.CHANNEL_BUSY
    assert isinstance(results[2], SessionIdTaken)
    assert sorted(r.id for r in await store.live_sessions()) == ["x", "z"]
