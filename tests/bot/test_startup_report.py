"""A started bot tells its admin what they need: once ready, who it is, on how many servers,
which shards and which store; where its commands were synced; the link that invites it."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.invite import PERMISSION_NAMES, PERMISSIONS, invite_url
from bot.playground.emulator import Emulator
from tests.botkit import running_bot
from tests.botprocess import ROOT, bot_process
from tests.pgserver import Cluster, fresh_database


def discord_settings(emu: Emulator) -> dict[str, object]:
    return {
        "discord_token": emu.bot_token,
        "discord_api_base": emu.api_base,
        "discord_gateway_url": emu.gateway_url,
    }


async def test_a_ready_bot_says_who_it_is_where_commands_went_and_how_to_invite_it(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        emu.add_guild("Second")
        db = tmp_path / "data" / "bot.sqlite3"
        async with bot_process(tmp_path, database_path=db, **discord_settings(emu)) as bot:
            ready = await bot.line(r"Ready: ")
            synced = await bot.line(r"slash commands synced")
            invite = await bot.line(r"Invite the bot")
            output = bot.output
    assert f"logged in as {emu.bot.name}" in ready and f"(id {emu.bot.id})" in ready
    assert "on 2 servers; unsharded;" in ready
    assert ready.endswith(f"store: SQLite {db.resolve()}")
    assert "globally" in synced and "up to an hour" in synced
    assert invite.endswith(invite_url(emu.application_id))
    assert output.index("Ready: ") < output.index("synced") < output.index("Invite")
    assert "PyNaCl" not in output and "davey" not in output  # voice: never used, not noise


async def test_on_postgresql_the_ready_line_names_the_shards_and_database_never_the_password(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    async with fresh_database(pg_cluster) as url, Emulator.running() as emu:
        name = urlsplit(url).path.lstrip("/")
        with_password = url.replace("postgres@", "postgres:hunter2@")  # trust: not checked
        settings = {"database_url": with_password, "shard_count": 2, "shard_ids": "1, 0"}
        async with bot_process(tmp_path, **settings, **discord_settings(emu)) as bot:
            ready = await bot.line(r"Ready: ")
            output = bot.output
    assert "; shards 0, 1 of 2;" in ready
    assert f'store: PostgreSQL database "{name}" on {pg_cluster.directory}' in ready
    assert "hunter2" not in output


async def test_commands_synced_to_one_server_are_said_to_show_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.startup")
    async with Emulator.running() as emu:
        guild = emu.guild.id
        async with running_bot(emu, tmp_path / "db.sqlite3", dev_guild_id=guild) as bot:
            await emu.wait_for(lambda: any("commands synced" in r.message for r in caplog.records))
            commands = len(emu.guild_commands[guild])
    [line] = {r.message for r in caplog.records if "commands synced" in r.message}
    assert bot.synced is not None and bot.synced.commands == commands
    assert f"{commands} slash commands synced to server {guild}" in line
    assert "at once" in line


def test_the_invite_asks_for_exactly_the_permissions_the_readme_lists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    step = next(p for p in readme.split("\n3. ") if p.startswith("**OAuth2**"))
    step = step.split("\n\n")[0]
    listed = set(re.findall(r"\*\*([^*]+)\*\*", step)) - {"OAuth2", "URL Generator"}
    assert listed == set(PERMISSION_NAMES)
    assert "scopes `bot` and `applications.commands`" in " ".join(step.split())
    query = parse_qs(urlsplit(invite_url(1234)).query)
    assert query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == discord.Permissions(**dict.fromkeys(PERMISSION_NAMES.values(), True))
    assert granted == PERMISSIONS
