"""An Exhaust play picked in steps, as the hand's controls carry it.

The whole choice so far is encoded in the controls' custom_ids (stateless, so it survives a
restart): `{combo}.{cards}.{targets}`. Card ids are written one character each (`ALPHABET`),
so a play of any size fits in a custom_id; copy targets are one character per copy, in the
copies' id order.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.exhaust.cards import is_copy
from games.exhaust.models import View
from games.exhaust.plays import SelectionCheck, check_selection, playable_cards

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"
"""One custom_id character per card id (0..63)."""


def encode(cards: Sequence[int]) -> str:
    return "".join(ALPHABET[c] for c in cards)


def decode(text: str) -> tuple[int, ...]:
    """Card ids from `encode`; ValueError on a character that is not a card."""
    cards = []
    for char in text:
        index = ALPHABET.find(char)
        if index < 0:
            raise ValueError(f"not a card: {char!r}")
        cards.append(index)
    return tuple(cards)


class Choice:
    """A play being picked, as far as it goes: combo, cards, copy targets (all validated)."""

    def __init__(self, view: View, pick: str | None) -> None:
        self.offers = {
            cv.index: cards for cv in view.combos if (cards := playable_cards(view, cv.index))
        }
        self.combo: int | None = None
        self.cards: tuple[int, ...] = ()
        self.targets: tuple[int, ...] = ()
        self.check: SelectionCheck | None = None
        parts = (pick or "").split(".")
        try:
            combo = int(parts[0]) if parts[0] else None
            cards = decode(parts[1]) if len(parts) > 1 else ()
            targets = decode(parts[2]) if len(parts) > 2 else ()
        except ValueError:
            return
        if combo not in self.offers:
            return
        self.combo = combo
        offered = set(self.offers[combo])
        self.cards = tuple(sorted({c for c in cards if c in offered}))
        if not self.cards:
            return
        self.check = check_selection(view, combo, self.cards)
        reals = self.reals
        if len(set(reals)) == 1:
            targets = (reals[0],) * len(self.copies)
        chosen: list[int] = []
        for target in targets[: len(self.copies)]:
            if target not in reals:
                break
            chosen.append(target)
        self.targets = tuple(chosen)

    @property
    def reals(self) -> tuple[int, ...]:
        return tuple(c for c in self.cards if not is_copy(c))

    @property
    def copies(self) -> tuple[int, ...]:
        return tuple(c for c in self.cards if is_copy(c))

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.copies, self.targets, strict=False))

    @property
    def ready(self) -> bool:
        return bool(self.check and self.check.ok and len(self.targets) == len(self.copies))

    def code(self) -> str:
        """`{combo}.{cards}[.{targets}]`, the Pick value and the tail of the step controls."""
        text = f"{self.combo}.{encode(self.cards)}"
        return f"{text}.{encode(self.targets)}" if self.targets else text
