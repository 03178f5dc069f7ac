"""When a table's picture is drawn: from the public view only, again only when that view
changed, never twice within the edit interval, and not at all where the server said no."""

from __future__ import annotations

import multiprocessing
import os
import sys
from typing import Any

import pytest

import bot.table_pictures
from bot.games.exhaust.ui import ExhaustUI
from bot.games.thegame.picture import table_picture
from bot.games.thegame.ui import TheGameUI
from bot.table_pictures import (
    GUILD_PICTURES,
    TablePictures,
    in_thread,
    in_worker_process,
    pictures_on,
    start_picture_process,
)
from games.engine import Session, SessionRecord, Status
from games.thegame import RULES
from games.thegame.models import Phase, TheGameConfig, TheGameState

GUILD = 77
INTERVAL = 2.0


class Prefs:
    """An in-memory guild pref table."""

    def __init__(self) -> None:
        self.values: dict[tuple[int, str], str] = {}

    async def get(self, owner_id: int, key: str, default: str | None = None) -> str | None:
        return self.values.get((owner_id, key), default)

    async def all(self, owner_id: int) -> dict[str, str]:
        return {k: v for (o, k), v in self.values.items() if o == owner_id}

    async def set(self, owner_id: int, key: str, value: str) -> None:
        self.values[(owner_id, key)] = value

    async def delete(self, owner_id: int, key: str) -> bool:
        return self.values.pop((owner_id, key), None) is not None


class CountingUI(TheGameUI):
    def __init__(self) -> None:
        self.views: list[Any] = []

    def table_picture(self, view: Any) -> bytes | None:
        self.views.append(view)
        return super().table_picture(view)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def state(**changes: Any) -> TheGameState:
    base = TheGameState(
        config=TheGameConfig(players=2),
        phase=Phase.PLAY,
        deck=tuple(range(60, 70)),
        hands=((3, 4, 5, 6, 7, 8, 9), (12, 13, 14, 15, 16, 17, 18)),
        tops=(37, 1, 90, 82),
        counts=(3, 0, 1, 2),
        turn=0,
        turn_number=3,
    )
    return base.model_copy(update=changes)


def session(game: TheGameState) -> Session:
    record = SessionRecord(
        id="0123abcd",
        game_id="thegame",
        rules_version=1,
        guild_id=GUILD,
        channel_id=2,
        host_id=3,
        locale="en",
        options={},
        seed=0,
        status=Status.ACTIVE,
        version=5,
    )
    return Session(record=record, rules=RULES, config=game.config, state=game)


def pictures() -> tuple[TablePictures, Prefs, Clock, list[str]]:
    prefs, clock, later = Prefs(), Clock(), []
    tables = TablePictures(prefs, INTERVAL, later.append, clock, painter=in_thread)
    return tables, prefs, clock, later


def process_id(view: Any) -> bytes:
    return str(os.getpid()).encode()


async def test_pictures_are_drawn_in_a_process_of_their_own() -> None:
    # Drawing holds the GIL for milliseconds: in the bot's process it would stall every click.
    drawn_in = await in_worker_process(process_id, None)
    assert drawn_in != str(os.getpid()).encode()
    game = state()
    png = await in_worker_process(TheGameUI().table_picture, RULES.view(game, None))
    assert png == table_picture(RULES.view(game, None))


def die_in_a_worker(view: Any) -> bytes:
    if multiprocessing.parent_process() is not None:
        os._exit(1)  # the picture process dies (killed, out of memory, …)
    return process_id(view)


async def test_when_the_picture_process_dies_pictures_are_drawn_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.table_pictures, "_PROCESS", bot.table_pictures._PictureProcess())
    here = str(os.getpid()).encode()
    assert await in_worker_process(die_in_a_worker, None) == here
    assert await in_worker_process(process_id, None) == here  # for a while, not a new process


class DrawingUI(TheGameUI):
    pictures = True


class PlainUI(TheGameUI):
    pictures = False


# Stand-ins for two games' modules, which nothing else here imports.
DrawingUI.__module__, PlainUI.__module__ = "tabnanny", "pyclbr"


def loaded_modules(view: Any) -> bytes:
    return " ".join(sys.modules).encode()


async def test_the_picture_process_starts_with_the_bot_holding_the_drawing_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.table_pictures, "_PROCESS", bot.table_pictures._PictureProcess())
    start_picture_process([DrawingUI(), PlainUI()])
    loaded = (await in_worker_process(loaded_modules, None)).decode().split()
    assert "tabnanny" in loaded  # imported before the first picture is asked for
    assert "pyclbr" not in loaded  # a game without pictures brings nothing there


async def test_the_picture_is_drawn_from_the_public_view() -> None:
    tables, _, _, _ = pictures()
    ui = CountingUI()
    game = state()
    png = await tables.picture(session(game), ui)
    assert ui.views == [RULES.view(game, None)]
    assert ui.views[0].hand is None  # the public view holds no hand
    assert png == table_picture(RULES.view(game, None))


async def test_an_unchanged_public_view_is_not_drawn_again() -> None:
    tables, _, clock, _ = pictures()
    ui = CountingUI()
    first = await tables.picture(session(state()), ui)
    clock.now += 10 * INTERVAL
    # Cards moving between hidden places (hands, draw pile) leave the public view as it is.
    hidden_change = state(hands=((20, 21, 22, 23, 24, 25, 26), (12, 13, 14, 15, 16, 17, 18)))
    assert await tables.picture(session(hidden_change), ui) == first
    assert len(ui.views) == 1


async def test_a_change_within_the_interval_keeps_the_picture_and_asks_for_a_redraw() -> None:
    tables, _, clock, later = pictures()
    ui = CountingUI()
    first = await tables.picture(session(state()), ui)
    moved = state(tops=(40, 1, 90, 82), counts=(4, 0, 1, 2))
    clock.now += INTERVAL / 2
    assert await tables.picture(session(moved), ui) == first
    assert len(ui.views) == 1 and later == ["0123abcd"]
    clock.now += INTERVAL / 2
    assert await tables.picture(session(moved), ui) == table_picture(RULES.view(moved, None))
    assert len(ui.views) == 2


async def test_a_server_can_turn_pictures_off() -> None:
    tables, prefs, _, _ = pictures()
    ui = CountingUI()
    assert await pictures_on(prefs, GUILD)
    await prefs.set(GUILD, GUILD_PICTURES, "0")
    assert not await pictures_on(prefs, GUILD)
    assert await tables.picture(session(state()), ui) is None
    assert ui.views == []


async def test_a_game_without_a_picture_draws_none() -> None:
    tables, _, _, _ = pictures()
    assert not ExhaustUI.pictures
    assert await tables.picture(session(state()), ExhaustUI()) is None
