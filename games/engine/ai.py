"""A game's AI players, declared in one place: the levels it offers, its NORMAL and STRONG
decisions and the reason a hint gives, each decided from a seat's view and an rng.

Each game's package exports its `AI` next to its `RULES`, and games/registry.py maps game ids
to both; the engine and the bot ask the AI, never the rules, so the rules import no AI code.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.engine.contract import AI_LEVELS, NORMAL, STRONG, AiDecision
from games.engine.errors import GameError, Reason

HEURISTIC = "heuristic"
"""The reason of an action whose game gives its heuristic no finer one."""

V = TypeVar("V")
A = TypeVar("A")


def heuristic(view: Any, action: Any) -> str:
    """The reason of a game that explains no action further: its heuristic chose it."""
    return HEURISTIC


@dataclass(frozen=True)
class GameAI(Generic[V, A]):
    """One game's AI. Every function decides from a seat's view only, deterministic given
    the rng (budgets count work, not time); each must be a module-level function, so the AI
    pickles by reference into the process that makes STRONG decisions."""

    normal: Callable[[V, random.Random], A]
    """NORMAL's action: the game's heuristic (p99 50 ms a decision)."""
    reason: Callable[[V, A], str] = heuristic
    """Why NORMAL takes an action: a code the bot's catalog turns into a phrase (/hint)."""
    strong: Callable[[V, random.Random], AiDecision | None] | None = None
    """STRONG's decision with its reason, None where it plays as NORMAL (in a phase it does
    not search); no function: STRONG is NORMAL everywhere."""
    reasons: tuple[str, ...] = (HEURISTIC,)
    """Every code `reason` and `strong` give besides the shared search's (each needs a
    phrase in the game's catalog)."""
    levels: tuple[str, ...] = AI_LEVELS
    """The levels the lobby offers: a game whose STRONG would play as NORMAL offers NORMAL
    only, so no seat is labelled stronger than it plays."""
    hint_level: str = STRONG
    """The level /hint asks, in every phase (claim windows too): the one that measures
    strongest for this game against NORMAL seats in its bench, so a hint is never worse
    advice than the AI gives."""

    def __post_init__(self) -> None:
        if NORMAL not in self.levels or not set(self.levels) <= set(AI_LEVELS):
            raise ValueError(f"AI levels must include {NORMAL!r}, within {AI_LEVELS}")
        if self.hint_level not in AI_LEVELS:
            raise ValueError(f"unknown hint level {self.hint_level!r}")

    def decide(self, view: V, rng: random.Random, level: str = NORMAL) -> AiDecision:
        """The action at `level` with its reason; an unknown level raises
        GameError(BAD_OPTION). STRONG falls back to NORMAL where it makes no decision."""
        if level not in AI_LEVELS:
            raise GameError(Reason.BAD_OPTION, "ai_level")
        if level == STRONG and self.strong is not None:
            searched = self.strong(view, rng)
            if searched is not None:
                return searched
        action = self.normal(view, rng)
        return AiDecision(action=action, reason=self.reason(view, action))
