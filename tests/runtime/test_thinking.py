"""The Thinker: STRONG decisions in a real worker process, the same as made in place, and a
failed worker answered by the NORMAL decision (Exhaust solo, where the STRONG level searches).
"""

from __future__ import annotations

import logging
import os
import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine import NORMAL, STRONG, advance
from games.engine.search import WINS_MOST_SAMPLES
from games.exhaust import AI, RULES
from games.exhaust.models import View
from runtime.thinking import Thinker

SEED = "7:ai:3"


def dies(view: View, rng: random.Random) -> None:
    """A STRONG decision that kills the worker process making it."""
    os._exit(3)


DIES_WHEN_STRONG = replace(AI, strong=dies)


def solo_view() -> Any:
    """The human's view at the start of a solo game (the search has many moves to weigh)."""
    config = RULES.make_config(1, {"npc_size": 18})
    dealt = advance(RULES, RULES.setup(config), 0, -1, None, 5).state
    return RULES.view(dealt, 0)


async def test_a_strong_decision_made_in_a_worker_is_the_one_made_in_place() -> None:
    view = solo_view()
    thinker = Thinker(workers=1)
    try:
        made = await thinker.decide(RULES, AI, view, SEED, STRONG)
    finally:
        await thinker.close()
    assert made == AI.decide(view, random.Random(SEED), STRONG)
    assert made.reason == WINS_MOST_SAMPLES  # it searched


async def test_a_normal_decision_is_the_heuristics() -> None:
    view = solo_view()
    thinker = Thinker(workers=1)
    try:
        made = await thinker.decide(RULES, AI, view, SEED, NORMAL)
    finally:
        await thinker.close()
    assert made == AI.decide(view, random.Random(SEED), NORMAL)
    assert made.reason != WINS_MOST_SAMPLES


async def test_a_worker_that_dies_gives_the_normal_decision_and_a_fresh_pool(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = solo_view()
    thinker = Thinker(workers=1)
    try:
        with caplog.at_level(logging.ERROR, "runtime.thinking"):
            made = await thinker.decide(RULES, DIES_WHEN_STRONG, view, SEED, STRONG)
        assert made == AI.decide(view, random.Random(SEED), NORMAL)
        assert "playing normal" in caplog.text
        # The next STRONG decision goes to a new pool and searches again.
        again = await thinker.decide(RULES, AI, view, SEED, STRONG)
        assert again == AI.decide(view, random.Random(SEED), STRONG)
    finally:
        await thinker.close()


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError):
        Thinker(workers=0)
