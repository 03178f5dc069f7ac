"""The rules build states, events and actions without validating them (games.engine.built)
and keep what the stacks come to per stacks tuple (stacks.py): checked here through whole
random games, so that a rule building an invalid state, or a summary gone stale, fails."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine.contract import Event
from games.engine.errors import GameError
from games.engine.step import advance
from games.exhaust import RULES
from games.exhaust.models import PlayCards, State
from games.exhaust.plays import legal_plays
from games.exhaust.stacks import _bars, _view, bars, views

TABLES = [(1, {}), (2, {}), (3, {}), (4, {"long_game": True}), (5, {})]


def whole_game(
    players: int, options: dict[str, object], seed: int
) -> Iterator[tuple[State, tuple[Event, ...]]]:
    """Every state of one random legal game (a match in the long variant), with its events."""
    rng = random.Random(seed)
    config = RULES.make_config(players, options)
    step = advance(RULES, RULES.setup(config), 0, 0, None, seed)
    state, version = step.state, len(step.logged)
    yield state, step.events
    while seats := sorted(RULES.to_move(state).seats):
        action = rng.choice(RULES.legal_actions(state, seats[0]))
        step = advance(RULES, state, version, seats[0], action, seed)
        state, version = step.state, version + len(step.logged)
        yield state, step.events


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_state_and_event_of_whole_games_validates_as_it_is(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(4):
        for state, events in whole_game(players, options, seed):
            assert State.model_validate(state.model_dump()) == state
            for event in events:
                assert Event.model_validate(event.model_dump()) == event


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_kept_bars_and_views_are_those_read_afresh_from_the_stacks(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(4):
        for state, _ in whole_game(players, options, seed):
            fresh = _bars(players, state.stacks)
            assert bars(players, state.stacks) == fresh
            expected = tuple(
                _view(i, players, plays, bar)
                for i, (plays, bar) in enumerate(zip(state.stacks, fresh, strict=True))
            )
            assert views(players, state.stacks) == expected


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_legal_actions_are_the_plays_listed_from_the_seats_view(
    players: int, options: dict[str, object]
) -> None:
    for seed in range(3):
        for state, _ in whole_game(players, options, seed):
            for seat in RULES.to_move(state).seats:
                assert RULES.legal_actions(state, seat) == legal_plays(RULES.view(state, seat))


def taken_as_it_is(action: PlayCards) -> bool:
    """Whether `Rules.checked` lets `action` through unvalidated."""
    try:
        return RULES.checked(action) is action
    except GameError:
        return False


def test_an_action_of_exactly_its_field_types_is_taken_as_it_is() -> None:
    assert taken_as_it_is(PlayCards(combo=1, cards=(3, 18), copies=((60, 3),)))


@pytest.mark.parametrize(
    "fields",
    [
        {"combo": "1", "cards": (3, 18)},
        {"combo": True, "cards": (3, 18)},
        {"combo": 1, "cards": [3, 18]},
        {"combo": 1, "cards": (3, 18), "copies": ((60,),)},
        {"cards": (3, 18)},
    ],
)
def test_an_unvalidated_action_of_other_types_is_not_taken_as_it_is(
    fields: dict[str, object],
) -> None:
    assert not taken_as_it_is(PlayCards.model_construct(**fields))
