"""What a rematch keeps of the finished game while the next one waits on the store: its
record, not its state (a wave of games ending together held every finished game through two
commits)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator
from typing import Any

import pytest
from toygame import AIS, GAMES

from games.engine import Session, Status
from runtime import ManualClock, SessionService
from storage import Storage

HOST, BOB = 1, 2


@pytest.fixture
async def service(sqlite_storage: Storage) -> AsyncIterator[SessionService]:
    svc = SessionService(sqlite_storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
    yield svc
    await svc.close()
    await svc.settle()


async def finished_game(service: SessionService) -> str:
    """A dice race between HOST and BOB, played to its end; its id."""
    lobby = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="host",
        locale="en",
        options={"target": 4},
    )
    await service.join(lobby.id, BOB, "bob")
    await service.start(lobby.id, HOST)
    for _ in range(1000):
        session = await service.get(lobby.id)
        if session.record.status is not Status.ACTIVE:
            break
        seat = min(session.waiting.seats)
        user = session.record.seats[seat].user_id
        assert user is not None
        action = session.rules.legal_actions(session.state, seat)[-1]
        await service.submit(lobby.id, user, action, session.record.version)
    await service.settle()  # told: the cache lets the finished game go
    return lobby.id


async def test_a_rematch_holds_no_finished_game_while_its_lobby_is_stored(
    service: SessionService, sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = await finished_game(service)
    looked_at: list[weakref.ref[Session]] = []
    get = service.get

    async def watched_get(session_id: str) -> Session:
        session = await get(session_id)
        looked_at.append(weakref.ref(session))
        return session

    storing = asyncio.Event()
    stored = asyncio.Event()
    create = sqlite_storage.sessions.create

    async def held_create(*args: Any) -> None:  # the lobby, and its start with it
        storing.set()
        await stored.wait()
        await create(*args)

    monkeypatch.setattr(service, "get", watched_get)
    monkeypatch.setattr(sqlite_storage.sessions, "create", held_create)
    rematch = asyncio.ensure_future(service.rematch(session_id, HOST))
    await asyncio.wait_for(storing.wait(), timeout=60)
    gc.collect()
    kept = [ref() for ref in looked_at]
    stored.set()
    change = await rematch
    assert looked_at, "the rematch looked at the finished game"
    assert kept == [None] * len(looked_at)
    assert change.kind == "start" and change.session.record.status is Status.ACTIVE
