"""Angels & Demons Rummy AI (games/rummy/ai.py) and the bench's baseline seats: one behaviour
per test, from hand-built tables. The AI decides from the seat's view only: every test hands
it `RULES.view(state, seat)`. Cards are written as in tests/games/rummy/test_rummy_rules.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.rummy import RULES
from games.rummy.ai import decide, unseen_counts
from games.rummy.ai_policies import connection, greedy_policy, random_policy
from games.rummy.cards import kind
from games.rummy.models import Discard, Gain, Goal, Open, Pass, State, Take
from tests.games.rummy.rummy_cards import as_stored_by_version_1, c, cs, make

WAITING = "H1 H1' A2 A3 A4 D5 D5'"
"""One card from the goal form: it waits for a Demon 5 or a Human 1."""
OPEN = ("H7 H7' H7''",)


def ai(state: State, seat: int | None = None) -> Any:
    """The AI's choice, the same whatever its sampling of unseen draws (seeds 0–4)."""
    seat = state.turn if seat is None else seat
    view = RULES.view(state, seat)
    choices = [decide(view, random.Random(seed)) for seed in range(5)]
    assert all(choice == choices[0] for choice in choices), choices
    return choices[0]


def took(state: State, spec: str) -> State:
    return RULES.apply(state, state.turn, Take(card=c(spec))).state


def discarded(state: State, spec: str) -> State:
    return RULES.apply(state, state.turn, Discard(card=c(spec))).state


# Goals --------------------------------------------------------------------------------------


def test_ai_takes_the_field_card_that_completes_its_goal():
    state = make([WAITING, "H2"], field="A6 D5'' Ir", opened=(OPEN,))
    assert ai(state) == Take(card=c("D5''"))


def test_ai_goals_after_a_take_that_completes_the_goal():
    state = took(make([WAITING, "H2"], field="D5''", opened=(OPEN,)), "D5''")
    assert ai(state) == Goal()


def test_ai_goals_on_a_discard_when_ready():
    hands = ["H4 H4' A6 A7 D1 D2 D5''", WAITING, "H6"]
    state = make(hands, field="Is", opened=((), OPEN), ready=(False, True))
    state = discarded(took(state, "Is"), "D5''")
    assert ai(state, 1) == Goal()


# Building toward the goal form --------------------------------------------------------------


def test_ai_opens_a_big_set_when_it_has_none_open():
    state = took(make(["H1 H2 H3 A5 D2 Ip Ir'", "H6"], field="Is"), "Is")
    assert ai(state) == Open(cards=cs("H1 H2 H3"))


def test_ai_keeps_a_complete_set_in_hand_once_a_set_is_open():
    state = took(make(["H1 H2 H3 A5 A5' D2 Ir'", "H6"], field="Is", opened=(OPEN,)), "Is")
    assert isinstance(ai(state), Discard)


def test_ai_discards_a_card_that_fits_nothing():
    state = took(make(["H1 H2 H3 A5 A5' D2 D3", "H6"], field="Ir", opened=(OPEN,)), "Ir")
    assert ai(state).card == c("Ir")


def test_ai_takes_the_field_card_that_fits_its_hand():
    state = make(["H1 H2 H3 A5 A5' D2 Ih", "H6"], field="Ir Is D3", opened=(OPEN,))
    assert ai(state) == Take(card=c("D3"))


def test_ai_declares_ready_when_one_card_from_the_goal_with_live_outs():
    state = took(make([WAITING, "H2"], field="Is", opened=(OPEN,)), "Is")
    assert ai(state) == Discard(card=c("Is"), ready=True)


def test_ai_does_not_declare_ready_when_every_card_it_waits_for_is_seen():
    state = make([WAITING, "H2"], field="Is", opened=(OPEN,), rows=("", "D5'' D5* H1'' H1*"))
    assert ai(took(state, "Is")) == Discard(card=c("Is"))


def test_advanced_ai_does_not_declare_ready_with_a_wait_in_its_own_row():
    state = make([WAITING, "H2"], field="Is", opened=(OPEN,), rows=("H1*",), advanced=True)
    assert ai(took(state, "Is")) == Discard(card=c("Is"))


def test_ready_ai_takes_the_card_safest_to_discard():
    state = make(
        [WAITING, "H2"],
        field="A6 Ir",
        opened=(OPEN, ("H5 H5' H5''",)),
        ready=(True, True),
        rows=("", "A6'"),
    )
    assert ai(state) == Take(card=c("A6"))


# The claim window -----------------------------------------------------------------------------


def window(hands: list[str], **kwargs: Any) -> State:
    """Seat 0 has discarded `D5''`; `hands` are seats 1.. ."""
    state = make(["H4 H4' A6 A7 D1 D2 D5''", *hands], field="Is", **kwargs)
    return discarded(took(state, "Is"), "D5''")


def test_ai_gains_for_its_first_open_set():
    state = window(["D3 D4 H2 A1 Ir Ip Is'", "H6"])
    assert ai(state, 1) == Gain(cards=cs("D3 D4"))


def test_ai_passes_a_gain_that_breaks_a_hand_one_card_from_the_goal():
    """Its small set would go into the Gain; it waits for a Human 2 or 5 instead."""
    state = window(["D5 D5' A2 A3 A4 H3 H4", "H6"], opened=((), OPEN))
    assert ai(state, 1) == Pass()


def test_ai_passes_a_version_1_window_it_cannot_claim():
    """Rules version 1 asked every other player; a game stored by it may still be running."""
    state = make(["H4 H4' A6 A7 D1 D2 D5''", "H2 A1", "H6"], field="Is")
    state = discarded(took(as_stored_by_version_1(state), "Is"), "D5''")
    assert ai(state, 1) == Pass()


# Safety -----------------------------------------------------------------------------------


def test_ai_discards_what_a_ready_player_has_already_discarded():
    """Two lone cards with as many unseen copies; a Ready opponent's row holds one's kind."""
    state = make(
        ["H1 H2 H3 A5 A6 A7 Ih", "H6"],
        field="Ir",
        opened=(OPEN, ("A1 A1' A1''",)),
        ready=(False, True),
        rows=("Ir*", "Ih*"),
    )
    assert ai(took(state, "Ir")).card == c("Ih")


def test_advanced_ai_keeps_an_item_from_a_player_one_set_from_item_victory():
    """Seat 1 holds two Item-only sets and took two potions: a third would win it all."""
    items = ("Is Is' Is''", "Ih Ih' Ih''")
    state = make(
        ["H1 H2 H3 A5 A6 A7 D2", "H6 Ip Ip'"],
        field="Ip''",
        opened=(OPEN, items),
        known=("", "Ip Ip'"),
        advanced=True,
    )
    assert ai(took(state, "Ip''")).card == c("D2")


def test_advanced_ai_takes_an_item_away_from_a_player_one_set_from_item_victory():
    items = ("Is Is' Is''", "Ih Ih' Ih''")
    state = make(
        ["H1 H2 H3 A5 A6 D2 D3", "H6 Ip Ip'"],
        field="Ip'' Ir* D4",
        opened=(OPEN, items),
        known=("", "Ip Ip'"),
        advanced=True,
    )
    assert ai(state) == Take(card=c("Ip''"))
    basic = state.model_copy(update={"config": state.config.model_copy(update={"advanced": False})})
    assert ai(basic) == Take(card=c("D4"))


# Reading the view -------------------------------------------------------------------------------


def test_unseen_counts_leave_out_every_card_the_seat_has_seen():
    state = took(make([WAITING, "H2 H3"], field="Is Ih", rows=("D5*",), opened=((), OPEN)), "Is")
    counts = unseen_counts(RULES.view(state, 1))
    assert counts[kind(c("Is"))] == 3  # taken from the field: known to be in seat 0's hand
    assert counts[kind(c("Ih"))] == 3 and counts[kind(c("D5"))] == 3
    assert counts[kind(c("H7"))] == 1 and counts[kind(c("H2"))] == 3
    assert counts[kind(c("H1"))] == 4  # seat 0's unseen cards stay unseen


def playout_states(players: int, seed: int, advanced: bool) -> list[State]:
    config = RULES.make_config(players, {"advanced": advanced})
    result = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, version, rng, states = result.state, len(result.logged), random.Random(seed), []
    while not RULES.is_over(state):
        states.append(state)
        seat = min(RULES.to_move(state).seats)
        action = decide(RULES.view(state, seat), rng)
        result = advance(RULES, state, version, seat, action, seed)
        state, version = result.state, version + len(result.logged)
    return states


@pytest.mark.parametrize(("players", "advanced"), [(2, True), (3, False), (4, True)])
def test_ai_plays_whole_matches_with_legal_actions_decided_from_its_view(players, advanced):
    rng = random.Random(players)
    for state in playout_states(players, 3, advanced)[::5]:
        for seat in RULES.to_move(state).seats:
            view = RULES.view(state, seat)
            choice = decide(view, random.Random(1))
            assert choice in RULES.legal_actions(state, seat)
            other = RULES.resample_hidden(state, seat, rng)
            assert decide(RULES.view(other, seat), random.Random(1)) == choice


# The baseline seats -------------------------------------------------------------------------------


def test_random_seat_picks_a_legal_action():
    state = took(make([WAITING, "H2"], field="Is", opened=(OPEN,)), "Is")
    view = RULES.view(state, 0)
    assert all(random_policy(view, random.Random(s)) in view.legal for s in range(20))


def test_greedy_seat_opens_whenever_it_can():
    state = took(make(["H1 H2 H3 A5 A5' D2 D3", "H6"], field="Ir", opened=(OPEN,)), "Ir")
    assert greedy_policy(RULES.view(state, 0), random.Random(0)) == Open(cards=cs("H1 H2 H3"))


def test_greedy_seat_claims_whenever_it_can():
    state = window(["D5 D5' H1 H1' A2 A3 A4", "H6"], opened=((), OPEN))
    assert greedy_policy(RULES.view(state, 1), random.Random(0)) == Gain(cards=cs("D5 D5'"))


def test_greedy_seat_discards_the_card_least_connected_to_its_hand():
    state = took(make(["H1 H2 A5 A5' D2 D3 D5", "H6"], field="Ir", opened=(OPEN,)), "Ir")
    assert greedy_policy(RULES.view(state, 0), random.Random(0)) == Discard(card=c("Ir"))
    assert connection(c("Ir"), cs("H1 H2")) == 0 and connection(c("H3"), cs("H1 H2")) == 2
