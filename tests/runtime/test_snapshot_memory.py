"""What a move or a rematch holds while it waits for its commit, when the games a service
started together reach a snapshot version, or their end, together: a snapshot holds the new
state (dumped only as its batch is built), and a rematch nothing of the finished game."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

import pytest
from toygame import AIS, GAMES

from games.engine import SessionRecord
from runtime import ManualClock, SessionService
from storage import Storage
from storage.session_store import SessionWrite
from tests.runtime.test_rematch_memory import HOST, finished_game


@pytest.fixture
async def service(sqlite_storage: Storage) -> AsyncIterator[SessionService]:
    svc = SessionService(sqlite_storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
    yield svc
    await svc.close()
    await svc.settle()


async def test_a_snapshot_waiting_for_its_commit_holds_the_new_state_and_no_dump(
    service: SessionService, sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[SessionWrite] = []
    write = sqlite_storage.sessions.write

    async def watched_write(change: SessionWrite) -> None:
        written.append(change)
        await write(change)

    monkeypatch.setattr(sqlite_storage.sessions, "write", watched_write)
    session_id = await finished_game(service)  # a snapshot at the deal and at the end
    snapshots = [w.snapshot for w in written if w.snapshot is not None]
    assert len(snapshots) >= 2
    for snapshot in snapshots:
        held = [o for o in gc.get_referents(snapshot) if not isinstance(o, type)]
        assert len(held) == 2 and snapshot.version in held
        [state] = [o for o in held if o is not snapshot.version]
        assert snapshot.state == state.model_dump(mode="json")
    loaded = await sqlite_storage.sessions.load(session_id)
    assert loaded is not None and loaded.snapshot is not None
    assert loaded.snapshot.state == snapshots[-1].state


async def test_a_rematch_holds_no_finished_record_while_its_lobby_is_stored(
    service: SessionService, sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = await finished_game(service)
    storing = asyncio.Event()
    stored = asyncio.Event()
    create = sqlite_storage.sessions.create

    async def held_create(*args: Any) -> None:  # the lobby, and its start with it
        storing.set()
        await stored.wait()
        await create(*args)

    monkeypatch.setattr(sqlite_storage.sessions, "create", held_create)
    rematch = asyncio.ensure_future(service.rematch(session_id, HOST))
    await asyncio.wait_for(storing.wait(), timeout=60)
    gc.collect()
    finished = [o for o in gc.get_objects() if isinstance(o, SessionRecord) and o.id == session_id]
    stored.set()
    change = await rematch
    assert finished == []
    assert change.session.id != session_id and change.kind == "start"
