"""What The Game's rules write out or build without their models' help (the deal's logged
chance actions, the dealt state) is what the models themselves give."""

from __future__ import annotations

import pytest

from games.engine.contract import CHANCE
from games.engine.rng import Rng
from games.engine.step import advance
from games.thegame import RULES
from games.thegame.models import ChooseFirst, Deal, Phase, TheGameState


def serialized(action: object) -> object:
    return action.__pydantic_serializer__.to_python(action, mode="json")  # type: ignore[attr-defined]


@pytest.mark.parametrize("first_player", [None, 1])
def test_the_deals_chance_actions_are_logged_as_their_models_serialize_them(
    first_player: int | None,
) -> None:
    config = RULES.make_config(3, {"first_player": first_player})
    logged = advance(RULES, RULES.setup(config), 0, 0, None, 5).logged
    kinds = [Deal] if first_player is not None else [Deal, ChooseFirst]
    assert [type(RULES.parse_action(entry.action)) for entry in logged] == kinds
    for entry in logged:
        assert entry.actor == CHANCE
        assert entry.action == serialized(RULES.parse_action(entry.action))


def test_a_chance_action_dumped_directly_is_its_serialization() -> None:
    state = RULES.setup(RULES.make_config(2, {}))
    deal = RULES.chance_action(state, Rng("1:1"))
    dealt = RULES.apply(state, CHANCE, deal).state
    choice = RULES.chance_action(dealt, Rng("1:2"))
    for action in (deal, choice, Deal(order=deal.order), ChooseFirst(seat=1)):
        assert RULES.dump_action(action) == serialized(action)


def test_a_deal_left_to_chance_for_the_first_player_holds_the_hands_and_waits() -> None:
    state = RULES.setup(RULES.make_config(2, {}))
    deal = RULES.chance_action(state, Rng("3:1"))
    dealt = RULES.apply(state, CHANCE, deal).state
    assert dealt.phase is Phase.CHOOSE_FIRST
    assert dealt.hands == (tuple(sorted(deal.order[:7])), tuple(sorted(deal.order[7:14])))
    assert dealt.draw == deal.order[14:]
    assert dealt.cards_left == 98
    assert TheGameState.model_validate_json(dealt.model_dump_json()) == dealt
