"""Exhaust's STRONG level: the shared search (games/engine/search.py) on solo games.

Solo is where an AI seat plays alone, so that is where the search goes. Each sampled world is
the fast model `solo.Solo` (the NPC pile's order and the refill pile drawn from the unseen
cards); every legal move of the human seat is a candidate, ordered by the heuristic
(`ai.scored_actions`); a playout makes the move, then plays the human seat with the NPC's own
procedure (cheap, and as strong a rollout policy as the full heuristic in solo) until the game
ends. A win scores 1; a loss scores a little for every card and time card the NPC had left to
burn, less the more it had, so that among moves that rarely win the search prefers the ones
that wear the NPC down.

With other players the STRONG level plays as NORMAL (no fast model of a full table yet).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.contract import AiDecision, Rules
from games.engine.search import Budget, Candidate, decision
from games.exhaust.ai import scored_actions
from games.exhaust.explain import reason_of
from games.exhaust.models import Action, State, View
from games.exhaust.npc import choose_on, pick
from games.exhaust.plays import legal_plays
from games.exhaust.solo import TIME, WON, Move, Solo, play_human

TURNS = 6000
"""Human turns played out per decision, shared by the playouts (a playout lasts about as many
turns as the human has cards and time cards left): about 0.4 s on one core of the bench
machine, p99 under 1 s."""
MAX_PLAYOUTS = 1500
WEAR = 0.3
"""A lost playout scores up to this much less than nothing the more the NPC had left."""
NPC_START = 25
"""The NPC's cards and time cards left that count as 'not worn down at all'."""


def policy(solo: Solo, rng: random.Random) -> Move:
    """The playouts' human: the NPC's procedure (Single > Four > ... > Any, lowest first,
    copies last), then a time card."""
    choice = choose_on(solo.table(), solo.hand)
    if choice is None:
        return Move(TIME)
    play = pick(choice, rng)
    return Move(choice.combo, play.cards, play.copies)


def score(solo: Solo) -> float:
    """A finished playout for the human: 1 for a win, else minus what the NPC had left."""
    if solo.result == WON:
        return 1.0
    left = len(solo.npc_pile) + len(solo.npc_hand) + solo.npc_time
    return -WEAR * min(1.0, left / NPC_START)


class SoloModel:
    """The search's model of solo Exhaust (see the module docstring)."""

    def candidates(self, view: View) -> Sequence[Candidate[Move]]:
        ranked = sorted(scored_actions(view), key=lambda item: -item[0])
        order = {action: i for i, (_, action) in enumerate(ranked)}
        legal = sorted(legal_plays(view), key=lambda a: order.get(a, len(order)))
        return [Candidate(Move.of(a), reason_of(view, a)) for a in legal]

    def world(self, state: State) -> Solo:
        return Solo.of(state)

    def playout(self, world: Solo, move: Move, rng: random.Random) -> float:
        solo = play_human(world, move, rng)
        while not solo.result:
            solo = play_human(solo, policy(solo, rng), rng)
        return score(solo)

    def action(self, move: Move) -> Action:
        return move.action()


MODEL = SoloModel()


def strong_decision(
    rules: Rules[Any, Any, Any, Any], view: View, rng: random.Random
) -> AiDecision | None:
    """The searched decision in solo with the human to play; None where the search does not
    apply (the caller then plays NORMAL)."""
    if not view.solo or not view.my_turn or view.phase != "play":
        return None
    return decision(rules, MODEL, view, rng, budget_for(view))


def budget_for(view: View) -> Budget:
    """The playouts one decision may use: TURNS over the turns a playout may last."""
    assert view.hand is not None and view.seat is not None
    turns = len(view.hand) + view.time_cards[view.seat]
    return Budget(playouts=min(MAX_PLAYOUTS, TURNS // max(1, turns)))
