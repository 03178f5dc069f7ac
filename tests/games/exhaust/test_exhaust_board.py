"""The fast model of Exhaust at a table (games/exhaust/board.py) against the rules, step by step.

Whole games are played through the rules with random legal moves; before every move the
model must list the same moves, and after it be in the rules' state again, down to the loser.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.step import advance
from games.exhaust import RULES
from games.exhaust.board import (
    FLIP,
    RUNNING,
    TIME,
    Board,
    Move,
    can_play_any,
    layout,
    rollout_move,
)
from games.exhaust.combos import can_play
from games.exhaust.models import FlipDepletion, NextGame, PlayCards, UseTime


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("long_game", [False, True])
def test_the_model_follows_the_rules_through_whole_games(players: int, long_game: bool) -> None:
    for seed in range(8):
        config = RULES.make_config(players, {"long_game": long_game})
        result = advance(RULES, RULES.setup(config), 0, -1, None, seed)
        state, version = result.state, len(result.logged)
        rng = random.Random(seed)
        while not RULES.is_over(state):
            seat = state.turn
            if state.phase == "next":
                action = NextGame()
            else:
                board = Board.of(state)
                legal = RULES.legal_actions(state, seat)
                moves = list(board.moves())
                assert [m.action() for m in moves] == legal
                move = rng.choice(moves)
                action = move.action()
                after = RULES.apply(state, seat, action).state
                modelled = board.after(move)
                assert modelled.loser == (after.losers[-1] if after.phase != "play" else RUNNING)
                if after.phase == "play":
                    assert modelled == Board.of(after)
            result = advance(RULES, state, version, seat, action, seed)
            state, version = result.state, version + len(result.logged)


def test_moves_convert_to_and_from_actions() -> None:
    play = PlayCards(combo=2, cards=(3, 60), copies=((60, 3),))
    for action in (play, UseTime(), FlipDepletion()):
        assert Move.of(action).action() == action
    assert Move.of(UseTime()).combo == TIME
    assert Move.of(FlipDepletion()).combo == FLIP


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 5),
    hand=st.sets(st.integers(0, 63), max_size=8),
    bars=st.lists(st.integers(0, 15), min_size=10, max_size=10),
)
def test_the_fast_stuck_check_agrees_with_the_combos(
    players: int, hand: set[int], bars: list[int]
) -> None:
    lay = layout(players)
    table = tuple(min(b, 15 if rule else 8) for b, rule in zip(bars, lay.number_rule, strict=False))
    board_bars = tuple(table[: len(lay.combos)])
    hand_tuple = tuple(sorted(hand))
    expected = any(
        can_play(
            combo,
            (b or None) if rule else None,
            None if rule else (b or None),
            hand_tuple,
        )
        for combo, b, rule in zip(lay.combos, board_bars, lay.number_rule, strict=True)
    )
    assert can_play_any(players, board_bars, hand_tuple) == expected


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_playouts_policy_plays_a_legal_move_or_none_exactly_when_stuck(players: int) -> None:
    """Whole games where every seat plays the policy through the rules: each of its moves is
    accepted, and it gives up only on the seat the rules then see as the loser."""
    for seed in range(10):
        config = RULES.make_config(players, {"long_game": seed % 2 == 1})
        state = advance(RULES, RULES.setup(config), 0, -1, None, seed).state
        board = Board.of(state)
        while board.loser == RUNNING:
            move = rollout_move(board)
            assert move is not None
            seat = board.turn
            state = RULES.apply(state, seat, move.action()).state
            board = board.after(move)
            if board.loser == RUNNING:
                assert board == Board.of(state)
        assert rollout_move(board) is None
        assert state.losers[-1] == board.loser
