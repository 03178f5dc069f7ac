"""The record a move leaves is copied directly from the one before (`runtime.commit.advanced`),
without validation: it must be the record validation would give, with the fields in their
order, and say the version, the seats to move and whether the game is over."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from games.engine import SessionRecord, Status
from runtime import SessionService
from storage import Storage
from tests.runtime.test_service import BOB, HOST, make_service, new_game, play


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[SessionService]:
    svc = make_service(storage)
    yield svc
    await svc.close()
    await svc.settle()


def as_validated(record: SessionRecord) -> SessionRecord:
    return SessionRecord.model_validate(record.model_dump())


async def test_a_moved_record_is_what_validating_it_gives(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, (HOST, BOB), target=4)
    before = session.record.version
    moved = await play(service, session.id, lambda s: s.record.version > before)
    record = moved.record
    assert record == as_validated(record)
    assert list(record.__dict__) == list(SessionRecord.model_fields)
    assert record.to_move == tuple(sorted(moved.waiting.seats))
    loaded = await storage.sessions.load(record.id)
    assert loaded is not None and loaded.record == record


async def test_the_record_of_a_finished_game_says_so_and_waits_for_nobody(
    service: SessionService,
) -> None:
    session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
    record = session.record
    assert record.status is Status.FINISHED and record.to_move == ()
    assert record == as_validated(record)
