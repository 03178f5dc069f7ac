"""Exhaust's STRONG level: the shared search (games/engine/search.py), solo and at a table.

Solo: each sampled world is the fast model `solo.Solo` (the NPC pile's order and the refill
pile drawn from the unseen cards); every legal move of the human seat is a candidate, in the
order the rules list them (Singles first); a playout makes the move, then plays the human
seat with `policy` (cheap, and a stronger rollout policy in solo than the full heuristic)
until the game ends. A win scores 1; a loss scores a little less than nothing for every card
and time card the NPC had left to burn, so that among moves that rarely win the search
prefers the ones that wear the NPC down.

At a table of 2-5 players: each sampled world is the fast model `board.Board` (the other
hands and the refill pile drawn from the unseen cards); the candidates are the heuristic's
best few actions (`ai.scored_actions`, its choice first, so ties keep it); a playout makes
the move, then every seat plays `board.rollout_move` until someone is stuck. Not being that
loser scores 1: a game has one loser and everyone else wins. In the long variant the search
plays out the game at hand (its loser takes the depletion card). Against normal AIs
(bench/exhaust_ai.py --opponents normal, the same deals) it loses 15 % of 4-player games
where normal loses 25 %, and wins 70 % of 2-player games where normal wins 51 %.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.contract import AiDecision
from games.engine.search import Budget, Candidate, decision
from games.exhaust.ai import listed, scored_actions
from games.exhaust.board import RUNNING, Board, rollout_move
from games.exhaust.board import Move as TableMove
from games.exhaust.cards import HIGHEST, NUMBER_CARDS
from games.exhaust.explain import reason_of
from games.exhaust.fastnpc import fast_play
from games.exhaust.models import Action, PlayCards, State, View
from games.exhaust.plays import legal_plays
from games.exhaust.rules import RULES
from games.exhaust.solo import SINGLE, TIME, WON, Move, Solo, play_human

TURNS = 54000
"""Human turns played out per decision, shared by the playouts (a playout lasts about as many
turns as the human has cards and time cards left): about 0.3 s a decision on one core of the
bench machine, p99 under 0.9 s. The playouts' NPC (`fastnpc.fast_play`) made a turn 3.6 times
cheaper, so the budget went from 15,000 turns (1,500 playouts at most) to 3.6 times that in
the same time per decision."""
MAX_PLAYOUTS = 5400
COUNT_PLAYS = 4
"""Straight, Flush and Any plays searched per combo and card count (see candidate_actions)."""
WEAR = 0.3
"""A lost playout scores up to this much less than nothing the more the NPC had left."""
NPC_START = 25
"""The NPC's cards and time cards left that count as 'not worn down at all'."""


def policy(solo: Solo, rng: random.Random) -> Move:
    """The playouts' human: its highest Single first (a Single the NPC cannot top keeps the
    NPC off its favourite combo, so it burns several cards a turn), then the NPC's own
    procedure on the other combos (Four > Three > Pair > Straight > Flush > Any, lowest
    numbers first, copies last), then a time card."""
    bar = solo.bars[SINGLE]
    reals = [c for c in solo.hand if c < NUMBER_CARDS]
    best = max(c % HIGHEST + 1 for c in reals) if reals else 0
    if best > bar:
        return Move(SINGLE, (rng.choice([c for c in reals if c % HIGHEST + 1 == best]),))
    found = fast_play(solo.bars, solo.hand, rng, single=False)
    if found is None:
        return Move(TIME)
    combo, play = found
    return Move(combo, play.cards, play.copies)


def score(solo: Solo) -> float:
    """A finished playout for the human: 1 for a win, else minus what the NPC had left."""
    if solo.result == WON:
        return 1.0
    left = len(solo.npc_pile) + len(solo.npc_hand) + solo.npc_time
    return -WEAR * min(1.0, left / NPC_START)


def candidate_actions(view: View) -> list[Action]:
    """The human's moves worth searching, in the order the rules list them but the time
    card before the Straight, Flush and Any plays (the search drops candidates from the end
    when its budget is short).

    Every Single, set and time card, but of the Straight, Flush and Any plays (hundreds in an
    early hand) only the first few of each size in the rules' listing (lowest cards first) up
    to one card over the minimum, and those the heuristic proposes: the budget then goes to
    moves that differ.
    """
    proposed = {action for _, action in scored_actions(view)}
    taken: dict[tuple[int, int], int] = {}
    sets: list[Action] = []
    runs: list[Action] = []
    for action in legal_plays(view):
        if not isinstance(action, PlayCards) or view.combos[action.combo].combo.number_rule:
            sets.append(action)
            continue
        size = (action.combo, len(action.cards))
        need = view.combos[action.combo].need_count or 0
        taken[size] = taken.get(size, 0) + 1
        if action in proposed or (size[1] <= need + 1 and taken[size] <= COUNT_PLAYS):
            runs.append(action)
    return sets + runs


class SoloModel:
    """The search's model of solo Exhaust (see the module docstring)."""

    def candidates(self, view: View) -> Sequence[Candidate[Move]]:
        return [Candidate(Move.of(a), reason_of(view, a)) for a in candidate_actions(view)]

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


class TableModel:
    """The search's model of a game at a table (see the module docstring)."""

    def candidates(self, view: View) -> Sequence[Candidate[TableMove]]:
        ranked = [a for _, a in sorted(scored_actions(view), key=lambda item: -item[0])]
        kept = [a for a in ranked if not isinstance(a, PlayCards) or listed(view, a)]
        return [Candidate(TableMove.of(a), reason_of(view, a)) for a in kept or legal_plays(view)]

    def world(self, state: State) -> Board:
        return Board.of(state)

    def playout(self, world: Board, move: TableMove, rng: random.Random) -> float:
        seat = world.turn
        board = world.after(move)
        while board.loser == RUNNING:
            step = rollout_move(board)
            if step is None:
                return 0.0 if board.turn == seat else 1.0
            board = board.moved(step)
        return 0.0 if board.loser == seat else 1.0

    def action(self, move: TableMove) -> Action:
        return move.action()


TABLE_MODEL = TableModel()
TABLE_BUDGET = Budget(playouts=240, candidates=8)
"""Playouts per decision at a table, each at most about 50 turns: on the bench machine a
decision takes 0.06 s of CPU on average, 0.25 s at the 99th percentile. Against normal AIs,
160 and 480 playouts and 4 to 16 candidates all measured alike (bench/exhaust_ai.py): the
playouts' policy, not their number, is the limit."""


def strong_decision(view: View, rng: random.Random) -> AiDecision | None:
    """The searched decision on the seat's own turn in a game (solo, or at a table); None
    where the search does not apply (the caller then plays NORMAL)."""
    if not view.my_turn or view.phase != "play":
        return None
    if view.solo:
        return decision(RULES, MODEL, view, rng, budget_for(view))
    return decision(RULES, TABLE_MODEL, view, rng, TABLE_BUDGET)


def budget_for(view: View) -> Budget:
    """The playouts one decision may use: TURNS over the turns a playout may last."""
    assert view.hand is not None and view.seat is not None
    turns = len(view.hand) + view.time_cards[view.seat]
    return Budget(playouts=min(MAX_PLAYOUTS, TURNS // max(1, turns)))
