"""Angels & Demons Rummy at the STRONG level (games/rummy/strong.py) and the worlds its
search plays out (games/rummy/worlds.py), from hand-built tables: one behaviour per test.
Cards are written as in tests/test_rummy_rules.py."""

from __future__ import annotations

import random

import pytest

from games.engine.contract import NORMAL, STRONG
from games.engine.search import WINS_MOST_SAMPLES, Budget
from games.rummy import RULES
from games.rummy.cards import CARDS, kind
from games.rummy.models import Discard, Gain, Pass, State, Take
from games.rummy.sets import waits
from games.rummy.strong import _move_kind, _ranked
from games.rummy.worlds import sample_world
from tests.rummy_cards import c, cs, make

WAITING = "H1 H1' A2 A3 A4 D5 D5'"
"""One card from the goal form: it waits for a Demon 5 or a Human 1."""
OPEN = ("H7 H7' H7''",)


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches here use a small budget: the behaviours do not depend on its size."""
    monkeypatch.setattr("games.rummy.strong.BUDGET", Budget(playouts=16, candidates=3))


def cards_of(state: State) -> list[int]:
    """Every card on the table, wherever it lies."""
    melds = [c for sets in state.opened for meld in sets for c in meld]
    return [*state.deck, *state.field, *state.out, *melds, *(c for h in state.hands for c in h)] + [
        c for row in state.rows for c in row
    ]


def full(state: State) -> State:
    """`state` with every card not on its table added to the bottom of the deck (drawing a
    world from a view needs all 100 cards accounted for)."""
    cards = cards_of(state)
    assert len(set(cards)) == len(cards), "a card is on the table twice"
    rest = sorted(set(CARDS) - set(cards))
    return state.model_copy(update={"deck": (*state.deck, *rest)})


def ready_table(**kwargs: object) -> State:
    """Seat 0 (ordinary hand) to take; seat 1 Ready, waiting as `WAITING` does."""
    return full(
        make(
            ["H2 H3 A5 A6'' D1 D3 Is", WAITING],
            field="A7 H5",
            opened=((), OPEN),
            ready=(False, True),
            **kwargs,  # type: ignore[arg-type]
        )
    )


# The rule NORMAL lacks --------------------------------------------------------------------


def test_strong_ready_seat_takes_the_field_card_that_completes_its_goal():
    state = make([WAITING, "H2"], field="A6 D5'' Ir", opened=(OPEN,), ready=(True, False))
    view = RULES.view(state, 0)
    made = RULES.ai_decision(view, random.Random(0), STRONG)
    assert made.action == Take(card=c("D5''"))
    assert made.reason == "completes_goal"


def test_normal_ready_seat_takes_the_card_safest_to_discard_instead():
    """What STRONG's rule adds: NORMAL, Ready, only ever goals on a discard."""
    state = make([WAITING, "H2"], field="A6 D5'' Ir", opened=(OPEN,), ready=(True, False))
    view = RULES.view(state, 0)
    assert RULES.ai_decision(view, random.Random(0), NORMAL).action != Take(card=c("D5''"))


# The search -------------------------------------------------------------------------------


def test_strong_searches_a_claim_window_where_it_could_gain():
    hands = ["H4 H4' A6 A7 D1 D2 D5''", "D5 D5' H1 H2 A3 A4 Ih", "H6"]
    state = full(make(hands, field="Is", opened=((), OPEN)))
    state = RULES.apply(state, 0, Take(card=c("Is"))).state
    state = RULES.apply(state, 0, Discard(card=c("D5''"))).state
    view = RULES.view(state, 1)
    made = RULES.ai_decision(view, random.Random(0), STRONG)
    assert made.reason == WINS_MOST_SAMPLES
    assert made.action in (Pass(), Gain(cards=cs("D5 D5'")))


def test_strong_searches_one_candidate_per_kind_of_move():
    """A red and a black copy of a kind make the same move: the search tries it once."""
    state = RULES.apply(ready_table(), 0, Take(card=c("A7"))).state
    view = RULES.view(state, 0)
    ranked = _ranked(view, random.Random(0))
    moves = [_move_kind(a) for a in ranked]
    assert len(set(moves)) == len(moves)
    assert set(moves) == {_move_kind(a) for a in view.legal}


# The worlds -------------------------------------------------------------------------------


def test_a_world_deals_a_ready_player_a_hand_one_card_from_the_goal():
    view = RULES.view(ready_table(), 0)
    for seed in range(20):
        world = sample_world(RULES, view, random.Random(seed))
        assert waits(world.hands[1], cs(OPEN[0]))


def test_a_world_keeps_the_cards_a_ready_player_was_seen_taking():
    state = ready_table(known=("", "A3"))
    view = RULES.view(state, 0)
    for seed in range(20):
        world = sample_world(RULES, view, random.Random(seed))
        assert c("A3") in world.hands[1]
        assert waits(world.hands[1], cs(OPEN[0]))


def test_a_world_is_consistent_with_the_view():
    view = RULES.view(ready_table(), 0)
    for seed in range(20):
        world = sample_world(RULES, view, random.Random(seed))
        assert RULES.view(world, 0) == view
        assert sorted(cards_of(world)) == sorted(cards_of(ready_table()))


def test_an_advanced_world_never_has_a_ready_player_wait_on_its_own_discards():
    row = "D5'' H1''"  # both of WAITING's waits are in seat 1's own row
    state = ready_table(rows=("", row), advanced=True)
    view = RULES.view(state, 0)
    for seed in range(20):
        world = sample_world(RULES, view, random.Random(seed))
        hand = world.hands[1]
        kinds = waits(hand, cs(OPEN[0]))
        assert kinds and not {kind(c) for c in cs(row)} & set(kinds)


def test_others_who_answered_a_window_answer_again_where_they_could_claim():
    hands = ["H4 H4' A6 A7 D1 D2 D5''", "D5 D5' H1 H2 A3 A4 Ih", "H6 A1 A2 H5 Ip Ip' Ih'"]
    state = full(make(hands, field="Is"))
    state = RULES.apply(state, 0, Take(card=c("Is"))).state
    state = RULES.apply(state, 0, Discard(card=c("D5''"))).state
    state = RULES.apply(state, 1, Gain(cards=cs("D5 D5'"))).state
    view = RULES.view(state, 2)
    gains = 0
    for seed in range(20):
        world = sample_world(RULES, view, random.Random(seed))
        assert world.window is not None
        answer = world.window.answers[1]
        if answer is None:  # asked again: it can claim in this world
            gains += 1
            assert RULES.legal_actions(world, 1)[1:]
        else:
            assert answer.choice == "pass"
    assert gains
