"""Scoring: the best split of a player's stones into groups, and the final ranking.

A group is either stones of one colour or stones of all different colours. Same-colour groups
score 1 3 6 12 20 30 and (R) n × (n − 1) beyond 6; different-colour groups 1 3 6 10 15 21.
Both tables grow faster than linearly, so a colour's stones left out of the different-colour
groups always form one group; the search is over the different-colour groups only.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

SAME = (0, 1, 3, 6, 12, 20, 30)
DIFFERENT = (0, 1, 3, 6, 10, 15, 21)


def same_colour(n: int) -> int:
    """Score of one group of `n` stones of one colour."""
    return SAME[n] if n < len(SAME) else n * (n - 1)


def different_colours(n: int) -> int:
    """Score of one group of `n` stones of `n` different colours (at most 6)."""
    return DIFFERENT[n]


@lru_cache(maxsize=65536)
def best_score(counts: tuple[int, ...]) -> int:
    """The highest total over every split of stones given as counts per colour."""
    return _best(tuple(sorted(n for n in counts if n)))


@lru_cache(maxsize=65536)
def _best(counts: tuple[int, ...]) -> int:
    """`best_score` of the colours present, in ascending order: which colour is which does not
    change the best split, so one search serves every permutation."""
    best = sum(same_colour(n) for n in counts)
    for size in range(2, len(counts) + 1):
        for colours in combinations(range(len(counts)), size):
            rest = (n - (i in colours) for i, n in enumerate(counts))
            best = max(best, different_colours(size) + _best(tuple(sorted(n for n in rest if n))))
    return best


@lru_cache(maxsize=65536)
def marginal(counts: tuple[int, ...], colour: int) -> int:
    """How much one more stone of `colour` adds to the best split."""
    more = tuple(n + (i == colour) for i, n in enumerate(counts))
    return best_score(more) - best_score(counts)


def winners(scores: tuple[int, ...], dice_left: tuple[int, ...]) -> tuple[int, ...]:
    """Highest score; tie → more dice left on active + sleep cards; (R) still tied → all share."""
    top = max(zip(scores, dice_left, strict=True))
    return tuple(seat for seat, key in enumerate(zip(scores, dice_left, strict=True)) if key == top)
