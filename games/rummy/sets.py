"""Sets and the goal form, decided on kinds (red and black of one title are the same).

A small set is 2 cards of one kind; a big set a group (3 of one kind) or a run (3 number
cards of one attribute with consecutive numbers, no wrap). The goal form is 8 cards making
exactly 1 small set and 2 big sets.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations, product
from typing import Literal

from games.rummy.cards import COPIES, KINDS, NUMBER_KINDS, NUMBERS, is_item, kind, kinds_of

SetKind = Literal["small", "group", "run"]
KindSplit = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A goal form on kinds: (small set, big set, big set), each sorted."""

GOAL_SIZE = 8
HAND_SIZE = 7
ITEM_VICTORY_SETS = 3
"""Advanced: open sets made only of Item cards that win the match."""


def kind_set(ks: Sequence[int]) -> SetKind | None:
    """What the sorted kinds `ks` make, if a set at all."""
    if len(ks) == 2:
        return "small" if ks[0] == ks[1] else None
    if len(ks) != 3:
        return None
    if ks[0] == ks[1] == ks[2]:
        return "group"
    same_attribute = ks[2] < NUMBER_KINDS and ks[0] // NUMBERS == ks[2] // NUMBERS
    if same_attribute and ks[1] == ks[0] + 1 and ks[2] == ks[0] + 2:
        return "run"
    return None


def set_kind(cards: Iterable[int]) -> SetKind | None:
    return kind_set(kinds_of(cards))


def is_big(cards: Iterable[int]) -> bool:
    return set_kind(cards) in ("group", "run")


def _remove(ks: tuple[int, ...], part: tuple[int, ...]) -> tuple[int, ...] | None:
    rest = list(ks)
    for k in part:
        if k not in rest:
            return None
        rest.remove(k)
    return tuple(rest)


def _big_starting_at(k: int) -> list[tuple[int, ...]]:
    """The big sets whose lowest kind is `k`."""
    melds: list[tuple[int, ...]] = [(k, k, k)]
    if k < NUMBER_KINDS and k % NUMBERS <= NUMBERS - 3:
        melds.append((k, k + 1, k + 2))
    return melds


def _two_big(ks: tuple[int, ...]) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every way to split 6 sorted kinds into two big sets."""
    found = set()
    for meld in _big_starting_at(ks[0]):
        rest = _remove(ks, meld)
        if rest is not None and kind_set(rest) in ("group", "run"):
            first, second = sorted((meld, rest))
            found.add((first, second))
    return found


@lru_cache(maxsize=1 << 16)
def goal_splits(ks: tuple[int, ...]) -> tuple[KindSplit, ...]:
    """Every goal form the 8 sorted kinds `ks` make (empty: not a goal form)."""
    if len(ks) != GOAL_SIZE:
        return ()
    found: set[KindSplit] = set()
    for pair in sorted(set(ks)):
        rest = _remove(ks, (pair, pair))
        if rest is not None:
            for first, second in _two_big(rest):
                found.add(((pair, pair), first, second))
    return tuple(sorted(found))


def _all_big() -> list[tuple[int, ...]]:
    return [meld for k in range(KINDS) for meld in _big_starting_at(k)]


@lru_cache(maxsize=1)
def goal_forms() -> frozenset[tuple[int, ...]]:
    """Every goal form on kinds (8 sorted kinds: a small set and two big sets), built once:
    a goal-form check is then one lookup, where searching the splits of each hand cost most of
    a move's time."""
    bigs = _all_big()
    return frozenset(
        tuple(sorted((pair, pair, *first, *second)))
        for pair in range(KINDS)
        for i, first in enumerate(bigs)
        for second in bigs[i:]
    )


def is_goal_kinds(ks: tuple[int, ...]) -> bool:
    """Whether the 8 sorted kinds `ks` make a goal form."""
    return ks in goal_forms()


def is_goal_form(cards: Iterable[int]) -> bool:
    return kinds_of(cards) in goal_forms()


@lru_cache(maxsize=1 << 16)
def kind_waits(ks: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds that would make the 7 sorted kinds `ks` a goal form."""
    if len(ks) != HAND_SIZE:
        return ()
    present = set(ks)
    lone: list[int] = []
    for k in present:
        if ks.count(k) == 1 and present.isdisjoint(_NEIGHBOURS[k]):
            if lone:
                return ()  # two lone cards: more than one card from the goal form
            lone.append(k)
    # Every card of a hand one card from the goal form but the missing pair card's partner
    # has a set-mate in the hand: a lone card can only be waiting for its pair.
    near = lone or sorted(present.union(*(_NEIGHBOURS[k] for k in present)))
    forms = goal_forms()
    return tuple(k for k in near if _with(ks, k) in forms)


def _neighbours(k: int) -> frozenset[int]:
    """The other kinds a big set may hold with kind `k`: numbers of its attribute at most
    2 apart (no other card can complete a goal form)."""
    if k >= NUMBER_KINDS:
        return frozenset()
    base = k - k % NUMBERS
    return frozenset(j for j in range(k - 2, k + 3) if j != k and base <= j < base + NUMBERS)


_NEIGHBOURS = tuple(_neighbours(k) for k in range(KINDS))


def _with(ks: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The sorted kinds `ks` with `k` added."""
    at = bisect_right(ks, k)
    return (*ks[:at], k, *ks[at:])


def waits(hand: Iterable[int], held: Iterable[int] = ()) -> tuple[int, ...]:
    """Kinds completing the 7-card `hand`, leaving out any whose 4 copies are all in `hand`
    or `held` (the player's open sets): a fifth copy does not exist."""
    hand = tuple(hand)
    found = kind_waits(kinds_of(hand))
    if not found:
        return found
    ks = [kind(c) for c in (*hand, *held)]
    return tuple(k for k in found if ks.count(k) < COPIES)


def ready_kinds(hand: Sequence[int], held: Iterable[int] = ()) -> set[int]:
    """The kinds of `hand`'s cards (8 of them) whose discard leaves it waiting: those for which
    `waits` of the other 7 cards finds a kind. One sort of the hand's kinds serves each."""
    ks = kinds_of(hand)
    every = [*ks, *(c // COPIES for c in held)]
    ready: set[int] = set()
    for i, k in enumerate(ks):
        if i and ks[i - 1] == k:
            continue
        found = kind_waits(ks[:i] + ks[i + 1 :])
        # `waits` counts the copies in the 7 cards kept and `held`: the discard is not there.
        if any(every.count(w) - (w == k) < COPIES for w in found):
            ready.add(k)
    return ready


def card_split(hand: Iterable[int], split: KindSplit) -> tuple[tuple[int, ...], ...]:
    """The goal form `split` with the actual cards of `hand` (each set sorted)."""
    pool = sorted(hand)
    sets = []
    for part in split:
        cards = []
        for k in part:
            card = next(c for c in pool if kind(c) == k)
            pool.remove(card)
            cards.append(card)
        sets.append(tuple(sorted(cards)))
    return tuple(sets)


def _by_kind(cards: Iterable[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for card in sorted(cards):
        found.setdefault(kind(card), []).append(card)
    return found


def _run_partners(k: int) -> tuple[tuple[int, int], ...]:
    if k >= NUMBER_KINDS:
        return ()
    base, n = k - k % NUMBERS, k % NUMBERS
    pairs = []
    for start in range(max(0, n - 2), min(n, NUMBERS - 3) + 1):
        window = [base + start + i for i in range(3)]
        window.remove(k)
        pairs.append((window[0], window[1]))
    return tuple(pairs)


_RUN_PARTNERS = tuple(_run_partners(k) for k in range(KINDS))


def run_partners(k: int) -> tuple[tuple[int, int], ...]:
    """The pairs of kinds that make a run with kind `k`."""
    return _RUN_PARTNERS[k]


def big_sets_in(hand: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every 3 cards of `hand` that make a big set (sorted card tuples)."""
    by_kind = _by_kind(hand)
    found: list[tuple[int, int, int]] = []
    for k, cards in by_kind.items():
        found += combinations(cards, 3)
        if k < NUMBER_KINDS and k % NUMBERS <= NUMBERS - 3:
            found += product(cards, by_kind.get(k + 1, ()), by_kind.get(k + 2, ()))
    return sorted(found)


def gains_with(hand: Sequence[int], card: int) -> list[tuple[int, int]]:
    """Every 2 cards of `hand` that make a big set with `card` (sorted pairs)."""
    by_kind = _by_kind(hand)
    k = kind(card)
    found: list[tuple[int, int]] = list(combinations(by_kind.get(k, ()), 2))
    for a, b in run_partners(k):
        found += product(by_kind.get(a, ()), by_kind.get(b, ()))
    return sorted(found)


def can_gain(hand: Sequence[int], card: int) -> bool:
    """Whether `gains_with(hand, card)` finds any pair (without listing them)."""
    k = card // COPIES
    ks = [c // COPIES for c in hand]
    if ks.count(k) >= 2:
        return True
    return any(a in ks and b in ks for a, b in _RUN_PARTNERS[k])


def item_sets(opened: Iterable[Sequence[int]]) -> int:
    """Open sets made only of Item cards."""
    return sum(1 for s in opened if all(is_item(c) for c in s))
