"""What a seat may do, read from a State or a View alike (the AI only has the view).

Both carry the table under the same field names, so `legal` lists the same actions for a seat
whether the engine asks with the state or the AI with its view.
"""

from __future__ import annotations

from typing import Literal

from games.hellqueue.cards import NUMBERS, PAYS, SLOTS
from games.hellqueue.known import (
    MARK_RUNS,
    PICKS,
    PLACES,
    PLAIN_QUEUES,
    QUEUES,
    RECALL,
    REROLLS,
    ROLL_MARKED,
    WAKES,
)
from games.hellqueue.models import Action, Payout, State, View

Table = State | View
RecallCase = Literal["rest", "black", "cards"]


def total(table: Table, slot: int) -> int:
    """Dice under the card in `slot`, everyone's."""
    return sum(dice.count for dice in table.queues[slot])


def room(table: Table, slot: int) -> int:
    """How many more dice the card in `slot` takes (0 when no card is shown there)."""
    if table.shown[slot] is None:
        return 0
    return NUMBERS[slot] - total(table, slot)


def steal_options(table: Table, seat: int) -> list[tuple[int | None, int | None]]:
    """Where the black die comes from for a first die under an empty card.

    (None, None) is the supply or, when it is empty, the rest area; (seat, face) an opponent's
    black die on its active card (only when the supply is empty). With no black die anywhere
    the only option is (None, None), which brings none (R).
    """
    if table.black_supply > 0:
        return [(None, None)]
    options: list[tuple[int | None, int | None]] = []
    if table.rest_black > 0:
        options.append((None, None))
    for other, player in enumerate(table.players):
        if other != seat:
            options += [(other, face) for face in sorted(set(player.active.black))]
    return options or [(None, None)]


def recall_case(table: Table, seat: int) -> RecallCase | None:
    """Which case of Recall applies for `seat` now (None: Recall is not possible)."""
    player = table.players[seat]
    if player.rest_large or player.rest_small:
        return "rest"
    if table.rest_black:
        return "black"
    if player.active.count == 0 and any(queue[seat].count for queue in table.queues):
        return "cards"
    return None


def play_actions(table: Table, seat: int) -> list[Action]:
    """Phase `play`: every Queue, Awaken, Reroll and Recall `seat` may take."""
    player = table.players[seat]
    active = player.active
    dice = active.large + active.small + active.black
    faces = sorted(set(dice))
    sizes = [dice.count(face) for face in faces]
    shown = table.shown
    totals = [sum([d.count for d in queue]) for queue in table.queues]
    steals: list[tuple[int | None, int | None]] | None = None
    actions: list[Action] = []
    for face, size in zip(faces, sizes, strict=True):
        plain = PLAIN_QUEUES[face]
        for slot in SLOTS:
            if shown[slot] is None or size > NUMBERS[slot] - totals[slot]:
                continue
            if totals[slot]:
                actions.append(plain[slot])
                continue
            if steals is None:
                steals = steal_options(table, seat)
            actions += [QUEUES[face, slot, s, f] for s, f in steals]
    sleep = 0
    for face in set(player.sleep):
        sleep |= 1 << face
    for face, size in zip(faces, sizes, strict=True):
        actions += WAKES[face][sleep | 1 << face if size >= 2 else 1 << face]
    actions += [REROLLS[face] for face in faces]
    if recall_case(table, seat) is not None:
        actions.append(RECALL)
    return actions


def mark_actions(table: Table, seat: int) -> list[Action]:
    """Phase `reroll`: every Mark (each kind, face and count still on the cards) and the roll."""
    player = table.players[seat]
    actions: list[Action] = []
    for where, size in PLACES:
        faces = player.sleep if where == "sleep" else player.active.of(size)
        for face in sorted(set(faces)):
            actions += MARK_RUNS[where, size, face, faces.count(face)]
    actions.append(ROLL_MARKED)
    return actions


def pick_actions(table: Table) -> list[Action]:
    """A pending pick: one stone colour still on the paying card."""
    assert table.payout is not None
    stones = table.card_stones[table.payout.slot]
    return [PICKS[stone] for stone in dict.fromkeys(stones)]


def pending_tie(payout: Payout) -> tuple[int, ...] | None:
    """The first tied group of the ranking whose places earn stones (it must roll off)."""
    pays = PAYS[NUMBERS[payout.slot]]
    place = 0
    for group in payout.ranking:
        if len(group) > 1 and place < len(pays):
            return group
        place += len(group)
    return None


def to_move_seat(table: Table) -> int | None:
    """The seat the game waits for (None: chance, or the game is over)."""
    phase = table.phase  # read once: a model's attribute costs more than a local's
    if phase == "setup" or phase == "over" or table.rolling is not None:
        return None
    if phase == "play" or phase == "reroll":
        return table.turn
    payout = table.payout
    if payout is not None and payout.picks:
        return payout.picks[0]
    return None


def legal(table: Table, seat: int) -> list[Action]:
    """Every action `seat` may take now."""
    if to_move_seat(table) != seat:
        return []
    if table.phase == "play":
        return play_actions(table, seat)
    if table.phase == "reroll":
        return mark_actions(table, seat)
    return pick_actions(table)
