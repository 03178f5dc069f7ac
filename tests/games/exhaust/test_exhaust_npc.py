"""Exhaust solo: the NPC's procedure (seed 001 'NPCの手番の処理' + RULINGS), step by step.

Cards are written like `r7` (red 7); `x0`..`x3` are copy cards. The solo table is:
0 Single (any colour), 1 Pair, 2 Three, 3 Four, 4 Straight, 5 Flush, 6 Any.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.contract import CHANCE, Step
from games.engine.errors import GameError
from games.engine.step import advance, replay
from games.exhaust import AI, RULES
from games.exhaust.cards import is_copy, number
from games.exhaust.models import (
    NPC,
    NpcOut,
    NpcPlay,
    NpcState,
    NpcUseTime,
    PlayCards,
    Played,
    State,
)
from tests.games.exhaust.exhaust_cards import ANY, FLUSH, FOUR, PAIR, SINGLE, STRAIGHT, THREE, c, cs


def played(specs: str) -> tuple[Played, ...]:
    cards = cs(specs)
    return (Played(by=0, cards=cards, high=max(number(x) for x in cards if not is_copy(x))),)


BLOCK_SETS = {SINGLE: played("r15"), PAIR: played("r15 b15"), FOUR: played("r15 b15 y15 g15")}
"""Stacks on which no further Single, Pair or Four can be played."""
BLOCK_RUNS = {
    STRAIGHT: played("r1 b2 y3 g4 r5 b6 y7 g8 r9 b10 y11"),
    FLUSH: played("g1 g2 g3 g4 g5 g6 g7 g8 g9 g10 g11"),
    ANY: played("y1 y2 y3 y4 y5 y6 y7 y8 y9 y10 y11"),
}
"""Stacks that need 12+ cards next: nothing in these tests can be played there."""


def solo(
    npc_hand: str = "",
    pile: str = "",
    *,
    human: str = "r14 b14",
    npc_time: int = 0,
    stacks: dict[int, tuple[Played, ...]] | None = None,
    refill: str = "",
    turn: int = NPC,
    time_pile: int = 16,
) -> State:
    """A solo state (by default at the NPC's turn) with exactly these cards."""
    piles = [()] * 7
    for index, plays in (stacks or {}).items():
        piles[index] = plays
    return State(
        config=RULES.make_config(1, {"first_player": None}),
        phase="play",
        game_no=1,
        turn=turn,
        hands=(cs(human) if human else (),),
        refill=cs(refill) if refill else (),
        time_pile=time_pile,
        time_cards=(0,),
        stacks=tuple(piles),
        depletion=(0,),
        flipped=(0,),
        npc=NpcState(
            hand=cs(npc_hand) if npc_hand else (),
            pile=cs(pile) if pile else (),
            time_cards=npc_time,
        ),
    )


def npc_turn(state: State, seed: int = 0) -> Step:
    """Let chance play the NPC's turn, as the engine does."""
    return RULES.apply(state, CHANCE, RULES.chance_action(state, random.Random(seed)))


def npc_play(state: State, seed: int = 0) -> PlayCards | NpcPlay:
    action = RULES.chance_action(state, random.Random(seed))
    assert isinstance(action, NpcPlay), action
    return action


def blocked(*keep: int) -> dict[int, tuple[Played, ...]]:
    """Stacks blocking every combo but `keep`."""
    return {k: v for k, v in {**BLOCK_SETS, **BLOCK_RUNS}.items() if k not in keep}


# Setup and turn order ----------------------------------------------------------------------


def test_solo_human_gets_fifteen_cards_and_the_npc_pile_its_size():
    config = RULES.make_config(1, {"npc_size": 20, "first_player": None})
    state = advance(RULES, RULES.setup(config), 0, 0, None, 3).state
    assert len(state.hands[0]) == 15 and len(state.npc.pile) == 20
    assert len(state.refill) == 64 - 15 - 20 and state.npc.hand == ()


def test_solo_human_starts():
    config = RULES.make_config(1, {"first_player": None})
    state = advance(RULES, RULES.setup(config), 0, 0, None, 3).state
    assert state.turn == 0 and RULES.to_move(state).seats == {0}


def test_npc_turn_is_a_chance_action_and_no_seat_may_act():
    state = solo("r1", "b2 b3")
    assert RULES.to_move(state).chance and not RULES.to_move(state).seats
    assert RULES.legal_actions(state, 0) == []


def test_engine_plays_the_npc_right_after_the_human():
    state = solo("", "b3 b4 b5 b6 b7 b8", human="r1 r2 r9", turn=0)
    adv = advance(RULES, state, 0, 0, PlayCards(combo=SINGLE, cards=cs("r1")), 1)
    assert [e.actor for e in adv.logged] == [0, CHANCE]
    assert adv.state.turn == 0 and adv.state.stacks[SINGLE][-1].cards == cs("b3")


# 1. Filling the hand space -------------------------------------------------------------------


def test_npc_fills_its_hand_space_to_five_from_the_top_of_its_pile():
    step = npc_turn(solo("r9 r10", "b3 b4 b5 g1 g2"))
    assert step.state.npc.pile == cs("g1 g2")
    filled = next(e for e in step.events if e.key == "exhaust.npc_filled")
    assert filled.cards == cs("b3 b4 b5") and filled.public


def test_npc_plays_from_the_filled_hand_space():
    step = npc_turn(solo("r9 r10", "b3 b4 b5 g1 g2"))
    assert step.state.stacks[SINGLE][-1].cards == cs("b3")
    assert step.state.npc.hand == cs("r9 r10 b4 b5")


def test_npc_fill_stops_when_the_pile_runs_out():
    step = npc_turn(solo("r9", "b3"))
    assert step.state.npc.pile == () and step.state.npc.hand == cs("r9")


def test_npc_hand_space_already_full_draws_nothing():
    step = npc_turn(solo("r9 r10 r11 r12 r13", "b3"))
    assert step.state.npc.pile == cs("b3")
    assert "exhaust.npc_filled" not in [e.key for e in step.events]


# 2. Priority: Single > Four > Three > Pair > Straight > Flush > Any ---------------------------


def test_npc_plays_a_single_before_anything_else():
    assert npc_play(solo("r3 b7 y7 g7 r7")).combo == SINGLE


def test_npc_prefers_four_to_three():
    state = solo("r7 b7 y7 g7 r2", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    assert npc_play(state).combo == FOUR


def test_npc_prefers_three_to_pair_even_with_higher_numbers():
    state = solo("r7 b7 y7 r2 b2", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    assert npc_play(state).combo == THREE


def test_npc_prefers_pair_to_straight():
    state = solo("r1 b2 y3 g3 r9", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    action = npc_play(state)
    assert action.combo == PAIR and set(action.cards) == set(cs("y3 g3"))


def test_npc_prefers_straight_to_flush():
    state = solo("r1 b2 g3 g9 g12", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    assert npc_play(state).combo == STRAIGHT


def test_npc_prefers_flush_to_any():
    state = solo("r1 r5 r9 b12 g14", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    action = npc_play(state)
    assert action.combo == FLUSH and set(action.cards) == set(cs("r1 r5 r9"))


def test_npc_plays_any_as_the_last_combo():
    state = solo("r1 b5 g9", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    assert npc_play(state).combo == ANY


# Lowest numbers first, minimum count ----------------------------------------------------------


def test_npc_plays_its_lowest_single():
    assert npc_play(solo("r9 b4 g12")).cards == cs("b4")


def test_npc_single_respects_the_number_rule():
    assert npc_play(solo("r9 b4 g12", stacks={SINGLE: played("y10")})).cards == cs("g12")


def test_npc_plays_its_lowest_pair():
    state = solo("r9 b9 r4 g4 y1", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    assert set(npc_play(state).cards) == set(cs("r4 g4"))


def test_npc_plays_its_lowest_straight():
    state = solo("r1 b2 g3 y4 r5", stacks=blocked(STRAIGHT, FLUSH, ANY))
    action = npc_play(state)
    assert action.combo == STRAIGHT and action.cards == cs("r1 b2 g3")


def test_npc_plays_the_minimum_count_on_a_straight():
    stacks = {**blocked(STRAIGHT, FLUSH, ANY), STRAIGHT: played("g1 g2 g3")}
    action = npc_play(solo("r1 b2 g3 y4 r5 b6", stacks=stacks))
    assert action.combo == STRAIGHT and action.cards == cs("r1 b2 g3 y4")


def test_npc_plays_the_minimum_count_on_a_flush():
    stacks = {**blocked(FLUSH, ANY), FLUSH: played("g1 g2 g3")}
    action = npc_play(solo("r1 r3 r5 r7 r9 r11", stacks=stacks))
    assert action.combo == FLUSH and action.cards == cs("r1 r3 r5 r7")


def test_npc_plays_the_minimum_count_of_its_lowest_cards_on_any():
    stacks = {**blocked(ANY), ANY: played("g1 g2 g3")}
    action = npc_play(solo("r13 b5 g9 y1 r2 b11", stacks=stacks))
    assert action.combo == ANY and set(action.cards) == set(cs("y1 r2 b5 g9"))


def test_npc_picks_the_flush_colour_with_the_lowest_numbers():
    state = solo("r1 r9 r10 b2 b3 b4", stacks=blocked(FLUSH, ANY))
    assert set(npc_play(state).cards) == set(cs("b2 b3 b4"))


# Copy cards: only as a last resort ----------------------------------------------------------------


def test_npc_does_not_use_a_copy_while_a_play_without_one_exists():
    state = solo("r5 x0 b9 g13", stacks={SINGLE: BLOCK_SETS[SINGLE]})
    action = npc_play(state)
    assert action.combo == ANY and set(action.cards) == set(cs("r5 b9 g13"))


def test_npc_uses_a_copy_when_nothing_else_can_be_played():
    action = npc_play(solo("r5 x0", stacks={SINGLE: BLOCK_SETS[SINGLE]}))
    assert action.combo == PAIR and action.copies == ((c("x0"), c("r5")),)


def test_npc_with_copies_still_follows_the_combo_priority():
    action = npc_play(
        solo("r6 b6 x0 x1", stacks={SINGLE: BLOCK_SETS[SINGLE], PAIR: played("r15 b15")})
    )
    assert action.combo == FOUR


def test_npc_uses_no_more_copies_than_needed():
    stacks = {SINGLE: BLOCK_SETS[SINGLE], PAIR: BLOCK_SETS[PAIR], FOUR: BLOCK_SETS[FOUR]}
    action = npc_play(solo("r6 b6 x0 x1", stacks=stacks))
    assert action.combo == THREE and action.cards == cs("r6 b6 x0")


def test_npc_copy_play_is_applied_and_counts_as_the_copied_card():
    step = npc_turn(solo("r5 x0", stacks={SINGLE: BLOCK_SETS[SINGLE]}))
    assert step.state.stacks[PAIR][-1].high == 5 and step.state.npc.hand == ()


# Equal options: random ---------------------------------------------------------------------------


def test_npc_picks_at_random_between_equal_options():
    picks = {npc_play(solo("r4 b4 g9"), seed).cards for seed in range(30)}
    assert picks == {cs("r4"), cs("b4")}


def test_npc_random_pick_among_equal_pairs_is_accepted_by_apply():
    state = solo("r4 b4 y4 g9", stacks={SINGLE: BLOCK_SETS[SINGLE], THREE: played("r15 b15 y15")})
    picks = set()
    for seed in range(30):
        step = npc_turn(state, seed)
        picks.add(step.state.stacks[PAIR][-1].cards)
    assert len(picks) == 3


def test_npc_action_other_than_its_procedure_is_refused():
    state = solo("r4 b4 g9")
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, NpcPlay(combo=SINGLE, cards=cs("g9")))
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, NpcUseTime())
    with pytest.raises(GameError):
        RULES.apply(state, CHANCE, NpcOut())


# Stuck: draw one at a time, then a time card, then lose ------------------------------------------


STUCK = "r1 b3 y5 g7 r11"
"""With every combo blocked but Pair, none of these five cards can be played."""


def test_npc_draws_one_card_at_a_time_when_stuck():
    step = npc_turn(solo(STUCK, "g12 b12 y2", stacks=blocked(PAIR)))
    drawn = [e.cards for e in step.events if e.key == "exhaust.npc_drew"]
    assert drawn == [cs("g12"), cs("b12")]
    assert set(step.state.stacks[PAIR][-1].cards) == set(cs("g12 b12"))
    assert step.state.npc.pile == cs("y2")


def test_npc_hand_space_may_grow_past_five_when_stuck():
    step = npc_turn(solo(STUCK, "g13 b14 y2 y13", stacks=blocked(PAIR)))
    assert len(step.state.npc.hand) == 5 + 4 - 2


def test_npc_draws_before_spending_a_time_card():
    step = npc_turn(solo(STUCK, "g12 b12", npc_time=1, stacks=blocked(PAIR)))
    assert step.state.npc.time_cards == 1 and step.state.stacks[PAIR]


def test_npc_spends_a_time_card_when_stuck_with_an_empty_pile():
    state = solo(STUCK, npc_time=2, stacks=blocked(PAIR), time_pile=14)
    assert RULES.chance_action(state, random.Random(0)) == NpcUseTime()
    step = npc_turn(state)
    assert step.state.npc.time_cards == 1 and step.state.time_pile == 15
    assert step.state.turn == 0


def test_npc_spends_a_time_card_after_drawing_its_whole_pile():
    step = npc_turn(solo(STUCK, "g13 b14", npc_time=1, stacks=blocked(PAIR)))
    assert step.state.npc.pile == () and step.state.npc.time_cards == 0
    assert "exhaust.npc_used_time" in [e.key for e in step.events]


def test_npc_loses_when_stuck_without_pile_or_time_card():
    state = solo(STUCK, stacks=blocked(PAIR))
    assert RULES.chance_action(state, random.Random(0)) == NpcOut()
    step = npc_turn(state)
    assert step.state.phase == "over" and step.state.losers == (NPC,)
    assert "exhaust.npc_lost" in [e.key for e in step.events]
    outcome = RULES.outcome(step.state)
    assert outcome.winners == (0,) and outcome.result == "win"


def test_human_loses_when_stuck_after_the_npc_turn():
    state = solo("r15", human="b3", stacks={SINGLE: played("g9"), **BLOCK_RUNS})
    step = npc_turn(state)
    assert step.state.losers == (0,)
    outcome = RULES.outcome(step.state)
    assert outcome.winners == () and outcome.result == "loss"


# Rewards ----------------------------------------------------------------------------------------


def test_npc_time_reward_goes_onto_the_npc_card():
    step = npc_turn(solo("r7 b7 y7", stacks={SINGLE: BLOCK_SETS[SINGLE]}))
    assert step.state.npc.time_cards == 1 and step.state.time_pile == 15
    assert step.state.time_cards == (0,)


def test_npc_spell_reward_goes_face_down_on_top_of_its_pile():
    state = solo("r7 b7", "g1 g2 g3 g4", stacks={SINGLE: BLOCK_SETS[SINGLE]}, refill="y9 y10")
    step = npc_turn(state)
    assert step.state.npc.pile[0] == c("y9") and step.state.refill == cs("y10")
    assert c("y9") not in step.state.npc.hand


def test_npc_spell_reward_card_is_never_shown():
    state = solo("r7 b7", stacks={SINGLE: BLOCK_SETS[SINGLE]}, refill="y9")
    step = npc_turn(state)
    assert all(c("y9") not in e.cards for e in step.events)
    assert c("y9") in RULES.secret_cards(step.state)


def test_npc_gets_no_reward_from_an_empty_pile():
    step = npc_turn(solo("r7 b7", stacks={SINGLE: BLOCK_SETS[SINGLE]}))
    assert step.state.npc.pile == ()
    assert "exhaust.npc_reward_none" in [e.key for e in step.events]


# What is seen ------------------------------------------------------------------------------


def test_npc_hand_space_is_public_and_its_pile_only_a_count():
    state = solo("r7 b7", "g1 g2 g3")
    view = RULES.view(state, None)
    assert view.npc.hand == cs("r7 b7") and view.npc.pile == 3
    assert RULES.secret_cards(state) == set(cs("r14 b14 g1 g2 g3"))


def test_resample_redeals_the_npc_pile_and_the_refill_but_not_the_human_hand():
    config = RULES.make_config(1, {"first_player": None})
    state = advance(RULES, RULES.setup(config), 0, 0, None, 3).state
    other = RULES.resample_hidden(state, 0, random.Random(5))
    assert other.hands == state.hands and other.npc.pile != state.npc.pile
    assert len(other.npc.pile) == len(state.npc.pile) and len(other.refill) == len(state.refill)
    assert RULES.view(other, 0) == RULES.view(state, 0)


def test_solo_game_replays_from_its_log_without_rng():
    config = RULES.make_config(1, {"first_player": None, "npc_size": 25})
    adv = advance(RULES, RULES.setup(config), 0, 0, None, 21)
    state, log, rng = adv.state, list(adv.logged), random.Random(21)
    while not RULES.is_over(state):
        action = AI.normal(RULES.view(state, 0), rng)
        adv = advance(RULES, state, len(log), 0, action, 21)
        state = adv.state
        log.extend(adv.logged)
    assert replay(RULES, config, log) == state
    assert any(e.actor == CHANCE and e.action["kind"].startswith("npc") for e in log)


@settings(max_examples=100, deadline=None)
@given(
    cards=st.permutations(list(range(64))),
    split=st.integers(0, 12),
    seed=st.integers(0, 10**6),
    tops=st.tuples(st.none() | st.integers(1, 15), st.none() | st.integers(3, 9)),
)
def test_npc_always_chooses_an_action_its_procedure_accepts(cards, split, seed, tops):
    top, last = tops
    hand, pile = cards[:split], cards[split : split + 10]
    stacks = {}
    if top is not None:
        stacks = {SINGLE: played(f"r{top}"), PAIR: played(f"r{top} b{top}")}
    if last is not None:
        stacks[ANY] = played(" ".join(f"y{n}" for n in range(1, last + 1)))
    state = solo(stacks=stacks, npc_time=seed % 2).model_copy(
        update={"npc": NpcState(hand=tuple(hand), pile=tuple(pile), time_cards=seed % 2)}
    )
    step = npc_turn(state, seed)
    assert step.state != state
