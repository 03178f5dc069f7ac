"""Arming a session after a commit (`Writer.arm`): its timer follows the deadlines just stored,
and the AI driver is started or stopped only when there is one to start or stop.

Time is a `ManualClock`: the AI's delay never passes unless a test moves it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from toygame import AIS, GAMES, Move

from runtime import ManualClock, SessionService
from storage import Storage

HOST, BOB = 1, 2
AI_DELAY = 30.0


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[SessionService]:
    svc = SessionService(storage.sessions, GAMES, AIS, ai_delay=AI_DELAY, clock=ManualClock())
    yield svc
    await svc.close()
    await svc.settle()


async def started(
    service: SessionService, *, ai: bool, first_seat: int, turn_timer: int | None = None
) -> str:
    """A started dice race of the host and Bob, or of the host and an AI seat."""
    session = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="host",
        locale="en",
        options={},
        turn_timer=turn_timer,
    )
    if ai:
        await service.add_ai(session.id, HOST)
    else:
        await service.join(session.id, BOB, "bob")
    await service.start(session.id, HOST, first_seat)
    return session.id


def drivers(service: SessionService) -> set[str]:
    return set(service._seats.drivers)


async def test_a_move_that_leaves_a_player_to_move_starts_no_ai_driver(
    service: SessionService,
) -> None:
    sid = await started(service, ai=False, first_seat=0)
    session = await service.get(sid)
    await service.submit(sid, HOST, Move(amount=1), session.record.version)
    await service.settle()
    assert drivers(service) == set()


async def test_a_commit_that_leaves_the_ai_to_move_starts_its_driver(
    service: SessionService,
) -> None:
    sid = await started(service, ai=True, first_seat=1)
    await service.settle()
    assert drivers(service) == {sid}


async def test_abandoning_a_game_stops_the_ai_driver_waiting_to_move(
    service: SessionService,
) -> None:
    sid = await started(service, ai=True, first_seat=1)
    await service.settle()
    waiting = service._seats.drivers[sid]
    await service.abandon(sid, HOST)
    await service.settle()
    assert waiting.cancelled()
    assert drivers(service) == set()


async def test_each_move_sets_the_timer_at_the_next_turns_deadline(
    service: SessionService, storage: Storage
) -> None:
    sid = await started(service, ai=False, first_seat=0, turn_timer=60)
    session = await service.get(sid)
    await service.submit(sid, HOST, Move(amount=1), session.record.version)
    loaded = await storage.sessions.load(sid)
    assert loaded is not None
    due = min(d.due for d in loaded.deadlines if not d.fired)
    assert service._core.timers.get(sid) == due
