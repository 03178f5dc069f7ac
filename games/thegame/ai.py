"""The Game AI (interim greedy version; replaced by the planning AI)."""

from __future__ import annotations

import random

from games.thegame.models import ASCENDING, PILES, EndTurn, Play, TheGameAction, TheGameView
from games.thegame.rules import fits


def decide(view: TheGameView, rng: random.Random) -> TheGameAction:
    hand = view.hand or ()
    best: tuple[int, Play] | None = None
    for card in hand:
        for pile in range(PILES):
            top = view.piles[pile].top
            if fits(top, card, ASCENDING[pile]):
                cost = card - top if ASCENDING[pile] else top - card
                if best is None or cost < best[0]:
                    best = (cost, Play(card=card, pile=pile))
    if best is not None and (view.still_required > 0 or best[0] < 0):
        return best[1]
    return EndTurn()
