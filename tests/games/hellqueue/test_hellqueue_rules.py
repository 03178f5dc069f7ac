"""Hell Queue Club (seed 003 + RULINGS.md), rule by rule: one behaviour per test.

States are built directly (tests/hellqueue_tables.py) so each test shows exactly the situation
it checks. Dice are written `L4` (large 4), `S4` (small), `B4` (black); stones `RRW`. Slot 0 is
the "8" card, 1 the "10", 2 the "12"; card ids 0–4 are the 8s, 5–8 the 10s, 9–11 the 12s.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine.contract import CHANCE, Step
from games.engine.errors import GameError, Reason
from games.engine.step import advance, replay
from games.exhaust.models import UseTime
from games.hellqueue import RULES
from games.hellqueue.cards import (
    BLACK_DICE,
    DECKS,
    LARGE_DICE,
    NUMBERS,
    PAYS,
    SMALL_DICE,
    STONES,
    STONES_OF,
    STONES_PER_COLOUR,
)
from games.hellqueue.models import (
    Awaken,
    Dice,
    Mark,
    Payout,
    Pick,
    PickFirst,
    Queue,
    Recall,
    Reroll,
    Roll,
    RollMarked,
    Shuffle,
    State,
)
from games.hellqueue.scoring import best_score, marginal, same_colour, winners
from tests.games.hellqueue.hellqueue_tables import counts, dice, stones, table


def act(state: State, seat: int, action: object) -> Step:
    return RULES.apply(state, seat, action)  # type: ignore[arg-type]


def roll(state: State, *rolled: int) -> State:
    return RULES.apply(state, CHANCE, Roll(faces=rolled)).state


def keys(step: Step) -> list[str]:
    return [event.key for event in step.events]


def started(players: int = 4, seed: int = 7, first: int | None = 0) -> State:
    """A new game with every setup chance action resolved."""
    config = RULES.make_config(players, {"first_player": first})
    return advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state


# Config and setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5])
def test_only_three_or_four_players(players):
    with pytest.raises(GameError) as info:
        RULES.make_config(players, {})
    assert info.value.reason is Reason.BAD_OPTION


def test_unknown_option_is_refused():
    with pytest.raises(GameError):
        RULES.make_config(4, {"speed": 2})


def test_each_deck_holds_exactly_the_rulings_cards():
    ruled = ("RRW BBR YYB GGY AAG", "WWAR WWGB AAYR AWBY", "RBYGAW RRGGBW YYBGAW")
    for slot, cards in enumerate(ruled):
        expected = sorted(stones(letters) for letters in cards.split())
        assert sorted(STONES_OF[card] for card in DECKS[slot]) == expected
    assert [len(deck) for deck in DECKS] == [5, 4, 3]


def test_the_stones_of_each_card_are_what_its_three_places_take():
    for slot, deck in enumerate(DECKS):
        for card in deck:
            assert len(STONES_OF[card]) == sum(PAYS[NUMBERS[slot]])


def test_setup_waits_for_chance_with_every_die_unrolled():
    state = RULES.setup(RULES.make_config(3, {}))
    assert RULES.to_move(state).chance
    assert state.black_supply == BLACK_DICE
    assert state.stone_supply == (STONES_PER_COLOUR,) * 6
    assert all(p.active.count == 0 and not p.sleep for p in state.players)
    assert isinstance(RULES.chance_action(state, random.Random(1)), Shuffle)


def test_the_shuffle_reveals_the_top_card_of_each_deck_with_its_stones():
    state = RULES.setup(RULES.make_config(4, {}))
    order = ((3, 0, 1, 2, 4), (8, 5, 6, 7), (10, 9, 11))
    step = act(state, CHANCE, Shuffle(orders=order))
    after = step.state
    assert after.shown == (3, 8, 10)
    assert after.decks == ((0, 1, 2, 4), (5, 6, 7), (9, 11))
    assert after.card_stones == (STONES_OF[3], STONES_OF[8], STONES_OF[10])
    taken = [sum(STONES_OF[c].count(s) for c in (3, 8, 10)) for s in STONES]
    assert after.stone_supply == tuple(STONES_PER_COLOUR - n for n in taken)
    assert [e.cards for e in step.events if e.key == "hellqueue.revealed"] == [(3,), (8,), (10,)]


def test_a_shuffle_that_is_not_a_permutation_of_the_deck_is_refused():
    state = RULES.setup(RULES.make_config(4, {}))
    with pytest.raises(GameError):
        act(state, CHANCE, Shuffle(orders=((0, 0, 1, 2, 4), (5, 6, 7, 8), (9, 10, 11))))


def test_setup_rolls_each_seat_large_dice_to_active_and_small_dice_to_sleep():
    state = RULES.setup(RULES.make_config(3, {"first_player": 1}))
    state = act(state, CHANCE, Shuffle(orders=DECKS)).state
    state = roll(state, 6, 5, 4, 3, 2, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6)  # 5 large, 10 small
    seat0 = state.players[0]
    assert seat0.active == Dice(large=(2, 3, 4, 5, 6))
    assert seat0.sleep == (1, 1, 2, 2, 3, 3, 4, 4, 5, 6)
    assert state.rolling is not None and state.rolling.seat == 1
    assert state.rolling.large == LARGE_DICE and state.rolling.small == SMALL_DICE


def test_after_the_last_seat_rolls_the_configured_first_player_starts():
    state = started(3, first=2)
    assert state.phase == "play"
    assert RULES.to_move(state).seats == {2}


def test_a_random_first_player_is_a_chance_action():
    config = RULES.make_config(4, {})
    state = RULES.setup(config)
    state = act(state, CHANCE, Shuffle(orders=DECKS)).state
    for _ in range(4):
        state = roll(state, *(1,) * 15)
    assert RULES.to_move(state).chance
    assert act(state, CHANCE, PickFirst(seat=3)).state.turn == 3


# Queue -----------------------------------------------------------------------------------------


def test_queue_places_the_whole_face_group_large_small_and_black_alike():
    state = table(active={0: "L4 S4 B4 L2"}, queues={0: {1: "L6"}})
    after = act(state, 0, Queue(face=4, slot=0)).state
    assert after.queues[0][0] == dice("L4 S4 B4")
    assert after.players[0].active == dice("L2")


def test_queue_of_a_face_you_do_not_have_is_refused():
    state = table(active={0: "L4"})
    with pytest.raises(GameError) as info:
        act(state, 0, Queue(face=5, slot=0))
    assert info.value.detail == "no_such_face"


def test_queue_that_would_overflow_the_card_is_refused():
    state = table(active={0: "L1 L1 S1 S1"}, queues={0: {1: "L5 L5 L5 L5 L5"}})
    with pytest.raises(GameError) as info:
        act(state, 0, Queue(face=1, slot=0))
    assert info.value.detail == "card_overflow"
    assert Queue(face=1, slot=0) not in RULES.legal_actions(state, 0)


def test_queue_under_a_used_up_deck_is_refused():
    state = table(active={0: "L1"}, shown=(None, 5, 9), decks=((), (6,), (10,)))
    with pytest.raises(GameError) as info:
        act(state, 0, Queue(face=1, slot=0))
    assert info.value.detail == "no_card"


def test_first_die_under_an_empty_card_brings_a_black_die_rolled_onto_the_active_card():
    state = table(active={0: "L3"})
    step = act(state, 0, Queue(face=3, slot=1))
    assert step.state.black_supply == BLACK_DICE - 1
    assert RULES.to_move(step.state).chance
    after = roll(step.state, 5)
    assert after.players[0].active == dice("B5")
    assert RULES.to_move(after).seats == {1}


def test_a_die_under_a_card_with_dice_brings_no_black_die():
    state = table(active={0: "L3"}, queues={1: {2: "S1"}})
    after = act(state, 0, Queue(face=3, slot=1)).state
    assert after.black_supply == BLACK_DICE
    assert after.rolling is None


def test_with_the_supply_empty_the_black_die_comes_from_the_rest_area():
    state = table(active={0: "L3"}, black_supply=0, rest_black=2)
    after = act(state, 0, Queue(face=3, slot=1)).state
    assert after.rest_black == 1
    assert after.rolling is not None and after.rolling.black == 1


def test_with_the_supply_empty_the_black_die_may_come_from_an_opponents_active_card():
    state = table(active={0: "L3", 2: "B6 B2 L1"}, black_supply=0, rest_black=1)
    step = act(state, 0, Queue(face=3, slot=1, steal_seat=2, steal_face=6))
    assert step.state.players[2].active == dice("B2 L1")
    assert step.state.rest_black == 1
    assert roll(step.state, 4).players[0].active == dice("B4")
    stolen = [e for e in step.events if e.key == "hellqueue.black_stolen"]
    assert stolen[0].params == {"seat": 2, "to_seat": 0, "face": 6}


def test_the_black_die_sources_are_listed_when_the_supply_is_empty():
    state = table(active={0: "L3", 1: "B2", 3: "B5 B5"}, black_supply=0, rest_black=1)
    options = {
        (a.steal_seat, a.steal_face)
        for a in RULES.legal_actions(state, 0)
        if isinstance(a, Queue) and a.slot == 1
    }
    assert options == {(None, None), (1, 2), (3, 5)}


def test_with_the_supply_and_rest_area_empty_the_black_die_must_be_an_opponents():
    state = table(active={0: "L3", 1: "B2"}, black_supply=0)
    with pytest.raises(GameError) as info:
        act(state, 0, Queue(face=3, slot=1))
    assert info.value.detail == "bad_black_source"
    assert act(state, 0, Queue(face=3, slot=1, steal_seat=1, steal_face=2)).state.rolling


def test_a_black_die_cannot_be_taken_from_an_opponent_while_the_supply_has_one():
    state = table(active={0: "L3", 2: "B6"})
    with pytest.raises(GameError) as info:
        act(state, 0, Queue(face=3, slot=1, steal_seat=2, steal_face=6))
    assert info.value.detail == "bad_black_source"


def test_a_black_die_cannot_be_taken_from_your_own_active_card():
    state = table(active={0: "L3 B6"}, black_supply=0)
    with pytest.raises(GameError):
        act(state, 0, Queue(face=3, slot=1, steal_seat=0, steal_face=6))


def test_with_no_black_die_anywhere_the_first_die_brings_none():
    state = table(active={0: "L3"}, black_supply=0)
    step = act(state, 0, Queue(face=3, slot=1))
    assert step.state.rolling is None
    assert "hellqueue.no_black" in keys(step)
    assert RULES.to_move(step.state).seats == {1}


def test_queue_reaching_the_exact_number_pays_out():
    state = table(active={0: "L2 L2"}, queues={0: {0: "L1 L1 L1", 1: "L3 L3 L3"}})
    step = act(state, 0, Queue(face=2, slot=0))
    assert "hellqueue.payout" in keys(step)
    assert step.state.payout == Payout(slot=0, ranking=((0,), (1,)), picks=(0, 0, 1))
    assert RULES.to_move(step.state).seats == {0}


def test_queue_short_of_the_number_does_not_pay_out():
    state = table(active={0: "L2"}, queues={0: {0: "L1 L1 L1", 1: "L3 L3 L3"}})
    step = act(state, 0, Queue(face=2, slot=0))
    assert step.state.payout is None
    assert RULES.to_move(step.state).seats == {1}


# Awaken ----------------------------------------------------------------------------------------


def test_awaken_wakes_the_sleeping_dice_of_the_rested_face():
    state = table(active={0: "L3 L5"}, sleep={0: "3 3 3 4"})
    after = act(state, 0, Awaken(face=3, wake=3)).state
    assert after.players[0].active == dice("L5 S3 S3 S3")
    assert after.players[0].sleep == (4,)
    assert after.players[0].rest_large == 1


def test_awaken_with_one_die_cannot_wake_another_face():
    state = table(active={0: "L3"}, sleep={0: "5 5"})
    with pytest.raises(GameError) as info:
        act(state, 0, Awaken(face=3, wake=5))
    assert info.value.detail == "bad_wake"


def test_awaken_with_two_or_more_dice_wakes_any_one_face_group():
    state = table(active={0: "L4 S4"}, sleep={0: "5 5 5 2"})
    after = act(state, 0, Awaken(face=4, wake=5)).state
    assert after.players[0].active == dice("S5 S5 S5")
    assert after.players[0].sleep == (2,)
    assert (after.players[0].rest_large, after.players[0].rest_small) == (1, 1)


def test_awaken_whose_face_matches_no_sleeping_die_is_legal_and_wakes_nothing():
    state = table(active={0: "L6"}, sleep={0: "1 2"})
    assert Awaken(face=6, wake=6) in RULES.legal_actions(state, 0)
    after = act(state, 0, Awaken(face=6, wake=6)).state
    assert after.players[0].sleep == (1, 2)
    assert after.players[0].active.count == 0


def test_a_rested_black_die_goes_to_the_rest_area():
    state = table(active={0: "B2 L2"})
    after = act(state, 0, Awaken(face=2, wake=2)).state
    assert after.rest_black == 1
    assert after.players[0].rest_large == 1


# Reroll ----------------------------------------------------------------------------------------


def test_reroll_rests_the_face_group_then_asks_which_dice_to_reroll():
    state = table(active={0: "L1 L1 L4"}, sleep={0: "2"})
    after = act(state, 0, Reroll(face=1)).state
    assert after.phase == "reroll"
    assert after.players[0].rest_large == 2
    assert RULES.to_move(after).seats == {0}
    assert RollMarked() in RULES.legal_actions(after, 0)


def test_reroll_may_split_a_face_group_and_sends_large_and_black_to_active_small_to_sleep():
    state = table(active={0: "L1 L4 L4 S4 B4"}, sleep={0: "2 2"})
    state = act(state, 0, Reroll(face=1)).state
    for mark in (
        Mark(where="active", size="large", face=4, count=1),
        Mark(where="active", size="small", face=4),
        Mark(where="active", size="black", face=4),
        Mark(where="sleep", size="small", face=2),
    ):
        state = act(state, 0, mark).state
    assert state.players[0].active == dice("L4")
    state = act(state, 0, RollMarked()).state
    assert state.rolling is not None and state.rolling.count == 4
    after = roll(state, 6, 5, 3, 1)  # large, small (active 4, sleep 2), black
    assert after.players[0].active == dice("L4 L6 B1")
    assert after.players[0].sleep == (2, 3, 5)
    assert RULES.to_move(after).seats == {1}


def test_marking_more_dice_than_there_are_is_refused():
    state = act(table(active={0: "L1 L4"}), 0, Reroll(face=1)).state
    with pytest.raises(GameError) as info:
        act(state, 0, Mark(where="active", size="large", face=4, count=2))
    assert info.value.detail == "no_such_die"


def test_the_sleep_card_holds_no_large_die_to_reroll():
    state = act(table(active={0: "L1"}, sleep={0: "4"}), 0, Reroll(face=1)).state
    with pytest.raises(GameError):
        act(state, 0, Mark(where="sleep", size="large", face=4))


def test_rerolling_no_dice_ends_the_turn_without_a_roll():
    state = act(table(active={0: "L1 L4"}), 0, Reroll(face=1)).state
    after = act(state, 0, RollMarked()).state
    assert after.players[0].active == dice("L4")
    assert RULES.to_move(after).seats == {1}


# Recall ----------------------------------------------------------------------------------------


def test_recall_takes_your_rest_dice_and_every_black_die_there_and_rerolls_them():
    state = table(active={0: "L6"}, rest={0: (2, 3), 1: (1, 1)}, rest_black=2)
    step = act(state, 0, Recall())
    assert step.events[0].params["case"] == "rest"
    mid = step.state
    assert mid.rest_black == 0 and mid.players[1].rest_large == 1
    after = roll(mid, 1, 2, 3, 3, 4, 5, 6)  # 2 large, 3 small, 2 black
    assert after.players[0].active == dice("L6 L1 L2 B5 B6")
    assert after.players[0].sleep == (3, 3, 4)
    assert (after.players[0].rest_large, after.players[0].rest_small) == (0, 0)


def test_recall_with_none_of_your_dice_resting_takes_only_the_black_dice():
    state = table(active={0: "L6"}, rest={1: (2, 0)}, rest_black=1)
    step = act(state, 0, Recall())
    assert step.events[0].params["case"] == "black"
    after = roll(step.state, 3)
    assert after.players[0].active == dice("L6 B3")
    assert after.players[1].rest_large == 2


def test_recall_with_nothing_resting_and_an_empty_active_card_takes_back_every_queued_die():
    state = table(
        active={0: ""},
        sleep={0: "2"},
        queues={0: {0: "L1 S1", 1: "L5"}, 2: {0: "B4 L4"}},
    )
    step = act(state, 0, Recall())
    assert step.events[0].params == {"seat": 0, "case": "cards", "large": 2, "small": 1, "black": 1}
    assert step.state.queues[0][0].count == 0 and step.state.queues[2][0].count == 0
    assert step.state.queues[0][1] == dice("L5")
    after = roll(step.state, 6, 6, 2, 3)
    assert after.players[0].active == dice("L6 L6 B3")
    assert after.players[0].sleep == (2, 2)


def test_recall_is_refused_with_nothing_resting_and_dice_on_the_active_card():
    state = table(active={0: "L2"}, queues={0: {0: "L1"}})
    assert Recall() not in RULES.legal_actions(state, 0)
    with pytest.raises(GameError) as info:
        act(state, 0, Recall())
    assert info.value.detail == "nothing_to_recall"


# Payout ----------------------------------------------------------------------------------------


def pay(queues: dict[int, str], slot: int = 2, **options: object) -> State:
    """Seat 0 completes the card in `slot` with its `L6` group; `queues` is what was there."""
    state = table(active={0: "L6"}, queues={slot: queues}, **options)  # type: ignore[arg-type]
    return act(state, 0, Queue(face=6, slot=slot)).state


def test_the_most_dice_ranks_first():
    state = pay({0: "S1 S1 S1", 1: "L5 L5 L5 L5 L5", 2: "S1 S1 S1"})
    assert state.payout is not None
    assert state.payout.ranking == ((1,), (0,), (2,))


def test_equal_counts_rank_by_large_dice_with_black_counted_large():
    state = pay({0: "S1 S1 S1", 1: "S5 S5 B1 B1", 2: "S6 S6 S6 S6"})
    assert state.payout is not None
    assert state.payout.ranking == ((1,), (0,), (2,))


def test_equal_counts_and_sizes_rank_by_the_sum_of_faces():
    state = pay({0: "L1 L1 L1", 1: "L1 L2 L3 L4", 2: "L6 L6 L1 L1"})
    assert state.payout is not None
    assert state.payout.ranking == ((2,), (1,), (0,))


def test_a_full_tie_rolls_off_as_chance_until_it_breaks():
    state = pay({0: "L1 L1 L1", 1: "L4 L2 L2 L1", 2: "L6 L6 L6 L6"})
    assert state.payout is not None
    assert state.payout.ranking == ((2,), (0, 1))
    assert RULES.to_move(state).chance
    state = roll(state, 2, 2, 2, 2, 1, 1, 3, 3)  # seat 0 sums 8, seat 1 sums 8: tied again
    assert state.payout is not None and state.payout.ranking == ((2,), (0, 1))
    state = roll(state, 1, 1, 1, 1, 6, 6, 6, 6)
    assert state.payout is not None and state.payout.ranking == ((2,), (1,), (0,))
    assert state.queues[2][1] == dice("L6 L6 L6 L6")


def test_a_tie_for_a_place_that_earns_nothing_does_not_roll_off():
    state = table(active={0: "L6 L6"}, queues={0: {1: "L5 L5 L5 L5", 2: "L2", 3: "L2"}})
    state = act(state, 0, Queue(face=6, slot=0)).state
    assert state.payout is not None
    assert state.payout.ranking == ((1,), (0,), (2, 3))
    assert not RULES.to_move(state).chance


@pytest.mark.parametrize(
    ("slot", "pays"),
    [(2, (3, 2, 1)), (1, (2, 1, 1)), (0, (2, 1))],
)
def test_each_card_pays_its_table_in_rank_order(slot, pays):
    # Seats 1, 2, 3 hold fewer dice in that order; seat 0 completes the card with one die.
    sizes = {12: (5, 4, 2), 10: (4, 3, 2), 8: (3, 2, 2)}[NUMBERS[slot]]
    shown = {1: "L5", 2: "L4", 3: "L3"}
    queues = {seat: " ".join([shown[seat]] * n) for seat, n in zip(shown, sizes, strict=True)}
    state = pay(queues, slot=slot, card_stones={slot: "RBYGAW"[: sum(pays)]})
    assert state.payout is not None
    assert state.payout.ranking == ((1,), (2,), (3,), (0,))
    expected = [seat for seat, n in zip((1, 2, 3), pays, strict=False) for _ in range(n)]
    assert state.payout.picks == tuple(expected)


def test_picks_are_asked_of_the_picking_seat_with_the_colours_left():
    state = pay({1: "L5 L5 L5 L5 L5", 2: "L4 L4 L4 L4", 3: "L3 L3"})
    assert RULES.to_move(state).seats == {1}
    assert {a.stone for a in RULES.legal_actions(state, 1)} == set(STONES_OF[9])
    assert RULES.legal_actions(state, 0) == []


def test_a_pick_of_a_colour_that_is_gone_is_refused():
    state = pay({1: "L5 L5 L5 L5 L5", 2: "L4 L4 L4 L4", 3: "L3 L3"}, card_stones={2: "RRGGBW"})
    with pytest.raises(GameError) as info:
        act(state, 1, Pick(stone="yellow"))
    assert info.value.detail == "stone_gone"


def test_a_pick_by_a_seat_that_is_not_picking_is_refused():
    state = pay({1: "L5 L5 L5 L5 L5", 2: "L4 L4 L4 L4", 3: "L3 L3"})
    with pytest.raises(GameError) as info:
        act(state, 2, Pick(stone="red"))
    assert info.value.reason is Reason.NOT_YOUR_TURN


def test_a_pick_with_a_single_colour_left_is_taken_for_the_picker():
    state = pay({1: "L5 L5 L5 L5 L5 L5 L5"}, slot=0, card_stones={0: "RRW"})
    # Seat 1 first (2 picks), seat 0 second (1 pick).
    state = act(state, 1, Pick(stone="white")).state
    assert state.players[1].stones == counts("RW")
    assert state.players[0].stones == counts("R")
    assert state.payout is None


def test_stones_nobody_takes_go_back_to_the_supply():
    state = pay({1: "L5 L5 L5 L5 L5 L5 L5 L5 L5 L5 L5"}, card_stones={2: "RBYGAW"})
    supply = state.stone_supply
    # Two places only: 3 + 2 stones are picked, the last goes back.
    for seat, stone in ((1, "red"), (1, "blue"), (1, "yellow"), (0, "green")):
        state = act(state, seat, Pick(stone=stone)).state
    assert RULES.to_move(state).seats == {0}
    state = act(state, 0, Pick(stone="aqua")).state
    assert state.payout is None
    assert state.stone_supply[STONES.index("white")] == supply[STONES.index("white")] + 1 - (
        STONES_OF[10].count("white")
    )


def test_after_a_payout_the_dice_rest_the_card_goes_and_the_next_card_shows():
    state = pay({1: "L5 L5 B5 S5 S5 S5 S5", 2: "S1 S1 S1 S1"}, card_stones={2: "RRRRRR"})
    assert state.payout is None
    assert state.removed == (9,)
    assert state.shown[2] == 10
    assert state.card_stones[2] == STONES_OF[10]
    assert state.decks[2] == (11,)
    assert all(queue.count == 0 for queue in state.queues[2])
    assert (state.players[1].rest_large, state.players[1].rest_small) == (2, 4)
    assert state.players[0].rest_large == 1
    assert state.rest_black == 1
    assert state.players[1].stones == counts("RRR")


def test_the_fourth_place_gets_nothing():
    state = pay({1: "L5 L5 L5 L5", 2: "L4 L4 L4", 3: "L3 L3 L3 L3"}, slot=2)
    assert state.payout is not None
    assert state.payout.ranking[-1] == (0,)
    assert 0 not in (state.payout.picks or ())


# The end and scoring ----------------------------------------------------------------------------


def test_the_game_ends_when_a_second_deck_is_used_up():
    state = table(
        active={0: "L6"},
        shown=(0, None, 11),
        decks=((1,), (), ()),
        queues={2: {1: "L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1"}},
        card_stones={2: "RRRRRR"},
    )
    step = act(state, 0, Queue(face=6, slot=2))
    assert step.state.phase == "over"
    assert RULES.is_over(step.state)
    assert "hellqueue.deck_done" in keys(step)
    assert RULES.outcome(step.state) is not None


def test_one_deck_used_up_does_not_end_the_game():
    state = table(
        active={0: "L6"},
        shown=(0, 5, 11),
        decks=((1,), (6,), ()),
        queues={2: {1: "L1 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1"}},
        card_stones={2: "RRRRRR"},
    )
    after = act(state, 0, Queue(face=6, slot=2)).state
    assert after.shown[2] is None
    assert not RULES.is_over(after)


@pytest.mark.parametrize(
    ("owned", "score"),
    [
        ("R", 1),
        ("RR", 3),
        ("RRR", 6),
        ("RRRR", 12),
        ("RRRRR", 20),
        ("RRRRRR", 30),
        ("RB", 3),
        ("RBY", 6),
        ("RBYG", 10),
        ("RBYGA", 15),
        ("RBYGAW", 21),
    ],
)
def test_the_score_table(owned, score):
    assert best_score(counts(owned)) == score


@pytest.mark.parametrize(("n", "score"), [(7, 42), (8, 56), (10, 90)])
def test_more_than_six_of_one_colour_score_n_times_n_minus_one(n, score):
    assert same_colour(n) == score
    assert best_score(counts("G" * n)) == score


def test_scoring_takes_the_best_split_as_in_the_seed_example():
    # Five red and one each of red, blue, yellow, green: 36 beats 20 + 10.
    assert best_score(counts("RRRRRRBYG")) == 36


def test_the_best_split_may_use_two_different_colour_groups():
    assert best_score(counts("RRBBYYGG")) == 20  # two groups of four colours, not 4 pairs


def test_marginal_is_what_one_more_stone_adds_to_the_best_split():
    assert marginal(counts("RRR"), STONES.index("red")) == 6


def test_highest_score_wins():
    assert winners((30, 20, 10), (0, 9, 9)) == (0,)


def test_a_score_tie_goes_to_more_dice_left():
    assert winners((30, 30, 10), (4, 5, 9)) == (1,)


def test_a_tie_on_score_and_dice_left_is_a_shared_win():
    assert winners((30, 30, 10), (5, 5, 9)) == (0, 1)


def test_dice_left_counts_own_active_and_sleep_dice_and_black_dice_on_the_active_card():
    state = table(
        active={0: "L1 B2 B3", 1: "L1 L2 L3"},
        sleep={0: "1 1", 1: "2"},
        rest={0: (4, 4)},
        shown=(None, None, 9),
        decks=((), (), ()),
        owned={0: "RR", 1: "BB"},
        phase="over",
    )
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.details["dice_left_0"] == 5 and outcome.details["dice_left_1"] == 4
    assert outcome.winners == (0,)
    assert outcome.result == "win"


def test_the_outcome_reports_a_shared_win():
    state = table(
        active={0: "L1", 1: "L2"},
        shown=(None, None, 9),
        decks=((), (), ()),
        owned={0: "RR", 1: "BB"},
        phase="over",
    )
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.result == "shared_win"
    assert outcome.scores == (3, 3, 0, 0)


# Turns, bad input, chance ---------------------------------------------------------------------


def test_an_action_out_of_turn_is_refused():
    state = table(active={0: "L1", 1: "L1"})
    with pytest.raises(GameError) as info:
        act(state, 1, Queue(face=1, slot=0))
    assert info.value.reason is Reason.NOT_YOUR_TURN


def test_a_chance_action_from_a_seat_is_refused():
    state = table(active={0: "L3"})
    mid = act(state, 0, Queue(face=3, slot=1)).state
    with pytest.raises(GameError):
        act(mid, 1, Roll(faces=(4,)))


def test_an_action_of_another_game_is_refused():
    with pytest.raises(GameError):
        act(table(active={0: "L1"}), 0, UseTime())


def test_a_roll_with_the_wrong_number_of_dice_is_refused():
    mid = act(table(active={0: "L3"}), 0, Queue(face=3, slot=1)).state
    with pytest.raises(GameError):
        roll(mid, 4, 4)
    with pytest.raises(GameError):
        roll(mid, 7)


def test_a_mark_outside_the_reroll_choice_is_refused():
    with pytest.raises(GameError) as info:
        act(table(active={0: "L1"}), 0, Mark(where="active", size="large", face=1))
    assert info.value.detail == "not_now"


def test_nothing_is_accepted_once_the_game_is_over():
    state = table(active={0: "L1"}, phase="over")
    with pytest.raises(GameError) as info:
        act(state, 0, Queue(face=1, slot=0))
    assert info.value.reason is Reason.GAME_OVER


# Whole games: every roll is logged, the view is the table, nothing else is hidden -------------


def random_game(players: int, seed: int) -> tuple[State, list, list]:
    """A random legal game through the engine; returns (final state, log, states)."""
    config = RULES.make_config(players, {})
    adv = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, log, states = adv.state, list(adv.logged), [adv.state]
    rng = random.Random(seed)
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        action = rng.choice(RULES.legal_actions(state, seat))
        adv = advance(RULES, state, len(log), seat, action, seed)
        state = adv.state
        log += adv.logged
        states.append(state)
    return state, log, states


def dice_count(state: State) -> tuple[list[int], int]:
    """Each colour's dice and the black dice, wherever they are (rolling ones included)."""
    own = [0] * state.config.players
    black = state.black_supply + state.rest_black
    for seat, player in enumerate(state.players):
        own[seat] += player.active.count - len(player.active.black) + len(player.sleep)
        own[seat] += player.rest_large + player.rest_small
        black += len(player.active.black)
        for queue in state.queues:
            own[seat] += queue[seat].count - len(queue[seat].black)
            black += len(queue[seat].black)
    if state.marked is not None:
        own[state.turn] += state.marked.count - len(state.marked.black)
        black += len(state.marked.black)
    if state.rolling is not None:
        own[state.rolling.seat] += state.rolling.large + state.rolling.small
        black += state.rolling.black
    return own, black


@pytest.mark.parametrize("players", [3, 4])
def test_every_die_and_stone_stays_on_the_table(players):
    _, _, states = random_game(players, 11)
    for state in states[1:]:
        assert dice_count(state) == ([LARGE_DICE + SMALL_DICE] * players, BLACK_DICE)
        on_cards = sum(len(s) for s in state.card_stones)
        owned = sum(sum(p.stones) for p in state.players)
        assert sum(state.stone_supply) + on_cards + owned == STONES_PER_COLOUR * len(STONES)


def test_a_game_replays_from_its_log_and_every_roll_is_a_small_logged_chance_action():
    state, log, _ = random_game(4, 5)
    assert replay(RULES, RULES.make_config(4, {}), log) == state
    chance = [entry for entry in log if entry.actor == CHANCE]
    assert {entry.action["kind"] for entry in chance} >= {"shuffle", "roll", "first"}
    assert max(len(json.dumps(entry.action)) for entry in log) < 200


def test_every_event_is_public_and_keyed_for_hell_queue():
    config = RULES.make_config(3, {})
    state = RULES.setup(config)
    rng = random.Random(3)
    seen = set()
    while not RULES.is_over(state):
        tm = RULES.to_move(state)
        if tm.chance:
            step = act(state, CHANCE, RULES.chance_action(state, rng))
        else:
            seat = next(iter(tm.seats))
            step = act(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        for event in step.events:
            assert event.key.startswith("hellqueue.") and event.public
            assert not set(event.cards) & RULES.secret_cards(step.state)
            seen.add(event.key)
        state = step.state
    assert {"hellqueue.revealed", "hellqueue.queued", "hellqueue.picked"} <= seen


def test_the_secret_cards_are_the_face_down_deck_cards():
    state = started()
    assert RULES.secret_cards(state) == frozenset(c for deck in state.decks for c in deck)
    assert not RULES.secret_cards(state) & {c for c in state.shown if c is not None}


def test_the_view_shows_the_whole_table_but_the_deck_order():
    state = table(
        active={0: "L1 B2"},
        sleep={0: "3"},
        queues={1: {2: "S4 S4"}},
        rest={1: (1, 2)},
        owned={3: "RRRR"},
    )
    view = RULES.view(state, None)
    assert view.deck_sizes == (4, 3, 2)
    assert view.totals == (0, 2, 0)
    assert view.scores == (0, 0, 0, 12)
    assert view.dice_left == (3, 0, 0, 0)
    assert view.players == state.players and view.queues == state.queues
    assert view.card_stones == state.card_stones
    assert RULES.view(state, 2).model_copy(update={"seat": None}) == view


def test_resampling_reshuffles_only_the_deck_order():
    state = started()
    other = RULES.resample_hidden(state, 1, random.Random(2))
    assert [sorted(d) for d in other.decks] == [sorted(d) for d in state.decks]
    assert RULES.view(other, 1) == RULES.view(state, 1)


@pytest.mark.parametrize("players", [3, 4])
def test_a_state_sampled_from_a_view_shows_that_view(players):
    _, _, states = random_game(players, 21)
    rng = random.Random(0)
    for state in states[:: max(1, len(states) // 40)]:
        view = RULES.view(state, 0)
        sampled = RULES.sample_state(view, rng)
        assert RULES.view(sampled, 0) == view
        assert [sorted(d) for d in sampled.decks] == [sorted(d) for d in state.decks]
        assert sampled.model_copy(update={"decks": state.decks}) == state


def test_a_sampled_state_draws_the_deck_order_at_random():
    state = started()
    view = RULES.view(state, None)
    orders = {RULES.sample_state(view, random.Random(i)).decks for i in range(20)}
    assert len(orders) > 1


def test_the_payout_waits_for_a_pending_roll_first():
    # The first die under the empty "8" card fills it at once: the black die rolls first.
    state = table(active={0: "L2 L2 L2 L2 L2 L2 L2 L2"}, card_stones={0: "RRR"})
    mid = act(state, 0, Queue(face=2, slot=0)).state
    assert mid.rolling is not None and mid.payout is not None
    after = roll(mid, 3)
    assert after.players[0].active == dice("B3")
    assert after.payout is None and after.players[0].stones == counts("RR")


def test_payout_model_round_trips():
    payout = Payout(slot=1, ranking=((0,), (1, 2)), picks=(0, 0))
    assert Payout.model_validate_json(payout.model_dump_json()) == payout
