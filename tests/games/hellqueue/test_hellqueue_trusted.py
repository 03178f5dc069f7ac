"""The rules build their models without validation (games/engine/built.py): what they
build must be exactly what validation would give, and what comes in is still validated."""

from __future__ import annotations

import itertools
import random

import pytest
from pydantic import BaseModel

from games.engine.errors import GameError
from games.engine.step import advance
from games.hellqueue import RULES
from games.hellqueue.ai_policies import random_policy
from games.hellqueue.models import Queue, State, View
from games.hellqueue.scoring import best_score


def revalidates(model: BaseModel) -> bool:
    again = type(model).model_validate(model.model_dump())
    return again == model and again.model_dump() == model.model_dump()


@pytest.mark.parametrize("players", [3, 4])
def test_every_state_view_and_event_of_a_game_validates_to_itself(players: int) -> None:
    rng = random.Random(players)
    step = advance(RULES, RULES.setup(RULES.make_config(players, {})), 0, -1, None, players)
    state, version = step.state, len(step.logged)
    while True:
        assert revalidates(state)
        assert all(revalidates(event) for event in step.events)
        if RULES.is_over(state):
            break
        seat = min(RULES.to_move(state).seats)
        view = RULES.view(state, seat)
        assert isinstance(view, View) and revalidates(view)
        assert isinstance(RULES.sample_state(view, rng), State)
        assert revalidates(RULES.sample_state(view, rng))
        step = advance(RULES, state, version, seat, random_policy(view, rng), players)
        state, version = step.state, version + len(step.logged)


def test_checked_takes_a_listed_action_as_it_is() -> None:
    state = advance(RULES, RULES.setup(RULES.make_config(3, {})), 0, -1, None, 1).state
    seat = min(RULES.to_move(state).seats)
    action = RULES.legal_actions(state, seat)[0]
    assert RULES.checked(action) is action


def test_checked_refuses_an_unvalidated_action_out_of_range() -> None:
    with pytest.raises(GameError):
        RULES.checked(Queue.model_construct(face=7, slot=0))


def test_best_score_is_the_same_for_every_order_of_the_colours() -> None:
    counts = (3, 0, 1, 2, 5, 1)
    assert len({best_score(order) for order in itertools.permutations(counts)}) == 1
