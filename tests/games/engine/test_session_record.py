"""A session's record and seats are copied on every move by their own `model_copy`: it must
give what pydantic's gives, and leave the original as it was."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from games.engine.session import Seat, SessionRecord, Status

RECORD = SessionRecord(
    id="0123456789abcdef",
    game_id="thegame",
    rules_version=1,
    guild_id=1,
    channel_id=2,
    host_id=3,
    locale="en",
    options={"on_fire": True},
    seed=5,
    seats=(Seat(user_id=3, name="host"), Seat(user_id=None, name="", ai_level="strong")),
)
UPDATES: list[dict[str, Any]] = [
    {},
    {"version": 4, "status": Status.ACTIVE, "to_move": (1,)},
    {"seats": (Seat(user_id=3, name="host", missed=1),)},
]


def pydantic_copy(model: BaseModel, update: dict[str, Any]) -> BaseModel:
    return BaseModel.model_copy(model, update=update)


@pytest.mark.parametrize("update", UPDATES)
def test_a_records_copy_is_pydantics(update: dict[str, Any]) -> None:
    copied, expected = RECORD.model_copy(update=update), pydantic_copy(RECORD, update)
    assert copied.__dict__ == expected.__dict__
    assert copied.model_fields_set == expected.model_fields_set
    assert copied.model_dump() == expected.model_dump()


def test_a_seats_copy_is_pydantics() -> None:
    seat, update = RECORD.seats[0], {"away": True, "missed": 2}
    copied, expected = seat.model_copy(update=update), pydantic_copy(seat, update)
    assert copied.__dict__ == expected.__dict__
    assert copied.model_fields_set == expected.model_fields_set


def test_a_copy_leaves_the_original_as_it_was() -> None:
    before, fields_set = RECORD.model_dump(), set(RECORD.model_fields_set)
    RECORD.model_copy(update={"version": 9, "quarantine": "broken"})
    assert RECORD.model_dump() == before and RECORD.model_fields_set == fields_set


def test_a_deep_copy_shares_no_options() -> None:
    copied = RECORD.model_copy(deep=True)
    assert copied == RECORD and copied.options is not RECORD.options
