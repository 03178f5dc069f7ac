"""The fast model of solo Exhaust (games/exhaust/solo.py) against the rules, step by step.

Whole solo games are played through the rules with random legal moves; at every human turn
the model must list the same moves, reach the same table after the human's move, and offer
the NPC the same choice (the rules' logged NPC play is one of the model's options), and after
the NPC's turn it must be in the rules' state again, down to the result.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.step import advance
from games.exhaust import RULES
from games.exhaust.combos import Play, can_play
from games.exhaust.models import NpcPlay, PlayCards, UseTime
from games.exhaust.npc import accepts
from games.exhaust.plays import combo_views
from games.exhaust.solo import (
    COMBOS,
    LOST,
    RUNNING,
    TIME,
    WON,
    Move,
    Solo,
    can_play_any,
    human_move,
    npc_finish,
    npc_plan,
    play_human,
)


@pytest.mark.parametrize("size", [5, 15, 20, 30])
def test_the_model_follows_the_rules_through_whole_games(size: int) -> None:
    for seed in range(25):
        config = RULES.make_config(1, {"npc_size": size})
        result = advance(RULES, RULES.setup(config), 0, -1, None, seed)
        state, version = result.state, len(result.logged)
        rng = random.Random(seed)
        solo = Solo.of(state)
        while not RULES.is_over(state):
            legal = RULES.legal_actions(state, 0)
            moves = list(solo.moves())
            assert [m.action() for m in moves] == legal
            move = rng.choice(moves)
            human = RULES.apply(state, 0, move.action()).state
            after = human_move(solo, move)
            assert after == Solo.of(human)
            result = advance(RULES, state, version, 0, move.action(), seed)
            state, version = result.state, version + len(result.logged)
            plan = npc_plan(after)
            npc = RULES.parse_action(result.logged[1].action)
            play = None
            if isinstance(npc, NpcPlay):
                play = Play(npc.cards, npc.copies)
                combos = combo_views(human.config, human.stacks)
                assert plan.choice is not None
                assert accepts(plan.choice, combos, plan.hand, npc.combo, play)
            else:
                assert plan.choice is None
            solo = npc_finish(after, plan, play)
            assert solo == Solo.of(state)


def test_the_human_loses_in_the_model_exactly_when_stuck() -> None:
    for seed in range(20):
        config = RULES.make_config(1, {"npc_size": 10})
        state = advance(RULES, RULES.setup(config), 0, -1, None, seed).state
        solo, rng = Solo.of(state), random.Random(seed)
        while solo.result == RUNNING:
            assert solo.can_act()
            solo = play_human(solo, rng.choice(list(solo.moves())), rng)
        assert solo.result in (WON, LOST)
        if solo.result == LOST:
            assert not solo.can_act()
        else:
            assert not npc_plan(solo).choice and not solo.npc_time and not solo.npc_pile


def test_moves_convert_to_and_from_actions() -> None:
    play = PlayCards(combo=1, cards=(3, 18), copies=())
    assert Move.of(play).action() == play
    assert Move.of(UseTime()) == Move(TIME)
    with pytest.raises(ValueError):
        Move.of(NpcPlay(combo=0, cards=(1,)))


BARS = st.tuples(*[st.integers(0, 15)] * 4, *[st.sampled_from([0, 3, 4, 5, 6, 7, 9])] * 3)


@settings(max_examples=3000, deadline=None)
@given(hand=st.sets(st.integers(0, 63), max_size=12), bars=BARS)
def test_the_fast_stuck_check_agrees_with_the_combos(hand: set[int], bars: tuple[int, ...]) -> None:
    solo = Solo(tuple(sorted(hand)), 0, bars, 0, (), (), (), 0)
    expected = any(can_play(combo, *solo.top_last(i), solo.hand) for i, combo in enumerate(COMBOS))
    assert can_play_any(bars, solo.hand) == expected
