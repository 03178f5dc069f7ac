"""Every command and control used where it makes no sense gets a short, private, localized
reply and changes nothing (through the real discord.py client and the emulator)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from bot.playground.emulator import Emulator
from games.engine import Status
from tests.botkit import (
    custom_ids,
    open_hand,
    open_lobby,
    running_bot,
    select_options,
    start_game,
)


async def test_commands_in_a_channel_without_a_game_say_so(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3"):
            for command in ("hand", "leave", "abandon"):
                res = await alice.slash(emu.general, command)
                assert res.ephemeral
                assert res.text == t("en", "error.no_session_here"), command


async def test_hand_of_a_non_player_is_refused(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, eve = emu.add_user("alice"), emu.add_user("eve")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            await start_game(emu, bot, alice)
            res = await eve.slash(emu.general, "hand")
            assert res.ephemeral and res.text == t("en", "error.not_a_player")


async def test_hand_before_the_start_is_refused(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice", locale="ja")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            session, _ = await open_lobby(emu, bot, alice)
            res = await alice.slash(emu.general, "hand")
            assert res.ephemeral and res.text == t("ja", "error.not_in_lobby.not_started")
            assert session.record.status is Status.LOBBY


async def test_hand_after_the_end_finds_no_game_here(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            session, table = await start_game(emu, bot, alice)
            await bot.service.abandon(session.id, alice.id)
            res = await alice.slash(emu.general, "hand")
            assert res.text == t("en", "error.no_session_here")
            res = await alice.click(table, custom_ids(table, ":hand$")[0])
            assert res.ephemeral and res.text == t("en", "error.game_over")


async def test_hand_in_dms_finds_no_game_there(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3"):
            res = await alice.slash(alice.dm, "hand")
            assert res.text == t("en", "error.no_session_here")


async def test_an_unexpected_failure_still_gets_a_reply_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", fail_on_errors=False) as bot:
            session, table = await start_game(emu, bot, alice)
            hand = await open_hand(alice, table)
            version = session.record.version

            async def broken(*args: object, **kwargs: object) -> None:
                raise RuntimeError("the store is on fire")

            bot.service.submit_all = broken  # type: ignore[method-assign]
            pick = custom_ids(hand, r":x\.pick$")[0]
            await alice.select(hand, pick, [select_options(hand, pick)[0]])
            res = await alice.click(hand, custom_ids(hand, r":x\.play\.")[0])
            assert res.ephemeral and res.text == t("en", "error.internal")
            assert session.record.version == version
            assert any("the store is on fire" in str(r.exc_info) for r in emu.bot_errors.records)
