"""A bot that cannot start says why in one line naming the fix, and exits with status 2: no
traceback. Each case runs `python -m bot` as an admin would."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
from pathlib import Path

import pytest

from bot.playground.emulator import Emulator
from storage.migrations import MIGRATIONS
from tests.botprocess import bot_process, bound_by_permissions, cannot_start_lines, start_failure
from tests.pgserver import Cluster

TOKEN = "not-checked-before-the-database-opens"


def assert_one_clear_line(status: int, output: str, *names: str) -> str:
    assert status == 2, output
    assert "Traceback" not in output, output
    [line] = cannot_start_lines(output)
    for name in names:
        assert name in line, line
    return line


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_postgresql_that_never_answers_is_waited_for_then_named(tmp_path: Path) -> None:
    port = closed_port()
    url = f"postgresql://tablebot:secret@127.0.0.1:{port}/tablebot"
    status, output = start_failure(tmp_path, discord_token=TOKEN, database_url=url, database_wait=1)
    line = assert_one_clear_line(status, output, "DATABASE_URL", f"127.0.0.1:{port}")
    assert "DATABASE_WAIT" in line
    assert "not reachable yet" in output  # each wait was logged
    assert "secret" not in output


def test_a_missing_postgresql_database_is_named(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.url("no_such_database")
    status, output = start_failure(tmp_path, discord_token=TOKEN, database_url=url)
    line = assert_one_clear_line(status, output, '"no_such_database"', "DATABASE_URL")
    assert "createdb" in line


def test_a_port_out_of_range_is_a_bad_setting(tmp_path: Path) -> None:
    url = "postgresql://tablebot@127.0.0.1:99999/tablebot"
    status, output = start_failure(tmp_path, discord_token=TOKEN, database_url=url)
    assert status == 2 and "Traceback" not in output
    assert "DATABASE_URL: port '99999'" in output


def test_a_log_format_that_is_neither_text_nor_json_is_one_bad_setting_line(
    tmp_path: Path,
) -> None:
    status, output = start_failure(tmp_path, discord_token=TOKEN, log_format="yaml")
    assert status == 2 and "Traceback" not in output
    [line] = output.splitlines()
    assert line.startswith("Bad setting: LOG_FORMAT: ") and "'json'" in line


def test_a_database_path_that_is_a_directory_is_named(tmp_path: Path) -> None:
    status, output = start_failure(tmp_path, discord_token=TOKEN, database_path=tmp_path)
    line = assert_one_clear_line(status, output, f"DATABASE_PATH {tmp_path}", "is a directory")
    assert str(tmp_path / "bot.sqlite3") in line


def test_a_database_path_under_a_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("not a folder")
    path = tmp_path / "notes" / "data" / "bot.sqlite3"
    status, output = start_failure(tmp_path, discord_token=TOKEN, database_path=path)
    assert_one_clear_line(
        status, output, f"DATABASE_PATH {path}", f"{tmp_path / 'notes'} is a file"
    )


@pytest.mark.parametrize("read_only", ["folder", "file"])
def test_a_read_only_database_path_names_what_to_make_writable(
    tmp_path: Path, read_only: str
) -> None:
    """As the image's user meets a volume it may not write. (As root, the bot runs without
    the capabilities that let root ignore permissions.)"""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "bot.sqlite3"
    if read_only == "file":
        sqlite3.connect(path).close()
        path.chmod(0o444)  # the folder stays writable: only the file is not
    else:
        folder.chmod(0o555)
    try:
        status, output = start_failure(
            tmp_path, options=bound_by_permissions(), discord_token=TOKEN, database_path=path
        )
    finally:
        folder.chmod(0o755)
    blocked = path if read_only == "file" else folder
    line = assert_one_clear_line(status, output, f"DATABASE_PATH {path}", "read-only")
    assert f"write {blocked} " in line
    assert f"uid {os.geteuid()}" in line


def test_a_database_of_a_newer_bot_names_both_schema_versions(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    newer = len(MIGRATIONS) + 3
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    conn.close()
    status, output = start_failure(tmp_path, discord_token=TOKEN, database_path=path)
    line = assert_one_clear_line(status, output, str(path))
    assert f"schema version {newer}, newer than this bot's {len(MIGRATIONS)}" in line


async def test_a_second_bot_on_the_same_database_file_stops_naming_the_first(
    tmp_path: Path,
) -> None:
    """Two bots on one SQLite file would both drive its games: the second one stops."""
    path = tmp_path / "bot.sqlite3"
    async with Emulator.running() as emu:
        settings = {
            "discord_token": emu.bot_token,
            "discord_api_base": emu.api_base,
            "discord_gateway_url": emu.gateway_url,
            "database_path": path,
        }
        async with bot_process(tmp_path, **settings) as first:
            await first.line("Ready: ")
            status, output = await asyncio.to_thread(start_failure, tmp_path, **settings)
            still_running = first.process.returncode is None
    line = assert_one_clear_line(status, output, f"DATABASE_PATH {path}", "another process")
    assert f"pid {first.process.pid}" in line
    assert still_running


async def test_a_token_discord_refuses_is_named(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        settings = {
            "discord_token": "not-" + emu.bot_token,
            "discord_api_base": emu.api_base,
            "discord_gateway_url": emu.gateway_url,
        }
        async with bot_process(tmp_path, **settings) as bot:
            status = await bot.exit_status()
    line = assert_one_clear_line(status, bot.output, "Discord refused DISCORD_TOKEN")
    assert emu.bot_token not in bot.output and "Reset Token" in line


async def test_a_dev_guild_the_bot_cannot_reach_is_named(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        settings = {
            "discord_token": emu.bot_token,
            "discord_api_base": emu.api_base,
            "discord_gateway_url": emu.gateway_url,
            "dev_guild_id": 4242,
        }
        async with bot_process(tmp_path, **settings) as bot:
            status = await bot.exit_status()
    assert_one_clear_line(status, bot.output, "DEV_GUILD_ID 4242")
