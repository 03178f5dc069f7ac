"""Session ids of 16 hex digits still fit every control's custom_id in Discord's 100 characters,
and the ids of old (8 digits) keep working.

Each game is played out with random legal moves; at every step the table and each seat's hand
are drawn, and every pick of the hand (a select's choice, a step of a multi-step play) is
followed as a click would, so the longest controls a game makes (a whole play encoded in one
custom_id) are drawn too. Every screen is drawn at version 999,999, the widest marker a game
could reach.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from importlib import import_module
from typing import Any

import pytest

from bot.context import Context
from bot.game_ui import GameUI, Pick
from bot.play import ControlButton, ControlSelect
from bot.replays import SESSION_ID
from bot.ui.controls import GAME_NS
from bot.ui.layout import Button, Layout, Select, base_action
from bot.ui.v2 import build
from games.engine import GameError, Seat, Session, SessionRecord, Status, advance
from games.registry import GAMES
from runtime import new_session_id

LIMIT = 100
"""Discord's longest custom_id."""
WIDEST_VERSION = 999_999
RENDERS_PER_STEP = 12
"""Hand screens followed from one state (each pick of a multi-step play is one)."""
STEPS = 80


def game_ui(game_id: str) -> GameUI:
    module = import_module(f"bot.games.{game_id}.ui")
    found = [
        value()
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, GameUI) and value is not GameUI
    ]
    (ui,) = [ui for ui in found if ui.game_id == game_id]
    return ui


def custom_ids(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if "custom_id" in node:
            yield node["custom_id"]
        for value in node.values():
            yield from custom_ids(value)
    elif isinstance(node, list):
        for value in node:
            yield from custom_ids(value)


def choices(control: Button | Select, rng: random.Random) -> list[tuple[str, ...]]:
    """The values a click sends: none for a button; for a select, the most it takes (the
    longest pick) and one option alone."""
    if isinstance(control, Button):
        return [()]
    values = [option.value for option in control.options]
    most = tuple(values[: control.max_values])
    return [most, (rng.choice(values),)]


def drawn(layout: Layout) -> list[str]:
    return list(custom_ids(build(layout).components))


def hand_ids(ui: GameUI, session: Session, seat: int, rng: random.Random) -> list[str]:
    """The custom_ids of `seat`'s hand and of the hands its picks lead to."""
    ctx = Context.of(session, "en")
    found: list[str] = []
    picks: list[str | None] = [None]
    seen: set[str | None] = set()
    while picks and len(seen) < RENDERS_PER_STEP:
        pick = picks.pop()
        if pick in seen:
            continue
        seen.add(pick)
        layout = ui.hand(ctx, seat, pick)
        found += drawn(layout)
        for control in layout.controls():
            verb, *args = base_action(control.action).split(".")
            if verb != GAME_NS or not args:
                continue
            for values in choices(control, rng):
                try:
                    result = ui.control(ctx, seat, args[0], args[1:], values)
                except GameError:
                    continue
                if isinstance(result, Pick):
                    picks.append(result.value)
    return found


def record_of(game_id: str, seats: int) -> SessionRecord:
    return SessionRecord(
        id=new_session_id(),
        game_id=game_id,
        rules_version=GAMES[game_id].rules_version,
        guild_id=1,
        channel_id=10,
        host_id=100,
        locale="en",
        options={},
        seed=7,
        status=Status.ACTIVE,
        version=WIDEST_VERSION,
        seats=tuple(Seat(user_id=100 + n, name=f"player {n}") for n in range(seats)),
    )


def played_ids(game_id: str, seats: int, seed: int) -> Iterator[str]:
    """Every custom_id of a random game of `seats`: tables, hands and their picks."""
    rules, ui, rng = GAMES[game_id], game_ui(game_id), random.Random(seed)
    config = rules.make_config(seats, {})
    step = advance(rules, rules.setup(config), 0, 0, None, seed)
    state, version = step.state, len(step.logged)
    session = Session(record=record_of(game_id, seats), rules=rules, config=config)
    for _ in range(STEPS):
        session.state = state
        session.waiting = rules.to_move(state)
        yield from drawn(ui.table(Context.of(session, "en")))
        for seat in sorted(session.waiting.seats):
            yield from hand_ids(ui, session, seat, rng)
        if rules.is_over(state):
            return
        seat = rng.choice(sorted(session.waiting.seats))
        action = rng.choice(list(rules.legal_actions(state, seat)))
        step = advance(rules, state, version, seat, action, seed)
        state, version = step.state, version + len(step.logged)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_control_of_a_game_fits_discords_custom_id_with_a_long_session_id(
    game_id: str,
) -> None:
    rules = GAMES[game_id]
    longest = ""
    for seats in sorted({rules.min_players, rules.max_players}):
        for seed in (1, 2):
            for custom_id in played_ids(game_id, seats, seed):
                longest = max(longest, custom_id, key=len)
    assert re.match(r"^[gs]:[0-9a-f]{16}:999999:", longest), longest
    assert len(longest) <= LIMIT, longest


@pytest.mark.parametrize("sid", ["0123abcd", "0123456789abcdef"], ids=["old", "new"])
@pytest.mark.parametrize("control", [ControlButton, ControlSelect], ids=["button", "select"])
def test_controls_of_old_and_new_session_ids_are_recognised(control: Any, sid: str) -> None:
    prefix = "g" if control is ControlButton else "s"
    match = control.__discord_ui_compiled_template__.fullmatch(f"{prefix}:{sid}:12:x.play.3.1")
    assert match is not None and match["sid"] == sid


@pytest.mark.parametrize("sid", ["0123abcd", "0123456789abcdef"], ids=["old", "new"])
def test_replay_takes_old_and_new_session_ids(sid: str) -> None:
    assert SESSION_ID.match(sid)


@pytest.mark.parametrize("sid", ["0123abc", "0123abcd0", "0123456789abcdeF", "x123abcd"])
def test_replay_refuses_what_is_no_session_id(sid: str) -> None:
    assert not SESSION_ID.match(sid)
