"""`plan` and `changes` build their deadlines and updates without validating them (several a
move in a timed game): each must be what validation gives, and a change that leaves the
deadlines as they were writes nothing."""

from __future__ import annotations

from games.engine.contract import ToMove
from games.engine.deadlines import NO_CHANGE, Deadline, DeadlineUpdate, changes, plan
from games.engine.session import Seat, SessionRecord, Status

NOW = 1000.0


def record(turn_timer: int | None = None) -> SessionRecord:
    return SessionRecord(
        id="0123456789abcdef",
        game_id="dicerace",
        rules_version=1,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale="en",
        options={},
        seed=4,
        status=Status.ACTIVE,
        seats=(Seat(user_id=3, name="a"), Seat(user_id=5, name="b")),
        turn_timer=turn_timer,
    )


def validated(deadline: Deadline) -> Deadline:
    return Deadline.model_validate(deadline.model_dump())


def test_a_window_deadline_is_what_validating_it_gives() -> None:
    window = ToMove(seats=frozenset({0, 1}), timeout=30.0)
    needed = plan(record(), window, ToMove(seats=frozenset({0})), {}, NOW)
    (deadline,) = needed.values()
    assert deadline == validated(deadline) and deadline.key == ("window", None)
    assert deadline.due == NOW + 30.0 and type(deadline.due) is float


def test_turn_timer_deadlines_are_what_validating_them_gives() -> None:
    needed = plan(record(turn_timer=60), ToMove(seats=frozenset({1})), ToMove(), {}, 1000)
    assert set(needed) == {("turn", 1), ("warn", 1)}
    for deadline in needed.values():
        assert deadline == validated(deadline)
        assert list(deadline.__dict__) == list(Deadline.model_fields)
        assert type(deadline.due) is float
    assert needed[("turn", 1)].due == 1060.0 and needed[("warn", 1)].due == 1030.0


def test_changes_are_what_validating_them_gives() -> None:
    needed = plan(record(turn_timer=60), ToMove(seats=frozenset({1})), ToMove(), {}, NOW)
    update = changes({}, needed)
    assert update == DeadlineUpdate.model_validate(update.model_dump())
    assert set(update.put) == set(needed.values()) and update.drop == ()
    dropped = changes(needed, {})
    assert set(dropped.drop) == set(needed.values()) and dropped.put == ()


def test_deadlines_left_as_they_were_write_nothing() -> None:
    window = ToMove(seats=frozenset({0, 1}), timeout=30.0)
    needed = plan(record(), window, ToMove(seats=frozenset({0})), {}, NOW)
    narrowed = ToMove(seats=frozenset({1}), timeout=30.0)
    kept = plan(record(), narrowed, window, needed, NOW + 5)
    assert kept == needed
    assert changes(needed, kept) is NO_CHANGE
