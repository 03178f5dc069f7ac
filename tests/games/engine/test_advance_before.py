"""`advance` and `advance_all` given what the game waits for (`before`, the runtime keeps it with
the state) step exactly as when they work it out themselves."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from toygame import GAMES as TOY_GAMES

from games.engine.contract import Rules
from games.engine.step import advance, advance_all
from games.registry import GAMES

MOVES = 150


def started(rules: Rules[Any, Any, Any, Any], players: int, options: dict[str, Any]) -> Any:
    config = rules.make_config(players, options)
    return advance(rules, rules.setup(config), 0, 0, None, 7).state


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_advance_given_the_seats_to_move_steps_as_without(game_id: str) -> None:
    rules = GAMES[game_id]
    state, version, rng = started(rules, max(2, rules.min_players), {}), 1, random.Random(3)
    for _ in range(MOVES):
        waiting = rules.to_move(state)
        if not waiting.seats:
            break
        seat = rng.choice(sorted(waiting.seats))
        action = rng.choice(rules.legal_actions(state, seat))
        given = advance(rules, state, version, seat, action, 7, waiting)
        assert given == advance(rules, state, version, seat, action, 7)
        state, version = given.state, version + len(given.logged)


def test_advance_all_given_the_seats_to_move_steps_as_without() -> None:
    rules = TOY_GAMES["dicerace"]
    state, version, rng = started(rules, 2, {"moves": 3}), 1, random.Random(5)
    while (waiting := rules.to_move(state)).seats and version < MOVES:
        seat = min(waiting.seats)
        played = [rng.choice(rules.legal_actions(state, seat))]
        first = advance(rules, state, version, seat, played[0], 9)
        if seat in first.to_move.seats:  # a turn of several actions: one more in the same step
            played.append(rng.choice(rules.legal_actions(first.state, seat)))
        given = advance_all(rules, state, version, seat, played, 9, waiting)
        assert given == advance_all(rules, state, version, seat, played, 9)
        state, version = given.state, version + len(given.logged)


def test_advance_asks_what_each_state_waits_for_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = TOY_GAMES["dicerace"]
    state = started(rules, 2, {"moves": 1})
    asked: list[int] = []
    own = rules.to_move

    def to_move(state: Any) -> Any:
        if sys._getframe(1).f_code is advance.__code__:  # advance's own asking, not apply's
            asked.append(id(state))
        return own(state)

    monkeypatch.setattr(rules, "to_move", to_move)
    seat = min(own(state).seats)
    step = advance(rules, state, 1, seat, rules.legal_actions(state, seat)[0], 9)
    assert len(step.logged) == 2  # the move, then the roll it made due
    assert len(asked) == len(set(asked)) == 3  # the state before, after the move, after the roll
