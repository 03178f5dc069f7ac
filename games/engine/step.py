"""Applying actions with automatic chance resolution, and replaying a log.

What a user sends is validated here, once, through the game's own action model; what the rules
build inside (states, events, chance actions) is trusted. Checked mode (`check_states`, on for
the whole test suite, off in the bot) validates every state `advance` and `replay` produce, so a
rule that builds an invalid state without validation fails the tests instead of a stored game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.built import every_field
from games.engine.contract import CHANCE, SYSTEM, Event, Frozen, Rules, ToMove, made
from games.engine.errors import GameError, Reason
from games.engine.rng import seeded

_checking = False


def check_states(on: bool = True) -> None:
    """Turn checked mode on (or off): from now on, every state `advance`, `advance_all` and
    `replay` produce, and the events and chance actions on the way, are validated through the
    game's models, and a failure raises `InvalidState`. A test setting; it costs a round trip
    through the state model per action."""
    global _checking
    _checking = on


def checking() -> bool:
    """Whether checked mode is on."""
    return _checking


class InvalidState(AssertionError):
    """Checked mode: an action made the rules build a state (or event) their models refuse."""


class LoggedAction(Frozen):
    """One entry of a session's append-only log. `seq` is the version it produced."""

    seq: int
    actor: int
    action: dict[str, Any]


def _logged(seq: int, actor: int, action: dict[str, Any]) -> LoggedAction:
    """A log entry, not validated: every field is the engine's own, the action already dumped
    from a validated action (made with its class's one fields-set, looked up once)."""
    return made(LoggedAction, {"seq": seq, "actor": actor, "action": action}, _LOGGED_FIELDS)


_LOGGED_FIELDS = every_field(LoggedAction)


def _dumped(rules: Rules[Any, Any, Any, Any], action: Any) -> dict[str, Any]:
    """`rules.dump_action(action)` for the log: an action the rules built in advance logs the
    form they keep of it (its serializer's, as every `dump_action` gives), shared, not copied:
    nothing changes a log entry's action once made."""
    built = rules.exact_actions.built.get(id(action))
    return rules.dump_action(action) if built is None else built[1]


def _check(
    rules: Rules[Any, Any, Any, Any], state: Any, events: Iterable[Event], actor: int, action: Any
) -> None:
    """Checked mode: `state` (and the events) as `action` left them survive a round trip through
    the game's models (types, field bounds, validators), or InvalidState naming the game and
    the action."""
    who = {CHANCE: "chance", SYSTEM: "the clock"}.get(actor, f"seat {actor}")
    try:
        dumped = state.model_dump_json(warnings="error")
        back = rules.state_model.model_validate_json(dumped)
        for event in events:
            Event.model_validate(event.model_dump(warnings="error"))
    except Exception as error:
        raise InvalidState(
            f"{rules.game_id}: {who}'s {action!r} built a state or event its model refuses: {error}"
        ) from error
    if back != state:
        fields = [
            name
            for name in type(back).model_fields
            if getattr(back, name) != getattr(state, name, None)
        ]
        raise InvalidState(
            f"{rules.game_id}: {who}'s {action!r} built a state that does not round-trip "
            f"through {rules.state_model.__name__} (fields {fields})"
        )


def chance_rng(seed: int, seq: int) -> random.Random:
    """The RNG for the chance action that will become `seq`; only needed when playing live."""
    return seeded(f"{seed}:{seq}")


@dataclass(slots=True)
class Advance:
    """What one `advance` produced (a plain dataclass: it is built on every move; not frozen,
    whose `__init__` sets each field through `object.__setattr__` at about four times the cost,
    though nothing changes one once built)."""

    state: Any
    events: tuple[Event, ...]
    logged: tuple[LoggedAction, ...]
    left: frozenset[int]
    """Seats to move before the step that were not to move at some point during it: their
    turn ended, even if (a solo game) the same seat is to move again afterwards."""
    to_move: ToMove
    """What the game waits for after the step (`rules.to_move(state)`, computed once)."""


_NONE_LEFT: frozenset[int] = frozenset()


def advance(
    rules: Rules[Any, Any, Any, Any],
    state: Any,
    version: int,
    actor: int,
    action: Any,
    seed: int,
    before: ToMove | None = None,
) -> Advance:
    """Apply `action` (None: only resolve pending chance), then every chance action it makes due.

    `action` is first validated through the game's own action model (`Rules.checked`): only
    what replays from its logged form reaches `apply` and the log. The chance actions are the
    rules' own, trusted (validated in checked mode). `before`: `rules.to_move(state)` when the
    caller has it already (the runtime keeps it with the state).
    """
    if before is None:
        before = rules.to_move(state)
    waiting = before.seats
    if action is not None:
        if not waiting and not before.chance:
            raise GameError(Reason.GAME_OVER)
        action = rules.checked(action)
        step = rules.apply(state, actor, action)
        state = step.state
        if _checking:
            _check(rules, state, step.events, actor, action)
        entry = _logged(version + 1, actor, _dumped(rules, action))
        to_move = rules.to_move(state)
        if not to_move.chance:  # the usual move: no chance follows, nothing to gather
            seats = to_move.seats
            ended = _NONE_LEFT if seats is waiting or seats >= waiting else waiting - seats
            return Advance(state, step.events, (entry,), ended, to_move)
        events, logged = list(step.events), [entry]
    else:
        events, logged, to_move = [], [], before
    # `to_move` is always the state's as it stands: each is asked of the rules once.
    left: set[int] = set()
    while True:
        left.update(waiting - to_move.seats)
        if not to_move.chance:
            break
        seq = version + len(logged) + 1
        chance = rules.chance_action(state, chance_rng(seed, seq))
        if _checking:
            chance = rules.checked(chance)
        step = rules.apply(state, CHANCE, chance)
        state = step.state
        if _checking:
            _check(rules, state, step.events, CHANCE, chance)
        events.extend(step.events)
        logged.append(_logged(seq, CHANCE, _dumped(rules, chance)))
        to_move = rules.to_move(state)
    return Advance(state, tuple(events), tuple(logged), frozenset(left), to_move)


def advance_all(
    rules: Rules[Any, Any, Any, Any],
    state: Any,
    version: int,
    actor: int,
    actions: Sequence[Any],
    seed: int,
    before: ToMove | None = None,
) -> Advance:
    """`advance` through `actions` in turn, as one step: all of them apply or none (the first
    refused raises), and the log gets them all in one append. `before`: as `advance`'s."""
    if len(actions) == 1:
        return advance(rules, state, version, actor, actions[0], seed, before)
    if not actions:
        raise GameError(Reason.ILLEGAL_MOVE, "no_action")
    if before is None:
        before = rules.to_move(state)
    waiting = before.seats
    events: list[Event] = []
    logged: list[LoggedAction] = []
    left: set[int] = set()
    step: Advance | None = None
    for action in actions:
        step = advance(rules, state, version + len(logged), actor, action, seed, before)
        state, before = step.state, step.to_move
        events.extend(step.events)
        logged.extend(step.logged)
        left.update(step.left & waiting)
    assert step is not None
    return Advance(state, tuple(events), tuple(logged), frozenset(left), step.to_move)


def replay(
    rules: Rules[Any, Any, Any, Any],
    config: Any,
    log: Iterable[LoggedAction],
    start: Any = None,
) -> Any:
    """Rebuild a state from the config (or a snapshot `start`) and the log, without any RNG."""
    state = rules.setup(config) if start is None else start
    for entry in log:
        action = rules.parse_action(entry.action)
        step = rules.apply(state, entry.actor, action)
        state = step.state
        if _checking:
            _check(rules, state, step.events, entry.actor, action)
    return state
