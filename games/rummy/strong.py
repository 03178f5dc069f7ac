"""Angels & Demons Rummy at the STRONG level: the shared search over the heuristic's moves.

On its own turn (a take, then a discard or an open) the seat's legal actions are candidates,
the heuristic's choice first; each is searched on hands and decks drawn from the view
(`Rules.sample_state`: the unseen cards dealt at random to the others' hands and the deck).
A playout makes the move through the real rules, then every seat plays the greedy reference
policy (cheap) until the seat's own next take, where the table is judged: the heuristic's
value of the seat's hand (`ai.Mind.value`, in cards of deficiency) plus the match points it
leads the others by; a match that ends on the way scores its result. Claim windows, goals
and the step to the next short game play as NORMAL.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine.contract import AiDecision, Rules
from games.engine.playout import RulesModel
from games.engine.search import Budget, Candidate, decision
from games.rummy.ai import PARAMS, Mind, decide
from games.rummy.ai_policies import greedy_policy
from games.rummy.models import Goal, NextGame, State, View
from games.rummy.rules import RummyRules

BUDGET = Budget(playouts=240, candidates=12)
"""Playouts per decision, each one round of the table (a few milliseconds through the real
rules): p99 about 0.9 s a decision on the bench machine."""
POINT = 1.0
"""A match point led by, in cards of deficiency."""
SCALE = 2.0
"""Judgements this far apart (in cards) are about the difference between winning and losing
the short game: `value` squashes them into 0..1 with it."""


def strong_decision(rules: RummyRules, view: View, rng: random.Random) -> AiDecision | None:
    """The searched decision on the seat's own turn; None elsewhere (the caller plays NORMAL)."""
    legal = view.legal
    seat = view.seat
    if view.phase not in ("take", "act") or seat is None or view.turn != seat or len(legal) < 2:
        return None
    if any(isinstance(action, Goal | NextGame) for action in legal):
        return None
    first = decide(view, random.Random(rng.getrandbits(64)))
    ordered = [first, *(action for action in legal if action != first)]
    model = RulesModel(
        rules,
        seat,
        [Candidate(action, "heuristic") for action in ordered],
        greedy_policy,
        lambda state, steps: _back_to(state, seat, steps),
        lambda state, seat: value(rules, state, seat),
    )
    return decision(rules, model, view, rng, BUDGET)


def _back_to(state: State, seat: int, steps: int) -> bool:
    """Whether the playout has come round to `seat`'s next take, or the short game ended."""
    return state.phase == "ended" or (steps > 1 and state.phase == "take" and state.turn == seat)


def value(rules: Rules[Any, State, Any, View], state: State, seat: int) -> float:
    """The match's result for `seat` if it is over (a share of a shared win), else its hand
    and its lead in match points, squashed into 0..1."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    scores = state.scores
    others = [s for i, s in enumerate(scores) if i != seat]
    judged = POINT * (scores[seat] - sum(others) / len(others))
    if state.phase != "ended":
        view = rules.view(state, seat)
        judged += Mind(view, random.Random(0), PARAMS).value(view.hand or ())
    return 1 / (1 + math.exp(-judged / SCALE))
