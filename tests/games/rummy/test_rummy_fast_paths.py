"""Angels & Demons Rummy's fast paths agree with what they stand in for: the goal-form lookup
with the search of splits, the shortcuts of waits and claims with the full lists, and every
state, event, action and view the rules build without validation with its model."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.rummy import RULES
from games.rummy.cards import CARDS, COPIES, KINDS, kind, kinds_of
from games.rummy.models import ACTION_ADAPTER, Open, State, Take, View
from games.rummy.sets import (
    can_gain,
    gains_with,
    goal_forms,
    goal_splits,
    is_goal_kinds,
    kind_waits,
    ready_kinds,
    waits,
)
from tests.games.rummy.rummy_cards import c, cs, make


def hands(count: int, size: int, seed: int) -> list[tuple[int, ...]]:
    """`count` random hands of `size` cards, and as many made of goal forms (random hands
    are rarely near one): a form's cards, less one for a 7-card hand."""
    rng = random.Random(seed)
    found = [tuple(rng.sample(CARDS, size)) for _ in range(count)]
    forms = sorted(ks for ks in goal_forms() if max(map(ks.count, ks)) <= COPIES)
    for ks in rng.sample(forms, count):
        copies = {k: rng.sample(range(COPIES), ks.count(k)) for k in set(ks)}
        cards = [k * COPIES + copy for k, taken in copies.items() for copy in taken]
        found.append(tuple(rng.sample(cards, size)))
    return found


def test_goal_form_lookup_agrees_with_the_search_of_splits():
    for hand in hands(3000, 8, seed=1):
        ks = kinds_of(hand)
        assert is_goal_kinds(ks) == bool(goal_splits(ks))


def test_waits_agree_with_trying_every_kind():
    for hand in hands(2000, 7, seed=2):
        ks = kinds_of(hand)
        every = tuple(k for k in range(KINDS) if goal_splits(tuple(sorted((*ks, k)))))
        assert kind_waits(ks) == every


def test_ready_kinds_are_the_discards_that_leave_waits():
    rng = random.Random(4)
    ready_hands = 0
    for hand in hands(1500, 8, seed=4):
        rest = [card for card in CARDS if card not in hand]
        held = tuple(rng.sample(rest, 3 * rng.randrange(3)))
        expected = {
            kind(card) for i, card in enumerate(hand) if waits((*hand[:i], *hand[i + 1 :]), held)
        }
        assert ready_kinds(hand, held) == expected
        ready_hands += bool(expected)
    assert ready_hands > 100  # the goal-form hands: most discards of them leave waits


def test_a_window_asks_a_seat_exactly_when_it_has_a_gain():
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(CARDS, 8)
        assert can_gain(cards[:7], cards[7]) == bool(gains_with(cards[:7], cards[7]))


def test_an_open_built_unsorted_is_applied_as_its_sorted_form():
    state = make(["H1 H2 H3 A5 A6 D1 D2", "H4"], field="Is Ir*", deck="Ih Ip Ir")
    state = RULES.apply(state, 0, Take(card=c("Is"))).state
    unsorted = Open.model_construct(cards=(c("H3"), c("H1"), c("H2")))
    step = RULES.apply(state, 0, unsorted)
    assert step.state.opened[0] == (cs("H1 H2 H3"),)


def revalidated(model: BaseModel) -> BaseModel:
    return type(model).model_validate(model.model_dump())


def play_checked(players: int, advanced: bool, seed: int) -> int:
    """A match of random legal moves in which every state, event, legal action and view the
    rules build is checked against its model; returns the actions applied."""
    config = RULES.make_config(players, {"advanced": advanced, "match_games": 2})
    state: Any = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state
    rng, version, applied = random.Random(seed), 1, 0
    while not RULES.is_over(state):
        seat = min(RULES.to_move(state).seats)
        legal = RULES.legal_actions(state, seat)
        for action in legal:
            assert ACTION_ADAPTER.validate_python(action.model_dump()) == action
        view = RULES.view(state, seat)
        assert revalidated(view) == view and isinstance(view, View)
        step = advance(RULES, state, version, seat, rng.choice(legal), seed)
        for event in step.events:
            assert revalidated(event) == event
        state, version, applied = step.state, version + len(step.logged), applied + 1
        assert revalidated(state) == state and isinstance(state, State)
    return applied


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, False), (4, True)])
def test_everything_the_rules_build_without_validation_is_valid(players, advanced):
    assert play_checked(players, advanced, seed=players) > 0
