"""The solo NPC's procedure (seed 001, 'NPCの手番の処理', with the RULINGS).

The NPC tries Single > Four > Three > Pair > Straight > Flush > Any and plays on the first
combo that takes a play: lowest numbers first, the minimum count on Straight/Flush/Any, and a
copy card only when no play without copies exists on any combo. Options that are equally
good are picked at random: the rules expose them as a `Choice` so that the chance action can
pick one with the RNG, and `apply` can check that a logged pick is one of them.

"Lowest numbers first" compares plays by the sum of their numbers, then by their numbers from
the highest down, then by how few copies they use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from games.engine.built import built
from games.engine.errors import GameError
from games.exhaust.cards import COLOURS, HIGHEST, LOWEST, is_copy
from games.exhaust.combos import (
    COLOUR,
    NPC_PRIORITY,
    NUMBER,
    RANK,
    SET_SIZE,
    Combo,
    ComboKind,
    Play,
    canonical,
    check_play,
    min_count,
    min_number,
)
from games.exhaust.models import NPC_HAND, ComboView, NpcState

Key = tuple[int, tuple[int, ...], int]


class Option(NamedTuple):
    """Equally good plays: `fixed` cards, plus `count` cards drawn at random from each pool."""

    key: Key
    fixed: tuple[int, ...] = ()
    pools: tuple[tuple[tuple[int, ...], int], ...] = ()
    copies: tuple[tuple[int, int], ...] = ()


class Choice(NamedTuple):
    """The combo the NPC plays on and its equally best options there."""

    combo: int
    options: tuple[Option, ...]

    @property
    def key(self) -> Key:
        return self.options[0].key


def play_key(numbers: Sequence[int], copies: int) -> Key:
    return (sum(numbers), tuple(sorted(numbers, reverse=True)), copies)


class Hand(NamedTuple):
    """A hand split once for all the combos the NPC tries: number cards in rank order, copies
    by id, and the number cards grouped by number (ascending)."""

    reals: tuple[int, ...]
    copies: tuple[int, ...]
    groups: dict[int, tuple[int, ...]]

    @classmethod
    def of(cls, hand: Sequence[int]) -> Hand:
        reals = tuple(sorted((c for c in hand if not is_copy(c)), key=RANK.__getitem__))
        copies = tuple(sorted(c for c in hand if is_copy(c)))
        return cls(reals, copies, _groups(reals))


def _groups(ordered: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """Cards already in rank order, grouped by number."""
    out: dict[int, tuple[int, ...]] = {}
    for c in ordered:
        n = NUMBER[c]
        out[n] = (*out.get(n, ()), c)
    return out


def _lowest(ordered: Sequence[int], count: int) -> Option:
    """The `count` lowest cards of a group in rank order, random among cards tied at the
    boundary number."""
    edge = NUMBER[ordered[count - 1]]
    below = tuple(c for c in ordered if NUMBER[c] < edge)
    at = tuple(c for c in ordered if NUMBER[c] == edge)
    numbers = [NUMBER[c] for c in below] + [edge] * (count - len(below))
    return Option(play_key(numbers, 0), below, ((at, count - len(below)),))


def _topped_up(group: Sequence[int], copies: Sequence[int], count: int) -> Option | None:
    """All of `group` plus just enough copies (copying its lowest card) for `count`."""
    need = count - len(group)
    if not group or need < 1 or need > len(copies):
        return None
    play = canonical([*group, *copies[:need]])
    numbers = [NUMBER[c] for c in group] + [NUMBER[play.cards[0]]] * need
    return Option(play_key(numbers, need), play.cards, (), play.copies)


def options(
    combo: Combo, top: int | None, last: int | None, hand: Sequence[int] | Hand, copy: bool
) -> list[Option]:
    """The NPC's candidate options on one combo, with or without copy cards."""
    split = hand if isinstance(hand, Hand) else Hand.of(hand)
    reals, copies, by_number = split
    kind = combo.kind
    found: list[Option | None] = []
    if kind is ComboKind.SINGLE and not copy:
        need = min_number(top)
        found = [
            Option(play_key([n], 0), (), ((fitting, 1),))
            for n, group in by_number.items()
            if n >= need and (fitting := tuple(c for c in group if COLOUR[c] in combo.colours))
        ]
    elif kind in SET_SIZE and kind is not ComboKind.SINGLE:
        size, need = SET_SIZE[kind], min_number(top)
        for n, group in by_number.items():
            if n < need:
                continue
            if copy:
                found.append(_topped_up(group, copies, size))
            elif len(group) >= size:
                found.append(Option(play_key([n] * size, 0), (), ((group, size),)))
    elif kind is ComboKind.STRAIGHT and not copy:
        size = min_count(last)
        for start in range(LOWEST, HIGHEST + 2 - size):
            run = range(start, start + size)
            if all(n in by_number for n in run):
                found.append(
                    Option(play_key(list(run), 0), (), tuple((by_number[n], 1) for n in run))
                )
    elif kind in (ComboKind.FLUSH, ComboKind.ANY):
        size = min_count(last)
        groups = [reals]
        if kind is ComboKind.FLUSH:
            groups = [tuple(c for c in reals if COLOUR[c] == k) for k in range(len(COLOURS))]
        for group in groups:
            if copy:
                found.append(_topped_up(group, copies, size))
            elif len(group) >= size:
                found.append(_lowest(group, size))
    return [o for o in found if o is not None]


PRIORITY = {kind: i for i, kind in enumerate(NPC_PRIORITY)}
Bar = tuple[int, Combo, int | None, int | None]
"""(index, combo, top, last) of one combo on the table: what the NPC's choice depends on."""


def choose(combos: Sequence[ComboView], hand: Sequence[int]) -> Choice | None:
    """The first combo in priority order that takes a play, and its best options there."""
    return choose_on([(cv.index, cv.combo, cv.top, cv.last) for cv in combos], hand)


def choose_on(bars: Sequence[Bar], hand: Sequence[int]) -> Choice | None:
    """`choose` on bare bars (for the search's fast model of the table)."""
    ordered = sorted(bars, key=lambda bar: PRIORITY[bar[1].kind])
    split = Hand.of(hand)
    for copy in (False, True):
        for index, combo, top, last in ordered:
            found = options(combo, top, last, split, copy)
            if found:
                best = min(o.key for o in found)
                return Choice(index, tuple(o for o in found if o.key == best))
    return None


def pick(choice: Choice, rng: random.Random) -> Play:
    """One of the equally good plays, at random."""
    option = rng.choice(choice.options)
    cards = list(option.fixed)
    for pool, count in option.pools:
        cards.extend(rng.sample(pool, count))
    return canonical(cards)


def accepts(
    choice: Choice,
    combos: Sequence[ComboView],
    hand: Sequence[int],
    combo: int,
    play: Play,
) -> bool:
    """Whether `play` on `combo` is one of the options of `choice` (for validating a log)."""
    if combo != choice.combo:
        return False
    cv = combos[combo]
    try:
        faces = check_play(cv.combo, cv.top, cv.last, hand, play.cards, play.copies)
    except GameError:
        return False
    copies = sum(1 for c in play.cards if is_copy(c))
    return play_key([n for _, n in faces], copies) == choice.key


class Turn(NamedTuple):
    """The NPC's turn up to its decision: hand filled to 5, then stuck draws one at a time."""

    npc: NpcState
    filled: tuple[int, ...]
    drawn: tuple[int, ...]
    choice: Choice | None


def plan_turn(npc: NpcState, combos: Sequence[ComboView]) -> Turn:
    """Fill the hand space, then draw one card at a time while nothing can be played."""
    hand, pile = list(npc.hand), list(npc.pile)
    filled: list[int] = []
    while len(hand) < NPC_HAND and pile:
        filled.append(pile.pop(0))
        hand.append(filled[-1])
    drawn: list[int] = []
    choice = choose(combos, hand)
    while choice is None and pile:
        drawn.append(pile.pop(0))
        hand.append(drawn[-1])
        choice = choose(combos, hand)
    values = {"hand": tuple(hand), "pile": tuple(pile), "time_cards": npc.time_cards}
    after = built(NpcState, values)  # the NPC's own cards, moved: valid as they were
    return Turn(after, tuple(filled), tuple(drawn), choice)
