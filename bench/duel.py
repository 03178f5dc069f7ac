"""The game the AI benches play: the AI under test in one seat, a policy in the others,
through the real rules and engine stepping (chance resolved as the bot resolves it)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import NORMAL, Outcome, Rules
from games.engine.step import advance

Policy = Callable[[Any, random.Random], Any]
"""A seat's choice from its view."""


def at_level(ai: GameAI[Any, Any], decide: Any, params: Any, level: str) -> Policy:
    """The AI under test: NORMAL is the game's `decide` with `params` (so they can be tuned),
    any other level the game's `ai`."""
    if level == NORMAL:
        return lambda view, rng: decide(view, rng, params)
    return lambda view, rng: ai.decide(view, rng, level).action


def normal_policy(ai: GameAI[Any, Any]) -> Policy:
    """The opponent a 🤖 seat is: the game's NORMAL AI, as the bot plays it."""
    return lambda view, rng: ai.decide(view, rng, NORMAL).action


def play_out(
    rules: Rules[Any, Any, Any, Any],
    config: Any,
    seed: int,
    ai_seat: int,
    ai: Policy,
    other: Policy,
) -> tuple[Outcome, list[float]]:
    """One game dealt with `seed`: its outcome, and the seconds each of `ai`'s decisions took.
    One rng (seeded with `seed`) serves every seat in turn, so a game replays exactly."""
    result = advance(rules, rules.setup(config), 0, -1, None, seed)
    state, version = result.state, len(result.logged)
    rng = random.Random(seed)
    thinking: list[float] = []
    while not rules.is_over(state):
        seat = min(rules.to_move(state).seats)
        view = rules.view(state, seat)
        if seat == ai_seat:
            start = time.perf_counter()
            action = ai(view, rng)
            thinking.append(time.perf_counter() - start)
        else:
            action = other(view, rng)
        result = advance(rules, state, version, seat, action, seed)
        state, version = result.state, version + len(result.logged)
    outcome = rules.outcome(state)
    assert outcome is not None
    return outcome, thinking
