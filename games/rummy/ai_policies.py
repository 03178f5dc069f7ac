"""Baseline seats the AI is benched against (bench/rummy_ai.py), deciding from a view only.

- random: uniform among the legal actions.
- greedy: goals whenever it can; in a claim window claims whenever it can (a Goal, else a
  Gain); after a take opens a big set whenever it can; otherwise discards the card least
  connected to the rest of its hand (ties: at random), declaring Ready whenever that discard
  allows it. It takes the field card most connected to its hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.rummy.cards import NUMBER_KINDS, NUMBERS, kind
from games.rummy.models import Action, Discard, Gain, Goal, NextGame, Open, Take, View


def random_policy(view: View, rng: random.Random) -> Action:
    return rng.choice(view.legal)


def connection(card: int, others: Sequence[int]) -> int:
    """How much `card` belongs with `others`: 2 per card of its kind, 1 per run partner
    (same attribute, numbers 1–2 apart)."""
    k = kind(card)
    score = 0
    for other in others:
        j = kind(other)
        if j == k:
            score += 2
        elif k < NUMBER_KINDS and j < NUMBER_KINDS and j // NUMBERS == k // NUMBERS:
            score += abs(j - k) <= 2
    return score


def greedy_policy(view: View, rng: random.Random) -> Action:
    legal = view.legal
    for wanted in (Goal, Gain, Open, NextGame):
        found = [a for a in legal if isinstance(a, wanted)]
        if found:
            return rng.choice(found)
    hand = view.hand or ()
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        best = max(connection(a.card, hand) for a in takes)
        return rng.choice([a for a in takes if connection(a.card, hand) == best])
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards:
        return legal[0]  # the claim window's Pass
    cards = sorted({a.card for a in discards})
    least = min(connection(c, [o for o in hand if o != c]) for c in cards)
    card = rng.choice([c for c in cards if connection(c, [o for o in hand if o != c]) == least])
    ready = Discard(card=card, ready=True)
    return ready if ready in legal else Discard(card=card)
