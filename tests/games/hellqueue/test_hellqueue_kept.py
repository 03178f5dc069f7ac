"""What Hell Queue Club's rules keep or take as they are, for speed: the count each Dice is
built with, the roll chance just made (applied without `checked`), the dice in the air shared
per value. Each must leave the game exactly as before."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine.contract import CHANCE
from games.engine.errors import GameError
from games.engine.step import advance, chance_rng
from games.hellqueue import RULES
from games.hellqueue.models import Dice, Roll, State


def states(players: int, seed: int) -> Iterator[State]:
    """Every state of one game of random legal moves."""
    rng = random.Random(seed)
    step = advance(RULES, RULES.setup(RULES.make_config(players, {})), 0, -1, None, seed)
    state, version = step.state, len(step.logged)
    yield state
    while seats := sorted(step.to_move.seats):
        action = rng.choice(RULES.legal_actions(state, seats[0]))
        step = advance(RULES, state, version, seats[0], action, seed, step.to_move)
        state, version = step.state, version + len(step.logged)
        yield state


def every_dice(state: State) -> Iterator[Dice]:
    for queue in state.queues:
        yield from queue
    for player in state.players:
        yield player.active
    if state.marked is not None:
        yield state.marked


def rolls_due(seed: int) -> Iterator[State]:
    """The states of a game in play whose next chance action rolls dice in the air: what a
    seat's action leaves before `advance` rolls them."""
    for state in states(3, seed):
        for seat in RULES.to_move(state).seats:
            for action in RULES.legal_actions(state, seat):
                after = RULES.apply(state, seat, action).state
                if after.phase == "resolve" and after.rolling is not None:
                    yield after


def rolling_due(seed: int) -> State:
    return next(rolls_due(seed))


@pytest.mark.parametrize("players", [3, 4])
def test_every_dice_of_a_game_keeps_the_count_of_its_faces(players: int) -> None:
    kept = 0
    for state in states(players, 5):
        for dice in every_dice(state):
            if "count" in dice.__dict__:
                kept += 1
                assert dice.count == len(dice.large) + len(dice.small) + len(dice.black)
    assert kept


def test_the_roll_chance_makes_lands_as_the_same_roll_validated() -> None:
    state = rolling_due(3)
    roll = RULES.chance_action(state, chance_rng(3, 100))
    validated = Roll.model_validate(roll.model_dump())
    assert RULES.apply(state, CHANCE, roll).state == RULES.apply(state, CHANCE, validated).state


def test_a_roll_built_unvalidated_with_a_face_out_of_range_is_refused() -> None:
    state = rolling_due(4)
    assert state.rolling is not None
    roll = Roll.model_construct(faces=(7,) * state.rolling.count)
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, roll)


def test_a_roll_built_unvalidated_with_a_die_too_many_is_refused() -> None:
    state = rolling_due(6)
    assert state.rolling is not None
    roll = Roll.model_construct(faces=(1,) * (state.rolling.count + 1))
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, roll)


def test_the_dice_in_the_air_validate_to_themselves() -> None:
    seen = 0
    for state in rolls_due(8):
        assert state.rolling is not None
        assert type(state.rolling).model_validate(state.rolling.model_dump()) == state.rolling
        seen += 1
    assert seen
