"""A rematch of a game the cache let go (loaded again from the store, as a rematch clicked
after the table was told is): the new game's seats share one fields-set, where each stored
seat, validated as it loaded, held one of its own for the new game's whole life."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from toygame import AIS, GAMES

from games.engine.fieldsets import _SHARED_IDS
from runtime import ManualClock, SessionService
from storage import Storage
from tests.runtime.test_rematch_memory import HOST, finished_game


@pytest.fixture
async def service(sqlite_storage: Storage) -> AsyncIterator[SessionService]:
    svc = SessionService(sqlite_storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
    yield svc
    await svc.close()
    await svc.settle()


async def test_a_rematchs_seats_share_their_fields_set_not_the_loaded_seats_own(
    service: SessionService, sqlite_storage: Storage
) -> None:
    session_id = await finished_game(service)  # told, so let go: the rematch loads it
    loaded = await sqlite_storage.sessions.load(session_id)
    assert loaded is not None
    assert all(id(s.__pydantic_fields_set__) not in _SHARED_IDS for s in loaded.record.seats)
    change = await service.rematch(session_id, HOST)
    seats = change.session.record.seats
    assert [(s.user_id, s.name) for s in seats] == [
        (s.user_id, s.name) for s in loaded.record.seats
    ]
    assert all(id(s.__pydantic_fields_set__) in _SHARED_IDS for s in seats)
