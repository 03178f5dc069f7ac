"""The playground: the real bot, built by `create_bot` as `python -m bot` builds it, connected
to the Discord emulator in the same process, with five people to play as and a page to play in.

Nothing comes from the environment or `.env`: a real token or `DATABASE_URL` there never
reaches the playground. The bot keeps its own defaults (AI delay, turn timers, pictures), so
what people see is what a server would.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.client import TableBot, create_bot
from bot.playground.emulator import Emulator
from bot.playground.web import is_loopback, serve
from bot.settings import Settings

USERS = ("alice", "bob", "carol", "dave", "eve")
ADMIN = "alice"
"""The one who may change the server's settings (Manage Server), as an owner would."""
CHANNELS = ("general", "games")
GUILD = "Playground"
DEFAULT_PORT = 8642
BOT_LOGGERS = ("discord", "bot", "games", "storage")


def playground_settings(emu: Emulator, database: Path, **overrides: Any) -> Settings:
    """The bot's settings: its defaults, pointed at the emulator; nothing read from outside."""
    values = {
        name: field.get_default(call_default_factory=True)
        for name, field in Settings.model_fields.items()
        if not field.is_required()
    }
    values |= {
        "discord_token": emu.bot_token,
        "database_path": database,
        "discord_api_base": emu.api_base,
        "discord_gateway_url": emu.gateway_url,
        **overrides,
    }
    return Settings(_env_file=None, **values)


@dataclass
class Playground:
    emu: Emulator
    bot: TableBot
    url: str

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls,
        *,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        database: Path | None = None,
        fail_on_errors: bool = False,
        emulator: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> AsyncIterator[Playground]:
        """Start the emulator, the bot and the page; stop all three when the block ends.

        `database`: the SQLite file (a temporary one, removed at the end, when None).
        `fail_on_errors`: an error the bot logs fails the block (tests). `emulator`: the
        emulator's knobs; `settings`: the bot's settings to change."""
        if not is_loopback(host):
            raise ValueError(f"the playground listens on loopback only, not {host!r}")
        async with contextlib.AsyncExitStack() as stack:
            if database is None:
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="playground-"))
                database = Path(folder) / "playground.sqlite3"
            emu = await stack.enter_async_context(
                Emulator.running(guild_name=GUILD, channels=CHANNELS, **(emulator or {}))
            )
            for name in USERS:
                emu.add_user(name, admin=name == ADMIN)
            bot = await create_bot(playground_settings(emu, database, **settings))
            await stack.enter_async_context(
                emu.run_bot(
                    bot, ready_timeout=60.0, fail_on_errors=fail_on_errors, watch=BOT_LOGGERS
                )
            )
            url = await stack.enter_async_context(serve(emu, host, port))
            yield cls(emu, bot, url)
