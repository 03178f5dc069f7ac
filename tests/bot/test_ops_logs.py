"""Log lines about a game name its session, game, guild and shard, in text and in JSON; an
error's traceback is written once; `LOG_FORMAT=json` makes `python -m bot` write one JSON
object a line."""

from __future__ import annotations

import datetime
import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.ops.logs import handler
from bot.playground.emulator import Emulator
from tests.bot.test_bot_quarantine import corrupt
from tests.botkit import running_bot, start_game
from tests.botprocess import bot_process

TRACEBACK = "Traceback (most recent call last)"


@contextmanager
def captured() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Everything logged meanwhile (INFO and up, as `python -m bot` logs), as the bot writes
    it in text and in JSON."""
    text, objects = io.StringIO(), io.StringIO()
    handlers = [handler("text", stream=text), handler("json", stream=objects)]
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.INFO)
    for each in handlers:
        root.addHandler(each)
    try:
        yield text, objects
    finally:
        for each in handlers:
            root.removeHandler(each)
        root.setLevel(level)


def entries(objects: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in objects.getvalue().splitlines()]


def record_text(text: io.StringIO, start: str) -> str:
    """The text of the record whose line contains `start`: that line and its traceback."""
    lines = text.getvalue().splitlines()
    first = next(i for i, line in enumerate(lines) if start in line)
    rest = [i for i in range(first + 1, len(lines)) if lines[i][:4].isdigit()]  # next record
    return "\n".join(lines[first : rest[0] if rest else len(lines)])


async def test_a_line_about_a_game_names_its_session_game_guild_and_shard(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, db) as bot:
            session, _ = await start_game(emu, bot, alice, ai=1, first="0")
        corrupt(db, session.id)  # its restart logs an error about it, with a traceback
        with captured() as (text, objects):
            async with running_bot(emu, db, fail_on_errors=False):
                await emu.wait_for(lambda: "quarantined" in text.getvalue())

    about = f"[session={session.id} game=thegame guild={emu.guild.id} shard=0]"
    error = record_text(text, "quarantined")
    first, *traceback = error.splitlines()
    assert " ERROR runtime.cache: " in first and first.endswith(about)
    assert traceback[0].startswith(TRACEBACK) and error.count(TRACEBACK) == 1
    [entry] = [e for e in entries(objects) if "quarantined" in str(e["message"])]
    assert (entry["level"], entry["logger"]) == ("ERROR", "runtime.cache")
    assert (entry["session"], entry["game"]) == (session.id, "thegame")
    assert (entry["guild"], entry["shard"]) == (str(emu.guild.id), 0)
    assert str(entry["exception"]).count(TRACEBACK) == 1
    assert datetime.datetime.fromisoformat(str(entry["time"])).tzinfo is not None


async def test_a_line_about_no_game_names_none(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        with captured() as (text, objects):
            async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
                assert bot.is_ready()  # it logged its ready line

    [ready] = [line for line in text.getvalue().splitlines() if "Ready: logged in" in line]
    assert "[session=" not in ready
    [entry] = [e for e in entries(objects) if str(e["message"]).startswith("Ready: logged in")]
    assert [entry[k] for k in ("session", "game", "guild", "shard")] == [None] * 4


async def test_a_commands_error_is_logged_with_its_traceback_once(tmp_path: Path) -> None:
    def broken(guild_id: int | None = None) -> None:
        raise ValueError("the store fell over")

    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        with captured() as (text, objects):
            async with running_bot(emu, tmp_path / "db.sqlite3", fail_on_errors=False) as bot:
                bot.service.live_sessions = broken  # type: ignore[assignment,method-assign]
                await alice.slash(emu.general, "games")

    error = record_text(text, "interaction failed")
    assert error.count(TRACEBACK) == 1 and "ValueError: the store fell over" in error
    assert "CommandInvokeError" not in error  # discord.py's wrapper adds nothing
    [entry] = [e for e in entries(objects) if e["message"] == "interaction failed"]
    assert str(entry["exception"]).count(TRACEBACK) == 1


async def test_python_m_bot_with_log_format_json_writes_one_object_a_line(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        settings = {
            "discord_token": emu.bot_token,
            "discord_api_base": emu.api_base,
            "discord_gateway_url": emu.gateway_url,
            "database_path": tmp_path / "db.sqlite3",
            "log_format": "json",
        }
        async with bot_process(tmp_path, **settings) as bot:
            await bot.line("Ready: logged in")
            lines = list(bot.lines)  # what it logged (not what its killing prints after)

    logged = [json.loads(line) for line in lines]
    assert all(isinstance(entry, dict) for entry in logged)
    [ready] = [e for e in logged if str(e["message"]).startswith("Ready: logged in")]
    assert (ready["level"], ready["logger"], ready["session"]) == ("INFO", "bot.startup", None)
