"""Which deadlines a session needs after a change (`plan`), and what gets written (`changes`)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from toygame import RULES, Move

from games.engine import Deadline, Seat, SessionRecord, Status, ToMove, advance
from games.engine.deadlines import Key, changes, plan

NOW, TIMER = 1000.0, 60


def record(turn_timer: int | None = TIMER, *seats: Seat) -> SessionRecord:
    return SessionRecord(
        id="s",
        game_id="dicerace",
        rules_version=1,
        guild_id=1,
        channel_id=1,
        host_id=1,
        locale="en",
        options={},
        seed=1,
        status=Status.ACTIVE,
        seats=seats or (Seat(user_id=1, name="a"), Seat(user_id=2, name="b")),
        turn_timer=turn_timer,
    )


def turn(seat: int, due: float, *, fired: bool = False) -> Deadline:
    return Deadline(session_id="s", kind="turn", seat=seat, due=due, fired=fired)


def warn(seat: int, due: float) -> Deadline:
    return Deadline(session_id="s", kind="warn", seat=seat, due=due)


def timers(needed: dict[Key, Deadline]) -> dict[Key, float]:
    return {key: deadline.due for key, deadline in needed.items()}


def on(*seats: int, timeout: float | None = None) -> ToMove:
    return ToMove(seats=frozenset(seats), timeout=timeout)


def test_a_seat_entering_its_turn_gets_a_timer_and_a_warning_at_half() -> None:
    needed = plan(record(), on(0), on(), {}, NOW)
    assert timers(needed) == {("turn", 0): NOW + TIMER, ("warn", 0): NOW + TIMER / 2}


def test_a_seat_still_to_move_that_did_not_act_keeps_its_deadlines() -> None:
    old = {("turn", 0): turn(0, 900), ("warn", 0): warn(0, 870)}
    needed = plan(record(), on(0, 1), on(0, 1), old, NOW, acted=1, left=frozenset({1}))
    assert needed[("turn", 0)] == old[("turn", 0)] and needed[("warn", 0)] == old[("warn", 0)]
    assert needed[("turn", 1)].due == NOW + TIMER  # the seat that acted starts afresh


def test_a_warning_that_fired_is_not_set_again_for_the_same_turn() -> None:
    old = {("turn", 0): turn(0, 1010)}
    assert timers(plan(record(), on(0), on(0), old, NOW)) == {("turn", 0): 1010}


def test_a_turn_that_ended_and_began_again_in_one_step_starts_afresh() -> None:
    """Solo: the same seat is to move again after its turn; its timer restarts."""
    old = {("turn", 0): turn(0, 900, fired=True)}
    needed = plan(record(), on(0), on(0), old, NOW, left=frozenset({0}))
    assert needed[("turn", 0)] == turn(0, NOW + TIMER)


def test_an_expired_turn_keeps_its_fired_deadline_while_the_ai_finishes_it() -> None:
    old = {("turn", 0): turn(0, 900, fired=True)}
    assert plan(record(), on(0), on(0), old, NOW) == old


def test_ai_and_away_seats_and_finished_games_have_no_timer() -> None:
    seats = (Seat(user_id=1, name="a", away=True), Seat(user_id=None, name="b"))
    assert plan(record(TIMER, *seats), on(0, 1), on(), {}, NOW) == {}
    assert plan(record(None), on(0, 1), on(), {}, NOW) == {}
    over = record().model_copy(update={"status": Status.FINISHED})
    assert plan(over, on(0), on(0), {("turn", 0): turn(0, 900)}, NOW) == {}


def test_a_rules_window_replaces_turn_timers_and_is_kept_while_it_shrinks() -> None:
    opened = plan(record(), on(0, 1, timeout=30), on(0), {("turn", 0): turn(0, 900)}, NOW)
    assert timers(opened) == {("window", None): NOW + 30}
    kept = plan(record(), on(1, timeout=30), on(0, 1, timeout=30), opened, NOW + 10)
    assert kept == opened
    reopened = plan(record(), on(0, 1, timeout=30), on(1, timeout=30), opened, NOW + 20)
    assert timers(reopened) == {("window", None): NOW + 50}  # new seats: a new window


def test_changes_write_only_the_difference() -> None:
    stored = {("turn", 0): turn(0, 900), ("warn", 0): warn(0, 870)}
    assert changes(stored, dict(stored)).empty
    needed = {("turn", 0): turn(0, 900), ("turn", 1): turn(1, 960)}
    update = changes(stored, needed)
    assert update.put == (turn(1, 960),) and update.drop == (warn(0, 870),)


def test_a_window_has_no_seat_and_a_turn_timer_has_one() -> None:
    with pytest.raises(ValidationError):
        Deadline(session_id="s", kind="window", seat=0, due=1.0)
    with pytest.raises(ValidationError):
        Deadline(session_id="s", kind="turn", due=1.0)


def test_advance_reports_the_seats_whose_turn_ended() -> None:
    config = RULES.make_config(2, {"moves": 2})
    start = advance(RULES, RULES.setup(config), 0, 0, None, 7)
    first = advance(RULES, start.state, 1, 0, Move(amount=1), 7)
    assert first.left == frozenset() and RULES.to_move(first.state).seats == {0}
    second = advance(RULES, first.state, 2, 0, Move(amount=1), 7)
    assert second.left == {0} and RULES.to_move(second.state).seats == {1}
