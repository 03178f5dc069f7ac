"""Angels & Demons Rummy (seed 004): 2–4 players, basic and advanced rules.

`RULES` is what the engine registers; `AI` its AI players: NORMAL is the heuristic
(games/rummy/ai.py), STRONG the heuristic made thorough, with a rule it lacks
(games/rummy/strong.py), in every phase; it beats NORMAL at every table size
(bench/rummy_ai.py), so /hint asks it. The card and set helpers are what a renderer needs
(a card's attribute, title and colour; what a group of cards makes; a hand's waits).
"""

from games.engine.ai import HEURISTIC, GameAI
from games.rummy.ai import decide
from games.rummy.cards import ATTRIBUTES, attribute, is_red, kind, number, title
from games.rummy.rules import RULES, RummyRules
from games.rummy.sets import is_goal_form, set_kind, waits
from games.rummy.strong import strong_decision

AI = GameAI(normal=decide, strong=strong_decision, reasons=(HEURISTIC, "completes_goal"))

__all__ = [
    "AI",
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
