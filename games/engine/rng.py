"""The engine's random generator: `random.Random` with a cheaper `shuffle` that draws the same
numbers in the same order, so every seeded deal, chance action and AI decision stays the same.

A game's deal shuffles its whole deck on every new game, and a search reshuffles the hidden
cards on every sample: `Random.shuffle` spent most of its time in a method call per card
(`_randbelow`), which the loop below does inline.
"""

from __future__ import annotations

import random
from _random import Random as _Generator
from collections.abc import MutableSequence
from hashlib import sha512
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


_seed_state = _Generator.seed
"""The C generator's own `seed`, which `random.Random.seed` calls once it has an integer."""


def seeded(text: str) -> Rng:
    """`Rng(text)`, in the same state: a string seed turned into its integer as
    `random.Random.seed` does (version 2: the text, then its SHA-512), without that method's
    checks of the seed's type. A chance action seeds one, on many moves."""
    data = text.encode()
    rng = Rng.__new__(Rng)
    _seed_state(rng, int.from_bytes(data + sha512(data).digest()))
    rng.gauss_next = None  # type: ignore[attr-defined]  # (random.Random.seed's; no stub)
    return rng
