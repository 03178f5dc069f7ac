"""Hell Queue Club AI: one-step lookahead over a sampled table, from its view only.

How it decides (`decide`):
- Stone picks: the stone that adds most to the best split of its own stones (`marginal`);
  among equals, the one the next picker would value most.
- Its turn: every Queue, Awaken and Recall is tried on a table sampled from the view
  (`Rules.sample_state`: only the decks' order is unknown), through the real rules; an action
  that rolls (a Recall, a first die bringing a black die) is tried on `samples` tables with
  sampled rolls; a payout it triggers is settled with every seat picking its best stone. The table
  after the action is valued (`Evaluator`) for every seat, and the AI takes the action that
  maximises its own value minus a share of the others' mean.
- A seat's value: its stones' best score; for every face-up card, the stones its current place
  there would win, weighted by how full the card is and cut when an opponent moving before it
  could complete the card with one face group and push it down (a stone counts at least
  `stone_floor`: a first stone of a colour adds little now but much later); the dice it can
  still use (active card > rest area, under a card > sleep card), which keep dice flowing — an
  Awaken pays when it wakes more than it rests, a Recall when the rest area holds many dice.
- A Reroll is not tried (its value is a gamble the lookahead cannot see); if it finds itself
  choosing rerolled dice it rolls none.
Weights are in `Params`, tuned on bench/hellqueue_ai.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine.contract import CHANCE
from games.engine.errors import GameError, Reason
from games.hellqueue.cards import NUMBERS, PAYS, SLOTS, STONES, Stone
from games.hellqueue.models import Action, Awaken, Pick, Queue, Recall, RollMarked, State, View
from games.hellqueue.moves import legal, to_move_seat
from games.hellqueue.rules import RULES
from games.hellqueue.scoring import best_score, marginal


@dataclass(frozen=True)
class Params:
    samples: int = 3
    """Sampled tables (and rolls) per candidate action that rolls dice."""
    others: float = 0.7
    """Weight of the other seats' mean value against the AI's own."""
    prospect: float = 0.8
    """Weight of the stones a seat's place on a card would win (scaled by how full it is)."""
    fill_power: float = 2.0
    """Certainty of a card's place grows as (dice under it / its number) ** fill_power."""
    threat: float = 0.6
    """Share of a card's prospect kept when an opponent can complete it before our turn."""
    active: float = 1.0
    """Value of a die on the active card."""
    sleep: float = 0.35
    """Value of a die on the sleep card."""
    rest: float = 0.5
    """Value of a die in the rest area."""
    queued: float = 0.5
    """Value of a die under a card (besides its place there): it comes back to rest."""
    stone_floor: float = 2.0
    """Least value of a stone on a card: a first stone of a colour adds 1 now, more later."""


PARAMS = Params()


def decide(view: View, rng: random.Random, params: Params = PARAMS) -> Action:
    """The AI seat's action, from its view only."""
    seat = to_move_seat(view)
    if seat is None or seat != view.seat:
        raise GameError(Reason.NOT_YOUR_TURN)
    if view.phase == "reroll":
        return RollMarked()
    if view.phase == "resolve":
        return pick_stone(view, seat)
    return Lookahead(view, seat, rng, params).best()


def pick_stone(view: View, seat: int) -> Pick:
    """The stone worth most to this seat; among equals the next picker's favourite."""
    assert view.payout is not None and view.payout.picks
    stones = view.card_stones[view.payout.slot]
    following = [s for s in view.payout.picks[1:] if s != seat]
    rival = view.players[following[0]].stones if following else None

    def key(stone: Stone) -> tuple[int, int]:
        index = STONES.index(stone)
        denial = marginal(rival, index) if rival is not None else 0
        return marginal(view.players[seat].stones, index), denial

    return Pick(stone=max(dict.fromkeys(stones), key=key))


class Lookahead:
    """Values each candidate action by the tables it leads to."""

    def __init__(self, view: View, seat: int, rng: random.Random, params: Params):
        self.rules = RULES
        self.view = view
        self.seat = seat
        self.rng = rng
        self.params = params

    def candidates(self) -> list[Action]:
        return [a for a in legal(self.view, self.seat) if isinstance(a, Queue | Awaken | Recall)]

    def best(self) -> Action:
        candidates, scored = self.scored()
        top = max(v for v, _ in scored)
        return candidates[self.rng.choice([i for v, i in scored if v >= top - 1e-9])]

    def scored(self) -> tuple[list[Action], list[tuple[float, int]]]:
        """The candidates and (value, index) of each (the STRONG search's move ordering)."""
        candidates = self.candidates()
        tables = [self.rules.sample_state(self.view, self.rng) for _ in range(self.params.samples)]
        return candidates, [(self.value(action, tables), i) for i, action in enumerate(candidates)]

    def value(self, action: Action, tables: list[State]) -> float:
        """The mean judgement over the sampled tables; one table when no die is rolled."""
        rolls = isinstance(action, Recall) or (
            isinstance(action, Queue) and self.view.totals[action.slot] == 0
        )
        used = tables if rolls else tables[:1]
        return sum(self.judge(self.after(table, action)) for table in used) / len(used)

    def after(self, state: State, action: Action) -> State:
        """The table once the action, its rolls and any payout it triggers are settled."""
        rules = self.rules
        state = rules.apply(state, self.seat, action).state
        while not rules.is_over(state):
            tm = rules.to_move(state)
            if tm.chance:
                chance = rules.chance_action(state, self.rng)
                state = rules.apply(state, CHANCE, chance).state
            elif state.phase == "resolve":
                picker = next(iter(tm.seats))
                pick = pick_stone(rules.view(state, picker), picker)
                state = rules.apply(state, picker, pick).state
            else:
                break
        return state

    def judge(self, state: State) -> float:
        """The AI's value minus `others` × the other seats' mean value."""
        evaluator = Evaluator(state, self.params)
        values = [evaluator.seat_value(s) for s in range(state.config.players)]
        mine = values[self.seat]
        rest = [v for s, v in enumerate(values) if s != self.seat]
        return mine - self.params.others * sum(rest) / len(rest)


class Evaluator:
    """A heuristic value of each seat's position on one table."""

    def __init__(self, state: State, params: Params):
        self.state = state
        self.params = params
        n = state.config.players
        self.keys = [[(d.count, d.big, d.total) for d in queue] for queue in state.queues]
        self.totals = [sum(key[0] for key in keys) for keys in self.keys]
        self.groups = []
        for player in state.players:
            active = player.active
            groups = {}
            for face in active.faces():
                large = active.large.count(face) + active.black.count(face)
                count = large + active.small.count(face)
                groups[face] = (count, large, face * count)
            self.groups.append(groups)
        self.order = [(state.turn + k) % n for k in range(n)]

    def seat_value(self, seat: int) -> float:
        state, p = self.state, self.params
        player = state.players[seat]
        value = float(best_score(player.stones))
        if state.phase == "over":
            return value
        for slot in SLOTS:
            value += p.prospect * self.prospect(slot, seat)
        value += p.active * player.active.count
        value += p.sleep * len(player.sleep)
        value += p.rest * (player.rest_large + player.rest_small)
        value += p.queued * sum(keys[seat][0] for keys in self.keys)
        return value

    def prospect(self, slot: int, seat: int) -> float:
        """Stones this seat's place on the card would win, weighted by the card's fill."""
        state, p = self.state, self.params
        keys = self.keys[slot]
        key = keys[seat]
        if state.shown[slot] is None or not key[0]:
            return 0.0
        number = NUMBERS[slot]
        place = sum(1 for k in keys if k > key)
        pays = PAYS[number]
        if place >= len(pays):
            return 0.0
        owned = state.players[seat].stones
        gains = sorted(
            (max(p.stone_floor, marginal(owned, STONES.index(s))) for s in state.card_stones[slot]),
            reverse=True,
        )
        before = sum(pays[:place])
        certainty: float = (self.totals[slot] / number) ** p.fill_power
        value = sum(gains[before : before + pays[place]]) * certainty
        if self.threatened(slot, seat):
            value *= p.threat
        return value

    def threatened(self, slot: int, seat: int) -> bool:
        """Whether an opponent moving before `seat` again can complete the card with one
        face group while outranking `seat` there."""
        keys = self.keys[slot]
        room = NUMBERS[slot] - self.totals[slot]
        for other in self.order[: self.order.index(seat)]:
            count, big, total = keys[other]
            for size, large, faces in self.groups[other].values():
                if size == room and (count + size, big + large, total + faces) > keys[seat]:
                    return True
        return False
