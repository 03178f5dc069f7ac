"""Hell Queue Club (地獄Queue部, seed 003): 3–4 players queue dice under distribution cards.

`RULES` is what the engine registers; `AI` its AI players: NORMAL is the heuristic
(games/hellqueue/ai.py), STRONG searches the seat's own turns (games/hellqueue/strong.py) and
plays stone picks and rerolls as NORMAL. `legal` reads what a seat may do from a view or a state.
"""

from games.engine.ai import GameAI
from games.hellqueue.ai import decide
from games.hellqueue.moves import legal
from games.hellqueue.rules import RULES, HellQueueRules
from games.hellqueue.strong import strong_decision

AI = GameAI(normal=decide, strong=strong_decision)

__all__ = ["AI", "RULES", "HellQueueRules", "legal"]
