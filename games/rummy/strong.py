"""Angels & Demons Rummy at the STRONG level: the heuristic, a rule it lacks, and the shared
search over its moves.

The rule: a Ready seat takes a field card that completes its goal, and goals. (NORMAL takes
the card safest to discard, so it only ever goals on a discard; this alone lifts a seat
from 25 % to about 40 % of the 4-player matches against NORMAL.)

The search (`games.engine.search`), on the seat's own turn (a take, then a discard or an
open) and in a claim window where it could gain: the candidates are the heuristic's best
few; each is played on worlds drawn from the view (`games.rummy.worlds`: Ready players hold
hands one card from the goal) through the real rules, every seat (the searching one too)
playing NORMAL, until the seat's next take, where the table is judged by `value`: the lead
in match points plus each player's chance of winning the short game (fitted to NORMAL's
games, see `Fit`) times the points it would score. Goals and the step to the next short
game play as NORMAL.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from games.engine.contract import AiDecision, Rules
from games.engine.playout import RulesModel
from games.engine.search import Budget, Candidate, decision
from games.rummy.ai import PARAMS, Mind, decide
from games.rummy.cards import is_red, kind
from games.rummy.models import Action, Discard, Gain, Goal, NextGame, Open, State, Take, View
from games.rummy.rules import RummyRules
from games.rummy.scoring import score_goal
from games.rummy.sets import is_goal_form
from games.rummy.shape import counts_of
from games.rummy.worlds import sample_world

BUDGET = Budget(playouts=96, candidates=4)
"""Playouts per decision, each one round of the table through the real rules."""
SCALE = 4.0
"""Match points: `value` squashes the expected lead into 0..1 with it."""
BONUS = 1.0
"""Points a goal scores beyond its open sets and red cards (bonus checks), on average."""
RED_SHARE = 0.25
"""Red cards in an unseen hand card (25 of the 100 cards are red)."""


@dataclass(frozen=True)
class Fit:
    """A seat's chance of winning the short game, as a logistic model of what it holds at
    the start of its turn (fitted to games of STRONG's rule against NORMAL seats).

    `own` weighs the seat's own 7-card hand: the intercept, per card of deficiency
    (`games.rummy.shape`), per 10 outs, an open set, Ready; `public` what another player
    shows: the intercept, Ready, one open set, two or more."""

    own: tuple[float, float, float, float, float]
    public: tuple[float, float, float, float]


FITS = {
    2: Fit(own=(0.67, -0.39, 0.10, 0.16, -0.15), public=(-0.23, 0.20, 0.21, 0.13)),
    3: Fit(own=(0.13, -0.38, 0.12, 0.30, 0.02), public=(-0.94, 0.35, 0.18, 0.04)),
    4: Fit(own=(-0.40, -0.37, 0.15, 0.43, 0.19), public=(-1.39, 0.50, 0.25, -0.07)),
}


def strong_decision(rules: RummyRules, view: View, rng: random.Random) -> AiDecision | None:
    """The STRONG decision where it differs from NORMAL's; None elsewhere (play NORMAL)."""
    legal = view.legal
    seat = view.seat
    if seat is None or view.hand is None or len(legal) < 2:
        return None
    if any(isinstance(action, Goal | NextGame) for action in legal):
        return None
    if view.phase == "take" and view.ready[seat]:
        completing = _completing(view)
        if completing is not None:
            return AiDecision(action=completing, reason="completes_goal")
    if view.phase not in ("take", "act", "window"):
        return None
    first = decide(view, random.Random(rng.getrandbits(64)))
    ordered = [first, *(a for a in _ranked(view, rng) if _move_kind(a) != _move_kind(first))]
    model = RulesModel(
        rules,
        seat,
        [Candidate(action, "heuristic") for action in ordered],
        decide,
        lambda state, steps: _back_to(state, seat, steps),
        lambda state, seat: value(rules, state, seat),
    )
    return decision(_Worlds(rules), model, view, rng, BUDGET)


def _completing(view: View) -> Take | None:
    """The field card that completes a Ready seat's goal (the best scoring), if any."""
    hand, opened = view.hand or (), view.opened[view.seat or 0]
    if not opened:
        return None
    best: tuple[int, Take] | None = None
    for action in view.legal:
        if isinstance(action, Take) and is_goal_form((*hand, action.card)):
            points = score_goal((*hand, action.card), opened, view.config.advanced).points
            if best is None or points > best[0]:
                best = (points, action)
    return None if best is None else best[1]


def _ranked(view: View, rng: random.Random) -> list[Action]:
    """The legal actions, best first by the heuristic's own scores, one per kind of move
    (a red and a black card of one kind are the same move but for scoring)."""
    legal = list(view.legal)
    mind = Mind(view, random.Random(rng.getrandbits(64)), PARAMS)
    scored: list[tuple[float, Action]] = []
    if view.phase == "take":
        for take in legal:
            assert isinstance(take, Take)
            options = mind.turn_options([*mind.hand, take.card])
            scored.append((max(score for score, _ in options), take))
    elif view.phase == "act":
        for score, action in mind.turn_options(mind.hand):
            if isinstance(action, Discard):
                scored.append((score, Discard(card=action.card, ready=True)))
            scored.append((score, action))
    ranked: list[Action] = []
    seen: set[tuple[Any, ...]] = set()
    for _, action in sorted(scored, key=lambda o: -o[0]) + [(0.0, a) for a in legal]:
        key = _move_kind(action)
        if action in legal and key not in seen:
            seen.add(key)
            ranked.append(action)
    return ranked


def _move_kind(action: Action) -> tuple[Any, ...]:
    """What a move does to the hand's shape: its type and the kinds of its cards."""
    match action:
        case Take(card=card):
            return ("take", kind(card))
        case Discard(card=card, ready=ready):
            return ("discard", kind(card), ready)
        case Open(cards=cards) | Gain(cards=cards):
            return (type(action).__name__, *sorted(kind(c) for c in cards))
    return (repr(action),)


class _Worlds:
    """The search's sampler: `games.rummy.worlds.sample_world`."""

    def __init__(self, rules: RummyRules) -> None:
        self.rules = rules

    def sample_state(self, view: View, rng: random.Random) -> State:
        return sample_world(self.rules, view, rng)


def _back_to(state: State, seat: int, steps: int) -> bool:
    """Whether the playout has come round to `seat`'s next take, or the short game ended."""
    return state.phase == "ended" or (steps > 1 and state.phase == "take" and state.turn == seat)


def value(rules: Rules[Any, State, Any, View], state: State, seat: int) -> float:
    """The match's result for `seat` if it is over (a share of a shared win), else its
    expected lead in match points after this short game, squashed into 0..1."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    n = state.config.players
    others = [s for s in range(n) if s != seat]
    lead = state.scores[seat] - sum(state.scores[s] for s in others) / len(others)
    if state.phase in ("take", "act", "window"):
        fit = FITS[n]
        lead += _chance(_own(fit, rules, state, seat)) * _points(state, seat, seat)
        for other in others:
            chance = _chance(_public(fit, state, other))
            lead -= chance * _points(state, other, seat) / len(others)
    return 1 / (1 + math.exp(-lead / SCALE))


def _own(fit: Fit, rules: Rules[Any, State, Any, View], state: State, seat: int) -> float:
    view = rules.view(state, seat)
    mind = Mind(view, random.Random(0), PARAMS)
    deficiency, outs, _ = mind.shape.outs(counts_of([kind(c) for c in view.hand or ()]))
    w = fit.own
    return (
        w[0]
        + w[1] * min(5, deficiency)
        + w[2] * outs / 10
        + w[3] * bool(view.opened[seat])
        + w[4] * view.ready[seat]
    )


def _public(fit: Fit, state: State, seat: int) -> float:
    w = fit.public
    opened = len(state.opened[seat])
    return w[0] + w[1] * state.ready[seat] + w[2] * (opened == 1) + w[3] * (opened >= 2)


def _chance(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def _points(state: State, seat: int, viewer: int) -> float:
    """What `seat`'s goal would score, as `viewer` can tell: a point per open set (at
    least one), its red cards, the bonus checks."""
    opened = state.opened[seat]
    reds = sum(1 for meld in opened for c in meld if is_red(c))
    if seat == viewer:
        reds += sum(1 for c in state.hands[seat] if is_red(c))
    else:
        reds += RED_SHARE * len(state.hands[seat])
    return max(1, len(opened)) + reds + BONUS
