"""Exhaust (イグゾースト, seed 001): 1–5 players, 1 = solo against the NPC.

`RULES` is what the engine registers; the view-side helpers are what the bot and the AI use.
"""

from games.exhaust.plays import SelectionCheck, check_selection, legal_plays, playable_cards
from games.exhaust.rules import ExhaustRules

RULES = ExhaustRules()

__all__ = [
    "RULES",
    "ExhaustRules",
    "SelectionCheck",
    "check_selection",
    "legal_plays",
    "playable_cards",
]
