"""The engine's random generator: `random.Random` with a cheaper `shuffle` that draws the same
numbers in the same order, so every seeded deal, chance action and AI decision stays the same.

A game's deal shuffles its whole deck on every new game, and a search reshuffles the hidden
cards on every sample: `Random.shuffle` spent most of its time in a method call per card
(`_randbelow`), which the loop below does inline.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any


class Rng(random.Random):
    """`random.Random`, same seeds and same sequence; `shuffle` costs about half."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle `x` in place: exactly `random.Random.shuffle` (Fisher-Yates from the end,
        each index drawn by rejection from `getrandbits` of its bit length)."""
        getrandbits = self.getrandbits
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]
