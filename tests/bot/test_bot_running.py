"""Starting the bot, command localization, turn pings, and replies Discord no longer accepts."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.playground.emulator import Emulator, InteractionFailed
from games.engine import Status
from games.thegame import RULES
from games.thegame.models import Play
from tests.botkit import custom_ids, open_hand, play_a_card, running_bot, start_game

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_token_the_bot_exits_naming_the_variable(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "DISCORD_TOKEN" in result.stderr
    assert "discord.com/developers/applications" in result.stderr


async def test_the_bot_starts_from_a_copy_of_env_example_and_stops_cleanly_on_sigterm(
    tmp_path: Path,
) -> None:
    """`cp .env.example .env`, put a token in, `python -m bot`: every empty optional line is
    read as unset, and the bot connects and registers its commands; `docker stop`'s SIGTERM
    closes it like Ctrl-C (exit status 0, not killed by the signal)."""
    async with Emulator.running() as emu:
        lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
        filled = {
            "DISCORD_TOKEN": emu.bot_token,
            "DISCORD_API_BASE": emu.api_base,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
        }
        env_file = [
            f"{line.split('=')[0]}={filled[line.split('=')[0]]}"
            if line.split("=")[0] in filled
            else line
            for line in lines
        ]
        (tmp_path / ".env").write_text("\n".join(env_file) + "\n", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.isupper() or k in ("PATH", "HOME")}
        env["PYTHONPATH"] = str(ROOT)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            await emu.wait_for(
                lambda: (
                    (emu.gateway.connections > 0 and bool(emu.commands()))
                    or process.returncode is not None
                ),
                timeout=60,
            )
            assert process.returncode is None, (await process.stdout.read()).decode()  # type: ignore[union-attr]
            assert {c["name"] for c in emu.commands()} >= {"hand", "thegame"}
            assert (tmp_path / "data" / "bot.sqlite3").exists()
            process.terminate()
            assert await asyncio.wait_for(process.wait(), timeout=60) == 0
        finally:
            if process.returncode is None:
                process.terminate()
            await process.wait()


async def test_commands_are_registered_with_japanese_names(tmp_path: Path) -> None:
    async with Emulator.running() as emu, running_bot(emu, tmp_path / "db.sqlite3"):
        commands = {c["name"]: c for c in emu.commands()}
    assert {"thegame", "hand", "leave", "abandon", "games", "notify", "settings"} <= set(commands)
    thegame = commands["thegame"]
    assert thegame["name_localizations"]["ja"] == "ザゲーム"
    assert thegame["description_localizations"]["ja"].startswith("ザ・ゲーム")
    new = next(o for o in thegame["options"] if o["name"] == "new")
    assert {o["name_localizations"]["ja"] for o in new["options"]} == {
        "オンファイア",
        "最低3枚",
        "手札1枚減",
        "手番タイマー",
    }


async def test_players_who_asked_get_a_dm_when_their_turn_comes(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", table_edit_interval=0.2) as bot:
            res = await bob.slash(emu.general, "notify", on=True)
            assert "DM" in res.text
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            hand = await open_hand(alice, table)
            for _ in range(2):
                await play_a_card(alice, hand, session, 0)
            assert not bob.dms()
            await alice.click(hand, custom_ids(hand, r":x\.end$")[0])
            await emu.wait_for(lambda: any("your turn" in m.text for m in bob.dms()))
            assert not alice.dms()


async def test_a_move_whose_reply_comes_too_late_is_still_played(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", table_edit_interval=0.2) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            hand = await open_hand(alice, table)
            play = next(a for a in RULES.legal_actions(session.state, 0) if isinstance(a, Play))
            await alice.select(hand, custom_ids(hand, r":x\.pick$")[0], [str(play.card)])
            emu.interaction_deadline = 0.0  # every answer now arrives too late (10062)
            with pytest.raises(InteractionFailed):
                play_id = custom_ids(hand, rf":x\.play\.{play.card}\.{play.pile}$")[0]
                await alice.click(hand, play_id)
            await emu.wait_for(lambda: session.state.top(play.pile) == play.card)
            assert session.record.status is Status.ACTIVE
