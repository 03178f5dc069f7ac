"""`changes` tells a kept deadline by identity first (`plan` keeps the stored object), then by
value: a deadline equal to the stored one but rebuilt writes nothing, one that moved is put."""

from __future__ import annotations

from games.engine.deadlines import NO_CHANGE, Deadline, changes

TURN = Deadline(session_id="0123456789abcdef", kind="turn", seat=1, due=1060.0)


def test_a_rebuilt_deadline_equal_to_the_stored_one_writes_nothing() -> None:
    rebuilt = Deadline.model_validate(TURN.model_dump())
    assert rebuilt is not TURN
    assert changes({TURN.key: TURN}, {rebuilt.key: rebuilt}) is NO_CHANGE


def test_a_deadline_that_moved_is_put_again() -> None:
    later = TURN.model_copy(update={"due": 1090.0})
    update = changes({TURN.key: TURN}, {later.key: later})
    assert update.put == (later,) and update.drop == ()


def test_a_fired_deadline_is_put_again() -> None:
    fired = TURN.model_copy(update={"fired": True})
    assert changes({TURN.key: TURN}, {fired.key: fired}).put == (fired,)
