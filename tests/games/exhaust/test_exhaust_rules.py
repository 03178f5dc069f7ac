"""Exhaust (seed 001 + RULINGS.md), rule by rule: one behaviour per test.

States are built directly so each test shows exactly the situation it checks. Cards are
written like `r7` (red 7), `b12`, `y3`, `g1`; `x0`..`x3` are the four copy cards. With 1–2
players the table is: 0 Single, 1 Pair, 2 Three, 3 Four, 4 Straight, 5 Flush, 6 Any.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.contract import CHANCE, Event, Step
from games.engine.errors import GameError, Reason
from games.engine.step import LoggedAction, advance, replay
from games.exhaust import AI, RULES
from games.exhaust.cards import COPY_CARDS, DECK, colour, is_copy, number
from games.exhaust.combos import ComboKind, canonical, check_play, iter_plays, playable, table
from games.exhaust.models import (
    Deal,
    FlipDepletion,
    NextGame,
    PickFirst,
    PlayCards,
    Played,
    State,
    UseTime,
)
from games.exhaust.plays import check_selection, legal_plays, playable_cards
from tests.games.exhaust.exhaust_cards import ANY, FLUSH, FOUR, PAIR, SINGLE, STRAIGHT, THREE, c, cs


def played(specs: str, by: int = 1) -> Played:
    cards = cs(specs)
    return Played(by=by, cards=cards, high=max(number(x) for x in cards if not is_copy(x)))


def make(
    players: int = 2,
    hands: tuple[str, ...] = (),
    *,
    turn: int = 0,
    stacks: dict[int, tuple[Played, ...]] | None = None,
    refill: str = "",
    time_cards: tuple[int, ...] | None = None,
    time_pile: int = 16,
    long_game: bool = False,
    depletion: tuple[int, ...] | None = None,
    flipped: tuple[int, ...] | None = None,
    losers: tuple[int, ...] = (),
) -> State:
    """A state in play with exactly these hands (missing seats have empty hands)."""
    config = RULES.make_config(players, {"long_game": long_game, "first_player": 0})
    zeros = (0,) * players
    all_hands = tuple(cs(h) if h else () for h in hands) + ((),) * (players - len(hands))
    piles = [()] * len(table(players))
    for index, plays in (stacks or {}).items():
        piles[index] = plays
    return State(
        config=config,
        phase="play",
        game_no=1,
        turn=turn,
        hands=all_hands,
        refill=cs(refill) if refill else (),
        time_pile=time_pile,
        time_cards=time_cards or zeros,
        stacks=tuple(piles),
        depletion=depletion or zeros,
        flipped=flipped or zeros,
        losers=losers,
    )


def play(state: State, seat: int, combo: int, specs: str, copies: str = "") -> Step:
    """Seat plays `specs` to `combo`; `copies` like `x0=r7 x1=r7`."""
    pairs = tuple((c(pair.split("=")[0]), c(pair.split("=")[1])) for pair in copies.split() if pair)
    return RULES.apply(state, seat, PlayCards(combo=combo, cards=cs(specs), copies=pairs))


def refused(state: State, seat: int, combo: int, specs: str, copies: str = "") -> str:
    with pytest.raises(GameError) as info:
        play(state, seat, combo, specs, copies)
    assert info.value.reason is Reason.ILLEGAL_MOVE
    return info.value.detail


def keys(step: Step) -> list[str]:
    return [e.key for e in step.events]


def start(players: int, seed: int = 0, **options: object) -> State:
    config = RULES.make_config(players, {"first_player": None, **options})
    return advance(RULES, RULES.setup(config), 0, 0, None, seed).state


# Cards ------------------------------------------------------------------------------------


def test_deck_has_sixty_number_cards_and_four_copies():
    numbers = [x for x in DECK if not is_copy(x)]
    assert len(DECK) == 64 and len(numbers) == 60 and len(COPY_CARDS) == 4
    assert {(colour(x), number(x)) for x in numbers} == {
        (k, n) for k in range(4) for n in range(1, 16)
    }


def test_copy_card_has_no_colour_or_number_of_its_own():
    with pytest.raises(ValueError):
        colour(COPY_CARDS[0])
    with pytest.raises(ValueError):
        number(COPY_CARDS[0])


# The table --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2])
def test_one_or_two_players_use_one_single_of_any_colour(players):
    singles = [x for x in table(players) if x.kind is ComboKind.SINGLE]
    assert [x.colours for x in singles] == [(0, 1, 2, 3)]


def test_three_players_use_a_red_or_yellow_and_a_blue_or_green_single():
    singles = [x for x in table(3) if x.kind is ComboKind.SINGLE]
    assert [x.colours for x in singles] == [(0, 2), (1, 3)]


@pytest.mark.parametrize("players", [4, 5])
def test_four_or_five_players_use_one_single_per_colour(players):
    singles = [x for x in table(players) if x.kind is ComboKind.SINGLE]
    assert [x.colours for x in singles] == [(0,), (1,), (2,), (3,)]


def test_every_table_has_the_six_other_combos_once():
    for players in range(1, 6):
        rest = [x.kind for x in table(players) if x.kind is not ComboKind.SINGLE]
        assert rest == ["pair", "three", "four", "straight", "flush", "any"]


# Combos ------------------------------------------------------------------------------------


def test_single_takes_one_card():
    state = play(make(2, ("r7 b7 g1",)), 0, SINGLE, "r7").state
    assert state.stacks[SINGLE][-1].cards == cs("r7")


def test_single_refuses_two_cards():
    assert refused(make(2, ("r7 b7",)), 0, SINGLE, "r7 b7") == "wrong_count"


def test_single_of_three_players_takes_its_colours_only():
    state = make(3, ("r7 y8 b9",))
    assert play(state, 0, 0, "y8").state.stacks[0][-1].cards == cs("y8")
    assert refused(state, 0, 0, "b9") == "wrong_colour"
    assert play(state, 0, 1, "b9").state.stacks[1][-1].cards == cs("b9")


def test_single_of_four_players_takes_its_colour_only():
    state = make(4, ("r7 b7",))
    assert refused(state, 0, 0, "b7") == "wrong_colour"
    assert play(state, 0, 1, "b7").state.stacks[1][-1].cards == cs("b7")


def test_pair_takes_two_cards_of_one_number():
    state = make(2, ("r7 b7 g8",))
    assert play(state, 0, PAIR, "r7 b7").state.stacks[PAIR][-1].high == 7
    assert refused(state, 0, PAIR, "r7 g8") == "numbers_differ"
    assert refused(state, 0, PAIR, "r7") == "wrong_count"


def test_three_takes_three_cards_of_one_number():
    state = make(2, ("r7 b7 y7 g8",))
    assert play(state, 0, THREE, "r7 b7 y7").state.stacks[THREE][-1].high == 7
    assert refused(state, 0, THREE, "r7 b7 g8") == "numbers_differ"
    assert refused(state, 0, THREE, "r7 b7") == "wrong_count"


def test_four_takes_four_cards_of_one_number():
    state = make(2, ("r7 b7 y7 g7 g8",))
    assert play(state, 0, FOUR, "r7 b7 y7 g7").state.stacks[FOUR][-1].high == 7
    assert refused(state, 0, FOUR, "r7 b7 y7 g8") == "numbers_differ"


def test_straight_takes_consecutive_numbers_of_any_colours():
    state = make(2, ("r3 b4 g5 y7",))
    assert play(state, 0, STRAIGHT, "r3 b4 g5").state.stacks[STRAIGHT][-1].cards == cs("r3 b4 g5")
    assert refused(state, 0, STRAIGHT, "r3 b4 y7") == "not_consecutive"


def test_straight_does_not_wrap_from_fifteen_to_one():
    assert refused(make(2, ("r14 b15 g1",)), 0, STRAIGHT, "r14 b15 g1") == "not_consecutive"


def test_flush_takes_cards_of_one_colour():
    state = make(2, ("r1 r9 r15 b2",))
    assert play(state, 0, FLUSH, "r1 r9 r15").state.stacks[FLUSH][-1].cards == cs("r1 r9 r15")
    assert refused(state, 0, FLUSH, "r1 r9 b2") == "colours_differ"


def test_any_takes_any_three_cards():
    state = play(make(2, ("r1 b9 g15",)), 0, ANY, "r1 b9 g15").state
    assert state.stacks[ANY][-1].cards == cs("r1 b9 g15")


def test_any_takes_cards_that_would_fit_another_combo():
    state = play(make(2, ("r7 b7 y7",)), 0, ANY, "r7 b7 y7").state
    assert state.stacks[ANY][-1].cards == cs("r7 b7 y7")


# Number rule and count rule -----------------------------------------------------------------


def test_number_rule_allows_any_number_on_an_empty_combo():
    assert play(make(2, ("r1 b1",)), 0, PAIR, "r1 b1").state.stacks[PAIR][-1].high == 1


def test_number_rule_needs_a_higher_number_than_the_top():
    state = make(2, ("r7 b7 r8 b8",), stacks={PAIR: (played("y7 g7"),)})
    assert refused(state, 0, PAIR, "r7 b7") == "number_too_low"
    assert play(state, 0, PAIR, "r8 b8").state.stacks[PAIR][-1].high == 8


def test_number_rule_reports_the_lowest_allowed_number():
    state = make(2, ("r3",), stacks={SINGLE: (played("b9"),)})
    with pytest.raises(GameError) as info:
        play(state, 0, SINGLE, "r3")
    assert info.value.params == {"need": 10}


def test_count_rule_first_play_needs_three_cards():
    assert refused(make(2, ("r1 b5",)), 0, ANY, "r1 b5") == "too_few_cards"


def test_count_rule_next_play_needs_more_cards_than_the_previous_play():
    state = make(2, ("r1 r2 r3 r4 r5",), stacks={FLUSH: (played("b1 b2 b3 b4"),)})
    assert refused(state, 0, FLUSH, "r1 r2 r3 r4") == "too_few_cards"
    assert len(play(state, 0, FLUSH, "r1 r2 r3 r4 r5").state.stacks[FLUSH][-1].cards) == 5


def test_count_rule_counts_only_the_previous_play_on_the_same_combo():
    state = make(2, ("r1 r2 r3",), stacks={STRAIGHT: (played("b1 b2 b3 b4 b5"),)})
    assert len(play(state, 0, FLUSH, "r1 r2 r3").state.stacks[FLUSH][-1].cards) == 3


def test_numbers_may_go_below_the_top_of_another_combo():
    state = make(2, ("r2 b2",), stacks={SINGLE: (played("g15"),)})
    assert play(state, 0, PAIR, "r2 b2").state.stacks[PAIR][-1].high == 2


# Copy cards ----------------------------------------------------------------------------------


def test_copy_card_cannot_be_played_alone():
    assert refused(make(2, ("x0 x1 x2 r1",)), 0, ANY, "x0 x1 x2") == "copy_alone"


def test_copy_card_duplicates_a_card_of_the_same_play():
    state = play(make(2, ("r7 x0",)), 0, PAIR, "r7 x0", "x0=r7").state
    assert state.stacks[PAIR][-1].copies == ((c("x0"), c("r7")),)


def test_copy_card_must_copy_a_card_of_the_same_play():
    assert refused(make(2, ("r7 b7 x0",)), 0, PAIR, "r7 x0", "x0=b7") == "bad_copy_target"


def test_copy_card_needs_a_target():
    assert refused(make(2, ("r7 x0",)), 0, PAIR, "r7 x0") == "copy_target_missing"


def test_several_copy_cards_in_one_play():
    state = play(make(2, ("r5 x0 x1",)), 0, THREE, "r5 x0 x1", "x0=r5 x1=r5").state
    assert state.stacks[THREE][-1].high == 5


def test_copy_counts_as_the_number_of_its_card_for_the_number_rule():
    state = make(2, ("r9 x0",), stacks={PAIR: (played("b8 g8"),)})
    assert play(state, 0, PAIR, "r9 x0", "x0=r9").state.stacks[PAIR][-1].high == 9


def test_copy_counts_as_the_colour_of_its_card_in_a_flush():
    state = make(2, ("r1 r5 x0 b9",))
    assert play(state, 0, FLUSH, "r1 r5 x0", "x0=r5").state.stacks[FLUSH][-1].high == 5


def test_copy_cannot_complete_a_straight_since_it_duplicates_a_number():
    assert refused(make(2, ("r1 r2 x0",)), 0, STRAIGHT, "r1 r2 x0", "x0=r2") == "not_consecutive"


def test_the_seeds_copy_example_makes_a_three_of_sevens():
    state = make(2, ("b7 r7 x0",))
    assert play(state, 0, THREE, "b7 r7 x0", "x0=b7").state.stacks[THREE][-1].high == 7
    assert play(state, 0, THREE, "b7 r7 x0", "x0=r7").state.stacks[THREE][-1].high == 7


# Playing in general ---------------------------------------------------------------------------


def test_played_cards_leave_the_hand():
    state = play(make(2, ("r7 b7 g1",)), 0, PAIR, "r7 b7").state
    assert state.hands[0] == cs("g1")


def test_cards_not_in_hand_are_refused():
    assert refused(make(2, ("r7", "b7")), 0, SINGLE, "b7") == "not_in_hand"


def test_unknown_combo_is_refused():
    assert refused(make(2, ("r7",)), 0, 7, "r7") == "bad_combo"


def test_playing_out_of_turn_is_refused():
    state = make(2, ("r1", "b2"), turn=0)
    with pytest.raises(GameError) as info:
        play(state, 1, SINGLE, "b2")
    assert info.value.reason is Reason.NOT_YOUR_TURN


def test_turn_passes_to_the_left():
    state = make(3, ("r1 r2", "b2 b3", "g3 g4"), turn=2)
    assert play(state, 2, 1, "g3").state.turn == 0
    assert play(make(3, ("r1 r2", "b2 b3", "g3"), turn=0), 0, 0, "r1").state.turn == 1


def test_played_event_is_public_and_shows_the_cards():
    step = play(make(2, ("r7 b7 g1", "g2")), 0, PAIR, "r7 b7")
    event = next(e for e in step.events if e.key == "exhaust.played")
    assert event.public and event.cards == cs("r7 b7")
    assert event.params == {"combo": PAIR, "kind": "pair", "seat": 0}


# Rewards -----------------------------------------------------------------------------------


def test_single_gives_no_reward():
    step = play(make(2, ("r7 g1", "g2"), refill="b1"), 0, SINGLE, "r7")
    assert step.state.time_cards == (0, 0) and step.state.refill == cs("b1")
    assert not [k for k in keys(step) if "reward" in k]


def test_pair_reward_draws_the_top_spell_card_of_the_refill_pile():
    step = play(make(2, ("r7 b7 g1", "g2"), refill="y3 y4"), 0, PAIR, "r7 b7")
    assert step.state.hands[0] == tuple(sorted(cs("g1 y3")))
    assert step.state.refill == cs("y4")


def test_pair_reward_card_is_shown_only_to_its_owner():
    step = play(make(2, ("r7 b7 g1", "g2"), refill="y3"), 0, PAIR, "r7 b7")
    private = [e for e in step.events if e.cards == cs("y3")]
    assert [e.audience for e in private] == [(0,)]
    twin = next(e for e in step.events if e.key == "exhaust.reward_spell")
    assert twin.public and twin.cards == () and twin.params == {"seat": 0}


def test_pair_gives_nothing_when_the_refill_pile_is_empty():
    step = play(make(2, ("r7 b7 g1", "g2")), 0, PAIR, "r7 b7")
    assert step.state.hands[0] == cs("g1")
    assert "exhaust.reward_none" in keys(step)


def test_three_gives_one_time_card():
    step = play(make(2, ("r7 b7 y7 g1", "g2")), 0, THREE, "r7 b7 y7")
    assert step.state.time_cards == (1, 0) and step.state.time_pile == 15


def test_four_gives_two_time_cards():
    step = play(make(2, ("r7 b7 y7 g7 g1", "g2")), 0, FOUR, "r7 b7 y7 g7")
    assert step.state.time_cards == (2, 0) and step.state.time_pile == 14


@pytest.mark.parametrize(
    ("combo", "cards"), [(STRAIGHT, "r1 b2 y3"), (FLUSH, "g4 g9 g13"), (ANY, "r1 g4 b9")]
)
def test_straight_flush_and_any_give_one_time_card(combo, cards):
    step = play(make(2, ("r1 b2 y3 g4 g9 g13 b9", "g2")), 0, combo, cards)
    assert step.state.time_cards == (1, 0)


def test_time_reward_is_lost_when_the_time_pile_is_empty():
    step = play(
        make(2, ("r7 b7 y7 g1", "g2"), time_cards=(10, 6), time_pile=0), 0, THREE, "r7 b7 y7"
    )
    assert step.state.time_cards == (10, 6) and step.state.time_pile == 0
    assert "exhaust.reward_none" in keys(step)


def test_four_with_one_time_card_left_takes_that_one():
    state = make(2, ("r7 b7 y7 g7 g1", "g2"), time_cards=(0, 15), time_pile=1)
    step = play(state, 0, FOUR, "r7 b7 y7 g7")
    assert step.state.time_cards == (1, 15) and step.state.time_pile == 0
    event = next(e for e in step.events if e.key == "exhaust.reward_time")
    assert event.params == {"seat": 0, "count": 1, "due": 2}


# Action B and losing -------------------------------------------------------------------------


def test_time_card_can_be_used_even_when_a_play_is_possible():
    state = make(2, ("r7", "g2"), time_cards=(1, 0), time_pile=15)
    assert UseTime() in RULES.legal_actions(state, 0)
    after = RULES.apply(state, 0, UseTime()).state
    assert after.time_cards == (0, 0) and after.time_pile == 16 and after.turn == 1


def test_time_card_cannot_be_used_without_one():
    with pytest.raises(GameError) as info:
        RULES.apply(make(2, ("r7", "g2")), 0, UseTime())
    assert info.value.detail == "no_time_card"


def test_player_who_can_do_neither_a_nor_b_loses_at_once():
    state = make(2, ("r10 g1", "b5"), stacks={SINGLE: (played("g9"),)})
    step = play(state, 0, SINGLE, "r10")
    assert step.state.phase == "over" and step.state.losers == (1,)
    assert "exhaust.loser" in keys(step)
    assert RULES.outcome(step.state).winners == (0,)


def test_player_with_no_play_but_a_time_card_does_not_lose():
    state = make(2, ("r10 g1", "b5"), stacks={SINGLE: (played("g9"),)}, time_cards=(0, 1))
    after = play(state, 0, SINGLE, "r10").state
    assert after.phase == "play" and RULES.legal_actions(after, 1) == [UseTime()]


def test_player_with_an_empty_hand_and_no_time_card_loses():
    state = make(2, ("", "b5 b6 b7"), turn=1)
    step = play(state, 1, ANY, "b5 b6 b7")
    assert step.state.losers == (0,)


def test_outcome_has_one_loser_and_everyone_else_wins():
    state = make(4, ("r10", "", "", ""), turn=0)
    state = state.model_copy(update={"phase": "over", "losers": (2,)})
    outcome = RULES.outcome(state)
    assert outcome.winners == (0, 1, 3) and outcome.result == "loser"
    assert outcome.details == {"loser": 2}


def test_outcome_is_none_while_playing():
    assert RULES.outcome(make(2, ("r1", "b1"))) is None


# Dealing and the first player ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_get_fifteen_cards_each(players):
    assert {len(h) for h in start(players).hands} == {15}


def test_five_players_get_twelve_cards_each():
    assert {len(h) for h in start(5).hands} == {12}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_cards_left_over_form_the_refill_pile(players):
    state = start(players)
    dealt = [x for h in state.hands for x in h]
    assert sorted(dealt + list(state.refill)) == list(DECK)


def test_players_start_without_time_cards():
    state = start(3)
    assert state.time_cards == (0, 0, 0) and state.time_pile == 16


def test_each_hand_is_dealt_privately():
    config = RULES.make_config(3, {"first_player": 0})
    events = advance(RULES, RULES.setup(config), 0, 0, None, 5).events
    hands = [e for e in events if e.key == "exhaust.hand"]
    assert [e.audience for e in hands] == [(0,), (1,), (2,)]
    assert all(not e.cards for e in events if e.public)


def test_deal_that_is_not_a_permutation_is_refused():
    state = RULES.setup(RULES.make_config(2, {"first_player": 0}))
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, Deal(order=(0,) * 64))


def test_first_player_is_picked_by_chance_when_not_given():
    config = RULES.make_config(3, {"first_player": None})
    firsts = {
        advance(RULES, RULES.setup(config), 0, 0, None, seed).state.turn for seed in range(40)
    }
    assert firsts == {0, 1, 2}


def test_first_player_pick_is_a_logged_chance_action():
    config = RULES.make_config(3, {"first_player": None})
    logged = advance(RULES, RULES.setup(config), 0, 0, None, 1).logged
    assert [RULES.parse_action(e.action).kind for e in logged] == ["deal", "first"]


def test_first_player_from_the_config_starts():
    state = start(4, first_player=2)
    assert state.turn == 2


def test_pick_first_outside_the_table_is_refused():
    config = RULES.make_config(3, {"first_player": None})
    state = RULES.apply(RULES.setup(config), CHANCE, Deal(order=DECK)).state
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, PickFirst(seat=3))


# Long variant ------------------------------------------------------------------------------------


def lose_now(state: State) -> Step:
    """Seat 0 plays r10 on the g9 Single, so seat 1 (holding only b5) is stuck."""
    return play(state, state.turn, SINGLE, "r10")


def next_game(state: State) -> State:
    """The last loser asks for the next game and chance deals it (unshuffled)."""
    state = RULES.apply(state, state.losers[-1], NextGame()).state
    return RULES.apply(state, CHANCE, Deal(order=DECK)).state


def long_state(**kw: object) -> State:
    defaults: dict = {"stacks": {SINGLE: (played("g9"),)}, "long_game": True}
    defaults.update(kw)
    return make(2, ("r10 g1", "b5"), **defaults)


def test_long_variant_loser_takes_a_depletion_card():
    step = lose_now(long_state())
    assert step.state.depletion == (0, 1)
    assert keys(step)[-2:] == ["exhaust.loser", "exhaust.depletion"]
    assert RULES.outcome(step.state) is None


def test_long_variant_waits_for_the_loser_to_deal_the_next_game():
    after = lose_now(long_state()).state
    assert after.phase == "next" and RULES.to_move(after).seats == {1}
    assert RULES.legal_actions(after, 1) == [NextGame()]
    assert RULES.legal_actions(after, 0) == []


def test_long_variant_next_game_is_dealt_by_chance():
    after = RULES.apply(lose_now(long_state()).state, 1, NextGame()).state
    assert after.phase == "deal" and RULES.to_move(after).chance


def test_long_variant_previous_loser_starts_the_next_game():
    dealt = next_game(lose_now(long_state()).state)
    assert dealt.phase == "play" and dealt.turn == 1 and dealt.game_no == 2


def test_long_variant_new_game_returns_the_time_cards_and_clears_the_table():
    dealt = next_game(lose_now(long_state(time_cards=(3, 0), time_pile=13)).state)
    assert dealt.time_cards == (0, 0) and dealt.time_pile == 16
    assert all(stack == () for stack in dealt.stacks)


def test_long_variant_face_up_depletion_card_can_be_flipped_as_action_c():
    state = make(2, ("r1", "b2"), long_game=True, depletion=(1, 0))
    assert FlipDepletion() in RULES.legal_actions(state, 0)
    after = RULES.apply(state, 0, FlipDepletion()).state
    assert after.flipped == (1, 0) and after.turn == 1


def test_long_variant_flip_is_a_one_time_action():
    state = make(2, ("r1", "b2"), long_game=True, depletion=(1, 0), flipped=(1, 0))
    assert FlipDepletion() not in RULES.legal_actions(state, 0)
    with pytest.raises(GameError):
        RULES.apply(state, 0, FlipDepletion())


def test_flip_is_not_an_action_without_a_depletion_card():
    state = make(2, ("r1", "b2"), long_game=True)
    assert FlipDepletion() not in RULES.legal_actions(state, 0)


def test_flip_is_not_an_action_in_a_single_game():
    state = make(2, ("r1", "b2"), depletion=(1, 0))
    assert FlipDepletion() not in RULES.legal_actions(state, 0)


def test_long_variant_face_up_depletion_card_saves_a_stuck_player():
    after = lose_now(long_state(depletion=(0, 1))).state
    assert after.phase == "play" and RULES.legal_actions(after, 1) == [FlipDepletion()]


def test_long_variant_flipped_card_stays_flipped_in_the_next_game():
    state = long_state(depletion=(1, 0), flipped=(1, 0))
    after = next_game(lose_now(state).state)
    assert after.flipped == (1, 0) and after.depletion == (1, 1)


def test_long_variant_second_depletion_card_loses_the_match():
    step = lose_now(long_state(depletion=(0, 1), flipped=(0, 1)))
    assert step.state.phase == "over" and step.state.depletion == (0, 2)
    assert "exhaust.match_loser" in keys(step)
    outcome = RULES.outcome(step.state)
    assert outcome.winners == (0,) and outcome.result == "match_loser"
    assert outcome.scores == (0, 2)


def test_long_variant_match_of_several_games_ends():
    state = start(3, seed=4, long_game=True)
    rng, version = random.Random(4), 0
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        action = rng.choice(RULES.legal_actions(state, seat))
        adv = advance(RULES, state, version, seat, action, 4)
        state, version = adv.state, version + len(adv.logged)
    assert max(state.depletion) == 2 and state.game_no >= 2


# Config ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 50, "15", True, None])
def test_malformed_npc_size_is_refused(size):
    with pytest.raises(GameError) as info:
        RULES.make_config(1, {"npc_size": size})
    assert info.value.reason is Reason.BAD_OPTION and info.value.detail == "npc_size"


@pytest.mark.parametrize("players", [0, 6])
def test_player_count_outside_one_to_five_is_refused(players):
    with pytest.raises(GameError) as info:
        RULES.make_config(players, {})
    assert info.value.detail == "players"


def test_unknown_option_is_refused():
    with pytest.raises(GameError) as info:
        RULES.make_config(2, {"colour_blind": True})
    assert info.value.detail == "unknown_option"


def test_first_player_outside_the_table_is_refused():
    with pytest.raises(GameError) as info:
        RULES.make_config(2, {"first_player": 2})
    assert info.value.detail == "first_player"


def test_long_variant_is_ignored_in_solo():
    assert RULES.make_config(1, {"long_game": True}).long_game is False


# Views and hidden cards --------------------------------------------------------------------------


def test_view_shows_the_own_hand_and_only_sizes_of_the_others():
    state = make(3, ("r1 r2", "b1", "g1 g2 g3"), refill="y1 y2")
    view = RULES.view(state, 1)
    assert view.hand == cs("b1") and view.hand_sizes == (2, 1, 3) and view.refill == 2
    public = RULES.view(state, None)
    assert public.hand is None


def test_public_view_shows_no_hidden_card():
    state = make(
        3, ("r1 r2", "b1", "g1 g2 g3"), refill="y1 y2", stacks={ANY: (played("r9 b9 g9"),)}
    )
    view = RULES.view(state, None)
    shown = {x for cv in view.combos for p in cv.plays for x in p.cards}
    assert view.hand is None and shown == set(cs("r9 b9 g9"))
    assert not shown & RULES.secret_cards(state)


def test_view_shows_what_each_combo_needs_next():
    state = make(2, ("r1",), stacks={PAIR: (played("b4 g4"),), ANY: (played("r1 r2 r3 r4"),)})
    combos = RULES.view(state, 0).combos
    assert combos[PAIR].need_number == 5 and combos[PAIR].need_count is None
    assert combos[ANY].need_count == 5 and combos[FLUSH].need_count == 3
    assert combos[SINGLE].need_number == 1


def test_view_does_not_change_when_hidden_cards_are_redealt():
    state = start(3, seed=9)
    for seat in (0, 1, 2, None):
        other = RULES.resample_hidden(state, seat, random.Random(3))
        assert RULES.view(other, seat) == RULES.view(state, seat)
        assert other != state


def test_resample_keeps_the_sizes_and_the_viewers_hand():
    state = start(4, seed=2)
    other = RULES.resample_hidden(state, 2, random.Random(1))
    assert other.hands[2] == state.hands[2]
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    assert len(other.refill) == len(state.refill)


def test_secret_cards_are_the_hands_and_the_refill_pile():
    state = make(2, ("r1", "b1"), refill="g1", stacks={SINGLE: (played("y9"),)})
    assert RULES.secret_cards(state) == {c("r1"), c("b1"), c("g1")}


# UI and AI helpers -----------------------------------------------------------------------------


def test_check_selection_fills_in_copy_targets():
    view = RULES.view(make(2, ("r5 x0 x1 b9",)), 0)
    verdict = check_selection(view, THREE, [c("x1"), c("r5"), c("x0")])
    assert verdict.ok and verdict.action.cards == cs("r5 x0 x1")
    assert verdict.action.copies == ((c("x0"), c("r5")), (c("x1"), c("r5")))
    RULES.apply(make(2, ("r5 x0 x1 b9",)), 0, verdict.action)


def test_check_selection_says_why_a_play_is_illegal():
    view = RULES.view(make(2, ("r5 b6",), stacks={SINGLE: (played("g9"),)}), 0)
    verdict = check_selection(view, SINGLE, [c("r5")])
    assert not verdict.ok and verdict.reason == "number_too_low" and verdict.params == {"need": 10}


def test_check_selection_refuses_when_not_your_turn():
    view = RULES.view(make(2, ("r5", "b6"), turn=1), 0)
    assert check_selection(view, SINGLE, [c("r5")]).reason == "not_your_turn"


def test_playable_cards_lists_only_cards_that_fit_the_combo():
    view = RULES.view(make(2, ("r5 b5 g7 x0 y2",), stacks={PAIR: (played("r3 b3"),)}), 0)
    assert set(playable_cards(view, PAIR)) == set(cs("r5 b5 g7 x0"))
    assert set(playable_cards(view, STRAIGHT)) == set()
    assert set(playable_cards(view, FLUSH)) == set()


def test_playable_cards_on_a_straight_are_the_cards_in_a_long_enough_run():
    view = RULES.view(make(2, ("r1 b2 g3 y5 r7 b8",)), 0)
    assert set(playable_cards(view, STRAIGHT)) == set(cs("r1 b2 g3"))


def test_legal_plays_from_the_view_equal_legal_actions():
    state = start(2, seed=3)
    seat = state.turn
    assert legal_plays(RULES.view(state, seat)) == RULES.legal_actions(state, seat)


def test_every_listed_action_is_accepted():
    state = make(2, ("r1 r2 r3 b3 y3 g3 x0 b4 b5",), time_cards=(1, 0), time_pile=15)
    for action in RULES.legal_actions(state, 0):
        RULES.apply(state, 0, action)


def test_legal_play_missing_from_the_capped_any_listing_is_still_accepted():
    hand = "r1 r2 r3 r4 r5 b6 b7 b8 b9 y10 y11 y12 g13 g14 g15"
    state = make(2, (hand,))
    listed = {a.cards for a in RULES.legal_actions(state, 0) if a.kind == "play" and a.combo == ANY}
    cards = cs("r5 b9 y12 g15")
    assert cards not in listed
    assert play(state, 0, ANY, "r5 b9 y12 g15").state.stacks[ANY][-1].cards == cards


def test_no_legal_action_for_a_seat_not_to_move():
    assert RULES.legal_actions(make(2, ("r1", "b1"), turn=0), 1) == []


def test_ai_picks_a_listed_action():
    state = start(4, seed=8)
    seat = state.turn
    action = AI.normal(RULES.view(state, seat), random.Random(0))
    assert action in RULES.legal_actions(state, seat)


# Serialisation, replay and random games ------------------------------------------------------


def playout(
    players: int, seed: int, **options: object
) -> tuple[State, list[LoggedAction], list[Event]]:
    config = RULES.make_config(players, {"first_player": None, **options})
    adv = advance(RULES, RULES.setup(config), 0, 0, None, seed)
    state, log, events = adv.state, list(adv.logged), list(adv.events)
    rng = random.Random(seed)
    while not RULES.is_over(state):
        assert len(log) < 5000
        seat = next(iter(RULES.to_move(state).seats))
        actions = RULES.legal_actions(state, seat)
        assert actions
        action = rng.choice(actions)
        adv = advance(RULES, state, len(log), seat, action, seed)
        state = adv.state
        log.extend(adv.logged)
        events.extend(adv.events)
    return state, log, events


def test_state_round_trips_through_json():
    state = start(3, seed=1)
    assert State.model_validate_json(state.model_dump_json()) == state
    assert State.model_validate(json.loads(state.model_dump_json())) == state


def test_actions_round_trip_through_json():
    action = PlayCards(combo=2, cards=cs("r5 x0 x1"), copies=((60, 4), (61, 4)))
    assert RULES.parse_action(json.loads(json.dumps(RULES.dump_action(action)))) == action


def test_replay_gives_the_live_state():
    state, log, _ = playout(3, seed=11, long_game=True)
    config = RULES.make_config(3, {"first_player": None, "long_game": True})
    assert replay(RULES, config, log) == state


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_legal_games_end_with_one_loser(players):
    for seed in range(15):
        state, _, _ = playout(players, seed)
        outcome = RULES.outcome(state)
        assert outcome is not None and len(state.losers) == 1
        if players > 1:
            assert len(outcome.winners) == players - 1


@pytest.mark.parametrize("players", [1, 3, 5])
def test_public_events_never_show_a_hidden_card(players):
    config = RULES.make_config(players, {"first_player": None})
    state = RULES.setup(config)
    adv = advance(RULES, state, 0, 0, None, 6)
    state, version, rng = adv.state, len(adv.logged), random.Random(6)
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        adv = advance(RULES, state, version, seat, rng.choice(RULES.legal_actions(state, seat)), 6)
        state, version = adv.state, version + len(adv.logged)
        secret = RULES.secret_cards(state)
        assert all(not set(e.cards) & secret for e in adv.events if e.public)


def test_chance_action_from_a_seat_is_refused():
    config = RULES.make_config(2, {"first_player": 0})
    with pytest.raises(GameError):
        RULES.apply(RULES.setup(config), 0, Deal(order=DECK))


def test_nothing_is_accepted_once_the_game_is_over():
    state = make(2, ("r1", "b1")).model_copy(update={"phase": "over", "losers": (1,)})
    with pytest.raises(GameError) as info:
        play(state, 0, SINGLE, "r1")
    assert info.value.reason is Reason.GAME_OVER


def test_solo_table_uses_one_any_colour_single():
    state = start(1)
    assert [
        cv.combo.colours for cv in RULES.view(state, 0).combos if cv.combo.kind == "single"
    ] == [(0, 1, 2, 3)]


# Listing, checking and the UI helper agree (property) ------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    hand=st.sets(st.sampled_from(DECK), min_size=1, max_size=15),
    combo=st.sampled_from(table(2)),
    top=st.none() | st.integers(1, 15),
    last=st.none() | st.integers(3, 8),
)
def test_listed_plays_are_legal_and_cover_exactly_the_playable_cards(hand, combo, top, last):
    top, last = (top, None) if combo.number_rule else (None, last)
    plays = list(iter_plays(combo, top, last, hand))
    for p in plays:
        check_play(combo, top, last, hand, p.cards, p.copies)
        assert canonical(p.cards) == p
    # Copies are interchangeable: listings use the lowest copy ids only.
    used = {COPY_CARDS[0] if is_copy(x) else x for p in plays for x in p.cards}
    usable = {COPY_CARDS[0] if is_copy(x) else x for x in playable(combo, top, last, hand)}
    assert bool(plays) == bool(usable)
    if combo.kind is ComboKind.ANY:
        assert used <= usable
    else:
        assert used == usable
