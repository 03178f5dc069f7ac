"""/healthz of a bot running through the emulator, probed over real HTTP as Docker's health
check probes it: 200 while the gateway is connected and the store answers, 503 with the reason
while either is not, and 200 again once it is back."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from bot.playground.emulator import Emulator
from tests.botkit import running_bot, start_game
from tests.botprocess import bot_process, cannot_start_lines
from tests.opskit import get, health_once
from tests.pgserver import Cluster

OPS = {"metrics_port": 0}


async def test_healthz_answers_200_while_the_gateway_and_the_store_answer(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot:
            await start_game(emu, bot, alice)

            status, body = await get(bot, "/healthz")

            assert status == 200, body
            assert body.startswith("ok\n")
            assert "gateway connected" in body and "store answered" in body


async def test_healthz_is_503_in_a_gateway_outage_and_200_after_it(tmp_path: Path) -> None:
    async with (
        Emulator.running() as emu,
        running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot,
    ):
        async with emu.gateway_outage():
            body = await health_once(emu, bot, 503)
            assert "gateway: disconnected (shard 0)" in body

        body = await health_once(emu, bot, 200)
        assert "gateway connected" in body


async def test_healthz_is_503_while_postgresql_is_down_and_200_once_it_is_back(
    tmp_path: Path, stoppable_cluster: Cluster, stoppable_url: str
) -> None:
    settings = {"database_url": stoppable_url, **OPS}
    async with (
        Emulator.running() as emu,
        running_bot(emu, tmp_path / "unused.sqlite3", **settings) as bot,
    ):
        assert (await get(bot, "/healthz"))[0] == 200
        await asyncio.to_thread(stoppable_cluster.stop_server)
        try:
            body = await health_once(emu, bot, 503)
            assert "store: did not answer" in body
            assert "gateway connected" in body  # the reason is the store alone
        finally:
            await asyncio.to_thread(stoppable_cluster.start_server)

        await health_once(emu, bot, 200)


async def test_a_health_probe_never_writes_to_the_store(tmp_path: Path) -> None:
    async with (
        Emulator.running() as emu,
        running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot,
    ):
        statements: list[str] = []
        await bot.storage.db.trace(statements.append)
        try:
            for _ in range(3):
                assert (await get(bot, "/healthz"))[0] == 200
        finally:
            await bot.storage.db.trace(None)

        assert statements, "the probe read nothing: the store went unasked"
        written = ("INSERT", "UPDATE", "DELETE", "BEGIN IMMEDIATE", "PRAGMA WAL_CHECKPOINT")
        assert [s for s in statements if s.upper().lstrip().startswith(written)] == []


async def test_without_metrics_port_nothing_is_served(tmp_path: Path) -> None:
    async with Emulator.running() as emu, running_bot(emu, tmp_path / "db.sqlite3") as bot:
        assert bot.settings.metrics_port is None
        assert bot.ops.endpoint is None


async def test_a_metrics_port_in_use_stops_the_start_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with Emulator.running() as emu:
            settings = {
                "discord_token": emu.bot_token,
                "discord_api_base": emu.api_base,
                "discord_gateway_url": emu.gateway_url,
                "metrics_port": port,
            }
            async with bot_process(tmp_path, **settings) as bot:
                status = await bot.exit_status()
    assert status == 2 and "Traceback" not in bot.output, bot.output
    [line] = cannot_start_lines(bot.output)
    assert f"METRICS_PORT {port}" in line and "METRICS_HOST 127.0.0.1" in line
