"""The rules' own actions, built once, and the quick check that an action is well formed.

`legal_actions` lists the same few hundred actions over and over: they are built here once
(frozen, so shared). `apply` checks an action's fields by hand where validating it through
`ACTION_ADAPTER` again cost a fifth of a move; anything the check does not recognise as
well formed and canonical still goes through the adapter, so what it refuses is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from games.engine.built import built
from games.rummy.cards import CARDS
from games.rummy.models import (
    Action,
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


def _card(value: Any) -> bool:
    return type(value) is int and 0 <= value < len(CARDS)


def _sorted_cards(value: Any, count: int) -> bool:
    return (
        type(value) is tuple
        and len(value) == count
        and all(_card(c) for c in value)
        and list(value) == sorted(value)
    )


_CHECKS: dict[type[BaseModel], tuple[str, Callable[[dict[str, Any]], bool]]] = {
    Take: ("take", lambda d: _card(d["card"])),
    Flip: ("flip", lambda d: _card(d["card"])),
    Discard: ("discard", lambda d: _card(d["card"]) and type(d["ready"]) is bool),
    Open: ("open", lambda d: _sorted_cards(d["cards"], 3)),
    Gain: ("gain", lambda d: _sorted_cards(d["cards"], 2)),
    PickFirst: ("first", lambda d: type(d["seat"]) is int),
    Deal: ("deal", lambda d: type(d["order"]) is tuple and all(_card(c) for c in d["order"])),
    Goal: ("goal", lambda d: True),
    Pass: ("pass", lambda d: True),
    Close: ("close", lambda d: True),
    NextGame: ("next", lambda d: True),
}
_FIELDS = {cls: (cls.model_fields.keys(), kind, check) for cls, (kind, check) in _CHECKS.items()}
"""Per action model: its field names, its `kind` and the check of its other fields."""


def well_formed(action: Action) -> bool:
    """Whether `action` holds exactly what its model would accept, as validation leaves it
    (Open's and Gain's cards sorted), so validating it again would change nothing."""
    known = _FIELDS.get(type(action))
    if known is None:
        return False
    fields, kind, fields_ok = known
    values = action.__dict__
    return values.keys() == fields and values["kind"] == kind and fields_ok(values)
