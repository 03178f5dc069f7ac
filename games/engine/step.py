"""Applying actions with automatic chance resolution, and replaying a log."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.contract import CHANCE, Event, Frozen, Rules, ToMove
from games.engine.errors import GameError, Reason


class LoggedAction(Frozen):
    """One entry of a session's append-only log. `seq` is the version it produced."""

    seq: int
    actor: int
    action: dict[str, Any]


def chance_rng(seed: int, seq: int) -> random.Random:
    """The RNG for the chance action that will become `seq`; only needed when playing live."""
    return random.Random(f"{seed}:{seq}")


@dataclass(frozen=True, slots=True)
class Advance:
    """What one `advance` produced (a plain dataclass: it is built on every move, and every
    part of it was validated already)."""

    state: Any
    events: tuple[Event, ...]
    logged: tuple[LoggedAction, ...]
    left: frozenset[int]
    """Seats to move before the step that were not to move at some point during it: their
    turn ended, even if (a solo game) the same seat is to move again afterwards."""
    to_move: ToMove
    """What the game waits for after the step (`rules.to_move(state)`, computed once)."""


def advance(
    rules: Rules[Any, Any, Any, Any],
    state: Any,
    version: int,
    actor: int,
    action: Any,
    seed: int,
) -> Advance:
    """Apply `action` (None: only resolve pending chance), then every chance action it makes due.

    Every action is first validated through the game's own action model (`Rules.checked`):
    only what replays from its logged form reaches `apply` and the log.
    """
    events: list[Event] = []
    logged: list[LoggedAction] = []
    before = rules.to_move(state)
    waiting = before.seats
    left: set[int] = set()
    if action is not None:
        if not before.seats and not before.chance:
            raise GameError(Reason.GAME_OVER)
        action = rules.checked(action)
        step = rules.apply(state, actor, action)
        state = step.state
        events.extend(step.events)
        logged.append(LoggedAction(seq=version + 1, actor=actor, action=rules.dump_action(action)))
    while True:
        to_move = rules.to_move(state)
        left.update(waiting - to_move.seats)
        if not to_move.chance:
            break
        seq = version + len(logged) + 1
        chance = rules.checked(rules.chance_action(state, chance_rng(seed, seq)))
        step = rules.apply(state, CHANCE, chance)
        state = step.state
        events.extend(step.events)
        logged.append(LoggedAction(seq=seq, actor=CHANCE, action=rules.dump_action(chance)))
    return Advance(
        state=state,
        events=tuple(events),
        logged=tuple(logged),
        left=frozenset(left),
        to_move=to_move,
    )


def advance_all(
    rules: Rules[Any, Any, Any, Any],
    state: Any,
    version: int,
    actor: int,
    actions: Sequence[Any],
    seed: int,
) -> Advance:
    """`advance` through `actions` in turn, as one step: all of them apply or none (the first
    refused raises), and the log gets them all in one append."""
    if len(actions) == 1:
        return advance(rules, state, version, actor, actions[0], seed)
    if not actions:
        raise GameError(Reason.ILLEGAL_MOVE, "no_action")
    waiting = rules.to_move(state).seats
    events: list[Event] = []
    logged: list[LoggedAction] = []
    left: set[int] = set()
    step: Advance | None = None
    for action in actions:
        step = advance(rules, state, version + len(logged), actor, action, seed)
        state = step.state
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
        state = rules.apply(state, entry.actor, rules.parse_action(entry.action)).state
    return state
