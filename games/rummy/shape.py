"""How far a hand is from the goal form, for the AI: deficiency and live outs.

The goal form is 2 big sets + 1 small set in 8 hand cards. A hand's *deficiency* is how
many cards it still lacks: 8 minus the most of its cards that fit one goal form whose
missing cards can still come (each missing kind has an unseen copy). A 7-card hand with
deficiency 1 is one card from the goal; 0 is a goal form.

Sets never mix attributes, so each attribute is solved alone (`attr_table`: the most cards
usable with up to m big-set slots and p small-set slots) and the four tables are combined.
Tables are cached on the attribute's counts and unseen copies, which repeat a lot.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from games.rummy.cards import KINDS, NUMBER_KINDS

GOAL = 8
SPANS = ((0, 7, True), (7, 14, True), (14, 21, True), (NUMBER_KINDS, KINDS, False))
"""Each attribute's kinds [start, stop) and whether it has runs (Items do not)."""
SLOTS = tuple((m, p) for m in range(3) for p in range(2))
"""Table entries: (big-set slots, small-set slots), index m * 2 + p."""
FULL = 2 * 2 + 1
Table = tuple[int, ...]
EMPTY: Table = (0,) * len(SLOTS)


def _fills_with(
    i: int, counts: tuple[int, ...], avail: tuple[int, ...], runs: bool, size: int
) -> list[tuple[tuple[int, ...], int]]:
    """Ways to put cards of kind `i` (the lowest kind left) into one set slot of `size`
    (3 big, 2 small) that can still be completed: (the kinds used, how many cards)."""
    fills = [
        ((i,) * use, use) for use in range(1, min(counts[i], size) + 1) if size - use <= avail[i]
    ]
    if runs and size == 3:
        for start in range(max(0, i - 2), min(i, len(counts) - 3) + 1):
            window = (start, start + 1, start + 2)
            higher = [j for j in window if j > i and counts[j]]
            for r in range(len(higher) + 1):
                for extra in combinations(higher, r):
                    used = (i, *extra)
                    if all(avail[j] for j in window if j not in used):
                        fills.append((used, len(used)))
    return fills


@lru_cache(maxsize=1 << 18)
def attr_table(counts: tuple[int, ...], avail: tuple[int, ...], runs: bool) -> Table:
    """For one attribute: the most cards usable with up to m big and p small set slots."""
    return tuple(_best(counts, avail, runs, m, p) for m, p in SLOTS)


@lru_cache(maxsize=1 << 20)
def _best(c: tuple[int, ...], avail: tuple[int, ...], runs: bool, m: int, p: int) -> int:
    """Always deciding the lowest kind left (leave one copy out, or use it in a set slot
    whose lowest used kind it is) visits each way once."""
    if not (m or p):
        return 0
    i = next((j for j, n in enumerate(c) if n), None)
    if i is None:
        return 0
    rest = list(c)
    rest[i] -= 1
    found = _sub(rest, avail, runs, m, p)
    for slots, size in ((m, 3), (p, 2)):
        if not slots:
            continue
        for used, n in _fills_with(i, c, avail, runs, size):
            rest = list(c)
            for j in used:
                rest[j] -= 1
            found = max(found, n + _sub(rest, avail, runs, m - (size == 3), p - (size == 2)))
    return found


def _sub(c: list[int], avail: tuple[int, ...], runs: bool, m: int, p: int) -> int:
    return _best(tuple(c), avail, runs, m, p)


@lru_cache(maxsize=1 << 18)
def table(counts: tuple[int, ...], avail: tuple[int, ...], runs: bool) -> Table:
    """`attr_table`, with the unseen copies of kinds no set of these cards could use
    normalised away (more cache hits)."""
    if not any(counts):
        return EMPTY
    return attr_table(counts, _normalise(counts, avail, runs), runs)


def _normalise(counts: Sequence[int], avail: tuple[int, ...], runs: bool) -> tuple[int, ...]:
    """`avail` with the kinds no set of `counts` could use set to 2 (one cache key)."""
    reach = 2 if runs else 0
    return tuple(
        a if any(counts[max(0, j - reach) : j + reach + 1]) else 2 for j, a in enumerate(avail)
    )


@lru_cache(maxsize=1 << 16)
def combine(a: Table, b: Table) -> Table:
    return tuple(
        max(a[i * 2 + j] + b[(m - i) * 2 + (p - j)] for i in range(m + 1) for j in range(p + 1))
        for m, p in SLOTS
    )


@lru_cache(maxsize=1 << 16)
def _best_with(a: Table, rest: Table) -> int:
    """Cards used by the whole goal form when one attribute has table `a`."""
    return max(a[m * 2 + p] + rest[(2 - m) * 2 + (1 - p)] for m in range(3) for p in range(2))


class Shape:
    """Deficiency and outs of hands, against what is still unseen (`unseen[k]` copies)."""

    def __init__(self, unseen: Sequence[int]) -> None:
        self.unseen = tuple(unseen)
        self.avail = _avail(self.unseen)

    def deficiency(self, counts: Sequence[int]) -> int:
        t = _tables(tuple(counts), self.avail)
        return GOAL - combine(combine(t[0], t[1]), combine(t[2], t[3]))[FULL]

    def outs(self, counts: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
        """(deficiency, unseen cards that would lower it, the kinds that would)."""
        return _outs(tuple(counts), self.unseen)


def _avail(unseen: Sequence[int]) -> tuple[int, ...]:
    """Unseen copies capped at 2, the most a slot can lack of one kind (fewer cache keys)."""
    return tuple(2 if u else 0 for u in unseen)


def _tables(counts: tuple[int, ...], avail: tuple[int, ...]) -> list[Table]:
    return [table(counts[a:b], avail[a:b], runs) for a, b, runs in SPANS]


@lru_cache(maxsize=1 << 16)
def _outs(counts: tuple[int, ...], unseen: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """`Shape.outs`, cached across decisions: a take and the discard after it look at the
    same hands against the same unseen cards."""
    avail = _avail(unseen)
    t = _tables(counts, avail)
    total = combine(combine(t[0], t[1]), combine(t[2], t[3]))
    deficiency = GOAL - total[FULL]
    if deficiency <= 0:
        return deficiency, 0, ()
    live, kinds = 0, []
    for index, (a, b, runs) in enumerate(SPANS):
        others = [t[i] for i in range(4) if i != index]
        rest = combine(combine(others[0], others[1]), others[2])
        part, part_avail = list(counts[a:b]), list(avail[a:b])
        for j in range(b - a):
            if not unseen[a + j]:
                continue
            part[j] += 1
            part_avail[j] = min(unseen[a + j] - 1, 2)
            used = _best_with(table(tuple(part), tuple(part_avail), runs), rest)
            part[j] -= 1
            part_avail[j] = avail[a + j]
            if GOAL - used < deficiency:
                live += unseen[a + j]
                kinds.append(a + j)
    return deficiency, live, tuple(kinds)


def counts_of(kinds: Sequence[int]) -> list[int]:
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    return counts
