"""Hell Queue Club's actions as the rules list them, and what validation leaves of each
action's fields.

Every action a rule can list is validated once here, at import, and shared (they are frozen).
"""

from __future__ import annotations

from typing import Literal

from games.engine.exact import (
    ExactActions,
    at_least,
    between,
    ints,
    is_int,
    one_of,
    optional,
    tuple_of,
)
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
PLAIN_QUEUES: dict[int, tuple[Queue, ...]] = {
    face: tuple(QUEUES[face, slot, None, None] for slot in SLOTS) for face in FACES
}
"""`PLAIN_QUEUES[face][slot]`: the Queue with no black die to choose."""
WAKES: dict[int, tuple[tuple[Awaken, ...], ...]] = {
    face: tuple(
        tuple(AWAKENS[face, wake] for wake in FACES if mask >> wake & 1) for mask in range(128)
    )
    for face in FACES
}
"""`WAKES[face][mask]`: the Awakens resting `face` and waking each face of the bit set `mask`
(bit f for face f), in face order: what `legal` lists without sorting the faces each time."""
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
MARK_RUNS: dict[tuple[str, str, int, int], tuple[Mark, ...]] = {
    (where, size, face, most): tuple(MARKS[where, size, face, n] for n in range(1, most + 1))
    for where, size in PLACES
    for face in FACES
    for most in range(1, 16)
}
"""`MARK_RUNS[where, size, face, most]`: the Marks of 1 to `most` such dice, in count order."""
PICKS: dict[str, Pick] = {stone: Pick(stone=stone) for stone in STONES}
RECALL = Recall()
ROLL_MARKED = RollMarked()


FACE = between(1, 6)
EXACT = ExactActions.of(
    {
        Queue: {
            "face": FACE,
            "slot": is_int,
            "steal_seat": optional(is_int),
            "steal_face": optional(FACE),
        },
        Awaken: {"face": FACE, "wake": FACE},
        Reroll: {"face": FACE},
        Mark: {
            "where": one_of(("active", "sleep")),
            "size": one_of(("large", "small", "black")),
            "face": FACE,
            "count": at_least(1),
        },
        RollMarked: {},
        Recall: {},
        Pick: {"stone": one_of(STONES)},
        Shuffle: {"orders": tuple_of(ints())},
        Roll: {"faces": ints()},
        PickFirst: {"seat": is_int},
    },
    built=(
        *QUEUES.values(),
        *AWAKENS.values(),
        *REROLLS.values(),
        *MARKS.values(),
        *PICKS.values(),
        RECALL,
        ROLL_MARKED,
    ),
)
"""`Rules.exact_actions`: each action's fields as validation leaves them, and every action
built here."""
