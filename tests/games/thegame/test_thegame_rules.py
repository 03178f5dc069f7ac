"""The Game (seed 000 + RULINGS.md), rule by rule: one behaviour per test.

States are mostly built directly with `TheGameState(...)` so each test shows exactly the
situation it checks. Piles 0 and 1 go up (start at 1), piles 2 and 3 go down (start at 100).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import pytest

from games.engine.contract import CHANCE, Event, Step
from games.engine.errors import GameError, Reason
from games.engine.step import advance
from games.thegame import AI, RULES
from games.thegame.models import (
    ASCENDING,
    BASES,
    BLUE_NUMBERS,
    CARDS,
    ChooseFirst,
    Deal,
    EndReason,
    EndTurn,
    Phase,
    Play,
    Signal,
    SignalKind,
    TheGameConfig,
    TheGameState,
)
from games.thegame.rules import BURNED, LOSS, PERFECT, WIN, fits, result_of

UP1, UP2, DOWN1, DOWN2 = 0, 1, 2, 3
EMPTY_PILES: tuple[tuple[int, ...], ...] = ((), (), (), ())

# Tops that block most cards: up piles at 90/91, down piles at 10/11. Only 2–10, 20, 21, 80,
# 81 and 92–99 fit anywhere (cards on the piles themselves are out of play).
BLOCKING_PILES = ((90,), (91,), (10,), (11,))
BLOCKED = tuple(sorted(set(range(12, 90)) - {20, 21, 80, 81}))


# Helpers -------------------------------------------------------------------------------------


def make_state(
    hands: Sequence[Iterable[int]],
    *,
    piles: Sequence[Iterable[int]] = EMPTY_PILES,
    draw: Iterable[int] | None = None,
    draw_count: int = 0,
    turn: int = 0,
    turn_number: int = 1,
    played: int = 0,
    placed: tuple[int, int, int, int] = (0, 0, 0, 0),
    signals: tuple[tuple[SignalKind, ...], ...] = ((), (), (), ()),
    **options: bool,
) -> TheGameState:
    """A state in the PLAY phase. Without `draw`, the draw pile gets `draw_count` unused cards.
    `piles`: the cards placed on each pile, top card last (the state keeps the top and count)."""
    hands_t = tuple(tuple(sorted(hand)) for hand in hands)
    piles_t = tuple(tuple(pile) for pile in piles)
    if draw is None:
        used = {c for hand in hands_t for c in hand} | {c for pile in piles_t for c in pile}
        draw = [c for c in CARDS if c not in used][:draw_count]
    return TheGameState(
        config=TheGameConfig(players=len(hands_t), **options),
        phase=Phase.PLAY,
        deck=tuple(draw),
        hands=hands_t,
        tops=tuple(pile[-1] if pile else BASES[i] for i, pile in enumerate(piles_t)),
        counts=tuple(len(pile) for pile in piles_t),
        blue_since=tuple(
            placed[i] if pile and TheGameConfig(players=1, **options).is_blue(pile[-1]) else None
            for i, pile in enumerate(piles_t)
        ),
        signals=signals,
        turn=turn,
        turn_number=turn_number,
        played_this_turn=played,
    )


def step(state: TheGameState, seat: int, action: object) -> Step:
    return RULES.apply(state, seat, action)  # type: ignore[arg-type]


def play(state: TheGameState, seat: int, card: int, pile: int) -> TheGameState:
    return RULES.apply(state, seat, Play(card=card, pile=pile)).state


def end_turn(state: TheGameState, seat: int) -> TheGameState:
    return RULES.apply(state, seat, EndTurn()).state


@contextmanager
def refused(reason: Reason, detail: str | None = None) -> Iterator[None]:
    with pytest.raises(GameError) as info:
        yield
    assert info.value.reason is reason
    if detail is not None:
        assert info.value.detail == detail


def dealt(players: int, *, first: int = 0, order: Sequence[int] = CARDS, **options: bool):
    config = RULES.make_config(players, {"first_player": first, **options})
    return RULES.apply(RULES.setup(config), CHANCE, Deal(order=tuple(order))).state


def over(state: TheGameState) -> bool:
    return RULES.is_over(state)


def placeable_any(state: TheGameState) -> bool:
    """Whether the player to move has any card that fits any pile."""
    return any(
        fits(state.top(pile), card, ASCENDING[pile])
        for card in state.hands[state.turn]
        for pile in range(4)
    )


# The cards and the deal ----------------------------------------------------------------------


def test_deck_is_98_cards_numbered_2_to_99_once_each():
    assert tuple(range(2, 100)) == CARDS
    assert len(CARDS) == 98


def test_deal_chance_action_is_a_shuffle_of_the_98_cards():
    state = RULES.setup(RULES.make_config(3, {}))
    deal = RULES.chance_action(state, random.Random(7))
    assert isinstance(deal, Deal)
    assert sorted(deal.order) == list(CARDS)
    assert deal.order != CARDS


def test_setup_waits_for_the_deal_as_a_chance_action():
    state = RULES.setup(RULES.make_config(2, {}))
    assert state.phase is Phase.DEAL
    assert RULES.to_move(state).chance
    assert not RULES.to_move(state).seats


@pytest.mark.parametrize(("players", "size"), [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_hand_size_by_player_count(players, size):
    state = dealt(players)
    assert [len(hand) for hand in state.hands] == [size] * players


@pytest.mark.parametrize(("players", "size"), [(1, 7), (2, 6), (3, 5), (4, 5), (5, 5)])
def test_smaller_hand_option_deals_one_card_fewer(players, size):
    state = dealt(players, smaller_hand=True)
    assert [len(hand) for hand in state.hands] == [size] * players


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("smaller", [False, True])
def test_deal_gives_hands_seat_by_seat_then_the_rest_is_the_draw_pile(players, smaller):
    order = list(CARDS)
    random.Random(players).shuffle(order)
    state = dealt(players, order=order, smaller_hand=smaller)
    size = state.config.hand_size
    for seat in range(players):
        assert sorted(state.hands[seat]) == sorted(order[seat * size : (seat + 1) * size])
    assert state.draw == tuple(order[players * size :])
    assert state.cards_left == 98
    assert state.tops == BASES and state.counts == (0, 0, 0, 0)


@pytest.mark.parametrize(
    "order",
    [
        (*CARDS[:-1], 2),  # a card twice, one left out
        CARDS[:-1],  # one short
        (*CARDS, 2),  # one too many
        (*CARDS[:-1], 100),  # a card the deck does not have
    ],
    ids=["twice", "short", "extra", "foreign"],
)
def test_deal_refuses_an_order_that_is_not_the_98_cards(order):
    state = RULES.setup(RULES.make_config(2, {}))
    with refused(Reason.ILLEGAL_MOVE, "bad_deal"):
        RULES.apply(state, CHANCE, Deal(order=order))


@pytest.mark.parametrize("players", [0, 6])
def test_player_count_outside_1_to_5_is_refused(players):
    with refused(Reason.BAD_OPTION):
        RULES.make_config(players, {})


def test_unknown_option_is_refused():
    with refused(Reason.BAD_OPTION):
        RULES.make_config(2, {"jokers": True})


# First player --------------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1, 2])
def test_host_chosen_first_player_starts_without_a_chance_action(first):
    state = dealt(3, first=first)
    assert state.phase is Phase.PLAY
    assert state.turn == first
    assert RULES.to_move(state).seats == frozenset({first})
    assert not RULES.to_move(state).chance


def test_first_player_outside_the_seats_is_refused():
    with refused(Reason.BAD_OPTION, "first_player"):
        RULES.make_config(3, {"first_player": 3})


def test_random_first_player_is_chosen_by_a_chance_action_after_the_deal():
    config = RULES.make_config(4, {"first_player": None})
    state = RULES.apply(RULES.setup(config), CHANCE, Deal(order=CARDS)).state
    assert state.phase is Phase.CHOOSE_FIRST
    assert RULES.to_move(state).chance
    chosen = {RULES.chance_action(state, random.Random(i)).seat for i in range(200)}
    assert chosen == {0, 1, 2, 3}
    started = RULES.apply(state, CHANCE, ChooseFirst(seat=2)).state
    assert started.phase is Phase.PLAY
    assert started.turn == 2


def test_random_first_player_is_the_default():
    assert RULES.make_config(2, {}).first_player is None


def test_chance_first_player_outside_the_seats_is_refused():
    config = RULES.make_config(2, {})
    state = RULES.apply(RULES.setup(config), CHANCE, Deal(order=CARDS)).state
    with refused(Reason.ILLEGAL_MOVE, "bad_choice"):
        RULES.apply(state, CHANCE, ChooseFirst(seat=2))


# Placement -----------------------------------------------------------------------------------


def test_fresh_piles_accept_every_card():
    state = make_state([range(2, 10)])
    for card in range(2, 10):
        for pile in range(4):
            after = play(state, 0, card, pile)
            assert (after.top(pile), after.counts[pile]) == (card, 1)


@pytest.mark.parametrize("card", [48, 57, 99])
def test_ascending_pile_accepts_any_higher_card(card):
    state = make_state([[card, 3]], piles=((47,), (), (), ()), draw_count=5)
    assert play(state, 0, card, UP1).top(UP1) == card


def test_ascending_pile_accepts_exactly_ten_lower():
    state = make_state([[37, 3]], piles=((47,), (), (), ()), draw_count=5)
    after = play(state, 0, 37, UP1)
    assert (after.top(UP1), after.counts[UP1]) == (37, 2)
    assert after.top(UP1) == 37


@pytest.mark.parametrize("card", [46, 38, 36, 27, 2])
def test_ascending_pile_refuses_a_lower_card_unless_exactly_ten_lower(card):
    state = make_state([[card, 99]], piles=((47,), (), (), ()), draw_count=5)
    with refused(Reason.ILLEGAL_MOVE, "cannot_place"):
        play(state, 0, card, UP1)


@pytest.mark.parametrize("card", [64, 50, 2])
def test_descending_pile_accepts_any_lower_card(card):
    state = make_state([[card, 99]], piles=((), (), (65,), ()), draw_count=5)
    assert play(state, 0, card, DOWN1).top(DOWN1) == card


def test_descending_pile_accepts_exactly_ten_higher():
    state = make_state([[75, 99]], piles=((), (), (65,), ()), draw_count=5)
    after = play(state, 0, 75, DOWN1)
    assert (after.top(DOWN1), after.counts[DOWN1]) == (75, 2)


@pytest.mark.parametrize("card", [66, 74, 76, 85, 99])
def test_descending_pile_refuses_a_higher_card_unless_exactly_ten_higher(card):
    state = make_state([[card, 2]], piles=((), (), (65,), ()), draw_count=5)
    with refused(Reason.ILLEGAL_MOVE, "cannot_place"):
        play(state, 0, card, DOWN1)


@pytest.mark.parametrize(("top", "card"), [(47, 27), (47, 38), (47, 36)])
def test_ascending_trick_is_only_exactly_ten_not_twenty_nine_or_eleven(top, card):
    state = make_state([[card, 99]], piles=((), (top,), (), ()), draw_count=5)
    with refused(Reason.ILLEGAL_MOVE, "cannot_place"):
        play(state, 0, card, UP2)


@pytest.mark.parametrize(("top", "card"), [(65, 85), (65, 74), (65, 76)])
def test_descending_trick_is_only_exactly_ten_not_twenty_nine_or_eleven(top, card):
    state = make_state([[card, 2]], piles=((), (), (), (top,)), draw_count=5)
    with refused(Reason.ILLEGAL_MOVE, "cannot_place"):
        play(state, 0, card, DOWN2)


def test_ten_higher_on_ascending_and_ten_lower_on_descending_are_just_normal_plays():
    state = make_state([[55, 75]], piles=((65,), (), (), ()), draw_count=5)
    assert play(state, 0, 75, UP1).top(UP1) == 75
    state = make_state([[55, 75]], piles=((), (), (65,), ()), draw_count=5)
    assert play(state, 0, 55, DOWN1).top(DOWN1) == 55


def test_ten_trick_may_be_used_several_times_in_one_turn():
    state = make_state([[37, 27, 17, 99]], piles=((47,), (), (), ()), draw_count=5)
    for card in (37, 27, 17):
        state = play(state, 0, card, UP1)
    assert (state.top(UP1), state.counts[UP1]) == (17, 4)
    assert state.played_this_turn == 3


def test_several_cards_in_one_turn_may_go_on_the_same_pile():
    state = make_state([[10, 20, 30, 99]], draw_count=5)
    for card in (10, 20, 30):
        state = play(state, 0, card, UP1)
    assert (state.top(UP1), state.counts[UP1]) == (30, 3)


def test_a_play_moves_the_card_from_hand_onto_the_top_of_the_pile():
    state = make_state([[40, 50, 60]], piles=((30,), (), (), ()), draw_count=5)
    after = play(state, 0, 50, UP1)
    assert after.hands[0] == (40, 60)
    assert (after.top(UP1), after.counts[UP1]) == (50, 2)
    assert after.played_this_turn == 1


def test_a_card_not_in_hand_is_refused():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    with refused(Reason.ILLEGAL_MOVE, "not_in_hand"):
        play(state, 0, 60, UP1)


def test_legal_plays_are_exactly_the_placeable_hand_cards():
    state = make_state([[37, 46, 58, 64, 75, 99]], piles=((47,), (50,), (65,), (60,)), draw_count=5)
    plays = {(a.card, a.pile) for a in RULES.legal_actions(state, 0) if isinstance(a, Play)}
    assert plays == {
        (37, UP1),
        (58, UP1),
        (64, UP1),
        (75, UP1),
        (99, UP1),
        (58, UP2),
        (64, UP2),
        (75, UP2),
        (99, UP2),
        (37, DOWN1),
        (46, DOWN1),
        (58, DOWN1),
        (64, DOWN1),
        (75, DOWN1),
        (37, DOWN2),
        (46, DOWN2),
        (58, DOWN2),
    }


# Minimum per turn ----------------------------------------------------------------------------


def test_minimum_is_two_while_the_draw_pile_has_cards():
    assert make_state([[2, 3, 4]], draw_count=1).minimum == 2


def test_minimum_is_one_once_the_draw_pile_is_empty():
    assert make_state([[2, 3, 4]], draw_count=0).minimum == 1


def test_min_three_option_requires_three_while_the_draw_pile_has_cards():
    assert make_state([[2, 3, 4]], draw_count=1, min_three=True).minimum == 3


def test_min_three_option_still_requires_only_one_once_the_draw_pile_is_empty():
    # (R) the advanced level raises the minimum only while the draw pile has cards.
    state = make_state([[2, 3, 4]], draw_count=0, min_three=True)
    assert state.minimum == 1
    state = play(state, 0, 2, UP1)
    assert EndTurn() in RULES.legal_actions(state, 0)
    assert end_turn(state, 0).turn_number == 2


@pytest.mark.parametrize(
    ("played", "draw_count", "min_three"),
    [(0, 5, False), (1, 5, False), (0, 5, True), (1, 5, True), (2, 5, True), (0, 0, False)],
)
def test_end_turn_before_the_minimum_is_refused_with_minimum_not_met(played, draw_count, min_three):
    state = make_state(
        [[40, 50, 60, 70, 80]], draw_count=draw_count, played=played, min_three=min_three
    )
    assert EndTurn() not in RULES.legal_actions(state, 0)
    with refused(Reason.ILLEGAL_MOVE, "minimum_not_met"):
        end_turn(state, 0)


def test_end_turn_is_allowed_once_the_minimum_is_met():
    state = make_state([[40, 50, 60, 70]], draw_count=5)
    state = play(play(state, 0, 40, UP1), 0, 50, UP1)
    assert EndTurn() in RULES.legal_actions(state, 0)
    assert end_turn(state, 0).turn_number == 2


def test_playing_more_than_the_minimum_is_allowed():
    state = make_state([[40, 50, 60, 70, 80, 90], [2, 3]], draw_count=20)
    for card in (40, 50, 60, 70, 80):
        state = play(state, 0, card, UP1)
    assert state.played_this_turn == 5
    assert not over(state)
    assert end_turn(state, 0).turn == 1


def test_a_player_may_play_the_whole_hand():
    state = make_state([[40, 50, 60], [2, 3]], draw_count=0)
    for card in (40, 50, 60):
        state = play(state, 0, card, UP1)
    assert state.hands[0] == ()
    assert end_turn(state, 0).turn == 1


# Refill and turn order -----------------------------------------------------------------------


def test_end_turn_refills_the_hand_up_to_hand_size_from_the_top_of_the_draw():
    state = make_state([[40, 50, 60, 70, 80, 90, 95], [2, 3]], draw=(11, 12, 13, 14))
    for card in (40, 50, 60):
        state = play(state, 0, card, UP1)
    after = end_turn(state, 0)
    assert after.hands[0] == (11, 12, 13, 70, 80, 90, 95)
    assert after.draw == (14,)


def test_refill_takes_only_as_many_as_the_draw_pile_has():
    state = make_state([[40, 50, 60, 70, 80, 90, 95], [2, 3]], draw=(11,))
    for card in (40, 50, 60):
        state = play(state, 0, card, UP1)
    after = end_turn(state, 0)
    assert after.hands[0] == (11, 70, 80, 90, 95)
    assert after.draw == ()
    assert after.minimum == 1


def test_nobody_draws_once_the_draw_pile_is_empty():
    state = make_state([[40, 50, 60], [2, 3]], draw=())
    after = end_turn(play(state, 0, 40, UP1), 0)
    assert after.hands[0] == (50, 60)


def test_turn_passes_to_the_next_seat_and_wraps_around():
    state = make_state([[40, 50, 60], [41, 51, 61], [42, 52, 62]], turn=2)
    after = end_turn(play(state, 2, 42, UP1), 2)
    assert after.turn == 0
    assert after.played_this_turn == 0
    assert after.turn_number == state.turn_number + 1


def test_in_solo_the_next_turn_is_the_same_players():
    state = make_state([[40, 50, 60]], draw=())
    after = end_turn(play(state, 0, 40, UP1), 0)
    assert after.turn == 0
    assert after.turn_number == 2
    assert RULES.to_move(after).seats == frozenset({0})


# No take-backs -------------------------------------------------------------------------------


def test_no_action_takes_a_played_card_back():
    state = make_state([[40, 50, 60], [41, 51]], draw_count=10)
    state = play(state, 0, 40, UP1)
    assert 40 not in state.hands[0]
    kinds = set()
    for seat in (0, 1):
        for action in RULES.legal_actions(state, seat):
            kinds.add(action.kind)
            after = RULES.apply(state, seat, action).state
            assert all(a >= b for a, b in zip(after.counts, state.counts, strict=True))
            assert all(40 not in hand for hand in after.hands)
    assert kinds <= {"play", "end_turn", "signal"}


def test_a_played_card_cannot_be_played_again():
    state = play(make_state([[40, 50, 60]], draw_count=10), 0, 40, UP1)
    with refused(Reason.ILLEGAL_MOVE, "not_in_hand"):
        play(state, 0, 40, DOWN1)


# The end: stuck, skipped, all placed ---------------------------------------------------------


def test_game_ends_by_itself_when_the_player_to_move_has_no_placeable_card_at_turn_start():
    # (R) the engine detects it: seat 1 holds only blocked cards.
    state = make_state([[92, 93, 40], [30, 40 + 1, 50, 60]], piles=BLOCKING_PILES, draw_count=3)
    state = play(play(state, 0, 92, UP1), 0, 93, UP1)
    after = end_turn(state, 0)
    assert after.phase is Phase.OVER
    assert after.end_reason is EndReason.STUCK
    assert RULES.to_move(after).seats == frozenset()
    assert not RULES.to_move(after).chance
    assert RULES.outcome(after) is not None


def test_stuck_at_turn_start_emits_a_stuck_event_for_that_seat():
    state = make_state([[92, 93, 40], [30, 41, 50, 60]], piles=BLOCKING_PILES, draw_count=3)
    state = play(play(state, 0, 92, UP1), 0, 93, UP1)
    events = step(state, 0, EndTurn()).events
    assert Event(key="thegame.stuck", params={"seat": 1}) in events


def test_game_ends_part_way_through_a_turn_when_the_minimum_cannot_be_reached():
    # Draw has cards, so the minimum is 2; after one play nothing else fits.
    state = make_state([[92, 30, 40, 50], [2, 3]], piles=BLOCKING_PILES, draw_count=3)
    after = play(state, 0, 92, UP1)
    assert after.phase is Phase.OVER
    assert after.end_reason is EndReason.STUCK


def test_min_three_game_ends_when_the_third_card_cannot_be_placed():
    state = make_state(
        [[92, 93, 30, 40, 50], [2, 3]], piles=BLOCKING_PILES, draw_count=3, min_three=True
    )
    state = play(state, 0, 92, UP1)
    assert not over(state)
    state = play(state, 0, 93, UP1)
    assert state.end_reason is EndReason.STUCK


def test_no_end_when_the_minimum_is_met_and_nothing_more_fits():
    state = make_state([[92, 93, 30, 40], [2, 3]], piles=BLOCKING_PILES, draw_count=3)
    state = play(play(state, 0, 92, UP1), 0, 93, UP1)
    assert not over(state)
    assert state.phase is Phase.PLAY
    assert RULES.legal_actions(state, 0)[0] == EndTurn()
    assert end_turn(state, 0).turn == 1


def test_no_end_when_the_draw_is_empty_and_one_card_was_placed():
    state = make_state([[92, 30, 40], [2, 3]], piles=BLOCKING_PILES, draw_count=0)
    state = play(state, 0, 92, UP1)
    assert not over(state)
    assert EndTurn() in RULES.legal_actions(state, 0)


def test_a_player_who_cannot_place_but_has_another_option_is_not_stuck_yet():
    state = make_state([[92, 30], [2, 3]], piles=BLOCKING_PILES, draw_count=0)
    assert not over(state)
    assert {a.card for a in RULES.legal_actions(state, 0) if isinstance(a, Play)} == {92}


def test_a_player_with_an_empty_hand_is_skipped():
    state = make_state([[40, 50], [], [60, 70]], draw=())
    step_ = step(play(state, 0, 40, UP1), 0, EndTurn())
    assert step_.state.turn == 2
    assert Event(key="thegame.skipped", params={"seat": 1}) in step_.events
    assert not over(step_.state)


def test_emptying_your_hand_does_not_end_the_game_while_others_hold_cards():
    state = make_state([[40], [50, 60]], draw=())
    state = play(state, 0, 40, UP1)
    assert not over(state)
    after = end_turn(state, 0)
    assert after.turn == 1
    assert after.hands[0] == ()


def test_placing_all_98_cards_ends_the_game_at_once_with_a_perfect_win():
    piles = ((*range(2, 50),), (), (*range(99, 50, -1),), ())
    state = make_state([[], [50], []], piles=piles, turn=1, draw=())
    assert state.cards_left == 1
    after = play(state, 1, 50, UP2)
    assert after.phase is Phase.OVER
    assert after.end_reason is EndReason.ALL_PLAYED
    outcome = RULES.outcome(after)
    assert outcome is not None
    assert outcome.result == PERFECT
    assert outcome.winners == (0, 1, 2)
    assert outcome.details["cards_left"] == 0


# Results -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_left", "result"),
    [(0, PERFECT), (1, WIN), (5, WIN), (9, WIN), (10, LOSS), (11, LOSS), (90, LOSS)],
)
def test_result_code_by_cards_left(cards_left, result):
    assert result_of(cards_left, EndReason.STUCK) == result


def stuck_state(hand_sizes: Sequence[int], draw_count: int) -> TheGameState:
    """A game that seat 0 just ended stuck: it played 92, the draw (draw_count > 0) still asks
    for a second card and nothing else fits. Hand sizes are counted before that play."""
    blocked = iter(BLOCKED)
    hands = [[92, *(next(blocked) for _ in range(hand_sizes[0] - 1))]]
    hands += [[next(blocked) for _ in range(size)] for size in hand_sizes[1:]]
    used = [c for hand in hands for c in hand]
    draw = [c for c in BLOCKED if c not in used][:draw_count]
    state = make_state(hands, piles=BLOCKING_PILES, draw=draw)
    return play(state, 0, 92, UP1)


@pytest.mark.parametrize(
    ("hand_sizes", "draw_count", "cards_left", "result"),
    [
        ((3, 3), 4, 9, WIN),  # 2 + 3 in hands, 4 in the draw
        ((3, 3), 5, 10, LOSS),
        ((6, 6, 6), 1, 18, LOSS),
        ((2, 1), 1, 3, WIN),
    ],
)
def test_cards_left_counts_the_draw_pile_and_every_hand(hand_sizes, draw_count, cards_left, result):
    state = stuck_state(hand_sizes, draw_count)
    assert state.end_reason is EndReason.STUCK
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.details["cards_left"] == cards_left
    assert outcome.result == result


def test_outcome_on_a_win_names_every_seat_as_winner():
    state = stuck_state((3, 3, 1), 2)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.result == WIN
    assert outcome.winners == (0, 1, 2)


def test_outcome_on_a_loss_has_no_winner():
    state = stuck_state((6, 6), 30)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.result == LOSS
    assert outcome.winners == ()


def test_outcome_is_none_while_the_game_goes_on():
    assert RULES.outcome(make_state([[40, 50]], draw_count=3)) is None
    assert RULES.outcome(RULES.setup(RULES.make_config(2, {}))) is None


def test_game_over_event_shows_result_and_count():
    state = make_state([[92, 30], [40, 50]], piles=BLOCKING_PILES, draw_count=3)
    events = step(state, 0, Play(card=92, pile=UP1)).events
    assert events[-1] == Event(key="thegame.over", params={"result": WIN, "cards_left": 6})


# Turn and actor checks -----------------------------------------------------------------------


def test_a_play_out_of_turn_is_refused_with_not_your_turn():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    with refused(Reason.NOT_YOUR_TURN):
        play(state, 1, 60, UP1)


def test_end_turn_out_of_turn_is_refused_with_not_your_turn():
    state = make_state([[40, 50, 60], [70, 80]], draw_count=5)
    state = play(play(state, 0, 40, UP1), 0, 50, UP1)
    with refused(Reason.NOT_YOUR_TURN):
        end_turn(state, 1)


def test_a_seat_that_is_not_to_move_has_no_play_or_end_turn_listed():
    state = make_state([[40, 50, 60], [70, 80]], draw_count=5, played=2)
    kinds = {a.kind for a in RULES.legal_actions(state, 1)}
    assert kinds == {"signal"}


def test_deal_from_a_seat_is_refused():
    state = RULES.setup(RULES.make_config(2, {}))
    with refused(Reason.ILLEGAL_MOVE, "chance_only"):
        RULES.apply(state, 0, Deal(order=CARDS))


def test_choose_first_from_a_seat_is_refused():
    state = RULES.apply(RULES.setup(RULES.make_config(2, {})), CHANCE, Deal(order=CARDS)).state
    with refused(Reason.ILLEGAL_MOVE, "chance_only"):
        RULES.apply(state, 1, ChooseFirst(seat=1))


def test_chance_actions_from_a_seat_are_refused_during_play():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    for action in (Deal(order=CARDS), ChooseFirst(seat=0)):
        with refused(Reason.ILLEGAL_MOVE, "chance_only"):
            RULES.apply(state, 0, action)


def test_seat_actions_are_refused_before_the_deal():
    state = RULES.setup(RULES.make_config(2, {"first_player": 0}))
    assert RULES.legal_actions(state, 0) == []
    with refused(Reason.ILLEGAL_MOVE, "not_now"):
        RULES.apply(state, 0, Signal(pile=0, signal=SignalKind.NO_PLAY, on=True))


def test_an_actor_that_is_not_a_seat_is_refused():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    with refused(Reason.ILLEGAL_MOVE):
        RULES.apply(state, 2, Signal(pile=0, signal=SignalKind.NO_PLAY, on=True))


def test_every_action_after_the_end_is_refused_with_game_over():
    state = stuck_state((3, 3), 5)
    assert over(state)
    assert RULES.legal_actions(state, 0) == []
    for action in (
        Play(card=30, pile=UP1),
        EndTurn(),
        Signal(pile=0, signal=SignalKind.NO_JUMP, on=True),
    ):
        with refused(Reason.GAME_OVER):
            RULES.apply(state, 0, action)


# Signals -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
@pytest.mark.parametrize("kind", list(SignalKind))
@pytest.mark.parametrize("pile", [0, 1, 2, 3])
def test_any_player_may_set_a_signal_on_any_pile_at_any_time(seat, kind, pile):
    state = make_state([[40, 50], [60, 70], [80, 90]], draw_count=5, turn=1, played=1)
    action = Signal(pile=pile, signal=kind, on=True)
    assert action in RULES.legal_actions(state, seat)
    after = RULES.apply(state, seat, action).state
    assert after.signals[pile] == (kind,)
    assert RULES.view(after, None).piles[pile].signals == (kind,)


@pytest.mark.parametrize("kind", list(SignalKind))
def test_any_player_may_clear_a_signal_someone_else_set(kind):
    state = make_state([[40, 50], [60, 70], [80, 90]], draw_count=5)
    state = RULES.apply(state, 0, Signal(pile=2, signal=kind, on=True)).state
    clear = Signal(pile=2, signal=kind, on=False)
    assert clear in RULES.legal_actions(state, 2)
    after = RULES.apply(state, 2, clear).state
    assert after.signals[2] == ()


def test_both_signal_kinds_can_be_on_one_pile():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    state = RULES.apply(state, 1, Signal(pile=3, signal=SignalKind.NO_PLAY, on=True)).state
    state = RULES.apply(state, 0, Signal(pile=3, signal=SignalKind.NO_JUMP, on=True)).state
    assert set(state.signals[3]) == {SignalKind.NO_PLAY, SignalKind.NO_JUMP}
    assert state.signals[:3] == ((), (), ())


def test_setting_an_already_set_signal_is_refused():
    state = make_state(
        [[40, 50], [60, 70]], draw_count=5, signals=((), (SignalKind.NO_JUMP,), (), ())
    )
    assert Signal(pile=1, signal=SignalKind.NO_JUMP, on=True) not in RULES.legal_actions(state, 1)
    with refused(Reason.ILLEGAL_MOVE, "signal_unchanged"):
        RULES.apply(state, 1, Signal(pile=1, signal=SignalKind.NO_JUMP, on=True))


def test_clearing_a_signal_that_is_not_set_is_refused():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    with refused(Reason.ILLEGAL_MOVE, "signal_unchanged"):
        RULES.apply(state, 0, Signal(pile=1, signal=SignalKind.NO_PLAY, on=False))


def test_a_signal_is_not_a_play_and_does_not_pass_the_turn():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    after = RULES.apply(state, 0, Signal(pile=0, signal=SignalKind.NO_PLAY, on=True)).state
    assert after.played_this_turn == 0
    assert after.turn == 0
    assert after.hands == state.hands
    assert (after.tops, after.counts) == (state.tops, state.counts)


def test_a_signal_is_announced_publicly():
    state = make_state([[40, 50], [60, 70]], draw_count=5)
    events = step(state, 1, Signal(pile=2, signal=SignalKind.NO_JUMP, on=True)).events
    assert len(events) == 1
    assert events[0].public
    assert events[0].cards == ()
    assert events[0].params == {"seat": 1, "pile": 2, "signal": "no_jump", "on": True}


def test_signals_are_on_unless_the_table_switches_them_off():
    assert RULES.make_config(2, {}).signals
    assert not RULES.make_config(2, {"signals": False}).signals
    with refused(Reason.BAD_OPTION):
        RULES.make_config(2, {"signals": "maybe"})


def without_signals(state: TheGameState) -> TheGameState:
    return state.model_copy(update={"config": state.config.model_copy(update={"signals": False})})


def test_without_signals_no_signal_is_listed_for_any_seat():
    state = without_signals(make_state([[40, 50], [60, 70]], draw_count=5))
    for seat in (0, 1):
        assert all(a.kind != "signal" for a in RULES.legal_actions(state, seat))
    assert any(a.kind == "play" for a in RULES.legal_actions(state, 0))


def test_without_signals_a_signal_is_refused():
    state = without_signals(make_state([[40, 50], [60, 70]], draw_count=5))
    with refused(Reason.ILLEGAL_MOVE, "signals_off"):
        RULES.apply(state, 1, Signal(pile=0, signal=SignalKind.NO_PLAY, on=True))


# On Fire -------------------------------------------------------------------------------------


def test_on_fire_blue_cards_are_exactly_22_33_44_55_66_77():
    config = TheGameConfig(players=1, on_fire=True)
    assert {card for card in CARDS if config.is_blue(card)} == {22, 33, 44, 55, 66, 77}
    assert frozenset({22, 33, 44, 55, 66, 77}) == BLUE_NUMBERS


def test_without_on_fire_no_card_is_blue():
    config = TheGameConfig(players=1)
    assert not any(config.is_blue(card) for card in CARDS)


def test_on_fire_keeps_the_same_98_card_deck():
    state = dealt(2, on_fire=True)
    assert sorted([*state.draw, *(c for hand in state.hands for c in hand)]) == list(CARDS)


def test_blue_cards_obey_the_normal_placement_rules():
    state = make_state(
        [[22, 44, 55, 66], [2, 3]], piles=((30,), (32,), (50,), (45,)), draw_count=5, on_fire=True
    )
    with refused(Reason.ILLEGAL_MOVE, "cannot_place"):
        play(state, 0, 22, UP1)
    assert play(state, 0, 22, UP2).top(UP2) == 22  # exactly ten lower
    assert play(state, 0, 44, DOWN1).top(DOWN1) == 44
    with refused(Reason.ILLEGAL_MOVE, "cannot_place"):
        play(state, 0, 66, DOWN2)
    assert play(state, 0, 55, DOWN2).top(DOWN2) == 55  # exactly ten higher


def blue_state(players: int = 2, **kwargs):
    """Seat 0 to move in turn 1 with 22 (blue) and plenty of other cards; everyone holds cards."""
    hands = [[22, 23, 24, 25, 26, 27], [60, 61, 62, 63, 64, 65], [70, 71, 72, 73, 74, 75]][:players]
    return make_state(hands, draw_count=20, on_fire=True, **kwargs)


def test_blue_placed_in_turn_t_and_uncovered_at_the_end_of_turn_t_plus_1_burns():
    # (R) turn 1: seat 0 plays blue 22; turn 2: seat 1 plays elsewhere -> burned.
    state = blue_state()
    state = end_turn(play(play(state, 0, 22, UP1), 0, 23, UP2), 0)
    assert not over(state)
    state = play(play(state, 1, 61, DOWN1), 1, 60, DOWN1)
    result = step(state, 1, EndTurn())
    assert result.state.phase is Phase.OVER
    assert result.state.end_reason is EndReason.BURNED
    assert Event(key="thegame.burned", params={"pile": UP1, "card": 22}) in result.events
    outcome = RULES.outcome(result.state)
    assert outcome is not None
    assert outcome.result == BURNED
    assert outcome.winners == ()


def test_burn_is_a_loss_whatever_the_count():
    # Few cards left would be a win by count; burning is still a loss.
    state = make_state(
        [[30, 31], [40, 41]],
        piles=((22,), (), (), ()),
        placed=(1, 0, 0, 0),
        turn_number=2,
        turn=1,
        draw=(),
        on_fire=True,
    )
    after = end_turn(play(state, 1, 40, DOWN1), 1)
    assert after.end_reason is EndReason.BURNED
    assert RULES.outcome(after).result == BURNED
    assert RULES.outcome(after).winners == ()


def test_blue_covered_by_a_non_blue_card_in_the_next_turn_does_not_burn():
    state = blue_state()
    state = end_turn(play(play(state, 0, 22, UP1), 0, 23, UP2), 0)
    state = play(play(state, 1, 60, UP1), 1, 61, UP1)
    after = end_turn(state, 1)
    assert not over(after)
    assert after.turn == 0


def test_blue_covered_in_the_same_turn_does_not_burn_later():
    state = blue_state()
    state = end_turn(play(play(state, 0, 22, UP1), 0, 23, UP1), 0)
    state = end_turn(play(play(state, 1, 61, DOWN1), 1, 60, DOWN1), 1)
    assert not over(state)


def test_a_blue_placed_this_turn_does_not_burn_at_this_turns_end():
    state = blue_state()
    state = play(play(state, 0, 23, UP2), 0, 22, UP1)
    after = end_turn(state, 0)
    assert not over(after)
    assert after.top(UP1) == 22
    assert RULES.view(after, None).piles[UP1].burns_at_turn_end


def test_in_solo_the_next_turn_for_the_burn_is_the_same_players():
    state = blue_state(players=1)
    state = end_turn(play(play(state, 0, 22, UP1), 0, 23, UP2), 0)
    assert state.turn == 0
    assert not over(state)
    after = end_turn(play(play(state, 0, 24, UP2), 0, 25, UP2), 0)
    assert after.end_reason is EndReason.BURNED


def test_in_solo_covering_in_the_next_turn_saves_the_game():
    state = blue_state(players=1)
    state = end_turn(play(play(state, 0, 22, UP1), 0, 24, UP2), 0)
    after = end_turn(play(play(state, 0, 23, UP1), 0, 25, UP2), 0)
    assert not over(after)


def test_covering_a_blue_with_another_blue_does_not_save_it():
    # Seed §8: the blue card must get a NON-blue card on top by the end of the next turn.
    # Turn 1 plays 22; turn 2 covers it only with blue 33 -> burned at the end of turn 2.
    state = make_state([[22, 40, 41, 42, 43], [33, 60, 61, 62, 63]], draw_count=20, on_fire=True)
    state = end_turn(play(play(state, 0, 22, UP1), 0, 40, UP2), 0)
    state = play(play(state, 1, 33, UP1), 1, 60, DOWN1)
    assert state.top(UP1) == 33
    assert RULES.view(state, None).piles[UP1].burns_at_turn_end
    after = end_turn(state, 1)
    assert after.end_reason is EndReason.BURNED


def test_covering_a_blue_with_a_blue_in_the_same_turn_still_burns_at_the_end_of_the_next():
    state = make_state([[22, 33, 40, 41, 42], [60, 61, 62, 63, 64]], draw_count=20, on_fire=True)
    state = end_turn(play(play(state, 0, 22, UP1), 0, 33, UP1), 0)
    assert not over(state)
    after = end_turn(play(play(state, 1, 61, DOWN1), 1, 60, DOWN1), 1)
    assert after.end_reason is EndReason.BURNED


def test_two_blues_covered_by_a_non_blue_card_in_the_next_turn_do_not_burn():
    state = make_state([[22, 33, 40, 41, 42], [60, 61, 62, 63, 64]], draw_count=20, on_fire=True)
    state = end_turn(play(play(state, 0, 22, UP1), 0, 33, UP1), 0)
    after = end_turn(play(play(state, 1, 60, UP1), 1, 61, UP1), 1)
    assert not over(after)


def test_the_next_turn_for_the_burn_is_the_next_turn_actually_taken():
    # Seat 1 has no cards and is skipped; seat 2's turn is the next turn.
    state = make_state([[22, 40, 41], [], [60, 61, 62]], draw=(), on_fire=True)
    state = end_turn(play(state, 0, 22, UP1), 0)
    assert state.turn == 2
    after = end_turn(play(state, 2, 60, DOWN1), 2)
    assert after.end_reason is EndReason.BURNED


def test_stuck_with_a_blue_on_top_ends_by_count_not_burned():
    # (R) blue 77 from turn 1 is still on top when seat 1 is stuck at the start of turn 2.
    state = make_state(
        [[77, 93, 30], [40, 41, 50]], piles=((70,), (92,), (10,), (11,)), draw_count=2, on_fire=True
    )
    state = end_turn(play(play(state, 0, 77, UP1), 0, 93, UP2), 0)
    assert state.phase is Phase.OVER
    assert state.end_reason is EndReason.STUCK
    assert state.top(UP1) == 77
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.details["cards_left"] == 6  # 1 + 2 drawn by seat 0, 3 held by seat 1
    assert outcome.result == WIN


def test_stuck_part_way_with_an_old_blue_on_top_ends_by_count_not_burned():
    state = make_state(
        [[92, 30], [40, 41]],
        piles=((77,), (91,), (10,), (11,)),
        placed=(1, 1, 1, 1),
        turn_number=2,
        draw_count=1,
        on_fire=True,
    )
    after = play(state, 0, 92, UP2)
    assert after.end_reason is EndReason.STUCK
    assert RULES.outcome(after).result == WIN


def test_placing_the_last_card_with_an_old_blue_still_on_top_burns():
    # (R) "at the end of every turn": the turn that places the last card ends too.
    piles = ((*range(2, 22), 22), (*range(23, 50),), (*range(99, 50, -1),), ())
    state = make_state(
        [[50]], piles=piles, placed=(1, 1, 1, 0), turn_number=2, draw=(), on_fire=True
    )
    after = play(state, 0, 50, DOWN2)
    assert after.cards_left == 0
    assert after.end_reason is EndReason.BURNED
    assert RULES.outcome(after).result == BURNED


def test_view_marks_only_old_blue_tops_as_burning():
    state = make_state(
        [[40], [50]],
        piles=((22,), (33,), (66,), (60,)),
        placed=(1, 2, 1, 1),
        turn_number=2,
        draw_count=3,
        on_fire=True,
    )
    flags = [pile.burns_at_turn_end for pile in RULES.view(state, 0).piles]
    assert flags == [True, False, True, False]
    assert [pile.top_blue for pile in RULES.view(state, None).piles] == [True, True, True, False]


# Views ---------------------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_others():
    state = make_state([[40, 50], [60, 70, 80], [2]], draw_count=10)
    view = RULES.view(state, 1)
    assert view.hand == (60, 70, 80)
    assert view.hand_sizes == (2, 3, 1)
    assert view.draw_count == 10
    assert view.cards_left == 16


def test_a_seats_view_does_not_change_when_other_hands_change():
    state = make_state([[40, 50], [60, 70, 80], [2, 3]], draw_count=10)
    other = state.model_copy(update={"hands": ((41, 51), (60, 70, 80), (4, 5))})
    assert RULES.view(other, 1) == RULES.view(state, 1)


def test_the_public_view_has_no_hand():
    state = make_state([[40, 50], [60, 70]], draw_count=10)
    view = RULES.view(state, None)
    assert view.hand is None
    assert view.seat is None


def test_the_public_view_does_not_change_when_hands_and_draw_are_redealt():
    state = make_state([[40, 50], [60, 70]], draw_count=10)
    other = state.model_copy(
        update={"hands": ((90, 91), (92, 93)), "deck": tuple(range(2, 12)), "drawn": 0}
    )
    assert RULES.view(other, None) == RULES.view(state, None)


def test_the_view_shows_piles_signals_turn_and_the_minimum_still_required():
    state = make_state(
        [[40, 50], [60, 70]],
        piles=((30,), (), (80, 75), ()),
        draw_count=10,
        turn=1,
        played=1,
        signals=((SignalKind.NO_PLAY,), (), (), ()),
    )
    view = RULES.view(state, 0)
    assert [(p.ascending, p.top, p.count) for p in view.piles] == [
        (True, 30, 1),
        (True, 1, 0),
        (False, 75, 2),
        (False, 100, 0),
    ]
    assert view.piles[0].signals == (SignalKind.NO_PLAY,)
    assert (view.turn, view.minimum, view.still_required) == (1, 2, 1)


# Events --------------------------------------------------------------------------------------


def test_the_deal_shows_each_hand_only_to_its_seat():
    config = RULES.make_config(3, {"first_player": 0})
    result = RULES.apply(RULES.setup(config), CHANCE, Deal(order=CARDS))
    private = [e for e in result.events if not e.public]
    assert [(e.audience, e.cards) for e in private] == [
        ((seat,), result.state.hands[seat]) for seat in range(3)
    ]
    assert all(e.cards == () for e in result.events if e.public)


def test_a_play_is_announced_publicly_with_the_placed_card():
    state = make_state([[40, 50], [60, 70]], draw_count=10)
    events = step(state, 0, Play(card=50, pile=DOWN2)).events
    assert events == (
        Event(key="thegame.played", params={"seat": 0, "card": 50, "pile": DOWN2}, cards=(50,)),
    )


def test_drawn_cards_are_shown_only_to_the_drawer():
    state = make_state([[40, 50, 60, 61, 62, 63, 64], [70]], draw=(11, 12, 13))
    state = play(play(state, 0, 40, UP1), 0, 50, UP1)
    events = step(state, 0, EndTurn()).events
    drawn = [e for e in events if e.cards]
    assert drawn == [Event(key="thegame.you_drew", audience=(0,), cards=(11, 12))]
    assert Event(key="thegame.turn_ended", params={"seat": 0, "drew": 2}) in events


@pytest.mark.parametrize("seed", range(12))
def test_public_events_carry_only_placed_cards(seed):
    rng = random.Random(seed)
    players = seed % 5 + 1
    config = RULES.make_config(players, {"on_fire": seed % 2 == 0, "first_player": None})
    state, version = RULES.setup(config), 0
    adv = advance(RULES, state, version, CHANCE, None, seed)
    state, version, events = adv.state, len(adv.logged), list(adv.events)
    while not over(state):
        seat = next(iter(RULES.to_move(state).seats))
        action = AI.normal(RULES.view(state, seat), rng)
        adv = advance(RULES, state, version, seat, action, seed)
        state, version = adv.state, version + len(adv.logged)
        placed = set(CARDS) - set(state.draw).union(*state.hands)
        for event in adv.events:
            if event.public:
                assert set(event.cards) <= placed, event
        events += adv.events
    assert any(e.key == "thegame.played" for e in events)


# Invariants over random games ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_games_keep_the_cards_hands_and_turns_consistent(seed):
    rng = random.Random(seed)
    options = {
        "on_fire": rng.random() < 0.5,
        "min_three": rng.random() < 0.3,
        "smaller_hand": rng.random() < 0.3,
        "first_player": None,
    }
    config = RULES.make_config(seed % 5 + 1, options)
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state
    while not over(state):
        held = [*state.draw, *(c for h in state.hands for c in h)]
        tops = [top for top, count in zip(state.tops, state.counts, strict=True) if count]
        assert len(set(held + tops)) == len(held) + len(tops), "a card in two places"
        assert len(held) + sum(state.counts) == len(CARDS)
        assert all(len(hand) <= config.hand_size for hand in state.hands)
        if state.played_this_turn == 0:
            assert state.hands[state.turn], "a turn never starts with an empty hand"
        legal = RULES.legal_actions(state, state.turn)
        plays = [a for a in legal if isinstance(a, Play)]
        if state.played_this_turn < state.minimum:
            # (R) otherwise the engine would have ended the game
            assert plays
            assert EndTurn() not in legal
        else:
            assert EndTurn() in legal
        if state.played_this_turn == 0 and state.draw:
            assert len(state.hands[state.turn]) == config.hand_size
        # Mostly the AI, sometimes a random legal play or end, to reach odd corners.
        if rng.random() < 0.3:
            action = rng.choice([a for a in legal if not isinstance(a, Signal)])
        else:
            action = AI.normal(RULES.view(state, state.turn), rng)
        state = RULES.apply(state, state.turn, action).state
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.details["cards_left"] == state.cards_left
    if state.end_reason is EndReason.ALL_PLAYED:
        assert state.cards_left == 0
        assert outcome.result == PERFECT
    if state.end_reason is EndReason.STUCK:
        assert not placeable_any(state)
