"""Each game declares its AI in one place (games/engine/ai.py's `GameAI`), exported by its
package next to `RULES` and registered with it; the rules hold no AI."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from importlib import import_module

import pytest
from toygame import AI as TOY_AI
from toygame import View

from games.engine import NORMAL, STRONG, AiDecision, GameAI, Rules
from games.registry import AIS, GAME_IDS, GAMES

AI_NAMES = ("ai_action", "ai_decision", "ai_levels", "hint_level")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_exports_its_ai_next_to_its_rules_and_registers_both(game_id: str) -> None:
    package = import_module(f"games.{game_id}")
    assert isinstance(package.AI, GameAI)
    assert AIS[game_id] is package.AI and GAMES[game_id] is package.RULES


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_game_hangs_its_ai_off_its_rules(game_id: str) -> None:
    rules = GAMES[game_id]
    assert [name for name in AI_NAMES if hasattr(rules, name)] == []
    assert [name for name in AI_NAMES if hasattr(Rules, name)] == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_games_ai_pickles_by_reference_for_the_worker_pool(game_id: str) -> None:
    assert pickle.loads(pickle.dumps(AIS[game_id])) == AIS[game_id]


def toy_view() -> View:
    return View(seat=0, phase="play", turn=0, die=3, totals=(0, 0), voted=(False, False))


def no_search(view: View, rng: random.Random) -> AiDecision | None:
    return None


def test_strong_plays_as_normal_where_it_makes_no_decision() -> None:
    ai = replace(TOY_AI, strong=no_search)
    made = ai.decide(toy_view(), random.Random(1), STRONG)
    assert made == TOY_AI.decide(toy_view(), random.Random(1), NORMAL)


def searched(view: View, rng: random.Random) -> AiDecision | None:
    return AiDecision(action=TOY_AI.normal(view, rng), reason="searched")


def test_strong_gives_its_own_decision_where_it_makes_one() -> None:
    ai = replace(TOY_AI, strong=searched)
    assert ai.decide(toy_view(), random.Random(1), STRONG).reason == "searched"
    assert ai.decide(toy_view(), random.Random(1), NORMAL).reason == "heuristic"


@pytest.mark.parametrize("levels", [(STRONG,), (NORMAL, "grandmaster"), ()])
def test_an_ai_must_offer_normal_and_only_known_levels(levels: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        replace(TOY_AI, levels=levels)


def test_an_unknown_hint_level_is_refused() -> None:
    with pytest.raises(ValueError):
        replace(TOY_AI, hint_level="grandmaster")
