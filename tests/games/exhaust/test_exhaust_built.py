"""What the rules write out or build without their models' help (a play's and a deal's logged
form, the chance actions, the first state) is what the models themselves give."""

from __future__ import annotations

import random

import pytest

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.exhaust import RULES
from games.exhaust.models import ACTION_ADAPTER, PlayCards, State, View

TABLES = [(1, {}), (2, {}), (3, {}), (4, {"long_game": True}), (5, {})]


def serialized(action: object) -> object:
    return action.__pydantic_serializer__.to_python(action, mode="json")  # type: ignore[attr-defined]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_logged_action_of_whole_games_is_its_models_serialization(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        config = RULES.make_config(players, options)
        step = advance(RULES, RULES.setup(config), 0, 0, None, seed)
        state, version, logged = step.state, len(step.logged), list(step.logged)
        while seats := sorted(RULES.to_move(state).seats):
            listed = RULES.legal_actions(state, seats[0])
            for action in listed:
                assert RULES.dump_action(action) == serialized(action)
            step = advance(RULES, state, version, seats[0], rng.choice(listed), seed)
            state, version = step.state, version + len(step.logged)
            logged.extend(step.logged)
        for entry in logged:
            action = RULES.parse_action(entry.action)
            assert entry.action == serialized(action)


def test_a_play_with_copies_is_logged_as_its_model_serializes_it() -> None:
    play = PlayCards(combo=2, cards=(3, 18, 60, 61), copies=((60, 3), (61, 18)))
    assert RULES.dump_action(play) == serialized(play)
    assert RULES.parse_action(RULES.dump_action(play)) == play


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_chance_actions_are_what_validating_them_gives(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = RULES.setup(RULES.make_config(players, options))
        while (to_move := RULES.to_move(state)).seats or to_move.chance:
            if to_move.chance:
                action = RULES.chance_action(state, random.Random(seed))
                again = ACTION_ADAPTER.validate_python(action.model_dump())
                assert type(again) is type(action)
                assert again == action
                state = RULES.apply(state, CHANCE, action).state
            else:
                seat = sorted(to_move.seats)[0]
                state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat))).state


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_first_state_is_what_the_state_model_validates(
    players: int, options: dict[str, object]
) -> None:
    state = RULES.setup(RULES.make_config(players, options))
    again = State.model_validate(state.model_dump())
    assert again == state
    assert list(again.__dict__) == list(state.__dict__)


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_view_of_whole_games_is_what_validating_it_gives(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        config = RULES.make_config(players, options)
        step = advance(RULES, RULES.setup(config), 0, 0, None, seed)
        state, version = step.state, len(step.logged)
        while True:
            for seat in [None, *range(players)]:
                view = RULES.view(state, seat)
                assert View.model_validate(view.model_dump()) == view
                assert View(**dict(view)) == view
            if not (seats := sorted(RULES.to_move(state).seats)):
                break
            action = rng.choice(RULES.legal_actions(state, seats[0]))
            step = advance(RULES, state, version, seats[0], action, seed)
            state, version = step.state, version + len(step.logged)
