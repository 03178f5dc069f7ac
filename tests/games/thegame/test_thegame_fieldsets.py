"""The Game's states count every field as given, as a state loaded from storage does
(`TheGameState.evolve` shares one fields-set instead of joining pydantic's per change)."""

from __future__ import annotations

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.thegame import RULES
from games.thegame.models import TheGameState


def test_a_state_the_rules_build_counts_every_field_as_given() -> None:
    config = RULES.make_config(2, {"first_player": 0})
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, 3).state
    play = RULES.legal_actions(state, 0)[0]
    after = RULES.apply(state, 0, play).state
    assert after.model_fields_set == set(TheGameState.model_fields)


def test_a_state_the_rules_build_equals_its_stored_form_loaded_again() -> None:
    config = RULES.make_config(3, {"first_player": 1})
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, 4).state
    after = RULES.apply(state, 1, RULES.legal_actions(state, 1)[0]).state
    loaded = TheGameState.model_validate_json(after.model_dump_json())
    assert loaded == after
    assert loaded.model_fields_set == after.model_fields_set
