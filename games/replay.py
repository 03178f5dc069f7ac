"""A finished game's log as a file, and its offline check (`python -m runtime.replay FILE`
reads the file and runs it).

The file is JSON: the game and its rules version, the config, the seats, the seed, every
logged action with its actor, and the outcome the bot stored. Replaying needs no RNG (chance
actions are in the log) and nothing but the rules: the config is rebuilt with the registry's
rules, every action is validated through the game's own action model and applied, and the
final outcome is compared with the stored one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from games.engine.contract import Outcome, Rules
from games.engine.errors import GameError
from games.engine.session import SessionRecord
from games.engine.step import LoggedAction
from games.registry import GAMES

FORMAT = "tabletop-replay/1"


class ReplayError(Exception):
    """The file does not replay, or does not give the outcome it stores."""


class UnreadableFile(Exception):
    """Not a replay file (bad JSON, wrong format, unknown game)."""


def export(
    record: SessionRecord, log: Iterable[LoggedAction], outcome: Outcome | None
) -> dict[str, Any]:
    """The file for a session: what replaying it needs, and the outcome to check it against."""
    return {
        "format": FORMAT,
        "game_id": record.game_id,
        "rules_version": record.rules_version,
        "session_id": record.id,
        "options": record.options,
        "config": record.config,
        "seed": record.seed,
        "seats": [
            {"seat": i, "user_id": s.user_id, "name": s.name, "ai": s.is_ai}
            for i, s in enumerate(record.seats)
        ],
        "actions": [{"seq": e.seq, "actor": e.actor, "action": e.action} for e in log],
        "outcome": None if outcome is None else outcome.model_dump(mode="json"),
    }


def _rules(data: Mapping[str, Any], games: Mapping[str, Rules[Any, Any, Any, Any]]) -> Any:
    if data.get("format") != FORMAT:
        raise UnreadableFile(f"not a {FORMAT} file")
    game_id = data.get("game_id")
    rules = games.get(game_id) if isinstance(game_id, str) else None
    if rules is None:
        raise UnreadableFile(f"unknown game {game_id!r}")
    version = data.get("rules_version")
    if not isinstance(version, int) or version not in {rules.rules_version, *rules.older_versions}:
        raise ReplayError(
            f"{game_id} rules version {data.get('rules_version')} in the file, "
            f"{rules.rules_version} here"
        )
    return rules


def replay_file(
    data: Mapping[str, Any], games: Mapping[str, Rules[Any, Any, Any, Any]] = GAMES
) -> tuple[Any, Outcome | None]:
    """Replay the file's log; returns the final state and its outcome (None: not over).

    Raises ReplayError naming the first action that does not replay, UnreadableFile when the
    file is not a replay at all.
    """
    rules = _rules(data, games)
    try:
        config = rules.config_model.model_validate(data["config"])
        actions: Sequence[Any] = data["actions"]
        entries = [LoggedAction.model_validate(entry) for entry in actions]
    except (KeyError, TypeError, ValidationError) as error:
        raise ReplayError(f"malformed config or log: {error}") from None
    state = rules.setup(config)
    for expected, entry in enumerate(entries, start=1):
        if entry.seq != expected:
            raise ReplayError(f"action {expected}: the log jumps to seq {entry.seq}")
        try:
            action = rules.parse_action(entry.action)
            state = rules.apply(state, entry.actor, action).state
        except ValidationError as error:
            detail = f"not a {rules.game_id} action: {error}"
            raise ReplayError(f"action {entry.seq}: {detail}") from None
        except GameError as error:
            raise ReplayError(f"action {entry.seq}: refused ({error})") from None
    return state, rules.outcome(state)


def check(
    data: Mapping[str, Any], games: Mapping[str, Rules[Any, Any, Any, Any]] = GAMES
) -> Outcome | None:
    """Replay the file and compare with the outcome it stores (when it stores one)."""
    _, outcome = replay_file(data, games)
    stored = data.get("outcome")
    if stored is not None:
        got = None if outcome is None else outcome.model_dump(mode="json")
        if got != stored:
            raise ReplayError(f"the replay ends with {got}, the file stores {stored}")
    return outcome


def describe(data: Mapping[str, Any], outcome: Outcome | None) -> str:
    """One line about the replayed game, for the terminal."""
    head = f"{data.get('game_id')} {data.get('session_id') or ''}".strip()
    count = f"{len(data.get('seats') or ())} seats, {len(data.get('actions') or ())} actions"
    if outcome is None:
        return f"{head}: {count}; the game is not over"
    winners = ", ".join(map(str, outcome.winners)) or "none"
    line = f"{head}: {count}; result {outcome.result}; winners {winners}"
    if outcome.scores:
        line += f"; scores {', '.join(map(str, outcome.scores))}"
    if outcome.details:
        line += "; " + ", ".join(f"{k}={v}" for k, v in sorted(outcome.details.items()))
    return line
