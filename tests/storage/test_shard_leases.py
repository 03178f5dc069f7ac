"""Two processes never drive the same shard: on PostgreSQL each holds a lease on its shards
while it runs. A second process for a held shard stops at start naming it; a killed process's
leases go with its connection, so its replacement starts at once and plays its games on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from bot.failures import shards_problem
from bot.playground.emulator import Emulator
from bot.playground.emulator.models import EmuChannel, EmuMessage, EmuUser
from bot.settings import Settings
from bot.store import claim_shards
from games.engine import Status
from storage import open_storage
from storage.leases import CountConflict, ShardTaken
from storage.postgres.leases import SHARDS, ShardLeases
from tests.botkit import custom_ids, running_bot
from tests.botprocess import BotProcess, bot_process, cannot_start_lines, eventually

HOLDER = """
SELECT pid FROM pg_locks
WHERE locktype = 'advisory' AND classid = $1::bigint::oid AND objid = $2::bigint::oid
  AND granted
"""
"""The connection holding a shard's lease (none: the shard is free)."""


async def steal(url: str, shard: int) -> asyncpg.Connection:
    """Take `shard`'s lease as another process could while its holder's connection is cut:
    queue for the lock, then cut the holder's connection. The queued request is granted the
    moment the holder is gone, before the holder can reconnect. Returns the thief."""
    thief = await asyncpg.connect(url)
    admin = await asyncpg.connect(url)
    try:
        holder = await admin.fetchval(HOLDER, SHARDS, shard)
        take = asyncio.create_task(thief.execute("SELECT pg_advisory_lock($1, $2)", SHARDS, shard))

        async def queued() -> bool:
            waits = "SELECT count(*) FROM pg_locks WHERE pid = $1 AND NOT granted"
            return bool(await admin.fetchval(waits, thief.get_server_pid()))

        await eventually(queued)
        await admin.execute("SELECT pg_terminate_backend($1)", holder)
        await take
    finally:
        await admin.close()
    return thief


def shard_settings(emu: Emulator, url: str, ids: str, **more: object) -> dict[str, object]:
    return {
        "discord_token": emu.bot_token,
        "discord_api_base": emu.api_base,
        "discord_gateway_url": emu.gateway_url,
        "database_url": url,
        "shard_count": 2,
        "shard_ids": ids,
        "table_edit_interval": 0.2,
        **more,
    }


async def ready(bot: BotProcess) -> None:
    await bot.line(r"Ready: ")


async def test_a_second_process_for_a_held_shard_stops_naming_it(
    pg_url: str, tmp_path: Path
) -> None:
    async with Emulator.running() as emu:
        emu.add_guild("Zero", shard=(0, 2))
        settings = shard_settings(emu, pg_url, "0")
        async with bot_process(tmp_path, **settings) as first:
            await ready(first)
            async with bot_process(tmp_path, **shard_settings(emu, pg_url, "1,0")) as second:
                assert await second.exit_status() == 2, second.output
            assert first.process.returncode is None  # the first one runs on
    assert "Traceback" not in second.output
    [line] = cannot_start_lines(second.output)
    assert "shard 0 of 2 already run in another process" in line
    assert "SHARD_IDS" in line
    assert f"pid {first.process.pid} shards 0/2" in line  # who holds it


async def start_game_with_the_ai_first(
    emu: Emulator, user: EmuUser, channel: EmuChannel
) -> EmuMessage:
    """`/thegame new`, one AI seat, started with the AI to play: only the bot's messages."""
    await user.slash(channel, "thegame new")
    [table] = emu.channel_messages(channel)
    await user.click(table, custom_ids(table, ":addai$")[0])
    res = await user.click(table, custom_ids(table, ":start$")[0])
    await user.select(res.message, custom_ids(res.message, ":first$")[0], ["1"])
    await emu.wait_for(lambda: bool(custom_ids(table, ":hand$")))
    return table


async def test_a_killed_process_is_replaced_at_once_and_its_games_play_on(
    pg_url: str, tmp_path: Path
) -> None:
    async with Emulator.running() as emu, await open_storage(pg_url) as storage:
        channel = emu.add_guild("Zero", shard=(0, 2)).channels[0]
        alice = emu.add_user("alice")
        async with bot_process(tmp_path, **shard_settings(emu, pg_url, "0", ai_delay=3600)) as old:
            await ready(old)
            table = await start_game_with_the_ai_first(emu, alice, channel)
            record = await storage.sessions.live_in_channel(channel.id)
            assert record is not None and record.status is Status.ACTIVE
            old.kill()  # SIGKILL, before its AI seat has played
            await old.exit_status()

        # The server lets the lease go as soon as it sees the connection closed.
        admin = await asyncpg.connect(pg_url)

        async def free() -> bool:
            return await admin.fetchval(HOLDER, SHARDS, 0) is None

        try:
            await eventually(free)
        finally:
            await admin.close()

        async def ai_moved() -> bool:
            return (await storage.sessions.version(record.id) or 0) > record.version

        assert not await ai_moved()
        settings = shard_settings(emu, pg_url, "0", ai_delay=0.02)
        async with bot_process(tmp_path, **settings) as new:
            await ready(new)
            await emu.wait_for(ai_moved, timeout=60)
            res = await alice.click(table, custom_ids(table, ":hand$")[0])  # a click works
            assert res.ephemeral
            assert "Cannot start" not in new.output


async def test_processes_splitting_the_bot_differently_refuse_each_other(pg_url: str) -> None:
    """SHARD_COUNT=2 beside an unsharded process (count 1): their guilds would overlap."""
    lost: list[Exception] = []
    sharded = await ShardLeases.claim(pg_url, 2, {1}, lost.append)
    try:
        try:
            await ShardLeases.claim(pg_url, 1, {0}, lost.append)
            raise AssertionError("an unsharded process claimed its lease beside a sharded one")
        except CountConflict as conflict:
            line = shards_problem("the database", conflict)
    finally:
        await sharded.release()
    assert "SHARD_COUNT=2, this one with 1" in line
    assert not lost


async def test_a_cut_lease_connection_is_reopened_and_its_leases_held_again(
    pg_url: str,
) -> None:
    lost: list[Exception] = []
    leases = await ShardLeases.claim(pg_url, 2, {0}, lost.append)
    admin = await asyncpg.connect(pg_url)
    try:
        first = await admin.fetchval(HOLDER, SHARDS, 0)
        await admin.execute("SELECT pg_terminate_backend($1, 30000)", first)

        async def held_again() -> bool:
            pid = await admin.fetchval(HOLDER, SHARDS, 0)
            return pid is not None and pid != first

        await eventually(held_again)
    finally:
        await leases.release()
        await admin.close()
    assert not lost


async def test_a_lease_taken_while_its_connection_was_cut_stops_the_process(
    pg_url: str,
) -> None:
    lost: list[Exception] = []
    leases = await ShardLeases.claim(pg_url, 2, {0}, lost.append)
    thief = await steal(pg_url, 0)
    try:

        async def told() -> bool:
            return bool(lost)

        await eventually(told)
    finally:
        await leases.release()
        await thief.close()
    [error] = lost
    assert isinstance(error, ShardTaken) and set(error.taken) == {0}


async def test_a_process_without_shard_ids_holds_every_shard_so_no_other_runs_one(
    pg_url: str,
) -> None:
    """SHARD_COUNT=2 with SHARD_IDS unset runs both shards, so it must hold both: a process
    for shard 1 beside it is refused rather than drive shard 1's games too."""
    settings = Settings(_env_file=None, discord_token="t", database_url=pg_url, shard_count=2)
    every = await claim_shards(settings, lambda failure: None)
    assert every is not None and every.ids == {0, 1}
    try:
        try:
            await ShardLeases.claim(pg_url, 2, {1}, lambda error: None)
            raise AssertionError("shard 1 was claimed beside a process running every shard")
        except ShardTaken as taken:
            assert set(taken.taken) == {1}
    finally:
        await every.release()


async def test_a_bot_whose_shard_was_taken_while_it_was_cut_off_stops(
    pg_url: str, tmp_path: Path
) -> None:
    async with Emulator.running() as emu:
        emu.add_guild("Zero", shard=(0, 2))
        options = {"database_url": pg_url, "shard_count": 2, "shard_ids": (0,)}
        async with running_bot(emu, tmp_path / "unused.sqlite3", **options) as bot:
            thief = await steal(pg_url, 0)
            try:
                await emu.wait_for(bot.is_closed, timeout=60)
            finally:
                await thief.close()
    assert bot.failure is not None and bot.failure.running
    assert "shard 0 of 2 already run in another process" in str(bot.failure)
