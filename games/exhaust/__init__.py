"""Exhaust (イグゾースト, seed 001): 1–5 players, 1 = solo against the NPC.

`RULES` is what the engine registers; `AI` its AI players: NORMAL is the heuristic
(games/exhaust/ai.py) with a reason code for each move (games/exhaust/explain.py), STRONG the
search on the seat's own turns, solo and at a table (games/exhaust/strong.py), the heuristic
elsewhere (dealing the long variant's next game). The view-side helpers are what the bot and
the AI use.
"""

from games.engine.ai import GameAI
from games.exhaust.ai import decide
from games.exhaust.explain import REASONS, reason_of
from games.exhaust.plays import SelectionCheck, check_selection, legal_plays, playable_cards
from games.exhaust.rules import RULES, ExhaustRules
from games.exhaust.strong import strong_decision

AI = GameAI(normal=decide, reason=reason_of, strong=strong_decision, reasons=REASONS)

__all__ = [
    "AI",
    "RULES",
    "ExhaustRules",
    "SelectionCheck",
    "check_selection",
    "legal_plays",
    "playable_cards",
]
