"""The 100 cards of Angels & Demons Rummy (seed 004) and what a set looks at.

A card id is `4 * kind + copy`, copy 0 being the red one. Kinds 0–20 are the number cards
(Human 1–7, Angel 1–7, Demon 1–7); kinds 21–24 the Items (R: sword, shield, potion, ring).
Red and black cards of one kind are the same for sets and bonus checks, so set logic works
on kinds; only scoring asks whether a card is red.
"""

from __future__ import annotations

from collections.abc import Iterable

ATTRIBUTES = ("human", "angel", "demon", "item")
HUMAN, ANGEL, DEMON, ITEM = range(4)
ITEM_TITLES = ("sword", "shield", "potion", "ring")
NUMBERS = 7
COPIES = 4
NUMBER_KINDS = 3 * NUMBERS
KINDS = NUMBER_KINDS + len(ITEM_TITLES)
CARDS = tuple(range(KINDS * COPIES))


def kind(card: int) -> int:
    return card // COPIES


def kind_attribute(k: int) -> int:
    return k // NUMBERS if k < NUMBER_KINDS else ITEM


def kind_number(k: int) -> int | None:
    """1–7 for a number kind, None for an Item."""
    return k % NUMBERS + 1 if k < NUMBER_KINDS else None


def attribute(card: int) -> int:
    return kind_attribute(kind(card))


def number(card: int) -> int | None:
    return kind_number(kind(card))


def title(card: int) -> str:
    """The printed title: "1"–"7", or the Item's picture name."""
    k = kind(card)
    n = kind_number(k)
    return str(n) if n is not None else ITEM_TITLES[k - NUMBER_KINDS]


def is_red(card: int) -> bool:
    return card % COPIES == 0


def is_item(card: int) -> bool:
    return kind(card) >= NUMBER_KINDS


def card_id(attr: int, card_title: int | str, copy: int) -> int:
    """The card of `attr`, `card_title` (a number, or an Item picture name) and `copy`."""
    if attr == ITEM:
        k = NUMBER_KINDS + ITEM_TITLES.index(str(card_title))
    else:
        k = attr * NUMBERS + int(card_title) - 1
    return k * COPIES + copy


def kinds_of(cards: Iterable[int]) -> tuple[int, ...]:
    """The sorted kinds of `cards`: all a set or a goal form depends on."""
    return tuple(sorted([c // COPIES for c in cards]))
