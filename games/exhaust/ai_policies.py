"""Reference policies for benches and tests: the NPC's preference order and uniform random.

Both decide from a seat's view only, like the AI, and return only legal actions.
"""

from __future__ import annotations

import random

from games.engine.errors import GameError, Reason
from games.exhaust.models import Action, FlipDepletion, NextGame, PlayCards, UseTime, View
from games.exhaust.npc import choose, pick
from games.exhaust.plays import face_up_depletion, legal_plays


def npc_policy(view: View, rng: random.Random) -> Action:
    """The solo NPC's procedure applied to a normal seat.

    Single > Four > Three > Pair > Straight > Flush > Any, lowest numbers first, minimum count,
    a copy card only as a last resort (all via `npc.choose`); else a time card; else flip.
    """
    if not view.my_turn or view.hand is None or view.seat is None:
        raise GameError(Reason.NOT_YOUR_TURN)
    if view.phase == "next":
        return NextGame()
    choice = choose(view.combos, view.hand)
    if choice is not None:
        play = pick(choice, rng)
        return PlayCards(combo=choice.combo, cards=play.cards, copies=play.copies)
    if view.time_cards[view.seat] > 0:
        return UseTime()
    if face_up_depletion(view, view.seat) > 0:
        return FlipDepletion()
    raise GameError(Reason.ILLEGAL_MOVE, "no_action")


def random_policy(view: View, rng: random.Random) -> Action:
    """A uniformly random legal action (among the listed ones)."""
    actions = legal_plays(view)
    if not actions:
        raise GameError(Reason.NOT_YOUR_TURN)
    return rng.choice(actions)
