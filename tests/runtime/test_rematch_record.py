"""A rematch's new record is built from the finished game's, validated when that game was
opened, without validating it again: it must be the record validation would give, and new
options given with the rematch are still validated."""

from __future__ import annotations

import pytest

from games.engine import GameError, Reason, SessionRecord
from storage import Storage
from tests.runtime.test_rematch_write import service_of
from tests.runtime.test_service import BOB, HOST, new_game, play


async def test_a_rematch_record_is_what_validating_it_gives(storage: Storage) -> None:
    service = service_of(storage, "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb")
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        record = (await service.rematch(session.id, BOB)).session.record
        assert SessionRecord.model_validate(record.model_dump()) == record
        assert list(record.__dict__) == list(SessionRecord.model_fields)
        loaded = await storage.sessions.load(record.id)
        assert loaded is not None and loaded.record == record
        assert record.host_id == BOB and record.options == session.record.options
    finally:
        await service.close()


async def test_a_rematch_with_bad_new_options_is_refused_and_stores_nothing(
    storage: Storage,
) -> None:
    service = service_of(storage, "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb")
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        with pytest.raises(GameError) as refused:
            await service.rematch(session.id, HOST, {"target": 0})
        assert refused.value.reason is Reason.BAD_OPTION
        assert await storage.sessions.load("bbbbbbbbbbbbbbbb") is None
    finally:
        await service.close()


async def test_a_rematch_with_new_options_plays_by_them(storage: Storage) -> None:
    service = service_of(storage, "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb")
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        record = (await service.rematch(session.id, HOST, {"target": 6})).session.record
        assert record.options == {"target": 6}
        assert record.config is not None and record.config["target"] == 6
    finally:
        await service.close()
