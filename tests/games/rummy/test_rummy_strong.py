"""Angels & Demons Rummy at the STRONG level (games/rummy/strong.py): what it does that
NORMAL does not, from hand-built tables, one behaviour per test; and that it plays whole
matches legally from its view only. Cards are written as in
tests/games/rummy/test_rummy_rules.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.contract import NORMAL, STRONG
from games.engine.step import advance
from games.rummy import AI, RULES
from games.rummy.models import Discard, State, Take
from tests.games.rummy.rummy_cards import c, make

WAITING = "H1 H1' A2 A3 A4 D5 D5'"
"""One card from the goal form: it waits for a Demon 5 or a Human 1."""
OPEN = ("H7 H7' H7''",)


def both(state: State, seat: int | None = None) -> tuple[Any, Any]:
    """(NORMAL's, STRONG's) action for `seat` (default: the one whose turn it is)."""
    seat = state.turn if seat is None else seat
    view = RULES.view(state, seat)
    normal = AI.decide(view, random.Random(0), NORMAL)
    strong = AI.decide(view, random.Random(0), STRONG)
    return normal.action, strong.action


def took(state: State, spec: str) -> State:
    return RULES.apply(state, state.turn, Take(card=c(spec))).state


# Taking the goal ------------------------------------------------------------------------------


def test_strong_ready_seat_takes_the_field_card_that_completes_its_goal():
    state = make([WAITING, "H2"], field="A6 D5'' Ir", opened=(OPEN,), ready=(True, False))
    made = AI.decide(RULES.view(state, 0), random.Random(0), STRONG)
    assert made.action == Take(card=c("D5''"))
    assert made.reason == "completes_goal"


def test_normal_ready_seat_takes_the_card_safest_to_discard_instead():
    state = make([WAITING, "H2"], field="A6 D5'' Ir", opened=(OPEN,), ready=(True, False))
    normal, _ = both(state)
    assert normal != Take(card=c("D5''"))


def test_strong_takes_the_completing_card_when_not_ready_too():
    """NORMAL scores an 8-card goal form like a hand one card from it, and likes the Demon 4
    (more cards would help the hand after it)."""
    state = make([WAITING, "H2"], field="D5'' D4", opened=(OPEN,))
    normal, strong = both(state)
    assert strong == Take(card=c("D5''"))
    assert normal == Take(card=c("D4"))


def test_strong_takes_no_card_for_a_goal_it_could_not_make_without_an_open_set():
    state = make([WAITING, "H2"], field="A6 D5'' Ir")
    made = AI.decide(RULES.view(state, 0), random.Random(0), STRONG)
    assert made.reason == "heuristic"


# More thorough ------------------------------------------------------------------------------


def test_strong_looks_at_every_field_card():
    """NORMAL shortlists two field cards by the cards its hand would lack and leaves out the
    Angel 2 its own full scoring likes best; STRONG scores them all."""
    state = make(["H5* A1' A5'' D2* D4 D5'' D6", "", "", ""], field="D7* D5' H3* H1 A2")
    normal, strong = both(state)
    assert strong == Take(card=c("A2"))
    assert normal != strong


def test_two_player_strong_is_not_ready_for_a_single_unseen_card():
    """The waits (a Human 1 or a Demon 5) have one unseen copy left: the rest are in hand
    or discarded. NORMAL declares Ready on it; STRONG, one opponent's discards rarely
    bringing it, keeps its hand free."""
    state = make([WAITING, "H2"], field="Ir", opened=(OPEN,), rows=("H1'' H1*", "D5''"))
    normal, strong = both(took(state, "Ir"))
    assert normal == Discard(card=c("Ir"), ready=True)
    assert strong == Discard(card=c("Ir"))


def test_four_player_strong_is_ready_as_normal_is():
    hands = [WAITING, "H2", "H3'", "A1"]
    state = make(hands, field="Ir", opened=(OPEN,), rows=("H1'' H1*", "D5''"))
    normal, strong = both(took(state, "Ir"))
    assert strong == normal == Discard(card=c("Ir"), ready=True)


# A Ready opponent at two players, advanced ----------------------------------------------------


def ready_opponent(hand: str, our_row: str = "Is'", advanced: bool = True) -> State:
    """Seat 0 discards from `hand`; seat 1 is Ready (two players), and the Human 3 and 7 are
    in its row (it cannot goal on those, advanced)."""
    return make(
        [hand, "A6 A6' D2'' D3 D4'' D5'' D6*"],
        phase="act",
        field="",
        rows=(our_row, "H3' H7*"),
        opened=(("A7 A7' A7''",), ("H2' H3* H4",)),
        ready=(False, True),
        known=("D4* D6", "A6 A6'"),
        advanced=advanced,
    )


LONE_CARDS = "H1' A3 H6* D1'' D3* D4* D6 A5'"
"""The Human 1 and the Human 6 serve this hand equally little; NORMAL discards the 1."""


def test_two_player_advanced_strong_discards_a_kind_that_went_by_a_ready_opponent():
    """We discarded a Human 6 before and the Ready player did not goal on it: a second one
    is the safer discard. NORMAL sees every kind outside that player's row as equally risky."""
    normal, strong = both(ready_opponent(LONE_CARDS, our_row="Is' H6'"))
    assert normal == Discard(card=c("H1'"))
    assert strong == Discard(card=c("H6*"))


def test_two_player_advanced_strong_keeps_the_kind_no_ready_opponent_saw_go_by():
    _, strong = both(ready_opponent(LONE_CARDS))
    assert strong == Discard(card=c("H1'"))


def test_two_player_advanced_strong_reads_an_item_as_a_rare_wait():
    """An Item completes a goal only as a pair or a group, never a run."""
    normal, strong = both(ready_opponent("H1' A3 H6* D1'' D3* D4* D6 Ih"))
    assert normal == Discard(card=c("H1'"))
    assert strong == Discard(card=c("Ih"))


def test_two_player_basic_strong_weighs_a_ready_opponent_as_normal_does():
    normal, strong = both(ready_opponent(LONE_CARDS, our_row="Is' H6'", advanced=False))
    assert strong == normal


# Whole matches --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "advanced"), [(2, True), (3, False), (4, True)])
def test_strong_plays_whole_matches_with_legal_actions_decided_from_its_view(players, advanced):
    config = RULES.make_config(players, {"advanced": advanced, "match_games": 2})
    result = advance(RULES, RULES.setup(config), 0, -1, None, players)
    state, version = result.state, len(result.logged)
    rng = random.Random(players)
    while not RULES.is_over(state):
        seat = min(RULES.to_move(state).seats)
        view = RULES.view(state, seat)
        made = AI.decide(view, random.Random(version), STRONG)
        assert made.action in RULES.legal_actions(state, seat)
        other = RULES.resample_hidden(state, seat, rng)
        assert AI.decide(RULES.view(other, seat), random.Random(version), STRONG) == made
        result = advance(RULES, state, version, seat, made.action, players)
        state, version = result.state, version + len(result.logged)
