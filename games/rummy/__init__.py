"""Angels & Demons Rummy (seed 004): 2–4 players, basic and advanced rules.

`RULES` is what the engine registers; the card and set helpers are what a renderer needs
(a card's attribute, title and colour; what a group of cards makes; a hand's waits).
"""

from games.rummy.cards import ATTRIBUTES, attribute, is_red, kind, number, title
from games.rummy.rules import RummyRules
from games.rummy.sets import is_goal_form, set_kind, waits

RULES = RummyRules()

__all__ = [
    "ATTRIBUTES",
    "RULES",
    "RummyRules",
    "attribute",
    "is_goal_form",
    "is_red",
    "kind",
    "number",
    "set_kind",
    "title",
    "waits",
]
