"""When the cache freezes the heap (`runtime.cache.FREEZE_EVERY`): once that many more
sessions are held than the fewest held since the last freeze, so a bulk of new games is frozen,
while a rematch, which replaces a finished game, adds none and freezes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from toygame import AIS, GAMES

import runtime.cache
from games.engine import Status
from runtime import ManualClock, SessionService
from storage import Storage

EVERY = 3
HOST, BOB = 1, 2


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[SessionService]:
    svc = SessionService(storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
    yield svc
    await svc.close()
    await svc.settle()


@pytest.fixture
def freezes(service: SessionService, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of sessions held at each freeze (the heap is still frozen each time)."""
    counted: list[int] = []
    freeze = runtime.cache.freeze

    def counting() -> None:
        counted.append(len(service._cache.sessions))
        freeze()

    monkeypatch.setattr(runtime.cache, "FREEZE_EVERY", EVERY)
    monkeypatch.setattr(runtime.cache, "freeze", counting)
    return counted


async def lobby(service: SessionService, channel: int) -> str:
    session = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=channel,
        host_id=HOST,
        host_name="host",
        locale="en",
        options={"target": 4},
    )
    return session.id


async def started(service: SessionService, channel: int) -> str:
    """A dice race of the host and Bob, started."""
    session_id = await lobby(service, channel)
    await service.join(session_id, BOB, "bob")
    await service.start(session_id, HOST)
    return session_id


async def played_out(service: SessionService, session_id: str) -> None:
    """The game played to its end and told (the cache lets it go)."""
    for _ in range(1000):
        session = await service.get(session_id)
        if session.record.status is not Status.ACTIVE:
            break
        seat = min(session.waiting.seats)
        user = session.record.seats[seat].user_id
        assert user is not None
        action = session.rules.legal_actions(session.state, seat)[-1]
        await service.submit(session_id, user, action, session.record.version)
    await service.settle()


async def test_a_bulk_of_new_sessions_freezes_the_heap_every_so_many(
    service: SessionService, freezes: list[int]
) -> None:
    for channel in range(2 * EVERY):
        await lobby(service, 10 + channel)
    assert freezes == [EVERY, 2 * EVERY]


async def test_rematches_at_a_steady_number_of_games_freeze_nothing(
    service: SessionService, freezes: list[int]
) -> None:
    session_id = await started(service, 10)
    for _ in range(2 * EVERY):
        await played_out(service, session_id)
        session_id = (await service.rematch(session_id, HOST)).session.id
    assert freezes == []


async def test_new_sessions_after_games_ended_freeze_once_past_the_fewest_held(
    service: SessionService, freezes: list[int]
) -> None:
    lobbies = [await lobby(service, 10 + channel) for channel in range(EVERY)]
    for session_id in lobbies[1:]:
        await service.abandon(session_id, HOST)
    await service.settle()  # told: one session held now
    for channel in range(EVERY):
        await lobby(service, 20 + channel)
    assert freezes == [EVERY, 1 + EVERY]
