"""A bot started before its PostgreSQL server (compose, a reboot) waits for it, then runs."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bot.playground.emulator import Emulator
from tests.botprocess import bot_process
from tests.pgserver import Cluster


async def test_postgresql_that_comes_up_after_the_bot_started_is_waited_for(
    tmp_path: Path,
) -> None:
    # The server's socket folder is known only once it runs: the bot is pointed at a link
    # that is made then.
    link = Path(tempfile.mkdtemp(prefix="tablebot-later-")) / "pg"
    url = f"postgresql://postgres@/postgres?host={link}"
    cluster: Cluster | None = None
    try:
        async with Emulator.running() as emu:
            settings = {
                "database_url": url,
                "database_wait": 600,
                "discord_token": emu.bot_token,
                "discord_api_base": emu.api_base,
                "discord_gateway_url": emu.gateway_url,
            }
            async with bot_process(tmp_path, **settings) as bot:
                await bot.line("is not reachable yet")
                cluster = await asyncio.to_thread(Cluster.start)
                link.symlink_to(cluster.directory)
                ready = await bot.line("Ready: ")
                await emu.wait_for(lambda: bool(emu.commands()), timeout=60)
                bot.process.terminate()
                assert await bot.exit_status() == 0, bot.output
        assert "PostgreSQL" in ready
        assert "Cannot start" not in bot.output and "Traceback" not in bot.output
    finally:
        if cluster is not None:
            cluster.stop()
        link.unlink(missing_ok=True)
        link.parent.rmdir()
