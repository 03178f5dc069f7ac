"""The 64 spell cards as ints, so hands and piles are plain tuples that JSON round-trips.

Ids 0..59 are the number cards, colour-major: id = colour * 15 + (number - 1). Ids 60..63
are the four copy cards, which have no colour or number of their own.
"""

from __future__ import annotations

COLOURS = ("red", "blue", "yellow", "green")
"""Fire, water, wind, earth; the index is the colour code used everywhere."""
RED, BLUE, YELLOW, GREEN = range(4)
LOWEST, HIGHEST = 1, 15
NUMBER_CARDS = 60
COPY_CARDS = (60, 61, 62, 63)
DECK = tuple(range(64))


def card_id(colour: int, number: int) -> int:
    """The id of the number card of `colour` and `number`."""
    if not (0 <= colour < len(COLOURS) and LOWEST <= number <= HIGHEST):
        raise ValueError(f"no card {colour}/{number}")
    return colour * HIGHEST + number - 1


def is_copy(card: int) -> bool:
    return card >= NUMBER_CARDS


def colour(card: int) -> int:
    """The colour of a number card (a copy has none: ask the card it copies)."""
    if is_copy(card):
        raise ValueError("a copy card has no colour of its own")
    return card // HIGHEST


def number(card: int) -> int:
    """The number of a number card (a copy has none: ask the card it copies)."""
    if is_copy(card):
        raise ValueError("a copy card has no number of its own")
    return card % HIGHEST + 1


def label(card: int) -> str:
    """A short debugging label like `red7` or `copy60`."""
    return f"copy{card}" if is_copy(card) else f"{COLOURS[colour(card)]}{number(card)}"
