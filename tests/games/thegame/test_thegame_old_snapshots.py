"""A snapshot stored before the state kept only each pile's top and count, and the deal's deck
with the count drawn from it, still loads.

`old_snapshots.json` holds states as commit a81474f's `TheGameState` dumped them for a snapshot
(`model_dump(mode="json")`: each pile's every card in `piles`, the draw pile alone in `draw`),
each reached by `play_to` below with the same arguments. Loaded the way the runtime loads a
snapshot (`state_model.model_validate`), each must be the game the current rules reach by the
same moves: the same table, hands and draw pile, so the same views, legal actions and next
states (its deck starts at the draw pile, where the one played on holds the whole deal).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.thegame import AI, RULES
from games.thegame.models import BASES, TheGameState

SNAPSHOTS = json.loads((Path(__file__).parent / "old_snapshots.json").read_text())


def play_to(players: int, options: dict[str, bool], seed: int, moves: int) -> TheGameState:
    """The state after the chance actions of `seed` and `moves` moves of normal AIs."""
    config = RULES.make_config(players, options)
    adv = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, version, rng = adv.state, len(adv.logged), random.Random(seed)
    for _ in range(moves):
        seat = min(RULES.to_move(state).seats)
        action = AI.normal(RULES.view(state, seat), rng)
        adv = advance(RULES, state, version, seat, action, seed)
        state, version = adv.state, version + len(adv.logged)
    return state


CASES = [pytest.param(case, id=f"{case['players']}p-seed{case['seed']}") for case in SNAPSHOTS]


def game_of(state: TheGameState) -> dict[str, Any]:
    """Everything `state` holds of the game: its fields, with the draw pile for the deck."""
    return {**state.model_dump(exclude={"deck", "drawn"}), "draw": state.draw}


def loaded_and_played(case: dict[str, Any]) -> tuple[TheGameState, TheGameState]:
    old = TheGameState.model_validate(case["state"])
    return old, play_to(case["players"], case["options"], case["seed"], case["moves"])


def test_the_stored_states_are_in_the_old_form() -> None:
    assert all("piles" in case["state"] and "tops" not in case["state"] for case in SNAPSHOTS)


@pytest.mark.parametrize("case", CASES)
def test_an_old_snapshot_loads_into_the_game_the_same_moves_reach(case: dict[str, Any]) -> None:
    old, played = loaded_and_played(case)
    assert game_of(old) == game_of(played)
    assert old.cards_left == played.cards_left


@pytest.mark.parametrize("case", CASES)
def test_an_old_snapshot_shows_every_seat_the_same_view(case: dict[str, Any]) -> None:
    old, played = loaded_and_played(case)
    for seat in [None, *range(case["players"])]:
        assert RULES.view(old, seat) == RULES.view(played, seat)


@pytest.mark.parametrize("case", CASES)
def test_an_old_snapshot_plays_on_as_the_same_game(case: dict[str, Any]) -> None:
    old, played = loaded_and_played(case)
    for seat in range(case["players"]):
        legal = RULES.legal_actions(old, seat)
        assert legal == RULES.legal_actions(played, seat)
        for action in legal:
            after = advance(RULES, old, 0, seat, action, case["seed"])
            expected = advance(RULES, played, 0, seat, action, case["seed"])
            assert game_of(after.state) == game_of(expected.state)
            assert after.events == expected.events


def test_an_old_snapshot_keeps_each_pile_top_and_count_and_its_draw_pile() -> None:
    case = SNAPSHOTS[0]
    old = TheGameState.model_validate(case["state"])
    piles = case["state"]["piles"]
    assert old.counts == tuple(len(cards) for cards in piles)
    assert old.tops == tuple(cards[-1] if cards else BASES[i] for i, cards in enumerate(piles))
    assert old.draw == tuple(case["state"]["draw"])
