"""A finished game's log cut into the turns its replay steps through.

Turn 0 is the setup: the chance actions before anyone acted (the deal). Each later turn is one
actor's run of actions — a player's, an AI's, or the clock closing a timed window — together
with the chance actions they caused, which follow them in the log: The Game's two plays and
end of turn are one turn, not three. A chance action ends a run, so a solo player's turns
stay apart at each draw. Turn k shows the state after its last
action, replayed through the rules from the start, so a replay is as exact as the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import CHANCE, Event, GameError, LoggedAction, Reason, Session

MOVES = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}
"""The replay's moves: to the setup, one turn back, one turn on, to the last turn."""


@dataclass(frozen=True)
class ReplayTurn:
    """The state after turn `number` of `total` (0 is the setup), who acted (None for the
    setup) and every event of the turn's actions, in order."""

    number: int
    total: int
    state: Any
    actor: int | None
    events: tuple[Event, ...]


def turn_ends(log: Sequence[LoggedAction]) -> tuple[int, ...]:
    """How many log entries each turn's state has seen: the setup's first, then each turn's."""
    starts = [
        index
        for index, entry in enumerate(log)
        if entry.actor != CHANCE and (index == 0 or log[index - 1].actor != entry.actor)
    ]
    if not starts:
        return (len(log),)
    return (*starts, len(log))


def target(turn: int, move: str, total: int) -> int:
    """The turn a move from `turn` leads to, within 0..total."""
    wanted = {"f": 0, "p": turn - 1, "n": turn + 1, "l": total}.get(move)
    if wanted is None:
        raise GameError(Reason.BAD_OPTION, "control")
    return max(0, min(total, wanted))


def replay_turn(session: Session, log: Sequence[LoggedAction], number: int) -> ReplayTurn:
    """Replay `log` through turn `number` (kept within the setup and the last turn)."""
    rules = session.rules
    ends = turn_ends(log)
    total = len(ends) - 1
    number = max(0, min(total, number))
    start = 0 if number == 0 else ends[number - 1]
    state = rules.setup(session.config)
    events: list[Event] = []
    for index, entry in enumerate(log[: ends[number]]):
        step = rules.apply(state, entry.actor, rules.parse_action(entry.action))
        state = step.state
        if index >= start:
            events += step.events
    actor = None if number == 0 else log[start].actor
    return ReplayTurn(number, total, state, actor, tuple(events))
