"""Dice race: a tiny complete game for the service and storage tests, not for the bot.

Each turn chance rolls a die and the seat to move adds 1 or the die to its total, `moves`
times in a row (a turn of several actions). After every seat has had its turn, all seats vote
at once (a simultaneous window, timed when the `window` option is set; the clock closes it with
`Close`). Each "yes" vote adds 1. The game ends after the round in which someone reaches
`target`. A seat's vote is hidden until the window closes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from games.engine import (
    CHANCE,
    SYSTEM,
    Event,
    Frozen,
    GameAI,
    GameError,
    Outcome,
    Rules,
    Step,
    ToMove,
)
from games.engine.errors import Reason, illegal
from games.engine.exact import ExactActions, between, is_bool, is_int


class Config(Frozen):
    players: int = Field(ge=2, le=4)
    target: int = Field(default=20, ge=1)
    window: float | None = None
    moves: int = Field(default=1, ge=1, le=3)
    first_player: int | None = None


class Roll(Frozen):
    kind: Literal["roll"] = "roll"
    value: int = Field(ge=1, le=6)


class Move(Frozen):
    kind: Literal["move"] = "move"
    amount: int


class Vote(Frozen):
    kind: Literal["vote"] = "vote"
    yes: bool


class Close(Frozen):
    kind: Literal["close"] = "close"


Action = Annotated[Roll | Move | Vote | Close, Field(discriminator="kind")]


class State(Frozen):
    target: int
    window: float | None
    moves: int = 1
    phase: Literal["roll", "play", "vote", "over"] = "roll"
    turn: int = 0
    made: int = 0
    """Moves made in the current turn."""
    moved: int = 0
    die: int = 0
    totals: tuple[int, ...]
    votes: tuple[bool | None, ...]


class View(Frozen):
    seat: int | None
    phase: str
    turn: int
    die: int
    totals: tuple[int, ...]
    voted: tuple[bool, ...]
    my_vote: bool | None = None


class DiceRace(Rules[Config, State, Any, View]):
    game_id = "dicerace"
    min_players = 2
    max_players = 4
    config_model = Config
    state_model = State
    action_adapter = TypeAdapter(Action)
    exact_actions = ExactActions.of(
        {
            Roll: {"value": between(1, 6)},
            Move: {"amount": is_int},
            Vote: {"yes": is_bool},
            Close: {},
        }
    )

    def make_config(self, players: int, options: dict[str, Any]) -> Config:
        try:
            return Config(players=players, **options)
        except (ValidationError, TypeError) as error:
            raise GameError(Reason.BAD_OPTION, str(error)) from None

    def setup(self, config: Config) -> State:
        n, kept = config.players, config.model_dump(include={"target", "window", "moves"})
        return State(**kept, turn=config.first_player or 0, totals=(0,) * n, votes=(None,) * n)

    def to_move(self, state: State) -> ToMove:
        if state.phase == "roll":
            return ToMove(chance=True)
        if state.phase == "play":
            return ToMove(seats=frozenset({state.turn}))
        if state.phase == "vote":
            waiting = frozenset(i for i, v in enumerate(state.votes) if v is None)
            return ToMove(seats=waiting, timeout=state.window)
        return ToMove()

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        if state.phase == "play" and seat == state.turn:
            return [Move(amount=a) for a in sorted({1, state.die})]
        if state.phase == "vote" and state.votes[seat] is None:
            return [Vote(yes=True), Vote(yes=False)]
        return []

    def chance_action(self, state: State, rng: random.Random) -> Roll:
        return Roll(value=rng.randint(1, 6))

    def timeout_action(self, state: State) -> Close:
        return Close()

    def apply(self, state: State, actor: int, action: Any) -> Step:
        phase = state.phase
        if isinstance(action, Roll) and actor == CHANCE and phase == "roll":
            new = state.model_copy(update={"die": action.value, "phase": "play"})
            return Step(state=new, events=(Event(key="toy.roll", params={"value": action.value}),))
        if isinstance(action, Close) and actor == SYSTEM and phase == "vote":
            return self._close(state)
        if actor not in self.to_move(state).seats:
            raise GameError(Reason.NOT_YOUR_TURN)
        if isinstance(action, Move) and phase == "play":
            if action.amount not in (1, state.die):
                raise illegal("bad_amount", amount=action.amount)
            totals = _put(state.totals, actor, state.totals[actor] + action.amount)
            event = Event(key="toy.move", params={"seat": actor})
            if state.made + 1 < state.moves:  # the same turn goes on
                new = state.model_copy(update={"totals": totals, "made": state.made + 1})
                return Step(state=new, events=(event,))
            n, moved = len(state.totals), state.moved + 1
            phase = "vote" if moved == n else "roll"
            update = {"totals": totals, "turn": (state.turn + 1) % n, "moved": moved % n}
            new = state.model_copy(update={**update, "phase": phase, "made": 0})
            return Step(state=new, events=(event,))
        if isinstance(action, Vote) and phase == "vote":
            votes = _put(state.votes, actor, action.yes)
            new = state.model_copy(update={"votes": votes})
            private = Event(key="toy.vote", params={"yes": action.yes}, audience=(actor,))
            events = (private, Event(key="toy.voted", params={"seat": actor}))
            if None in votes:
                return Step(state=new, events=events)
            closed = self._close(new)
            return Step(state=closed.state, events=events + closed.events)
        raise illegal("wrong_phase")

    def _close(self, state: State) -> Step:
        totals = tuple(t + (v is True) for t, v in zip(state.totals, state.votes, strict=True))
        phase = "over" if max(totals) >= state.target else "roll"
        reset = {"votes": (None,) * len(totals), "phase": phase}
        new = state.model_copy(update={"totals": totals, **reset})
        return Step(state=new, events=(Event(key="toy.closed"),))

    def view(self, state: State, seat: int | None) -> View:
        public = state.model_dump(include={"phase", "turn", "die", "totals"})
        voted = tuple(v is not None for v in state.votes)
        mine = None if seat is None else state.votes[seat]
        return View(seat=seat, voted=voted, my_vote=mine, **public)

    def outcome(self, state: State) -> Outcome | None:
        best = max(state.totals)
        winners = tuple(i for i, t in enumerate(state.totals) if t == best)
        over = state.phase == "over"
        return Outcome(winners=winners, result="win", scores=state.totals) if over else None

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        votes = tuple(
            v if v is None or i == seat else rng.random() < 0.5 for i, v in enumerate(state.votes)
        )
        return state.model_copy(update={"votes": votes})

    def secret_cards(self, state: State) -> frozenset[int]:
        return frozenset()


def decide(view: View, rng: random.Random) -> Any:
    """The toy's AI: votes yes mostly, moves as far as the die allows."""
    if view.phase == "vote":
        return Vote(yes=rng.random() < 0.7)
    return Move(amount=max(view.die, 1))


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


RULES = DiceRace()
GAMES = {RULES.game_id: RULES}
AI = GameAI(normal=decide)
AIS = {RULES.game_id: AI}
