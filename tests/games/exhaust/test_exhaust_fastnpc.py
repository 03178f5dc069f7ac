"""The playouts' NPC (games/exhaust/fastnpc.py) against the rules' NPC procedure (npc.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.exhaust.combos import Play
from games.exhaust.fastnpc import fast_play
from games.exhaust.models import ComboView, Config
from games.exhaust.npc import accepts, choose
from games.exhaust.plays import combo_views
from games.exhaust.solo import COMBOS, NUMBER_RULE

BARS = st.tuples(*[st.integers(0, 15)] * 4, *[st.sampled_from([0, 3, 4, 5, 6, 7, 9])] * 3)
HANDS = st.sets(st.integers(0, 63), max_size=14)


def table_of(bars: tuple[int, ...]) -> tuple[ComboView, ...]:
    """The rules' combo views of a solo table whose combos stand at `bars`."""
    views = combo_views(Config(players=1), [()] * len(COMBOS))
    return tuple(
        cv.model_copy(update={"top": b or None} if NUMBER_RULE[i] else {"last": b or None})
        for i, (cv, b) in enumerate(zip(views, bars, strict=True))
    )


@settings(max_examples=3000, deadline=None)
@given(hand=HANDS, bars=BARS, seed=st.integers(0, 2**32))
def test_every_play_is_one_the_npc_procedure_accepts(
    hand: set[int], bars: tuple[int, ...], seed: int
) -> None:
    combos = table_of(bars)
    choice = choose(combos, tuple(hand))
    found = fast_play(bars, tuple(hand), random.Random(seed))
    assert (found is None) == (choice is None)
    if found is not None and choice is not None:
        combo, play = found
        assert accepts(choice, combos, tuple(hand), combo, play)


@settings(max_examples=1000, deadline=None)
@given(hand=HANDS, bars=BARS, seed=st.integers(0, 2**32))
def test_without_the_single_it_plays_as_the_procedure_on_the_other_combos(
    hand: set[int], bars: tuple[int, ...], seed: int
) -> None:
    combos = table_of(bars)[1:]
    choice = choose(combos, tuple(hand))
    found = fast_play(bars, tuple(hand), random.Random(seed), single=False)
    assert (found is None) == (choice is None)
    if found is not None and choice is not None:
        combo, play = found
        assert accepts(choice, table_of(bars), tuple(hand), combo, play)


def test_ties_are_drawn_at_random_among_the_equal_plays() -> None:
    hand = (6, 21, 36, 51)  # the four 7s
    seen = {fast_play((0,) * 7, hand, random.Random(seed)) for seed in range(60)}
    assert seen == {(0, Play((c,))) for c in hand}
