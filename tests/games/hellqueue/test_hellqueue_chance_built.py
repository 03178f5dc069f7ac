"""What Hell Queue Club's rules draw, write out or build without their models' help (a roll's
faces, its logged form) is what `randint` and the models themselves give:
seeded games and stored logs replay as before."""

from __future__ import annotations

import random

import pytest

from games.engine.contract import CHANCE
from games.engine.rng import Rng
from games.engine.step import advance
from games.hellqueue import RULES
from games.hellqueue.rules import _roll


@pytest.mark.parametrize("rng_class", [Rng, random.Random])
def test_a_roll_draws_the_faces_randint_draws_from_the_same_seed(rng_class: type) -> None:
    for seed in range(200):
        count = 1 + seed % 20
        rolled, expected = rng_class(f"{seed}:roll"), rng_class(f"{seed}:roll")
        assert _roll(rolled, count).faces == tuple(expected.randint(1, 6) for _ in range(count))
        assert rolled.getstate() == expected.getstate()  # and leaves the generator alike


def test_a_logged_roll_is_what_the_models_serializer_gives() -> None:
    for seed in range(50):
        roll = _roll(Rng(str(seed)), 1 + seed % 15)
        dumped = RULES.dump_action(roll)
        assert dumped == roll.__pydantic_serializer__.to_python(roll, mode="json")
        assert RULES.parse_action(dumped) == roll


def test_every_logged_chance_action_of_a_whole_game_replays_as_its_serialization() -> None:
    rng = random.Random(7)
    config = RULES.make_config(4, {})
    step = advance(RULES, RULES.setup(config), 0, 0, None, 7)
    state, version, logged = step.state, len(step.logged), list(step.logged)
    while seats := sorted(RULES.to_move(state).seats):
        step = advance(
            RULES, state, version, seats[0], rng.choice(RULES.legal_actions(state, seats[0])), 7
        )
        state, version = step.state, version + len(step.logged)
        logged.extend(step.logged)
    chance = [entry for entry in logged if entry.actor == CHANCE]
    assert any(entry.action["kind"] == "roll" for entry in chance)
    for entry in chance:
        action = RULES.parse_action(entry.action)
        assert entry.action == action.__pydantic_serializer__.to_python(action, mode="json")
