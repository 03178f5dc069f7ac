"""A new session written with its first change (a rematch's start): stored as that change
leaves it, seats and deadlines too, and refused as a new session is, on both databases."""

from __future__ import annotations

import pytest

from games.engine import DeadlineUpdate, GameError, Reason, Seat, Status
from storage import Storage
from storage.session_store import SessionWrite
from tests.storage.test_one_call import started
from tests.storage.test_storage import deadline, make_record


async def test_a_first_change_stores_its_seats_and_deadlines_with_the_new_session(
    storage: Storage,
) -> None:
    start = started(make_record("r", channel_id=20))
    seats = (start.after.seats[0], Seat(user_id=None, name="", ai_level="hard"))
    due = (deadline("turn", 0, 40.0, "r"), deadline("window", None, 50.5, "r"))
    first = SessionWrite(
        start.before,
        start.after.model_copy(update={"seats": seats}),
        start.entries,
        start.snapshot,
        DeadlineUpdate(put=due),
    )
    await storage.sessions.create(first.before, first)
    loaded = await storage.sessions.load("r")
    assert loaded is not None and loaded.record == first.after
    assert loaded.deadlines == due


async def test_a_first_change_that_ends_the_game_is_still_refused_in_a_busy_channel(
    storage: Storage,
) -> None:
    await storage.sessions.create(make_record("a", channel_id=20))
    start = started(make_record("r", channel_id=20))
    over = start.after.model_copy(update={"status": Status.FINISHED})
    with pytest.raises(GameError) as refused:
        await storage.sessions.create(start.before, SessionWrite(start.before, over, start.entries))
    assert refused.value.reason is Reason.CHANNEL_BUSY
    assert await storage.sessions.load("r") is None
