"""Posting a table: a command still answers in time when the channel's rate limit holds the
post back, and a redraw while the table is being posted edits that table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot.errors
from bot.i18n import t
from bot.playground.emulator import Emulator, RateLimit
from tests.botkit import custom_ids, running_bot, session_in


async def test_a_new_table_held_back_by_the_rate_limit_still_answers_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.errors, "DEFER_AFTER", 0.05)
    async with Emulator.running(rate_limit=RateLimit(1, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3") as client:
            await alice.slash(emu.general, "thegame new")
            first = await session_in(client, emu)
            await emu.wait_for(lambda: first.record.table_message_id is not None)
            await alice.slash(emu.general, "abandon")
            # The channel's one message a second is used: this table's post has to wait.
            res = await alice.slash(emu.general, "thegame new")
            assert res.deferred and res.ephemeral
            loaded = await res.wait_until_loaded()
            session = await session_in(client, emu)
            assert session.record.table_message_id is not None
            assert str(session.record.table_message_id) in loaded.text
            newest = emu.channel_messages(emu.general)[-1]
            assert newest.id == session.record.table_message_id
            assert custom_ids(newest, ":start$")


async def test_a_redraw_while_the_table_is_being_posted_edits_that_table(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3") as client:
            session = await client.service.create(
                "thegame",
                guild_id=emu.guild.id,
                channel_id=emu.general.id,
                host_id=alice.id,
                host_name=alice.name,
                locale="en",
                options={},
            )
            posting = asyncio.create_task(client.tables.post(session))
            await asyncio.sleep(0)  # the post is on its way, its message not yet remembered
            await client.tables.redraw(session)
            await posting
            tables = emu.channel_messages(emu.general)
            assert [m.id for m in tables] == [session.record.table_message_id]
            assert t("en", "thegame.name") in tables[0].text
