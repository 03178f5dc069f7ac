"""A catalog text that changes with a count.

English says "1 card" and "2 cards"; Japanese says 枚 either way. So an English entry of a
counted thing is a `Plural`, and its Japanese entry, under the same key, is one plain text.
`t(lang, key, count=n)` picks the form and fills `{count}` with n.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Plural:
    """An English text in its two forms: `one` for a count of exactly 1, `other` for the rest
    (0 included: "0 cards")."""

    one: str
    other: str

    def form(self, count: int | None) -> str:
        return self.one if count == 1 else self.other


Entry = str | Plural
"""A catalog value: a text, or for a counted thing in English, its two forms."""
