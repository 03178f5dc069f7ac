"""What the combos' stacks come to, computed once per stacks: each combo's bar and its view.

A move asks for them several times (the play's check, the stuck check, the NPC's plan, the
view, the legal actions), and most moves leave the stacks of the state before them as they
are: so they are kept by the identity of the stacks tuple (the tuple is kept with them, so an
id is never reused while its entry lives), and a play derives the new stacks' bars from the
old ones instead of reading every stack again.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from games.engine.built import built
from games.exhaust.combos import min_count, min_number, table
from games.exhaust.models import ComboView, Played

Stacks = Sequence[Sequence[Played]]


class Summary:
    """One stacks tuple's bars (per combo its top number under the number rule, else the
    last play's card count; 0 while empty) and, once asked for, its combo views."""

    __slots__ = ("bars", "stacks", "views")

    def __init__(self, stacks: Stacks, bars: tuple[int, ...]) -> None:
        self.stacks = stacks
        self.bars = bars
        self.views: tuple[ComboView, ...] | None = None


_KEPT: dict[tuple[int, int], Summary] = {}
KEPT = 256
"""Stacks summaries kept (then all are dropped at once: the live games' come back at once)."""


def summary(players: int, stacks: Stacks) -> Summary:
    key = (id(stacks), players)
    kept = _KEPT.get(key)
    if kept is not None and kept.stacks is stacks:
        return kept
    found = Summary(stacks, _bars(players, stacks))
    if type(stacks) is tuple:  # a list may still change: never kept
        _keep(key, found)
    return found


def _keep(key: tuple[int, int], found: Summary) -> None:
    if len(_KEPT) >= KEPT:
        _KEPT.clear()
    _KEPT[key] = found


@cache
def number_rules(players: int) -> tuple[bool, ...]:
    """Per combo on the table, whether it has the number rule (else the count rule)."""
    return tuple(combo.number_rule for combo in table(players))


def _bars(players: int, stacks: Stacks) -> tuple[int, ...]:
    return tuple(
        [
            (max([p.high for p in plays]) if number else len(plays[-1].cards)) if plays else 0
            for number, plays in zip(number_rules(players), stacks, strict=True)
        ]
    )


def bars(players: int, stacks: Stacks) -> tuple[int, ...]:
    return summary(players, stacks).bars


def top_last(players: int, stacks: Stacks, index: int) -> tuple[int | None, int | None]:
    """The (top, last) of one combo, as `combos.check_play` reads them."""
    bar = summary(players, stacks).bars[index] or None
    return (bar, None) if number_rules(players)[index] else (None, bar)


def views(players: int, stacks: Stacks) -> tuple[ComboView, ...]:
    """The combos with their stacks and what the next play on each must beat."""
    found = summary(players, stacks)
    if found.views is None:
        empty = _empty_views(players)
        found.views = tuple(
            [
                _view(i, players, plays, bar) if plays else empty[i]
                for i, (plays, bar) in enumerate(zip(stacks, found.bars, strict=True))
            ]
        )
    return found.views


@cache
def _empty_views(players: int) -> tuple[ComboView, ...]:
    """Each combo's view while its stack is empty, made once (they are immutable): most of a
    game's combos are empty for most of it."""
    return tuple(_view(i, players, (), 0) for i in range(len(table(players))))


def _view(index: int, players: int, plays: Sequence[Played], bar: int) -> ComboView:
    combo = table(players)[index]
    values: dict[str, Any] = {"index": index, "combo": combo, "plays": tuple(plays)}
    if combo.number_rule:
        top = bar or None
        values.update(top=top, last=None, need_number=min_number(top), need_count=None)
    else:
        last = bar or None
        values.update(top=None, last=last, need_number=None, need_count=min_count(last))
    return built(ComboView, values)


def stacked(players: int, stacks: Stacks, index: int, played: Played) -> tuple[Any, ...]:
    """The stacks with `played` on combo `index`, their summary derived from the old one's."""
    old = summary(players, stacks)
    plays = (*stacks[index], played)
    new = (*stacks[:index], plays, *stacks[index + 1 :])
    number = number_rules(players)[index]
    bar = max(old.bars[index], played.high) if number else len(played.cards)
    found = Summary(new, (*old.bars[:index], bar, *old.bars[index + 1 :]))
    if old.views is not None:
        view = _view(index, players, plays, bar)
        found.views = (*old.views[:index], view, *old.views[index + 1 :])
    _keep((id(new), players), found)
    return new
