"""`games.replay` and `python -m runtime.replay`: a finished game's exported log replays
offline to the outcome it stores, for every registered game; a file that does not replay, or
does not match, is refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import Seat, SessionRecord, Status
from games.engine.step import LoggedAction, advance
from games.registry import AIS, GAMES
from games.replay import FORMAT, ReplayError, UnreadableFile, check, export
from runtime.replay import main

ROOT = Path(__file__).resolve().parents[3]
MAX_STEPS = 5_000


def finished_game(game_id: str, seed: int = 3) -> tuple[SessionRecord, list[LoggedAction]]:
    """A whole game of AI seats (two, or the fewest the game takes), as the service logs it."""
    rules = GAMES[game_id]
    players = min(max(2, rules.min_players), rules.max_players)
    config = rules.make_config(players, {})
    rng = random.Random(seed)
    step = advance(rules, rules.setup(config), 0, 0, None, seed)
    state, log = step.state, list(step.logged)
    while not rules.is_over(state):
        assert len(log) < MAX_STEPS, "the game did not end"
        seat = min(rules.to_move(state).seats)
        action = AIS[game_id].normal(rules.view(state, seat), rng)
        step = advance(rules, state, len(log), seat, action, seed)
        state, log = step.state, [*log, *step.logged]
    record = SessionRecord(
        id="0123abcd",
        game_id=game_id,
        rules_version=rules.rules_version,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale="en",
        options={},
        seed=seed,
        status=Status.FINISHED,
        version=len(log),
        seats=tuple(Seat(user_id=3 if i == 0 else None, name="") for i in range(players)),
        config=config.model_dump(mode="json"),
    )
    return record, log


@pytest.fixture(scope="module", params=sorted(GAMES))
def exported(request: pytest.FixtureRequest) -> dict[str, Any]:
    record, log = finished_game(request.param)
    rules = GAMES[record.game_id]
    config = rules.config_model.model_validate(record.config)
    state = rules.setup(config)
    for entry in log:
        state = rules.apply(state, entry.actor, rules.parse_action(entry.action)).state
    data = export(record, log, rules.outcome(state))
    return json.loads(json.dumps(data))  # exactly what a file holds


def test_an_exported_game_replays_to_its_stored_outcome(exported: dict[str, Any]) -> None:
    outcome = check(exported)
    assert outcome is not None
    assert outcome.model_dump(mode="json") == exported["outcome"]
    assert exported["format"] == FORMAT
    assert [a["seq"] for a in exported["actions"]] == list(range(1, len(exported["actions"]) + 1))
    assert exported["seats"][0]["user_id"] == 3 and exported["seats"][1]["ai"] is True


def test_a_different_stored_outcome_is_a_mismatch(exported: dict[str, Any]) -> None:
    changed = {**exported, "outcome": {**exported["outcome"], "result": "something else"}}
    with pytest.raises(ReplayError, match="stores"):
        check(changed)


def test_a_log_with_a_missing_action_does_not_replay(exported: dict[str, Any]) -> None:
    actions = exported["actions"]
    with pytest.raises(ReplayError, match="action 2"):
        check({**exported, "actions": [actions[0], *actions[2:]]})


def test_an_action_by_the_wrong_seat_is_refused(exported: dict[str, Any]) -> None:
    """The first action that the next seat could not have taken, given to that seat."""
    rules = GAMES[exported["game_id"]]
    state = rules.setup(rules.config_model.model_validate(exported["config"]))
    actions = list(exported["actions"])
    seats = len(exported["seats"])
    index = 0
    while True:
        entry = actions[index]
        action = rules.parse_action(entry["action"])
        other = (entry["actor"] + 1) % seats
        if entry["actor"] >= 0 and action not in rules.legal_actions(state, other):
            break
        state = rules.apply(state, entry["actor"], action).state
        index += 1
    actions[index] = {**entry, "actor": other}
    with pytest.raises(ReplayError, match=f"action {index + 1}"):
        check({**exported, "actions": actions})


def test_an_action_that_is_not_the_games_is_refused(exported: dict[str, Any]) -> None:
    actions = list(exported["actions"])
    actions[-1] = {**actions[-1], "action": {"kind": "no_such_action"}}
    with pytest.raises(ReplayError, match=f"action {len(actions)}"):
        check({**exported, "actions": actions})


def test_a_file_of_another_rules_version_or_game_is_refused(exported: dict[str, Any]) -> None:
    with pytest.raises(ReplayError, match="rules version"):
        check({**exported, "rules_version": exported["rules_version"] + 1})
    with pytest.raises(UnreadableFile, match="unknown game"):
        check({**exported, "game_id": "chess"})
    with pytest.raises(UnreadableFile):
        check({**exported, "format": "something/2"})


def test_the_command_line_prints_the_outcome_and_exits_by_the_check(
    exported: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(exported), encoding="utf-8")
    assert main([str(good)]) == 0
    printed = capsys.readouterr().out
    assert f"result {exported['outcome']['result']}" in printed
    assert "matches the stored outcome" in printed
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**exported, "outcome": {"winners": [], "result": "x"}}))
    assert main([str(bad)]) == 1
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main([str(broken)]) == 2
    assert main([str(tmp_path / "missing.json")]) == 2


def test_python_dash_m_runtime_replay_runs_the_check(tmp_path: Path) -> None:
    record, log = finished_game(sorted(GAMES)[0])
    rules = GAMES[record.game_id]
    state = rules.setup(rules.config_model.model_validate(record.config))
    for entry in log:
        state = rules.apply(state, entry.actor, rules.parse_action(entry.action)).state
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(export(record, log, rules.outcome(state))), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "runtime.replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "matches the stored outcome" in done.stdout
