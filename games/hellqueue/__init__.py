"""Hell Queue Club (地獄Queue部, seed 003): 3–4 players queue dice under distribution cards.

`RULES` is what the engine registers; `legal` reads what a seat may do from a view or a state.
"""

from games.hellqueue.moves import legal
from games.hellqueue.rules import HellQueueRules

RULES = HellQueueRules()

__all__ = ["RULES", "HellQueueRules", "legal"]
