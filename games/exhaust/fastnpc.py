"""The NPC's procedure on the solo table for the search's playouts: one play, not its options.

`npc.choose_on` lists every option on a combo as a `Choice` (the rules need them all, to check
a logged play) and `npc.pick` draws one; a playout needs only the draw, and makes one for
every turn of the NPC (and of its human, whose playout policy uses the same procedure), so
`fast_play` finds the best plays directly from the hand grouped by number and colour and
draws one of them at random. tests/games/exhaust/test_exhaust_fastnpc.py checks that every
play it makes is one the rules' procedure accepts, and that it finds none exactly when
the procedure finds none.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.exhaust.cards import HIGHEST, NUMBER_CARDS
from games.exhaust.combos import MIN_COUNT, NUMBER, RANK, Play, grouped, table

PAIR, THREE, FOUR, STRAIGHT, FLUSH, ANY = range(1, 7)
"""The solo table's combos after its one Single (index 0), as `combos.table(1)` lists them."""
SETS = ((FOUR, 4), (THREE, 3), (PAIR, 2))
"""The set combos in the NPC's priority order, with their sizes."""
assert [c.kind.value for c in table(1)] == [
    "single",
    "pair",
    "three",
    "four",
    "straight",
    "flush",
    "any",
]

Key = tuple[int, tuple[int, ...]]


def _key(numbers: Sequence[int]) -> Key:
    """`npc.play_key` without the copy count (plays compared by it share one)."""
    return (sum(numbers), tuple(sorted(numbers, reverse=True)))


def fast_play(
    bars: Sequence[int], hand: Sequence[int], rng: random.Random, single: bool = True
) -> tuple[int, Play] | None:
    """The NPC's play (combo, canonical play) on the solo table with `bars` (`Solo.bars`), at
    random among the equally good ones, or None if nothing fits; without the Single combo
    when `single` is False (the playouts' human)."""
    if single:
        bar, best = bars[0], HIGHEST + 1
        for c in hand:
            if bar < NUMBER[c] < best:
                best = NUMBER[c]
        if best <= HIGHEST:
            return 0, Play((rng.choice(sorted(c for c in hand if NUMBER[c] == best)),))
    reals = sorted((c for c in hand if c < NUMBER_CARDS), key=RANK.__getitem__)
    groups = grouped("number", reals)  # by number, ascending; each group in rank order
    if len(groups) < len(reals):
        for combo, size in SETS:
            bar = bars[combo]
            for n, group in groups.items():
                if n > bar and len(group) >= size:
                    return combo, Play(tuple(sorted(rng.sample(group, size))))
    size = max(MIN_COUNT, bars[STRAIGHT] + 1)
    run, last = 0, -1
    for n in groups:
        run, last = (run + 1 if n == last + 1 else 1), n
        if run >= size:
            return STRAIGHT, Play(tuple(rng.choice(groups[m]) for m in range(n - size + 1, n + 1)))
    colours: list[list[int]] = [[], [], [], []]
    for c in sorted(reals):
        colours[c // HIGHEST].append(c)
    size = max(MIN_COUNT, bars[FLUSH] + 1)
    flushes = [group[:size] for group in colours if len(group) >= size]
    if flushes:
        return FLUSH, Play(tuple(_lowest_of(flushes, rng)))
    size = max(MIN_COUNT, bars[ANY] + 1)
    if len(reals) >= size:
        edge = NUMBER[reals[size - 1]]
        below = [c for c in reals[:size] if NUMBER[c] < edge]
        drawn = rng.sample(groups[edge], size - len(below))
        return ANY, Play((*below, *sorted(drawn)))
    copies = sorted(c for c in hand if c >= NUMBER_CARDS)
    if copies:
        return _with_copies(bars, groups, colours, reals, copies, rng)
    return None


def _lowest_of(plays: list[list[int]], rng: random.Random) -> list[int]:
    """The play with the lowest numbers (`npc.play_key`), at random among equals."""
    keys = [_key([NUMBER[c] for c in play]) for play in plays]
    best = min(keys)
    return rng.choice([play for play, key in zip(plays, keys, strict=True) if key == best])


def _topped(group: list[int], copies: list[int]) -> Play:
    """All of `group` (in rank order) plus copies, each copying its lowest card."""
    return Play((*group, *copies), tuple((c, group[0]) for c in copies))


def _with_copies(
    bars: Sequence[int],
    groups: dict[int, list[int]],
    colours: list[list[int]],
    reals: list[int],
    copies: list[int],
    rng: random.Random,
) -> tuple[int, Play] | None:
    """The procedure's second pass, when no play without a copy card fits: a set, Flush or
    Any filled up with just enough copies."""
    for combo, size in SETS:
        for n, group in groups.items():
            if n > bars[combo] and 1 <= size - len(group) <= len(copies):
                return combo, _topped(group, copies[: size - len(group)])
    size = max(MIN_COUNT, bars[FLUSH] + 1)
    flushes = [g for g in colours if g and 1 <= size - len(g) <= len(copies)]
    if flushes:
        plays = [[*g, *[g[0]] * (size - len(g))] for g in flushes]
        group = flushes[plays.index(_lowest_of(plays, rng))]
        return FLUSH, _topped(group, copies[: size - len(group)])
    size = max(MIN_COUNT, bars[ANY] + 1)
    if reals and 1 <= size - len(reals) <= len(copies):
        return ANY, _topped(reals, copies[: size - len(reals)])
    return None
