"""Hell Queue Club at the STRONG level: the shared search over the heuristic's candidates.

On its own turn the seat's Queue, Awaken and Recall actions are candidates, in the order the
heuristic values them (`ai.Lookahead`); each is searched on decks drawn from the view
(`Rules.sample_state`: only the decks' order and the dice are unknown). A playout makes the
move through the real rules, then chance rolls the dice and every seat plays the greedy
reference policy (cheap) until the seat's own next turn, where the heuristic's judgement of
the table (its value minus a share of the others') scores it; a game that ends on the way
scores its result. Stone picks and rerolls play as NORMAL. Against normal AIs
(bench/hellqueue_ai.py --opponents normal) it wins 64 % of 4-player games (normal 28 %, even
25 %) and 60 % of 3-player games (normal 27 %, even 33 %).
"""

from __future__ import annotations

import math
import random

from games.engine.contract import AiDecision
from games.engine.playout import RulesModel
from games.engine.search import Budget, Candidate, decision
from games.hellqueue.ai import PARAMS, Evaluator, Lookahead
from games.hellqueue.ai_policies import greedy_policy
from games.hellqueue.models import State, View
from games.hellqueue.moves import to_move_seat
from games.hellqueue.rules import RULES

BUDGET = Budget(playouts=800, candidates=12)
"""Playouts per decision, each one round of the table: the rules' speed-up bought 240 -> 800 in
the same time (about 0.1-0.2 s a searched decision on the bench machine, p99 under 0.5 s)."""
SCALE = 10.0
"""Judgement differences of about this much (stones) are the difference between winning and
losing: `value` squashes them into 0..1 with it."""


def strong_decision(view: View, rng: random.Random) -> AiDecision | None:
    """The searched decision on the seat's own turn; None elsewhere (the caller plays NORMAL)."""
    seat = to_move_seat(view)
    if view.phase != "play" or seat is None or seat != view.seat:
        return None
    candidates, scored = Lookahead(view, seat, rng, PARAMS).scored()
    ranked = [candidates[i] for _, i in sorted(scored, key=lambda item: (-item[0], item[1]))]
    model = RulesModel(
        RULES,
        seat,
        [Candidate(action, "heuristic") for action in ranked],
        greedy_policy,
        lambda state, steps: _back_to(state, seat, steps),
        value,
    )
    return decision(RULES, model, view, rng, BUDGET)


def _back_to(state: State, seat: int, steps: int) -> bool:
    """Whether the playout has come round to `seat`'s next turn."""
    return steps > 1 and state.phase == "play" and state.turn == seat


def value(state: State, seat: int) -> float:
    """The game's result for `seat` if it is over (a share of a shared win), else the
    heuristic's judgement of the table squashed into 0..1."""
    outcome = RULES.outcome(state)
    if outcome is not None:
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    evaluator = Evaluator(state, PARAMS)
    values = [evaluator.seat_value(s) for s in range(state.config.players)]
    rest = [v for s, v in enumerate(values) if s != seat]
    judged = values[seat] - PARAMS.others * sum(rest) / len(rest)
    return 1 / (1 + math.exp(-judged / SCALE))
