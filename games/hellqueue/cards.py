"""The fixed pieces of Hell Queue Club (seed 003 + RULINGS): colours, stones, the cards.

Distribution cards have ids 0–11 so that a face-down deck is a pile of hidden card ids like any
other game's: deck "8" holds ids 0–4, deck "10" ids 5–8, deck "12" ids 9–11. Slots are the
three decks in that order (slot 0 is the "8" deck, 1 the "10", 2 the "12").
"""

from __future__ import annotations

from itertools import accumulate
from typing import Literal

Colour = Literal["red", "blue", "yellow", "green"]
"""A player's colour; seat i plays COLOURS[i]."""
COLOURS: tuple[Colour, ...] = ("red", "blue", "yellow", "green")

Stone = Literal["red", "blue", "yellow", "green", "aqua", "white"]
STONES: tuple[Stone, ...] = ("red", "blue", "yellow", "green", "aqua", "white")
STONES_PER_COLOUR = 10
LETTER: dict[str, Stone] = {"R": "red", "B": "blue", "Y": "yellow", "G": "green", "A": "aqua"}
LETTER["W"] = "white"

LARGE_DICE = 5
SMALL_DICE = 10
BLACK_DICE = 5

NUMBERS: tuple[int, ...] = (8, 10, 12)
"""The number of each slot's deck: a card pays out when exactly this many dice are under it."""
SLOTS = range(len(NUMBERS))

PAYS: dict[int, tuple[int, ...]] = {8: (2, 1), 10: (2, 1, 1), 12: (3, 2, 1)}
"""Stones each place picks, by card number (1st, 2nd, 3rd); later places get nothing."""

CARD_STONES: tuple[tuple[str, ...], ...] = (
    ("RRW", "BBR", "YYB", "GGY", "AAG"),
    ("WWAR", "WWGB", "AAYR", "AWBY"),
    ("RBYGAW", "RRGGBW", "YYBGAW"),
)
"""(R) The stones printed on each deck's cards (the seed does not show the faces)."""


def _stones(letters: str) -> tuple[Stone, ...]:
    return tuple(sorted((LETTER[x] for x in letters), key=STONES.index))


_STARTS = (0, *accumulate(len(cards) for cards in CARD_STONES))
DECKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(_STARTS[slot], _STARTS[slot + 1])) for slot in SLOTS
)
"""Each slot's card ids, in printed order (the order before the setup shuffle)."""
STONES_OF: dict[int, tuple[Stone, ...]] = {
    card: _stones(letters)
    for deck, cards in zip(DECKS, CARD_STONES, strict=True)
    for card, letters in zip(deck, cards, strict=True)
}


def stone_counts(stones: tuple[Stone, ...]) -> tuple[int, ...]:
    """Stones as six counts in STONES order."""
    return tuple(stones.count(s) for s in STONES)
