"""A batch of moves whose turns stay and whose turns change (two lists of rows on SQLite, each
with its version check): every sound move is stored, a stale one of either kind is refused
alone, on both databases."""

from __future__ import annotations

import asyncio

import pytest

from storage import Storage
from storage.session_store import SessionWrite, VersionConflict
from tests.storage.test_storage import make_record, next_move, start


def turning(write: SessionWrite, turn: bool) -> SessionWrite:
    """`write` with a turn that changes (to seat 1 alone) or stays (the same object)."""
    to_move = (1,) if turn and write.before.to_move != (1,) else write.before.to_move
    after = write.after.model_copy(update={"to_move": to_move})
    return SessionWrite(write.before, after, write.entries)


@pytest.mark.parametrize("stale_turns", [False, True])
async def test_a_stale_write_is_refused_alone_whether_its_turn_changes_or_stays(
    storage: Storage, stale_turns: bool
) -> None:
    store = storage.sessions
    games = [await start(store, make_record(f"s{n}", 10 + n)) for n in range(4)]
    old = games[0][0]
    moved_on, _ = next_move(*games[0])
    await store.write(moved_on)
    # No log entry: only the version check can refuse it (no log row would clash).
    change = {"to_move": (1,) if old.to_move != (1,) else (0,)} if stale_turns else {"host_id": 5}
    stale = SessionWrite(old, old.model_copy(update=change))
    writes = [
        stale,
        turning(next_move(*games[1])[0], True),
        turning(next_move(*games[2])[0], False),
        turning(next_move(*games[3])[0], True),
    ]
    results = await asyncio.gather(*(store.write(w) for w in writes), return_exceptions=True)
    assert isinstance(results[0], VersionConflict)
    assert results[1:] == [None, None, None]
    for write in writes[1:]:
        loaded = await store.load(write.after.id)
        assert loaded is not None and loaded.record == write.after
    loaded = await store.load("s0")
    assert loaded is not None and loaded.record == moved_on.after
