"""The per-game contract every game in `games/` implements.

Modelled on OpenSpiel: chance is an actor whose actions are chosen with a seeded RNG by the
engine and logged like moves, so a game replays from its log without any RNG.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from games.engine.errors import GameError, Reason
from games.engine.exact import ExactActions
from games.engine.fieldsets import joined

CHANCE = -1
"""Actor id of chance (deal, shuffle, roll)."""
SYSTEM = -2
"""Actor id of the clock: the action a game asks for when a timed window closes."""
NORMAL, STRONG = "normal", "strong"
AI_LEVELS = (NORMAL, STRONG)
"""AI levels (a game's `games.engine.ai.GameAI`): NORMAL is the game's heuristic (p99 50 ms a
decision), STRONG searches with it (games/engine/search.py; up to about 1 s a decision, so the
bot runs it off the event loop)."""


class Frozen(BaseModel):
    """Base for every config, state, action, view and event: immutable, strict."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy, whose fields-set is shared (`games.engine.fieldsets`): a record is
        copied several times a move."""
        if deep or self.__pydantic_private__ is not None or self.__pydantic_extra__ is not None:
            return super().model_copy(update=update, deep=deep)
        values = dict(self.__dict__)  # built anew: compact, where .copy() keeps deleted keys' slots
        if update:
            values.update(update)
        return made(type(self), values, joined(self.__pydantic_fields_set__, update or ()))


_new = object.__new__
_slots = BaseModel.__dict__
_set_dict = _slots["__dict__"].__set__
_set_fields_set = _slots["__pydantic_fields_set__"].__set__
_set_extra = _slots["__pydantic_extra__"].__set__
_set_private = _slots["__pydantic_private__"].__set__
"""The setters of a model's four slots, called directly: `object.__setattr__` looks each
name up on the class first, and models are made several times a move."""

M = TypeVar("M", bound=BaseModel)


def made(cls: type[M], values: dict[str, Any], fields_set: set[str]) -> M:
    """A `cls` holding `values` (every field, not validated) with pydantic's `fields_set`:
    what `model_construct` and `model_copy` leave, without their work (see
    `games.engine.built`)."""
    model: M = _new(cls)
    _set_dict(model, values)
    _set_fields_set(model, fields_set)
    _set_extra(model, None)
    _set_private(model, None)
    return model


@dataclass(frozen=True, slots=True)
class ToMove:
    """Who the game waits for now (a plain dataclass: the rules build one several times a move,
    and it is never stored).

    `seats` may hold several seats (simultaneous choices, claim windows). `chance` means the
    engine must pick a chance action next. `timeout` (seconds) means the service applies
    `Rules.timeout_action` as SYSTEM once that long has passed without the window closing.
    All empty means the game is over.
    """

    seats: frozenset[int] = frozenset()
    chance: bool = False
    timeout: float | None = None


class Event(Frozen):
    """Something that happened, for the table's log.

    `key` names a catalog entry; `params` fill it (a param named `seat`/`to_seat` is a seat index
    the renderer turns into a name). `audience` None is public, otherwise the seats that may see
    it; a private event that others should notice is emitted together with a public twin.
    `cards` lists the card ids the event shows to its audience.
    """

    key: str
    params: dict[str, Any] = {}
    audience: tuple[int, ...] | None = None
    cards: tuple[int, ...] = ()

    @property
    def public(self) -> bool:
        return self.audience is None


class Outcome(Frozen):
    """The end of a game. `result` is a game-specific code (for example perfect/win/loss)."""

    winners: tuple[int, ...]
    result: str
    scores: tuple[int, ...] = ()
    details: dict[str, int] = {}


class AiDecision(Frozen):
    """An AI seat's action and why: `reason` is a code the bot's catalog turns into a short
    phrase (for /hint), `params` fill it."""

    action: Any
    reason: str
    params: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Step:
    """What one applied action produced (a plain dataclass: built on every move, never stored;
    checked mode, `games.engine.step.check_states`, validates its state and events in tests)."""

    state: Any
    events: tuple[Event, ...] = ()


C = TypeVar("C", bound=Frozen)
S = TypeVar("S", bound=Frozen)
A = TypeVar("A", bound=Frozen)
V = TypeVar("V", bound=Frozen)


class Rules(ABC, Generic[C, S, A, V]):
    """One game's rules. Pure: every method is a function of its arguments."""

    game_id: ClassVar[str]
    rules_version: ClassVar[int] = 1
    older_versions: ClassVar[frozenset[int]] = frozenset()
    """Earlier rules versions whose stored games these rules still replay exactly (what
    changed is told apart by the stored config)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    variants: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Option sets that together reach every rule of the game (variants, advanced rules);
    the shared contract test plays each of them, so keep matches in them short."""
    config_model: type[C]
    state_model: type[S]
    action_adapter: TypeAdapter[A]

    @abstractmethod
    def make_config(self, players: int, options: dict[str, Any]) -> C:
        """Build and validate a config; raises GameError(BAD_OPTION) on a malformed option."""

    @abstractmethod
    def setup(self, config: C) -> S:
        """The deterministic initial state; its first `to_move` is normally chance."""

    @abstractmethod
    def to_move(self, state: S) -> ToMove: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every action `seat` may take now, free actions (like signals) included."""

    @abstractmethod
    def chance_action(self, state: S, rng: random.Random) -> A:
        """Pick the next chance action; only called when `to_move(state).chance`."""

    def timeout_action(self, state: S) -> A:
        """The action SYSTEM applies when a timed window closes."""
        raise NotImplementedError(f"{self.game_id} has no timed windows")

    @abstractmethod
    def apply(self, state: S, actor: int, action: A) -> Step:
        """Apply an action by `actor` (a seat, CHANCE or SYSTEM); raise GameError if refused."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What `seat` may see (None: the public). Must not depend on anything it hides."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def resample_hidden(self, state: S, seat: int | None, rng: random.Random) -> S:
        """Re-deal everything `seat` cannot see (None: the public), keeping the rest."""

    def sample_state(self, view: V, rng: random.Random) -> S:
        """A whole state consistent with `view`: what the viewer cannot see drawn at random.

        What a search-based AI seat plays out (determinized sampling); it must use nothing
        but the view, so the AI never learns a hidden card.
        """
        raise NotImplementedError(f"{self.game_id} cannot sample a state from a view")

    @abstractmethod
    def secret_cards(self, state: S) -> frozenset[int]:
        """Card ids hidden from the public right now (hands, face-down piles)."""

    exact_actions: ClassVar[ExactActions]
    """Every one of the game's action classes with a check of each of its fields, and the
    actions the rules build in advance: what `checked` takes without a round trip through the
    action model (`games.engine.exact`)."""

    # Helpers shared by every game -------------------------------------------------------

    def checked(self, action: Any) -> A:
        """`action` as this game's own action model accepts it, or GameError.

        One the rules built in advance, or of the game's classes with fields that pass
        `exact_actions` (one validated before), is what validation would give back, and is
        taken as it is. Anything else is validated: what was built without validation
        (`model_construct`, a field out of range) comes back as the model makes it or is
        refused, and another game's action, None or a dict is refused, so it can reach neither
        `apply`'s indexing nor the log (where it would no longer replay). Actions have no
        nested models, so validating an action's fields as they are is its logged form's round
        trip.
        """
        exact = self.exact_actions.exact(action)
        if exact:
            return action  # type: ignore[no-any-return]
        if exact is None:
            raise GameError(Reason.ILLEGAL_MOVE, "unknown_action")
        try:
            parsed = self.action_adapter.validate_python(action.__dict__)
        except Exception:  # any failure to validate is a malformed action
            raise GameError(Reason.ILLEGAL_MOVE, "malformed_action") from None
        if type(parsed) is not type(action):
            raise GameError(Reason.ILLEGAL_MOVE, "malformed_action")
        return parsed

    def parse_action(self, data: Any) -> A:
        return self.action_adapter.validate_python(data)

    def dump_action(self, action: A) -> dict[str, Any]:
        """The logged (JSON) form of one of this game's actions: its own model's serializer,
        which the action model's union would pick (that of an action built in advance is kept
        with it)."""
        built = self.exact_actions.built.get(id(action))
        if built is not None:
            return dict(built[1])
        dumped: dict[str, Any] = action.__pydantic_serializer__.to_python(action, mode="json")
        return dumped

    def is_over(self, state: S) -> bool:
        tm = self.to_move(state)
        return not tm.seats and not tm.chance
