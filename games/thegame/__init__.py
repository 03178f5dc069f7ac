"""The Game (ザ・ゲーム): cooperative number cards, 1–5 players.

`RULES` is what the engine registers; `AI` its AI players: the planner (games/thegame/ai.py),
with a reason code for each move (games/thegame/explain.py). Within a decision's budget a search
playing whole games out finds nothing better (see bench/thegame_ai.py), so the planner is its
best: NORMAL is the only level offered, and the one /hint asks.
"""

from games.engine.ai import GameAI
from games.engine.contract import NORMAL
from games.thegame.ai import decide
from games.thegame.explain import REASONS, reason_of
from games.thegame.rules import RULES, TheGameRules

AI = GameAI(normal=decide, reason=reason_of, reasons=REASONS, levels=(NORMAL,), hint_level=NORMAL)

__all__ = ["AI", "RULES", "TheGameRules"]
