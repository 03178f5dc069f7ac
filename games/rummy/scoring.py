"""Scoring a goal (seed 004 §7 and the advanced rules), without the bonus checks.

Basic: 1 per open set, 1 per red card in the open sets and the hand. Advanced: the red
cards score by their conditions instead, judged over "all sets" = the open sets plus the
hand's goal form, split the way that scores best (R); a red Item is 1 point, no condition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.rummy.cards import NUMBER_KINDS, kind, kind_attribute, kind_number, kinds_of, number
from games.rummy.cards import is_red as _is_red
from games.rummy.models import RedScore
from games.rummy.sets import KindSplit, card_split, goal_splits

CONDITION_OF = {
    1: "ends",
    7: "ends",
    2: "no_ends",
    6: "no_ends",
    3: "three_open",
    5: "three_open",
    4: "one_attribute",
}
"""The advanced condition printed on a red number card, by its number."""
POINTS = {"red": 1, "ends": 2, "no_ends": 2, "three_open": 2, "one_attribute": 5, "item": 1}
THREE_OPEN = 3


def _uses_end(kinds: Sequence[int]) -> bool:
    """The set uses a 1, a 7 or an Item card."""
    return any(k >= NUMBER_KINDS or kind_number(k) in (1, 7) for k in kinds)


def condition_met(condition: str, sets: Sequence[Sequence[int]], open_count: int) -> bool:
    """Whether `condition` holds for `sets` (kinds; open sets and the hand's three)."""
    if condition == "ends":
        return all(_uses_end(s) for s in sets)
    if condition == "no_ends":
        return not any(_uses_end(s) for s in sets)
    if condition == "three_open":
        return open_count >= THREE_OPEN
    if condition == "one_attribute":
        return len({kind_attribute(k) for s in sets for k in s if k < NUMBER_KINDS}) <= 1
    return condition in ("item", "red")


def condition_of(card: int, advanced: bool) -> str:
    if not advanced:
        return "red"
    n = number(card)
    return "item" if n is None else CONDITION_OF[n]


def red_scores(
    reds: Sequence[int], sets: Sequence[Sequence[int]], open_count: int, advanced: bool
) -> tuple[RedScore, ...]:
    scores = []
    for card in reds:
        condition = condition_of(card, advanced)
        met = condition_met(condition, sets, open_count)
        scores.append(
            RedScore(card=card, condition=condition, met=met, points=POINTS[condition] * met)
        )
    return tuple(scores)


@dataclass(frozen=True)
class Breakdown:
    """The score of a goal before its bonus checks."""

    split: tuple[tuple[int, ...], ...]
    set_points: int
    red: tuple[RedScore, ...]

    @property
    def points(self) -> int:
        return self.set_points + sum(r.points for r in self.red)


def score_goal(hand: Sequence[int], opened: Sequence[Sequence[int]], advanced: bool) -> Breakdown:
    """Score the 8-card goal `hand` with the open sets `opened` (the best split, R)."""
    splits: tuple[KindSplit, ...] = goal_splits(kinds_of(hand))
    if not splits:
        raise ValueError("not a goal form")
    reds = sorted(c for c in (*hand, *(c for s in opened for c in s)) if _is_red(c))
    open_kinds = [kinds_of(s) for s in opened]
    best: tuple[int, KindSplit, tuple[RedScore, ...]] | None = None
    for split in splits:
        scores = red_scores(reds, [*open_kinds, *split], len(opened), advanced)
        total = sum(r.points for r in scores)
        if best is None or total > best[0]:
            best = (total, split, scores)
    assert best is not None
    return Breakdown(card_split(hand, best[1]), len(opened), best[2])


def bonus_points(card: int, hand: Sequence[int], opened: Sequence[Sequence[int]]) -> int:
    """A bonus check: 1 per card in the open sets and the hand of the turned card's kind."""
    k = kind(card)
    return sum(1 for c in (*hand, *(c for s in opened for c in s)) if kind(c) == k)
