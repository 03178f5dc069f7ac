"""The rules' own actions, built once, and what validation leaves of each action's fields.

`legal_actions` lists the same few hundred actions over and over: they are built here once
(frozen, so shared).
"""

from __future__ import annotations

from functools import lru_cache

from games.engine.built import built
from games.engine.exact import ExactActions, between, ints, is_bool, is_int
from games.rummy.cards import CARDS
from games.rummy.models import (
    Close,
    Deal,
    Discard,
    Flip,
    Gain,
    Goal,
    NextGame,
    Open,
    Pass,
    PickFirst,
    Take,
)

TAKES = tuple(built(Take, {"kind": "take", "card": c}) for c in CARDS)
DISCARDS = tuple(built(Discard, {"kind": "discard", "card": c, "ready": False}) for c in CARDS)
READY_DISCARDS = tuple(built(Discard, {"kind": "discard", "card": c, "ready": True}) for c in CARDS)
GOAL = Goal()
PASS = Pass()
NEXT_GAME = NextGame()


@lru_cache(maxsize=4096)
def open_action(cards: tuple[int, int, int]) -> Open:
    """Open `cards` (sorted)."""
    return built(Open, {"kind": "open", "cards": cards})


@lru_cache(maxsize=4096)
def gain_action(cards: tuple[int, int]) -> Gain:
    """Gain with `cards` (sorted)."""
    return built(Gain, {"kind": "gain", "cards": cards})


LAST = len(CARDS) - 1
CARD = between(0, LAST)
EXACT = ExactActions.of(
    {
        Deal: {"order": ints(0, LAST)},
        PickFirst: {"seat": is_int},
        Flip: {"card": CARD},
        Take: {"card": CARD},
        Goal: {},
        Open: {"cards": ints(0, LAST, length=3, ordered=True)},
        Discard: {"card": CARD, "ready": is_bool},
        Pass: {},
        Gain: {"cards": ints(0, LAST, length=2, ordered=True)},
        Close: {},
        NextGame: {},
    },
    built=(*TAKES, *DISCARDS, *READY_DISCARDS, GOAL, PASS, NEXT_GAME),
)
"""`Rules.exact_actions`: Open's and Gain's cards sorted, as their validators leave them;
the actions built here once, at import."""
