"""The STRONG level of Hell Queue Club: the shared search through the real rules
(games/engine/playout.py, games/hellqueue/strong.py).

On the seat's own turns the decision is searched: it is legal, deterministic given the rng, and
depends on the view only (re-dealing what the seat cannot see changes nothing). Elsewhere (stone
picks) STRONG plays as NORMAL. (Rummy's STRONG: tests/games/rummy/test_rummy_strong.py.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.contract import NORMAL, STRONG
from games.engine.search import WINS_MOST_SAMPLES, Budget
from games.engine.step import advance
from games.registry import AIS, GAMES

SMALL = Budget(playouts=24, candidates=6)
SEARCHED = ("hellqueue",)
PLAYERS = {"hellqueue": 3}


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches here use a small budget: the behaviours do not depend on its size."""
    monkeypatch.setattr("games.hellqueue.strong.BUDGET", SMALL)


def states(game_id: str, count: int) -> list[tuple[Any, int]]:
    """(state, seat to move) pairs of games the NORMAL AI plays, every few steps."""
    rules = GAMES[game_id]
    found: list[tuple[Any, int]] = []
    seed = 0
    while len(found) < count:
        config = rules.make_config(PLAYERS[game_id], {})
        result = advance(rules, rules.setup(config), 0, -1, None, seed)
        state, version = result.state, len(result.logged)
        rng = random.Random(seed)
        step = 0
        while not rules.is_over(state) and len(found) < count and step < 60:
            seat = min(rules.to_move(state).seats)
            if step % 7 == 3:
                found.append((state, seat))
            action = AIS[game_id].normal(rules.view(state, seat), rng)
            result = advance(rules, state, version, seat, action, seed)
            state, version, step = result.state, version + len(result.logged), step + 1
        seed += 1
    return found


@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_strong_decision_is_legal(game_id: str) -> None:
    rules = GAMES[game_id]
    reasons = set()
    for i, (state, seat) in enumerate(states(game_id, 10)):
        made = AIS[game_id].decide(rules.view(state, seat), random.Random(i), STRONG)
        assert made.action in rules.legal_actions(state, seat)
        reasons.add(made.reason)
    assert WINS_MOST_SAMPLES in reasons


@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_strong_decision_is_deterministic_given_the_rng(game_id: str) -> None:
    rules = GAMES[game_id]
    for i, (state, seat) in enumerate(states(game_id, 6)):
        view = rules.view(state, seat)
        first = AIS[game_id].decide(view, random.Random(i), STRONG)
        assert AIS[game_id].decide(view, random.Random(i), STRONG) == first


@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_strong_decision_depends_on_the_view_only(game_id: str) -> None:
    """Re-dealing everything the seat cannot see changes neither its view nor its move."""
    rules = GAMES[game_id]
    for i, (state, seat) in enumerate(states(game_id, 6)):
        other = rules.resample_hidden(state, seat, random.Random(100 + i))
        assert rules.view(other, seat) == rules.view(state, seat)
        mine = AIS[game_id].decide(rules.view(state, seat), random.Random(i), STRONG)
        theirs = AIS[game_id].decide(rules.view(other, seat), random.Random(i), STRONG)
        assert mine == theirs


def test_hell_queue_strong_picks_stones_as_normal() -> None:
    rules = GAMES["hellqueue"]
    picks = [(s, seat) for s, seat in states("hellqueue", 200) if s.phase == "resolve"][:3]
    assert picks
    for i, (state, seat) in enumerate(picks):
        view = rules.view(state, seat)
        strong = AIS["hellqueue"].decide(view, random.Random(i), STRONG)
        assert strong == AIS["hellqueue"].decide(view, random.Random(i), NORMAL)
