"""Hell Queue Club's actions as the rules list them, and a fast check of what comes in.

Every action a rule can list is validated once here, at import, and shared (they are frozen).
An action that comes in is used as it is when it is exactly what validation would leave (its
own class, every field of its field's type and range); anything else goes through the full
validation of `Rules.checked`, which refuses it or gives the validated equal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from games.hellqueue.cards import SLOTS, STONES
from games.hellqueue.models import (
    Awaken,
    Mark,
    Pick,
    PickFirst,
    Queue,
    Recall,
    Reroll,
    Roll,
    RollMarked,
    Shuffle,
    Size,
)

FACES = range(1, 7)


def _steal_sources() -> list[tuple[int | None, int | None]]:
    return [(None, None), *((seat, face) for seat in range(4) for face in FACES)]


QUEUES: dict[tuple[int, int, int | None, int | None], Queue] = {
    (face, slot, seat, steal): Queue(face=face, slot=slot, steal_seat=seat, steal_face=steal)
    for face in FACES
    for slot in SLOTS
    for seat, steal in _steal_sources()
}
AWAKENS: dict[tuple[int, int], Awaken] = {
    (face, wake): Awaken(face=face, wake=wake) for face in FACES for wake in FACES
}
REROLLS: dict[int, Reroll] = {face: Reroll(face=face) for face in FACES}
PLACES: tuple[tuple[Literal["active", "sleep"], Size], ...] = (
    ("active", "large"),
    ("active", "small"),
    ("active", "black"),
    ("sleep", "small"),
)
"""Where a die may be marked for a Reroll: the active card holds every kind, the sleep card
small dice only."""
MARKS: dict[tuple[str, str, int, int], Mark] = {
    (where, size, face, count): Mark(where=where, size=size, face=face, count=count)
    for where, size in PLACES
    for face in FACES
    for count in range(1, 16)
}
PICKS: dict[str, Pick] = {stone: Pick(stone=stone) for stone in STONES}
RECALL = Recall()
ROLL_MARKED = RollMarked()


def _face(value: Any) -> bool:
    return type(value) is int and 1 <= value <= 6


def _optional_int(value: Any) -> bool:
    return value is None or type(value) is int


def _ints(value: Any) -> bool:
    return type(value) is tuple and all(type(v) is int for v in value)


_CHECKS: dict[type[BaseModel], dict[str, Callable[[Any], bool]]] = {
    Queue: {
        "face": _face,
        "slot": lambda v: type(v) is int,
        "steal_seat": _optional_int,
        "steal_face": lambda v: v is None or _face(v),
    },
    Awaken: {"face": _face, "wake": _face},
    Reroll: {"face": _face},
    Mark: {
        "where": lambda v: v in ("active", "sleep") and type(v) is str,
        "size": lambda v: v in ("large", "small", "black") and type(v) is str,
        "face": _face,
        "count": lambda v: type(v) is int and v >= 1,
    },
    RollMarked: {},
    Recall: {},
    Pick: {"stone": lambda v: v in STONES and type(v) is str},
    Shuffle: {"orders": lambda v: type(v) is tuple and all(_ints(order) for order in v)},
    Roll: {"faces": _ints},
    PickFirst: {"seat": lambda v: type(v) is int},
}
_KINDS = {cls: cls.model_fields["kind"].default for cls in _CHECKS}


def well_formed(action: Any) -> bool:
    """Whether `action` is one of the game's actions exactly as validation leaves one: then
    validating it again would give an equal instance, and it can be used as it is."""
    checks = _CHECKS.get(type(action))
    if checks is None or action.__pydantic_extra__ or action.__pydantic_private__:
        return False
    fields = action.__dict__
    if len(fields) != len(checks) + 1 or fields.get("kind") != _KINDS[type(action)]:
        return False
    return all(name in fields and check(fields[name]) for name, check in checks.items())
