"""Over games are let go of by the cache once told, however many end together: with no
listener to wait for, one task a turn of the loop later lets go of all the games that ended
before it ran, and a game that ends after it gets another."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from toygame import AIS, GAMES

from runtime import ManualClock, SessionService
from storage import Storage

HOST = 1


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[SessionService]:
    svc = SessionService(storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
    yield svc
    await svc.close()
    await svc.settle()


async def lobby(service: SessionService, channel: int) -> str:
    session = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=channel,
        host_id=HOST,
        host_name="host",
        locale="en",
        options={},
    )
    return session.id


async def test_games_ended_together_and_one_ended_later_are_all_let_go(
    service: SessionService,
) -> None:
    together = [await lobby(service, 10 + channel) for channel in range(3)]
    later = await lobby(service, 20)
    held = service._cache.sessions
    await asyncio.gather(*(service.abandon(session_id, HOST) for session_id in together))
    await service.settle()
    assert not held.keys() & set(together)
    assert later in held
    await service.abandon(later, HOST)
    await service.settle()
    assert later not in held
