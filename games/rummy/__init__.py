"""Angels & Demons Rummy (seed 004): 2–4 players, basic and advanced rules.

`RULES` is what the engine registers.
"""

from games.rummy.rules import RummyRules

RULES = RummyRules()

__all__ = ["RULES", "RummyRules"]
