"""Angels & Demons Rummy (seed 004 + RULINGS.md), rule by rule: one behaviour per test.

States are built directly so each test shows exactly the situation it checks. Cards are
written like `H3` (a black Human 3), `H3'`/`H3''` (its other black copies), `H3*` (the red
one); `A` Angel, `D` Demon; `Is` `Ih` `Ip` `Ir` the Items sword, shield, potion, ring.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import Seat, SessionRecord, Status
from games.engine.contract import CHANCE, SYSTEM, Event, Step
from games.engine.errors import GameError, Reason
from games.engine.step import advance
from games.exhaust.models import UseTime
from games.replay import ReplayError, check, export
from games.rummy import AI, RULES
from games.rummy.ai_policies import random_policy
from games.rummy.cards import CARDS, attribute, is_red, kind, number, title
from games.rummy.models import (
    Close,
    Config,
    Deal,
    Discard,
    Flip,
    Gain,
    Goal,
    NextGame,
    Open,
    Pass,
    PickFirst,
    State,
    Take,
)
from games.rummy.sets import is_goal_form, set_kind, waits
from tests.games.rummy.rummy_cards import as_stored_by_version_1, c, cs, make

WAITING = "H1 H1' A2 A3 A4 D5 D5'"
"""A hand one card from the goal form: it waits for a Demon 5 or a Human 1."""
OPEN = ("H7 H7' H7''",)
"""One open set (a group of Human 7s)."""


def act(state: State, seat: int, action: Any) -> Step:
    return RULES.apply(state, seat, action)


def take(state: State, spec: str) -> State:
    return act(state, state.turn, Take(card=c(spec))).state


def refused(state: State, seat: int, action: Any) -> GameError:
    with pytest.raises(GameError) as info:
        RULES.apply(state, seat, action)
    return info.value


def settle(state: State) -> Step:
    """Resolve pending chance actions (bonus checks, deals) the way the engine does."""
    result = advance(RULES, state, 0, CHANCE, None, 0)
    return Step(state=result.state, events=result.events)


def keys(events: Sequence[Event]) -> list[str]:
    return [e.key for e in events]


def discard(state: State, spec: str, ready: bool = False) -> State:
    return act(state, state.turn, Discard(card=c(spec), ready=ready)).state


def answer_all(state: State, action: Any = None) -> Step:
    """Every seat a claim window waits for passes (or gives `action`); nothing when the
    discard opened no window."""
    step = Step(state=state)
    if state.phase != "window":
        return step
    for seat in sorted(RULES.to_move(state).seats):
        step = act(step.state, seat, action or Pass())
    return step


def start(players: int, seed: int = 0, **options: Any) -> State:
    config = RULES.make_config(players, {"first_player": None, **options})
    return advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state


# Cards and sets ---------------------------------------------------------------------------


def test_deck_has_100_cards_four_of_each_title_one_of_them_red():
    by_kind: dict[int, list[int]] = {}
    for card in CARDS:
        by_kind.setdefault(kind(card), []).append(card)
    assert len(CARDS) == 100 and len(by_kind) == 25
    assert all(len(cards) == 4 and sum(map(is_red, cards)) == 1 for cards in by_kind.values())
    numbers = [card for card in CARDS if number(card) is not None]
    assert len(numbers) == 84 and {attribute(x) for x in numbers} == {0, 1, 2}
    assert {title(x) for x in CARDS if number(x) is None} == {"sword", "shield", "potion", "ring"}


def test_small_set_is_two_cards_of_one_attribute_and_title():
    assert set_kind(cs("A4 A4'")) == "small"
    assert set_kind(cs("A4 D4")) is None
    assert set_kind(cs("Ir Ir'")) == "small"


def test_red_and_black_of_a_title_make_sets_together():
    assert set_kind(cs("H2* H2")) == "small"
    assert set_kind(cs("Ip* Ip Ip'")) == "group"


def test_group_is_three_cards_of_one_attribute_and_title():
    assert set_kind(cs("D6 D6' D6''")) == "group"
    assert set_kind(cs("D6 D6' A6")) is None


def test_run_is_three_consecutive_numbers_of_one_attribute():
    assert set_kind(cs("A3 A4 A5")) == "run"
    assert set_kind(cs("A5 A3 A4")) == "run"
    assert set_kind(cs("A3 A4 A6")) is None


def test_run_does_not_wrap_or_mix_attributes():
    assert set_kind(cs("H6 H7 H1")) is None
    assert set_kind(cs("H7 A1 A2")) is None
    assert set_kind(cs("H1 A2 D3")) is None


def test_items_make_groups_but_no_runs():
    assert set_kind(cs("Is Is' Is''")) == "group"
    assert set_kind(cs("Is Ih Ip")) is None


def test_goal_form_is_eight_cards_one_small_set_and_two_big_sets():
    assert is_goal_form(cs("H1 H1' A2 A3 A4 D5 D5' D5''"))
    assert not is_goal_form(cs("H1 H1' A2 A3 A4 D5 D5'"))
    assert not is_goal_form(cs("H1 H1' A2 A2' D5 D5' Is Is'"))
    assert not is_goal_form(cs("H1 H1' H1'' A2 A3 A4 D5 D5' D5''"))


def test_a_wait_needing_a_fifth_copy_is_no_wait():
    hand = cs("H1 H1' H1'' H1* A2 A3 A4")
    assert waits(hand) == ()
    assert waits(cs("H1 H1' H1'' A2 A3 A4 D5")) == (kind(c("D5")),)


# Options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "games", "target"), [(2, 6, 24), (3, 6, 18), (4, 8, 12)])
def test_match_length_defaults_follow_the_seed_by_player_count(players, games, target):
    config = RULES.make_config(players, {})
    assert (config.match_games, config.target) == (games, target)
    assert config.claim_seconds == 20 and not config.advanced


@pytest.mark.parametrize(
    "options",
    [
        {"claim_seconds": 4},
        {"claim_seconds": 301},
        {"claim_seconds": "20"},
        {"claim_seconds": True},
        {"advanced": "yes"},
        {"match_games": 0},
        {"target": -1},
        {"first_player": 3},
        {"colour": "red"},
    ],
)
def test_malformed_options_are_refused(options):
    with pytest.raises(GameError) as info:
        RULES.make_config(3, options)
    assert info.value.reason is Reason.BAD_OPTION


def test_players_outside_two_to_four_are_refused():
    for players in (1, 5):
        with pytest.raises(GameError):
            RULES.make_config(players, {})


# Dealing and the first player -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_gives_seven_cards_each_and_a_field_of_players_plus_one(players):
    state = start(players, first_player=0)
    assert [len(h) for h in state.hands] == [7] * players
    assert len(state.field) == players + 1
    assert len(state.deck) == 100 - 7 * players - players - 1
    assert state.phase == "take" and state.turn == 0


def test_first_player_of_the_first_short_game_is_a_logged_chance_action():
    config = RULES.make_config(3, {})
    result = advance(RULES, RULES.setup(config), 0, CHANCE, None, 7)
    kinds = [entry.action["kind"] for entry in result.logged]
    assert kinds == ["deal", "first"]
    assert result.state.turn == result.state.first == result.logged[1].action["seat"]


def test_each_short_game_starts_left_of_the_previous_first_player():
    state = make(["H1", "H2", "H3"], phase="ended", first=2)
    state = act(state, 0, NextGame()).state
    state = settle(state).state
    assert state.game_no == 2 and state.first == 0 and state.turn == 0


def test_next_short_game_is_dealt_by_its_first_player_only():
    state = make(["H1", "H2", "H3"], phase="ended", first=0)
    assert RULES.to_move(state).seats == {1}
    assert refused(state, 0, NextGame()).reason is Reason.NOT_YOUR_TURN


def test_a_new_short_game_clears_the_table():
    state = make(
        ["H1", "H2"],
        phase="ended",
        rows=("D1",),
        opened=(OPEN,),
        ready=(True,),
        known=("H1",),
    )
    state = settle(act(state, 1, NextGame()).state).state
    assert state.rows == ((), ()) and state.opened == ((), ()) and state.ready == (False, False)
    assert state.known == ((), ()) and [len(h) for h in state.hands] == [7, 7]


# A turn ------------------------------------------------------------------------------------


def test_take_moves_a_field_card_into_the_hand_for_all_to_see():
    state = make([WAITING, "H2"], field="Is Ih")
    step = act(state, 0, Take(card=c("Is")))
    assert c("Is") in step.state.hands[0] and step.state.field == cs("Ih")
    assert step.state.known[0] == cs("Is") and step.state.taken == c("Is")
    took = next(e for e in step.events if e.key == "rummy.took")
    assert took.public and took.cards == cs("Is")


def test_take_of_a_card_not_in_the_field_is_refused():
    state = make([WAITING, "H2"], field="Is")
    assert refused(state, 0, Take(card=c("Ih"))).detail == "not_in_field"


def test_an_empty_field_is_turned_up_anew_before_the_take():
    state = take(make([WAITING, "H2 H3"], field="Is", deck="Ih Ih' Ip Ip'"), "Is")
    state = answer_all(discard(state, "Is")).state
    assert state.turn == 1 and state.field == cs("Ih Ih' Ip") and state.deck == cs("Ip'")


def test_open_lays_a_big_set_draws_two_and_passes_the_turn_without_discard():
    state = take(make(["H1 H2 H3 A5 A6 D1 D2", "H4"], field="Is Ir*", deck="Ih Ip Ir"), "Is")
    step = act(state, 0, Open(cards=cs("H1 H2 H3")))
    after = step.state
    assert after.opened[0] == (cs("H1 H2 H3"),) and after.deck == cs("Ir")
    assert len(after.hands[0]) == 7 and cs("Ih Ip")[0] in after.hands[0]
    assert after.turn == 1 and after.phase == "take" and after.window is None
    assert after.rows[0] == ()
    drew = [e for e in step.events if e.key.startswith("rummy.drew")]
    assert [(e.key, e.audience) for e in drew] == [("rummy.drew", None), ("rummy.drew_cards", (0,))]


def test_open_of_cards_that_are_no_big_set_is_refused():
    state = take(make(["H1 H2 H4 A5 A6 D1 D2", "H4"]), "Is")
    assert refused(state, 0, Open(cards=cs("H1 H2 H4"))).detail == "not_a_big_set"


def test_open_of_cards_not_in_the_hand_is_refused():
    state = take(make(["H1 H2 A5 A6 D1 D2 D3", "H3"]), "Is")
    assert refused(state, 0, Open(cards=cs("H1 H2 H3"))).detail == "not_in_hand"


def test_discard_puts_the_card_in_the_discarders_row_and_asks_who_can_claim_it():
    state = take(make([WAITING, "Is' Is''", "H3"]), "Is")
    step = act(state, 0, Discard(card=c("Is")))
    assert step.state.rows[0] == cs("Is") and step.state.phase == "window"
    assert RULES.to_move(step.state).seats == {1}
    assert "rummy.window" in keys(step.events)


def test_a_discard_nobody_can_claim_opens_no_window_and_the_turn_passes_at_once():
    state = take(make([WAITING, "H2", "H3"]), "Is")
    step = act(state, 0, Discard(card=c("Is")))
    assert step.state.rows[0] == cs("Is") and step.state.window is None
    assert step.state.phase == "take" and step.state.turn == 1
    assert "rummy.window" not in keys(step.events) and "rummy.no_claim" in keys(step.events)


def test_discard_of_a_card_not_in_the_hand_is_refused():
    state = take(make([WAITING, "H2"]), "Is")
    assert refused(state, 0, Discard(card=c("D7"))).detail == "not_in_hand"


def test_goal_after_a_take_needs_the_goal_form_and_an_open_set():
    state = take(make([WAITING, "H2"], field="D5''", opened=(OPEN,)), "D5''")
    assert Goal() in RULES.legal_actions(state, 0)
    assert act(state, 0, Goal()).state.result is not None


def test_goal_after_a_take_without_an_open_set_is_refused():
    state = take(make([WAITING, "H2"], field="D5''"), "D5''")
    assert Goal() not in RULES.legal_actions(state, 0)
    assert refused(state, 0, Goal()).detail == "no_open_set"


def test_goal_without_the_goal_form_is_refused():
    state = take(make([WAITING, "H2"], field="D6", opened=(OPEN,)), "D6")
    assert refused(state, 0, Goal()).detail == "not_goal_form"


def test_open_sets_are_extra_to_the_eight_card_goal_form():
    two_open = ("H7 H7' H7''", "Ir Ir' Ir''")
    state = take(make([WAITING, "H2"], field="D5''", opened=(two_open,)), "D5''")
    assert Goal() in RULES.legal_actions(state, 0)
    short = take(make(["H1 H1' A2 A3 A4 D5", "H2"], field="D5''", opened=(two_open,)), "D5''")
    assert Goal() not in RULES.legal_actions(short, 0)


def test_no_goal_right_after_an_open_the_turn_passes():
    """(R) After an open the hand holds 7: a goal comes only right after a take."""
    hand = "H1 H1' A2 A3 A4 D5 D5'"
    state = take(make([hand, "H2"], field="D5''", deck="D6 D6'"), "D5''")
    after = act(state, 0, Open(cards=cs("D5 D5' D5''"))).state
    assert len(after.hands[0]) == 7 and after.turn == 1
    assert RULES.legal_actions(after, 0) == []


# Ready ---------------------------------------------------------------------------------------


def test_ready_may_be_declared_with_a_discard_leaving_one_card_from_the_goal():
    state = take(make([WAITING, "H2"], field="Is", opened=(OPEN,)), "Is")
    assert Discard(card=c("Is"), ready=True) in RULES.legal_actions(state, 0)
    step = act(state, 0, Discard(card=c("Is"), ready=True))
    assert step.state.ready == (True, False) and "rummy.ready" in keys(step.events)


def test_ready_is_not_offered_and_refused_without_an_open_set():
    """(R) Ready needs at least one open set."""
    state = take(make([WAITING, "H2"], field="Is"), "Is")
    assert all(not getattr(a, "ready", False) for a in RULES.legal_actions(state, 0))
    assert refused(state, 0, Discard(card=c("Is"), ready=True)).detail == "ready_needs_open_set"


def test_ready_when_not_one_card_from_the_goal_is_refused():
    state = take(make(["H1 H3 A2 A4 D5 D6 Ih", "H2"], field="Is", opened=(OPEN,)), "Is")
    assert refused(state, 0, Discard(card=c("Is"), ready=True)).detail == "not_ready_form"


def test_ready_player_must_discard_the_taken_card():
    state = take(make([WAITING, "H2"], field="Is", opened=(OPEN,), ready=(True,)), "Is")
    assert RULES.legal_actions(state, 0) == [Discard(card=c("Is"))]
    assert refused(state, 0, Discard(card=c("H1"))).detail == "must_discard_taken"


def test_ready_player_may_not_open():
    hand = "H1 H1' H1'' A2 A3 A4 D5"
    state = take(make([hand, "H2"], field="Is", opened=(OPEN,), ready=(True,)), "Is")
    assert refused(state, 0, Open(cards=cs("A2 A3 A4"))).detail == "ready_cannot_open"


def test_ready_player_may_goal_with_a_taken_card():
    state = take(make([WAITING, "H2"], field="D5''", opened=(OPEN,), ready=(True,)), "D5''")
    assert RULES.legal_actions(state, 0) == [Goal(), Discard(card=c("D5''"))]


def test_declaring_ready_twice_is_refused():
    state = take(make([WAITING, "H2"], field="Is", opened=(OPEN,), ready=(True,)), "Is")
    assert refused(state, 0, Discard(card=c("Is"), ready=True)).detail == "already_ready"


# The claim window -------------------------------------------------------------------------


def window_state(players: int = 3, *, stored_v1: bool = False, **kwargs: Any) -> State:
    """Seat 0 has discarded `D5''`; `hands` are seats 1.. (`stored_v1`: in a game stored by
    rules version 1)."""
    hands = kwargs.pop("hands", ["H2"] * (players - 1))
    state = make(["H4 H4' A6 A7 D1 D2 D5''", *hands], field="Is", **kwargs)
    if stored_v1:
        state = as_stored_by_version_1(state)
    return discard(take(state, "Is"), "D5''")


def test_window_asks_only_who_can_claim_with_the_configured_deadline():
    hands = ["H2", "D3 D4", WAITING]
    opened, ready = ((), (), (), OPEN), (False, False, False, True)
    state = window_state(4, hands=hands, opened=opened, ready=ready, claim_seconds=45)
    to_move = RULES.to_move(state)
    assert to_move.seats == {2, 3} and to_move.timeout == 45


def test_a_player_who_can_gain_with_the_discard_is_asked():
    state = window_state(3, hands=["D6 D7 H2", "H6"])
    assert RULES.to_move(state).seats == {1}


def test_a_ready_player_whose_goal_the_discard_completes_is_asked():
    state = window_state(3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1))
    assert RULES.to_move(state).seats == {1}


def test_a_ready_player_who_could_only_gain_is_not_asked():
    hands = ["D3 D4 H2", "D6 D7"]
    state = window_state(3, hands=hands, opened=((), OPEN), ready=(0, 1))
    assert RULES.to_move(state).seats == {2}


def test_an_asked_player_is_offered_pass_and_its_claims():
    state = window_state(3, hands=["D3 D4 H2", "H6 A1"])
    assert RULES.legal_actions(state, 1) == [Pass(), Gain(cards=cs("D3 D4"))]


def test_a_player_who_is_not_asked_has_nothing_to_answer_and_is_refused():
    state = window_state(3, hands=["D3 D4 H2", "H6 A1"])
    assert RULES.legal_actions(state, 2) == [] and RULES.legal_actions(state, 0) == []
    assert refused(state, 2, Pass()).reason is Reason.NOT_YOUR_TURN


def test_the_window_shows_nobody_who_is_asked():
    """Two tables alike but for the hidden hands (bob can Gain, or carol can): the public and
    the discarder see the same, before and after the answer."""
    bob_can = make(["H4 H4' A6 A7 D1 D2 D5''", "D3 D4 H2", "H6 A1"], field="Is")
    carol_can = make(["H4 H4' A6 A7 D1 D2 D5''", "H6 A1 H2", "D3 D4"], field="Is")
    steps = [act(take(s, "Is"), 0, Discard(card=c("D5''"))) for s in (bob_can, carol_can)]
    assert [RULES.to_move(s.state).seats for s in steps] == [{1}, {2}]
    assert [e for e in steps[0].events if e.public] == [e for e in steps[1].events if e.public]
    for seat in (None, 0):
        assert RULES.view(steps[0].state, seat) == RULES.view(steps[1].state, seat)
    passes = [act(s.state, asked, Pass()) for s, asked in zip(steps, (1, 2), strict=True)]
    assert [e for e in passes[0].events if e.public] == [e for e in passes[1].events if e.public]
    for seat in (None, 0):
        assert RULES.view(passes[0].state, seat) == RULES.view(passes[1].state, seat)


def test_an_answer_is_told_only_to_its_player_and_the_public_sees_nothing():
    state = window_state(3, hands=["D3 D4 H2", "D6 D7"])
    step = act(state, 1, Gain(cards=cs("D3 D4")))
    events = [(e.key, e.audience, e.cards) for e in step.events]
    assert events == [("rummy.answer", (1,), cs("D3 D4"))]
    assert RULES.view(step.state, None) == RULES.view(state, None)
    assert RULES.view(step.state, 1).my_answer is not None
    assert RULES.view(step.state, 2).my_answer is None


def test_window_stays_open_while_an_asked_player_has_not_answered():
    state = window_state(4, hands=["D3 D4", "H6", "D6 D7"])
    step = act(state, 3, Pass())
    assert step.state.phase == "window" and RULES.to_move(step.state).seats == {1}
    assert "rummy.window_closed" not in keys(step.events)


def test_window_closes_once_every_asked_player_answered_and_the_turn_passes_left():
    state = act(window_state(4, hands=["D3 D4", "H6", "D6 D7"]), 3, Pass()).state
    step = act(state, 1, Pass())
    assert step.state.phase == "take" and step.state.turn == 1
    assert step.state.rows[0] == cs("D5''")
    assert {"rummy.window_closed", "rummy.no_claim"} <= set(keys(step.events))


def test_window_closes_at_its_deadline_and_the_silent_pass():
    state = window_state(3, hands=["D3 D4 H2", "D6 D7"])
    state = act(state, 2, Gain(cards=cs("D6 D7"))).state
    assert RULES.timeout_action(state) == Close()
    step = act(state, SYSTEM, Close())
    assert step.state.opened[2] == (cs("D5'' D6 D7"),)
    closed = next(e for e in step.events if e.key == "rummy.window_closed")
    assert closed.params == {"deadline": True}


def test_close_is_only_the_clocks_and_only_while_a_window_is_open():
    state = window_state(3, hands=["D3 D4", "H6"])
    assert refused(state, 1, Close()).reason is Reason.NOT_YOUR_TURN
    taking = make([WAITING, "H2"])
    assert refused(taking, SYSTEM, Close()).reason is Reason.NOT_YOUR_TURN


def test_a_second_answer_is_refused():
    state = act(window_state(3, hands=["D3 D4", "D6 D7"]), 1, Pass()).state
    assert refused(state, 1, Pass()).reason is Reason.NOT_YOUR_TURN


def test_claiming_after_the_window_closed_is_refused():
    state = answer_all(window_state(3, hands=["D3 D4 H2", "H6"])).state
    assert refused(state, 2, Gain(cards=cs("D3 D4"))).reason is Reason.NOT_YOUR_TURN
    assert refused(state, 1, Gain(cards=cs("D3 D4"))).detail == "not_now"


def test_gain_opens_the_set_draws_two_and_the_turn_still_passes_to_the_discarders_left():
    state = window_state(4, hands=["H2", "D3 D4 H6", "H3"], deck="Ih Ip Ir Ir' Ip' Ih' A1*")
    step = act(state, 2, Gain(cards=cs("D3 D4")))
    after = step.state
    assert after.opened[2] == (cs("D3 D4 D5''"),)
    assert after.hands[2] == tuple(sorted(cs("H6 Ih Ip")))
    assert after.rows[0] == () and after.turn == 1 and after.phase == "take"
    gained = next(e for e in step.events if e.key == "rummy.gained")
    assert gained.params == {"seat": 2, "to_seat": 0} and gained.cards == cs("D3 D4 D5''")


def test_nearest_gain_after_the_discarder_wins():
    state = window_state(4, hands=["H2", "D3 D4", "D6 D7"])
    state = act(state, 3, Gain(cards=cs("D6 D7"))).state
    step = act(state, 2, Gain(cards=cs("D3 D4")))
    assert step.state.opened[2] and not step.state.opened[3]
    lost = [e for e in step.events if e.key == "rummy.claim_lost"]
    assert [(e.params, e.audience) for e in lost] == [({"seat": 3}, (3,))]


def test_a_goal_claim_beats_a_nearer_gain():
    state = window_state(
        3, hands=["D3 D4", WAITING], opened=((), (), OPEN), ready=(False, False, True)
    )
    state = act(state, 1, Gain(cards=cs("D3 D4"))).state
    step = act(state, 2, Goal())
    assert step.state.result is not None and step.state.result.seat == 2
    assert step.state.opened[1] == ()


def test_nearest_goal_claim_after_the_discarder_wins():
    waits_d5_by_run = "H2 H2' A5 A6 A7 D4 D6"
    hands = ["H4 H4' A1 A2 D1 D2 D3", WAITING, "A3 A3' A3'' D5'' Ip Ip' H6", waits_d5_by_run]
    state = make(hands, turn=2, field="Is", opened=((), OPEN, (), OPEN), ready=(0, 1, 0, 1))
    state = discard(take(state, "Is"), "D5''")
    step = act(act(state, 1, Goal()).state, 3, Goal())
    assert step.state.result is not None and step.state.result.seat == 3
    assert step.state.result.from_seat == 2


def test_a_ready_player_asked_for_a_goal_is_not_offered_a_gain_and_is_refused_one():
    """WAITING holds D5 D5': without Ready it could gain the D5''."""
    state = window_state(3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1))
    assert RULES.legal_actions(state, 1) == [Pass(), Goal()]
    assert refused(state, 1, Gain(cards=cs("D5 D5'"))).detail == "ready_cannot_gain"


def test_a_gain_without_the_cards_is_refused():
    state = window_state(3, hands=["D3 D4 H2", "H6"])
    assert refused(state, 1, Gain(cards=cs("D4 D6"))).detail == "not_in_hand"


def test_a_gain_that_makes_no_big_set_is_refused():
    state = window_state(3, hands=["D3 D4 H2", "H6"])
    assert refused(state, 1, Gain(cards=cs("D3 H2"))).detail == "not_a_big_set"


def test_a_goal_on_a_discard_needs_ready():
    state = window_state(3, hands=[WAITING, "H6"], opened=((), OPEN))
    assert Goal() not in RULES.legal_actions(state, 1)
    assert refused(state, 1, Goal()).detail == "not_ready"


def test_a_ready_player_goals_on_a_discard_that_completes_the_goal():
    state = window_state(3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1))
    assert RULES.legal_actions(state, 1) == [Pass(), Goal()]
    step = act(state, 1, Goal())
    result = step.state.result
    assert result is not None and result.seat == 1 and result.from_seat == 0
    assert result.card == c("D5''") and step.state.rows[0] == ()


# Games stored by rules version 1 ------------------------------------------------------------


def test_new_games_ask_only_the_players_who_can_claim():
    assert RULES.make_config(3, {}).claim_asks == "eligible"


def test_a_config_stored_by_rules_version_1_asks_every_other_player():
    assert as_stored_by_version_1(make([WAITING, "H2"])).config.claim_asks == "everyone"


def test_a_version_1_window_asks_every_other_player_even_without_a_claim():
    state = window_state(3, stored_v1=True)
    assert RULES.to_move(state).seats == {1, 2} and RULES.legal_actions(state, 1) == [Pass()]


def test_a_version_1_window_stored_without_its_asked_seats_waits_for_every_other_player():
    stored = window_state(3, stored_v1=True).model_dump(mode="json")
    del stored["window"]["asked"]
    state = State.model_validate(stored)
    assert state.window is not None and state.window.asked == (1, 2)
    assert RULES.to_move(state).seats == {1, 2}


def test_advanced_version_1_still_refuses_a_goal_its_own_row_blocks():
    state = window_state(
        3,
        stored_v1=True,
        hands=[WAITING, "H6"],
        opened=((), OPEN),
        ready=(0, 1),
        rows=("", "D5*"),
        advanced=True,
    )
    assert RULES.legal_actions(state, 1) == [Pass()]
    assert refused(state, 1, Goal()).detail == "own_discard_completes"


def version_1_export(seed: int) -> dict[str, Any]:
    """A whole 2-player short game played by rules version 1 (AI seats), as `/replay export`
    writes it: every discard answered by the other seat, claim or not."""
    stored = RULES.make_config(2, {"match_games": 1}).model_dump(mode="json")
    del stored["claim_asks"]
    config = Config.model_validate(stored)
    rng = random.Random(seed)
    step = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, log = step.state, list(step.logged)
    while not RULES.is_over(state):
        seat = min(RULES.to_move(state).seats)
        action = AI.normal(RULES.view(state, seat), rng)
        step = advance(RULES, state, len(log), seat, action, seed)
        state, log = step.state, [*log, *step.logged]
    record = SessionRecord(
        id="0123abcd",
        game_id="rummy",
        rules_version=1,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale="en",
        options={},
        seed=seed,
        status=Status.FINISHED,
        version=len(log),
        seats=(Seat(user_id=3, name="alice"), Seat(user_id=None, name="")),
        config=stored,
    )
    return json.loads(json.dumps(export(record, log, RULES.outcome(state))))


def test_a_game_exported_by_rules_version_1_replays_to_its_outcome():
    data = version_1_export(seed=4)
    outcome = check(data)
    assert outcome is not None and outcome.model_dump(mode="json") == data["outcome"]


def test_a_version_1_log_does_not_replay_as_a_version_2_game():
    """What keeps old games replayable is the stored config: read by version 2's rules, their
    passes without a claim are refused."""
    data = version_1_export(seed=4)
    current = RULES.make_config(2, {"match_games": 1}).model_dump(mode="json")
    with pytest.raises(ReplayError, match="refused"):
        check({**data, "rules_version": 2, "config": current})


# Deck-out -----------------------------------------------------------------------------------


def test_deck_out_when_a_new_field_cannot_be_turned_up_ends_without_score():
    state = take(make([WAITING, "H2"], field="Is", deck="Ih Ip", scores=(3, 1)), "Is")
    step = act(state, 0, Discard(card=c("Is")))
    assert step.state.phase == "ended" and step.state.scores == (3, 1)
    assert step.state.result is not None and step.state.result.kind == "deck_out"
    assert "rummy.deck_out" in keys(step.events)


def test_exactly_emptying_the_deck_for_a_field_goes_on():
    state = take(make([WAITING, "H2"], field="Is", deck="Ih Ip Ir"), "Is")
    state = answer_all(discard(state, "Is")).state
    assert state.phase == "take" and state.deck == () and len(state.field) == 3


def test_deck_out_when_an_open_cannot_draw_two():
    state = take(make(["H1 H2 H3 A5 A6 D1 D2", "H4"], field="Is", deck="Ih"), "Is")
    after = act(state, 0, Open(cards=cs("H1 H2 H3"))).state
    assert after.phase == "ended" and after.result is not None
    assert after.result.kind == "deck_out" and after.opened[0] == (cs("H1 H2 H3"),)


def test_exactly_emptying_the_deck_for_an_open_goes_on():
    state = take(make(["H1 H2 H3 A5 A6 D1 D2", "H4"], field="Is Ir", deck="Ih Ip"), "Is")
    after = act(state, 0, Open(cards=cs("H1 H2 H3"))).state
    assert after.phase == "take" and after.deck == () and after.turn == 1


def test_deck_out_when_a_gain_cannot_draw_two():
    state = window_state(3, hands=["D3 D4 H2", "H6"], deck="Ih")
    state = act(state, 1, Gain(cards=cs("D3 D4"))).state
    assert state.phase == "ended" and state.result is not None
    assert state.result.kind == "deck_out"


# Basic scoring ------------------------------------------------------------------------------


def goal_on_take(hand: str, opened: Sequence[str], deck: str, card: str = "D5''", **kw: Any):
    state = take(make([hand, "H2"], field=card, opened=(opened,), deck=deck, **kw), card)
    goal = act(state, 0, Goal())
    bonus = settle(goal.state)
    return Step(state=bonus.state, events=goal.events + bonus.events)


def test_goal_scores_one_point_per_open_set():
    step = goal_on_take(WAITING, ("H7 H7' H7''", "Ir Ir' Ir''"), deck="A6")
    result = step.state.result
    assert result is not None and result.set_points == 2 and result.total == 2
    assert step.state.scores == (2, 0)


def test_goal_scores_one_point_per_red_card_in_the_hand_and_the_open_sets():
    step = goal_on_take("H1* H1 A2 A3 A4 D5 D5'", ("H7* H7' H7''",), deck="A6", card="D5*")
    result = step.state.result
    assert result is not None
    assert sorted(r.card for r in result.red) == sorted(cs("H1* H7* D5*"))
    assert all(r.condition == "red" and r.points == 1 for r in result.red)
    assert result.total == 1 + 3


def test_bonus_check_scores_each_matching_card_and_repeats_while_it_scores():
    deck = "D5* A3* Ir Is"
    step = goal_on_take(WAITING, OPEN, deck=deck)
    result = step.state.result
    assert result is not None
    assert [(b.card, b.points) for b in result.bonus] == [
        (c("D5*"), 3),
        (c("A3*"), 1),
        (c("Ir"), 0),
    ]
    assert result.total == 1 + 4 and step.state.deck == cs("Is")
    assert keys(step.events).count("rummy.bonus") == 3


def test_bonus_check_counts_the_open_sets_too():
    step = goal_on_take(WAITING, OPEN, deck="H7* A6")
    result = step.state.result
    assert result is not None and [b.points for b in result.bonus] == [3, 0]


def test_bonus_checks_are_logged_chance_actions_naming_the_card():
    state = take(make([WAITING, "H2"], field="D5''", opened=(OPEN,), deck="D5* Is"), "D5''")
    state = act(state, 0, Goal()).state
    assert RULES.to_move(state).chance
    assert RULES.chance_action(state, random.Random(0)) == Flip(card=c("D5*"))
    assert refused(state, CHANCE, Flip(card=c("Is"))).detail == "bad_chance"


def test_no_bonus_check_when_the_deck_is_empty():
    step = goal_on_take(WAITING, OPEN, deck="")
    result = step.state.result
    assert result is not None and result.bonus == () and result.total == 1
    assert "rummy.bonus_empty" in keys(step.events)


def test_bonus_checks_stop_when_the_deck_runs_out():
    step = goal_on_take(WAITING, OPEN, deck="D5*")
    result = step.state.result
    assert result is not None and [b.points for b in result.bonus] == [3]
    assert step.state.phase == "ended"


def test_the_winning_hand_and_its_score_are_shown_to_everyone():
    step = goal_on_take(WAITING, OPEN, deck="A6")
    public = RULES.view(step.state, None)
    assert public.result is not None
    assert public.result.hand == tuple(sorted(cs(WAITING + " D5''")))
    assert len(public.result.split) == 3
    goal = next(e for e in step.events if e.key == "rummy.goal")
    assert goal.public and set(goal.cards) == set(public.result.hand)
    assert not set(goal.cards) & RULES.secret_cards(step.state)


def test_basic_goal_on_a_discard_costs_the_discarder_nothing():
    state = window_state(3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1), scores=(5,))
    state = settle(act(state, 1, Goal()).state).state
    assert state.scores[0] == 5 and state.result is not None and state.result.loss == 0


# Advanced rules -------------------------------------------------------------------------------


def advanced_goal(hand: str, opened: Sequence[str], card: str) -> Any:
    step = goal_on_take(hand, opened, deck="", card=card, advanced=True)
    assert step.state.result is not None
    return step.state.result


def test_advanced_red_1_or_7_scores_2_when_every_set_uses_a_1_a_7_or_an_item():
    result = advanced_goal("A7* A7 D1 D2 Is Is' Is''", ("H1 H2 H3",), "D3")
    assert [(r.condition, r.points) for r in result.red] == [("ends", 2)]
    result = advanced_goal("A7* A7 D4 D5 Is Is' Is''", ("H1 H2 H3",), "D6")
    assert [(r.condition, r.points) for r in result.red] == [("ends", 0)]


def test_advanced_red_2_or_6_scores_2_when_no_set_uses_a_1_a_7_or_an_item():
    result = advanced_goal("A6* A6 D3 D4 D5 H5 H5'", ("H2 H3 H4",), "H5''")
    assert [(r.condition, r.points) for r in result.red] == [("no_ends", 2)]
    result = advanced_goal("A6* A6 D3 D4 D5 H5 H5'", ("H1 H2 H3",), "H5''")
    assert [(r.condition, r.points) for r in result.red] == [("no_ends", 0)]


def test_advanced_red_3_or_5_scores_2_with_three_open_sets():
    three = ("H1 H2 H3", "Ir Ir' Ir''", "Ip Ip' Ip''")
    result = advanced_goal("A3* A3 D3 D4 D5 H6 H6'", three, "H6''")
    assert [(r.condition, r.points) for r in result.red] == [("three_open", 2)]
    result = advanced_goal("A3* A3 D3 D4 D5 H6 H6'", three[:2], "H6''")
    assert [(r.condition, r.points) for r in result.red] == [("three_open", 0)]


def test_advanced_red_4_scores_5_when_all_sets_are_one_attribute_plus_items():
    result = advanced_goal("H4* H4 H5 H6 H7 Is Is'", ("H1 H2 H3",), "Is''")
    assert [(r.condition, r.points) for r in result.red] == [("one_attribute", 5)]
    result = advanced_goal("H4* H4 H5 H6 H7 Is Is'", ("A1 A2 A3",), "Is''")
    assert [(r.condition, r.points) for r in result.red] == [("one_attribute", 0)]


def test_advanced_red_item_scores_1_without_condition():
    result = advanced_goal("Is* Is D3 D4 D5 H5 H5'", ("A4 A5 A6",), "H5''")
    assert [(r.condition, r.points) for r in result.red] == [("item", 1)]


def test_advanced_each_red_card_scores_its_condition_separately():
    result = advanced_goal("A6* A6 D2* D3 D4 H5 H5'", ("H2 H3 H4",), "H5''")
    assert sorted((r.condition, r.points) for r in result.red) == [("no_ends", 2)] * 2
    assert result.total == 1 + 4


def test_advanced_score_shows_the_hand_split_as_its_goal_form():
    result = advanced_goal("H1 H1' H2 H2' H3 H3' H4", ("Ir Ir' Ir''",), "H4'")
    assert all(set_kind(s) is not None for s in result.split)
    assert sorted(c for s in result.split for c in s) == sorted(result.hand)


def item_opening(advanced: bool) -> State:
    opened = ("Is Is' Is''", "Ih Ih' Ih''")
    hands = ["Ip Ip' Ip'' A5 A6 D1 D2", "H4"]
    state = make(hands, field="Ir A7*", deck="A1 A2 A3", opened=(opened,), advanced=advanced)
    return act(take(state, "Ir"), 0, Open(cards=cs("Ip Ip' Ip''"))).state


def test_advanced_item_victory_at_three_open_item_only_sets():
    state = item_opening(advanced=True)
    outcome = RULES.outcome(state)
    assert state.phase == "over" and outcome is not None
    assert outcome.winners == (0,) and outcome.result == "item_victory"


def test_advanced_item_victory_by_a_gain():
    opened = ("Is Is' Is''", "Ih Ih' Ih''")
    hands = ["H4 H4' A6 A7 D1 D2 Ip''", "Ip Ip' H2", "H6"]
    state = make(hands, field="Ir", opened=((), opened), advanced=True)
    state = discard(take(state, "Ir"), "Ip''")
    state = act(state, 1, Gain(cards=cs("Ip Ip'"))).state
    assert state.phase == "over" and RULES.outcome(state).winners == (1,)  # type: ignore[union-attr]


def test_item_victory_is_only_in_the_advanced_rules():
    state = item_opening(advanced=False)
    assert state.phase == "take" and RULES.outcome(state) is None


def test_advanced_a_ready_player_whose_own_row_completes_the_goal_is_not_asked():
    """No goal on a discard while the own row holds a completing card: nothing to claim."""
    state = window_state(
        3,
        hands=[WAITING, "D6 D7"],
        opened=((), OPEN),
        ready=(0, 1),
        rows=("", "D5*"),
        advanced=True,
    )
    assert RULES.to_move(state).seats == {2} and RULES.legal_actions(state, 1) == []


def test_advanced_a_row_without_a_completing_card_does_not_block():
    """A card others claimed from the row has left it (see the Gain tests): only what the
    row still holds counts."""
    state = window_state(
        3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1), rows=("", "Ih"), advanced=True
    )
    assert Goal() in RULES.legal_actions(state, 1)


def test_basic_rules_let_a_ready_player_goal_despite_own_row():
    state = window_state(
        3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1), rows=("", "D5*")
    )
    assert Goal() in RULES.legal_actions(state, 1)


def test_advanced_goal_on_a_discard_costs_the_discarder_the_points_scored():
    state = window_state(
        3, hands=[WAITING, "H6"], opened=((), OPEN), ready=(0, 1), scores=(5, 2), advanced=True
    )
    state = settle(act(state, 1, Goal()).state).state
    result = state.result
    assert result is not None and result.total == 1 and result.loss == 1
    assert state.scores == (4, 3, 0)


def test_advanced_discarder_loss_stops_at_zero():
    state = window_state(
        3,
        hands=["Is* Is A2 A3 A4 D5 D5'", "H6"],
        opened=((), OPEN),
        ready=(0, 1),
        scores=(1,),
        advanced=True,
    )
    state = settle(act(state, 1, Goal()).state).state
    assert state.result is not None and state.result.total >= 2
    assert state.result.loss == 1 and state.scores[0] == 0


# The match --------------------------------------------------------------------------------


def test_match_ends_after_the_set_number_of_short_games_deck_outs_included():
    state = take(make([WAITING, "H2"], field="Is", deck="", game_no=6, scores=(0, 2)), "Is")
    state = answer_all(discard(state, "Is")).state
    outcome = RULES.outcome(state)
    assert state.phase == "over" and outcome is not None and outcome.winners == (1,)


def test_match_ends_when_someone_reaches_the_target():
    step = goal_on_take(WAITING, OPEN, deck="", scores=(23, 0))
    outcome = RULES.outcome(step.state)
    assert step.state.phase == "over" and outcome is not None
    assert outcome.winners == (0,) and outcome.scores == (24, 0)
    assert "rummy.match_over" in keys(step.events)


def test_match_goes_on_below_the_target_and_the_game_count():
    step = goal_on_take(WAITING, OPEN, deck="", scores=(10, 0))
    assert step.state.phase == "ended" and RULES.outcome(step.state) is None


def test_tied_top_scores_share_the_win():
    state = take(
        make([WAITING, "H2", "H3"], field="Is", deck="", game_no=6, scores=(4, 4, 1)), "Is"
    )
    state = answer_all(discard(state, "Is")).state
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1)


# Refusals -----------------------------------------------------------------------------------


def test_another_games_action_is_refused():
    state = make([WAITING, "H2"])
    assert refused(state, 0, UseTime()).detail == "unknown_action"


def test_a_malformed_action_is_refused_with_a_game_error():
    state = make([WAITING, "H2"])
    bad = Take.model_construct(card="Is")  # type: ignore[arg-type]
    assert refused(state, 0, bad).detail == "malformed_action"
    short = Gain.model_construct(cards=(1,))
    assert refused(state, 0, short).detail == "malformed_action"


def test_chance_actions_are_refused_from_seats():
    state = make([WAITING, "H2"], phase="deal")
    deal = RULES.chance_action(state, random.Random(1))
    assert isinstance(deal, Deal)
    assert refused(state, 0, deal).reason is Reason.NOT_YOUR_TURN
    assert refused(state, 0, PickFirst(seat=0)).reason is Reason.NOT_YOUR_TURN


def test_a_bad_deal_is_refused():
    state = make([WAITING, "H2"], phase="deal")
    assert refused(state, CHANCE, Deal(order=tuple(range(99)))).detail == "bad_chance"


def test_moves_out_of_turn_are_refused():
    state = make([WAITING, "H2"], field="Is")
    assert refused(state, 1, Take(card=c("Is"))).reason is Reason.NOT_YOUR_TURN
    assert refused(state, 7, Take(card=c("Is"))).reason is Reason.NOT_YOUR_TURN


def test_nothing_is_accepted_once_the_match_is_over():
    state = item_opening(advanced=True)
    assert refused(state, 1, Take(card=c("Ir"))).reason is Reason.GAME_OVER


# Hidden information ----------------------------------------------------------------------------


def test_secret_cards_are_the_deck_and_the_hand_cards_nobody_saw():
    state = take(make([WAITING, "H2"], field="Is", deck="Ih Ip"), "Is")
    assert RULES.secret_cards(state) == frozenset(cs(WAITING + " H2 Ih Ip"))


def test_public_view_shows_no_hand_and_hand_sizes_only():
    state = take(make([WAITING, "H2"], field="Is"), "Is")
    public = RULES.view(state, None)
    assert public.hand is None and public.legal == () and public.hand_sizes == (8, 1)
    assert public.known == (cs("Is"), ())
    own = RULES.view(state, 0)
    assert own.hand == tuple(sorted(cs(WAITING + " Is"))) and own.legal


def test_resampling_keeps_the_cards_seen_going_into_a_hand():
    state = take(make([WAITING, "H2 H3"], field="Is Ih", deck="Ip Ip' Ir Ir'"), "Is")
    for seed in range(5):
        other = RULES.resample_hidden(state, 1, random.Random(seed))
        assert c("Is") in other.hands[0] and other.hands[1] == state.hands[1]


def playout_states(players: int, seed: int, advanced: bool) -> list[State]:
    config = RULES.make_config(players, {"advanced": advanced})
    result = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, version, rng, states = result.state, len(result.logged), random.Random(seed), []
    while not RULES.is_over(state) and len(states) < 400:
        states.append(state)
        seat = min(RULES.to_move(state).seats)
        action = random_policy(RULES.view(state, seat), rng)
        result = advance(RULES, state, version, seat, action, seed)
        state, version = result.state, version + len(result.logged)
    return states


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, False)])
def test_a_state_sampled_from_a_view_shows_that_same_view(players, advanced):
    rng = random.Random(players)
    for state in playout_states(players, 11, advanced)[::7]:
        for seat in (None, *range(players)):
            view = RULES.view(state, seat)
            sampled = RULES.sample_state(view, rng)
            assert RULES.view(sampled, seat) == view
            assert len(RULES.secret_cards(sampled)) == len(RULES.secret_cards(state))
            all_cards = [
                *sampled.deck,
                *sampled.field,
                *sampled.out,
                *(x for h in sampled.hands for x in h),
                *(x for r in sampled.rows for x in r),
                *(x for sets in sampled.opened for s in sets for x in s),
            ]
            assert sorted(all_cards) == list(CARDS)


def test_every_event_key_is_the_games_and_private_draws_have_a_public_twin():
    states = playout_states(3, 5, True)
    rng = random.Random(3)
    seen: set[str] = set()
    for state in states:
        seat = min(RULES.to_move(state).seats)
        step = RULES.apply(state, seat, random_policy(RULES.view(state, seat), rng))
        events = list(step.events)
        seen |= {e.key for e in events}
        assert all(e.key.startswith("rummy.") for e in events)
        for private in (e for e in events if e.key == "rummy.drew_cards"):
            twins = [e for e in events if e.key == "rummy.drew" and e.public]
            assert [e.params["seat"] for e in twins] == [private.params["seat"]]
            assert not twins[0].cards
    assert {"rummy.took", "rummy.discarded", "rummy.window", "rummy.answer"} <= seen
