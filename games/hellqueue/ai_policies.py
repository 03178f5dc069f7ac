"""Reference seats for benches and tests: uniform random, and greedy.

Both decide from a seat's view only, like the AI, and return only legal actions.
"""

from __future__ import annotations

import random

from games.engine.errors import GameError, Reason
from games.hellqueue.cards import NUMBERS, PAYS, STONES
from games.hellqueue.models import Action, Awaken, Pick, Queue, Recall, View
from games.hellqueue.moves import legal, to_move_seat
from games.hellqueue.scoring import marginal


def _seat(view: View) -> int:
    seat = to_move_seat(view)
    if seat is None or seat != view.seat:
        raise GameError(Reason.NOT_YOUR_TURN)
    return seat


def random_policy(view: View, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(legal(view, _seat(view)))


def best_pick(view: View, seat: int, rng: random.Random) -> Action:
    """The stone that adds the most to the seat's best split (random among equals)."""
    stones = view.players[seat].stones
    picks = [a for a in legal(view, seat) if isinstance(a, Pick)]
    gain = {id(a): marginal(stones, STONES.index(a.stone)) for a in picks}
    top = max(gain.values())
    return rng.choice([a for a in picks if gain[id(a)] == top])


def stones_won(view: View, seat: int, action: Queue) -> float:
    """Stones `seat` takes at once if this Queue completes its card (0 if it does not).

    Tied seats roll off, so a seat tied with others expects the mean of the places they share.
    """
    slot, face = action.slot, action.face
    queue = view.queues[slot]
    active = view.players[seat].active
    large = active.large.count(face) + active.black.count(face)
    count = large + active.small.count(face)
    if view.totals[slot] + count != NUMBERS[slot]:
        return 0.0
    dice = queue[seat]
    mine = (dice.count + count, dice.big + large, dice.total + face * count)
    keys = [mine if other == seat else (d.count, d.big, d.total) for other, d in enumerate(queue)]
    better = sum(1 for key in keys if key[0] and key > mine)
    equal = sum(1 for key in keys if key[0] and key == mine)
    pays = PAYS[NUMBERS[slot]] + (0,) * len(queue)
    return sum(pays[better : better + equal]) / equal


def greedy_policy(view: View, rng: random.Random) -> Action:
    """The Queue that wins the most stones now, else the one that queues the most dice.

    With no Queue possible: Recall if it can, else the Awaken that wakes the most dice (resting
    as few as possible). Picks the stone worth most to itself; a Reroll's choice is to roll none
    (it never starts one).
    """
    seat = _seat(view)
    actions = legal(view, seat)
    if view.payout is not None and view.phase == "resolve":
        return best_pick(view, seat, rng)
    queues = [a for a in actions if isinstance(a, Queue)]
    if queues:
        active = view.players[seat].active

        sizes = {
            f: active.large.count(f) + active.small.count(f) + active.black.count(f)
            for f in active.faces()
        }
        keys = [(stones_won(view, seat, a), sizes[a.face]) for a in queues]
        top = max(keys)
        return rng.choice([a for a, key in zip(queues, keys, strict=True) if key == top])
    if any(isinstance(a, Recall) for a in actions):
        return Recall()
    awakens = [a for a in actions if isinstance(a, Awaken)]
    if awakens:
        player = view.players[seat]

        def wakes(a: Awaken) -> tuple[int, int]:
            return player.sleep.count(a.wake), -player.active.group(a.face).count

        top_wake = max(wakes(a) for a in awakens)
        return rng.choice([a for a in awakens if wakes(a) == top_wake])
    return actions[-1]
