"""A search model that plays out through a game's own rules (for games without a fast model).

`games.engine.search` needs a `Model`; this one makes the candidate move on the sampled
state with `Rules.apply`, then lets chance (`Rules.chance_action`) and every seat (a cheap
`policy`, deciding from that seat's view) play on until the game ends or `horizon` says the
playout has gone far enough, and scores where it stopped with the game's `value` for the
searching seat. Whole games are too long to play out many times within a decision's budget,
so a game gives a horizon (say, the seat's next turn) and a value that judges the table there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.engine.contract import CHANCE, Rules
from games.engine.search import Candidate

Policy = Callable[[Any, random.Random], Any]
"""A seat's action from its view (the rollout policy)."""


class RulesModel:
    """The search's `Model` on real states (see the module docstring).

    `candidates` are given best first (the heuristic's choice, then the other legal actions);
    `horizon(state, steps)` is true once a playout should stop after `steps` actions;
    `value(state, seat)` is how well the table stands for `seat`, from 0 to 1.
    """

    def __init__(
        self,
        rules: Rules[Any, Any, Any, Any],
        seat: int,
        candidates: Sequence[Candidate[Any]],
        policy: Policy,
        horizon: Callable[[Any, int], bool],
        value: Callable[[Any, int], float],
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.listed = list(candidates)
        self.policy = policy
        self.horizon = horizon
        self.value = value

    def candidates(self, view: Any) -> Sequence[Candidate[Any]]:
        return self.listed

    def world(self, state: Any) -> Any:
        return state

    def playout(self, world: Any, move: Any, rng: random.Random) -> float:
        rules = self.rules
        state = rules.apply(world, self.seat, move).state
        steps = 1
        while not rules.is_over(state) and not self.horizon(state, steps):
            to_move = rules.to_move(state)
            if to_move.chance:
                state = rules.apply(state, CHANCE, rules.chance_action(state, rng)).state
            else:
                seat = min(to_move.seats)
                action = self.policy(rules.view(state, seat), rng)
                state = rules.apply(state, seat, action).state
            steps += 1
        return self.value(state, self.seat)

    def action(self, move: Any) -> Any:
        return move
