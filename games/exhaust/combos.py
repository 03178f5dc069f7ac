"""The combo cards: which are on the table, and whether a play fits one.

Everything here is a function of (combo, what is on its stack, cards), so the rules, the
view-side helpers for the UI and the AI all share one definition of a legal play.
A combo's stack is summarised by `top` (the highest number on it, for the number rule) and
`last` (the card count of the previous play, for the count rule); None means empty.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations, islice, pairwise, product, repeat
from math import comb
from typing import NamedTuple

from games.engine.contract import Frozen
from games.engine.errors import illegal
from games.exhaust.cards import (
    BLUE,
    COLOURS,
    DECK,
    GREEN,
    HIGHEST,
    NUMBER_CARDS,
    RED,
    YELLOW,
    is_copy,
)
from games.exhaust.cards import colour as colour_of
from games.exhaust.cards import number as number_of


class ComboKind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    THREE = "three"
    FOUR = "four"
    STRAIGHT = "straight"
    FLUSH = "flush"
    ANY = "any"


SET_SIZE = {ComboKind.SINGLE: 1, ComboKind.PAIR: 2, ComboKind.THREE: 3, ComboKind.FOUR: 4}
"""The number-rule combos and how many cards (all of one number) each play has."""
MIN_COUNT = 3
"""The first play on a count-rule combo (Straight, Flush, Any) has at least this many cards."""
REWARDS: dict[ComboKind, tuple[str, int]] = {
    ComboKind.PAIR: ("spell", 1),
    ComboKind.THREE: ("time", 1),
    ComboKind.FOUR: ("time", 2),
    ComboKind.STRAIGHT: ("time", 1),
    ComboKind.FLUSH: ("time", 1),
    ComboKind.ANY: ("time", 1),
}
"""What a play on each combo earns: a spell card from the refill pile, or time cards."""
NPC_PRIORITY = (
    ComboKind.SINGLE,
    ComboKind.FOUR,
    ComboKind.THREE,
    ComboKind.PAIR,
    ComboKind.STRAIGHT,
    ComboKind.FLUSH,
    ComboKind.ANY,
)
"""The order in which the solo NPC tries the combos (seed 001, 'NPCの手番の処理')."""
ANY_CAP = 8
"""`iter_plays` lists this many Any plays per card count, plus every one-colour play."""
LIMIT = 5000
"""`iter_plays` lists at most this many plays per combo (a safety net for freak hands)."""


class Combo(Frozen):
    """One combo card. `colours` (Single only) are the colours it accepts."""

    kind: ComboKind
    colours: tuple[int, ...] = ()

    @property
    def number_rule(self) -> bool:
        return self.kind in SET_SIZE


class Play(NamedTuple):
    """A candidate play: the cards (copies included) and (copy id, copied card id) pairs."""

    cards: tuple[int, ...]
    copies: tuple[tuple[int, int], ...] = ()


Face = tuple[int, int]
"""(colour, number) of a played card; a copy takes the face of the card it copies."""


@cache
def table(players: int) -> tuple[Combo, ...]:
    """The combo cards for a player count (1 = solo): only the Single cards change."""
    if players <= 2:
        singles: tuple[tuple[int, ...], ...] = (tuple(range(len(COLOURS))),)
    elif players == 3:
        singles = ((RED, YELLOW), (BLUE, GREEN))
    else:
        singles = ((RED,), (BLUE,), (YELLOW,), (GREEN,))
    rest: tuple[ComboKind, ...] = (ComboKind.PAIR, ComboKind.THREE, ComboKind.FOUR)
    rest += (ComboKind.STRAIGHT, ComboKind.FLUSH, ComboKind.ANY)
    return tuple(Combo(kind=ComboKind.SINGLE, colours=c) for c in singles) + tuple(
        Combo(kind=k) for k in rest
    )


def min_number(top: int | None) -> int:
    """Number rule: the lowest number the next play may have."""
    return 1 if top is None else top + 1


def min_count(last: int | None) -> int:
    """Count rule: the fewest cards the next play may have."""
    return MIN_COUNT if last is None else max(MIN_COUNT, last + 1)


# Validating one play ---------------------------------------------------------------------


CARDS = frozenset(DECK)


def faces(cards: Sequence[int], copies: Sequence[tuple[int, int]]) -> tuple[Face, ...]:
    """The faces of a structurally valid play (see `check_cards`), in card order."""
    if not copies:
        return tuple((COLOUR[c], NUMBER[c]) for c in cards)
    target = dict(copies)
    return tuple((colour_of(target.get(c, c)), number_of(target.get(c, c))) for c in cards)


def check_cards(
    hand: Collection[int], cards: Sequence[int], copies: Sequence[tuple[int, int]]
) -> None:
    """Checks that do not depend on the combo: real cards from the hand, copies with targets."""
    if not cards:
        raise illegal("no_cards")
    if len(set(cards)) != len(cards):
        raise illegal("duplicate_card")
    if not CARDS.issuperset(cards):
        raise illegal("unknown_card")
    missing = [c for c in cards if c not in hand]
    if missing:
        raise illegal("not_in_hand", cards=missing)
    if not copies and max(cards) < NUMBER_CARDS:
        return  # the usual play: number cards only, so no copy to pair with a target
    reals = {c for c in cards if not is_copy(c)}
    if not reals:
        raise illegal("copy_alone")
    used = [c for c in cards if is_copy(c)]
    named = [c for c, _ in copies]
    if sorted(named) != sorted(used):
        raise illegal("copy_target_missing")
    if any(t not in reals for _, t in copies):
        raise illegal("bad_copy_target")


def check_shape(combo: Combo, top: int | None, last: int | None, play: Sequence[Face]) -> None:
    """The combo's own rule and its number or count rule, on the faces of a play."""
    kind = combo.kind
    size = SET_SIZE.get(kind)
    if size is not None:
        if len(play) != size:
            raise illegal("wrong_count", count=size)
        if kind is ComboKind.SINGLE and play[0][0] not in combo.colours:
            raise illegal("wrong_colour", colours=list(combo.colours))
        number = play[0][1]
        if any(n != number for _, n in play):
            raise illegal("numbers_differ")
        if number < min_number(top):
            raise illegal("number_too_low", need=min_number(top))
        return
    if len(play) < min_count(last):
        raise illegal("too_few_cards", need=min_count(last))
    if kind is ComboKind.STRAIGHT:
        ordered = sorted([n for _, n in play])
        if any(b != a + 1 for a, b in pairwise(ordered)):
            raise illegal("not_consecutive")
    elif kind is ComboKind.FLUSH and len({c for c, _ in play}) != 1:
        raise illegal("colours_differ")


def check_play(
    combo: Combo,
    top: int | None,
    last: int | None,
    hand: Collection[int],
    cards: Sequence[int],
    copies: Sequence[tuple[int, int]] = (),
) -> tuple[Face, ...]:
    """Raise GameError(ILLEGAL_MOVE, detail) unless the play is legal; return its faces."""
    check_cards(hand, cards, copies)
    play = faces(cards, copies)
    check_shape(combo, top, last, play)
    return play


def rank(card: int) -> tuple[int, int]:
    """Canonical order of number cards: by number, then colour."""
    return (number_of(card), card)


def canonical(cards: Collection[int]) -> Play:
    """The canonical form of a set of cards: number cards by `rank`, then copies by id, and
    every copy copying the first number card.

    Which card a copy copies never changes whether a play is legal (a legal Pair..Four has one
    number, a Flush one colour, a Straight can't hold a duplicate, Any has no rule), so the UI
    need not ask, and listed plays, AI plays and UI plays all share this one form.
    """
    reals = sorted((c for c in cards if not is_copy(c)), key=rank)
    copies = sorted(c for c in cards if is_copy(c))
    pairs = tuple((c, reals[0]) for c in copies) if reals else ()
    return Play((*reals, *copies), pairs)


# Which cards can take part, and listing plays --------------------------------------------


NUMBER = tuple(number_of(c) if not is_copy(c) else 0 for c in DECK)
COLOUR = tuple(colour_of(c) if not is_copy(c) else -1 for c in DECK)
RANK = tuple(NUMBER[c] * len(DECK) + c for c in DECK)
"""Per card id: its number, its colour, and an int that sorts like `rank` (listing the plays
sorts and groups hands on every move: table look-ups are cheaper than the functions)."""


def _split(hand: Collection[int]) -> tuple[list[int], list[int]]:
    reals = sorted((c for c in hand if c < NUMBER_CARDS), key=RANK.__getitem__)
    return reals, sorted(c for c in hand if c >= NUMBER_CARDS)


def grouped(key: str, cards: Sequence[int]) -> dict[int, list[int]]:
    """`cards` grouped by number or colour, groups in order of their first card."""
    table = NUMBER if key == "number" else COLOUR
    groups: dict[int, list[int]] = {}
    for c in cards:
        group = groups.get(table[c])
        if group is None:
            groups[table[c]] = [c]
        else:
            group.append(c)
    return groups


def _runs(numbers: Collection[int], length: int) -> list[range]:
    """Maximal runs of consecutive numbers at least `length` long."""
    runs, start = [], None
    for n in range(1, HIGHEST + 2):
        if n in numbers and start is None:
            start = n
        elif n not in numbers and start is not None:
            if n - start >= length:
                runs.append(range(start, n))
            start = None
    return runs


def _copies_fit(size: int, reals: int, copies: int) -> bool:
    """Can `size` cards be made of 1..reals real cards and at least one of `copies` copies?"""
    return reals >= 1 and max(1, size - reals) <= min(copies, size - 1)


def playable(combo: Combo, top: int | None, last: int | None, hand: Collection[int]) -> set[int]:
    """The cards of `hand` that take part in at least one legal play on the combo."""
    reals, copies = _split(hand)
    kind, out = combo.kind, set()
    if kind is ComboKind.SINGLE:
        return {
            c for c in reals if colour_of(c) in combo.colours and number_of(c) >= min_number(top)
        }
    if kind in SET_SIZE:
        size = SET_SIZE[kind]
        for n, group in grouped("number", reals).items():
            if n < min_number(top) or len(group) + len(copies) < size:
                continue
            out.update(group)
            if _copies_fit(size, len(group), len(copies)):
                out.update(copies)
        return out
    need = min_count(last)
    if kind is ComboKind.STRAIGHT:
        runs = _runs({number_of(c) for c in reals}, need)
        return {c for c in reals if any(number_of(c) in r for r in runs)}
    groups = grouped("colour", reals) if kind is ComboKind.FLUSH else {0: reals}
    for group in groups.values():
        if group and len(group) + len(copies) >= need:
            out.update(group)
            if _copies_fit(need, len(group), len(copies)):
                out.update(copies)
    return out


def can_play(combo: Combo, top: int | None, last: int | None, hand: Collection[int]) -> bool:
    return bool(playable(combo, top, last, hand))


Raw = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
"""A play as a plain (cards, copies) pair: listing builds them by the dozen (see `Play`)."""


class Split(NamedTuple):
    """A hand split once for listing the plays on every combo: number cards in rank order,
    copies by id, and the number cards grouped by number and by colour (see `_by`)."""

    reals: list[int]
    copies: list[int]
    by_number: dict[int, list[int]]
    by_colour: dict[int, list[int]]
    one_colour: list[Raw]
    """Filled once asked for (`_one_colour`): every one-colour play of MIN_COUNT cards up."""


def split(hand: Collection[int]) -> Split:
    reals, copies = _split(hand)
    return Split(reals, copies, grouped("number", reals), grouped("colour", reals), [])


def _subsets(group: Sequence[int], copies: Sequence[int], size: int) -> Iterator[Raw]:
    """Canonical plays of `size` cards: from `group` (in rank order) plus the lowest copies."""
    low = max(0, size - len(group))
    if not low:
        yield from zip(combinations(group, size), repeat(()))
        low = 1
    for j in range(low, min(len(copies), size - 1) + 1):
        for reals in combinations(group, size - j):
            yield (*reals, *copies[:j]), tuple((c, reals[0]) for c in copies[:j])


def _flushes(by_colour: dict[int, list[int]], copies: Sequence[int], need: int) -> Iterator[Raw]:
    for group in by_colour.values():
        for size in range(need, len(group) + len(copies) + 1):
            yield from _subsets(group, copies, size)


def _straights(by_number: dict[int, list[int]], need: int) -> Iterator[Raw]:
    for run in _runs(by_number, need):
        for length in range(need, len(run) + 1):
            for start in range(run.start, run.stop - length + 1):
                numbers = range(start, start + length)
                yield from zip(product(*(by_number[n] for n in numbers)), repeat(()))


def _one_colour(hand: Split, need: int) -> Iterator[Raw]:
    """`_flushes(hand.by_colour, hand.copies, need)`, listed once per hand (Flush and Any both
    list them): each colour's plays come by size, so those from `need` cards keep their order."""
    plays = hand.one_colour
    if not plays:
        plays.extend(_flushes(hand.by_colour, hand.copies, MIN_COUNT))
    if need <= MIN_COUNT:
        return iter(plays)
    return (play for play in plays if len(play[0]) >= need)


def _anys(hand: Split, need: int) -> Iterator[Raw]:
    """A few plays of each size (lowest ranks first), and every one-colour play."""
    reals, copies = hand.reals, hand.copies
    sizes: dict[int, set[Raw]] = {}
    for size in range(need, len(reals) + len(copies) + 1):
        if comb(len(reals), size) >= ANY_CAP:  # the first ANY_CAP take no copy (`_subsets`)
            sizes[size] = set(zip(islice(combinations(reals, size), ANY_CAP), repeat(())))
        else:
            sizes[size] = set(islice(_subsets(reals, copies, size), ANY_CAP))
    for play in _one_colour(hand, need):
        sizes[len(play[0])].add(play)
    # By card count, then by cards (a play's copies follow from its cards).
    return (play for size in sorted(sizes) for play in sorted(sizes[size]))


def iter_plays(
    combo: Combo, top: int | None, last: int | None, hand: Collection[int] | Split
) -> Iterator[Play]:
    """The legal plays on the combo, in canonical form (see `canonical`); `hand` may come
    `split` already (listing the plays on every combo splits it once).

    Exact for every combo but Any (up to LIMIT plays per combo, which real hands don't reach).
    Any lists ANY_CAP plays per size (lowest ranks first, so the NPC's choice is among them)
    plus every one-colour play, so that the listing stays small yet a play listed on Straight
    or Flush that is also legal on the combo next to it is listed there too. Every legal play
    is accepted by `check_play` whether listed or not.
    """
    return map(Play._make, raw_plays(combo, top, last, hand))


def raw_plays(
    combo: Combo, top: int | None, last: int | None, hand: Collection[int] | Split
) -> Iterator[Raw]:
    """`iter_plays` as plain (cards, copies) pairs."""
    parts = hand if isinstance(hand, Split) else split(hand)
    reals, copies = parts.reals, parts.copies
    kind = combo.kind
    if kind is ComboKind.SINGLE:
        need, colours = min_number(top), combo.colours
        if len(colours) == 1:  # one colour's cards are in rank order already
            reals = parts.by_colour.get(colours[0], [])
        plays: Iterator[Raw] = (
            ((c,), ()) for c in reals if COLOUR[c] in colours and NUMBER[c] >= need
        )
    elif kind in SET_SIZE:
        need, size = min_number(top), SET_SIZE[kind]
        short = size - len(copies)  # a number with fewer cards has no play
        plays = (
            play
            for n, group in parts.by_number.items()  # numbers ascending
            if n >= need and len(group) >= short
            for play in _subsets(group, copies, size)
        )
    elif kind is ComboKind.STRAIGHT:
        plays = _straights(parts.by_number, min_count(last))
    elif kind is ComboKind.FLUSH:
        plays = _one_colour(parts, min_count(last))
    else:
        plays = _anys(parts, min_count(last))
    return islice(plays, LIMIT)
