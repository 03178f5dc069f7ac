"""Helpers for tests that drive the bot through the local Discord emulator."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.client import TableBot, create_bot
from bot.playground.emulator import Emulator, RateLimit
from bot.playground.emulator.models import EmuChannel, EmuMessage, EmuUser
from bot.settings import Settings
from games.engine import Session
from games.thegame import RULES
from games.thegame.models import Play
from runtime import Clock


def settings_for(emu: Emulator, db: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": emu.bot_token,
        "database_path": db,
        "discord_api_base": emu.api_base,
        "discord_gateway_url": emu.gateway_url,
        "ai_delay": 0.02,
        "table_edit_interval": 1.1,
        "default_locale": "en",
        **overrides,
    }
    return Settings(_env_file=None, **values)


FAST = {"table_edit_interval": 0.1}
"""Bot options of the game tests: table edits come quickly."""
QUICK = RateLimit(5, 0.2)
"""Discord's edit limit, with a shorter window (the behaviour, not the wait)."""

BOT_LOGGERS = ("discord", "bot", "games", "storage")
# The Discord locale of a server (and its users) that speaks each catalog language.
LOCALES = {"en": "en-US", "ja": "ja"}
"""Errors logged by any of these fail a test: the bot's own as much as discord.py's."""


@asynccontextmanager
async def running_bot(
    emu: Emulator,
    db: Path,
    *,
    fail_on_errors: bool = True,
    clock: Clock | None = None,
    **overrides: Any,
) -> AsyncIterator[TableBot]:
    bot = await create_bot(settings_for(emu, db, **overrides), clock)
    async with emu.run_bot(bot, fail_on_errors=fail_on_errors, watch=BOT_LOGGERS):
        yield bot


def custom_ids(message: EmuMessage, pattern: str = "") -> list[str]:
    """The custom_ids of a message's controls (section accessories included) whose action
    matches `pattern`."""
    return [i for i in message.custom_ids() if re.search(pattern, i)]


def select_options(message: EmuMessage, custom_id: str) -> list[str]:
    component = message.component(custom_id)
    assert component is not None, custom_id
    return [o["value"] for o in component["options"]]


async def session_in(bot: TableBot, emu: Emulator) -> Session:
    session = await bot.service.live_in_channel(emu.general.id)
    assert session is not None
    return session


def table_message(emu: Emulator, session: Session) -> EmuMessage:
    message_id = session.record.table_message_id
    assert message_id is not None
    return next(m for m in emu.channel_messages(emu.general) if m.id == message_id)


def everything_seen_by(user: EmuUser) -> str:
    return "\n".join(m.text for m in user.visible_messages())


async def open_lobby(
    emu: Emulator, bot: TableBot, host: EmuUser, command: str = "thegame new", **options: Any
) -> tuple[Session, EmuMessage]:
    await host.slash(emu.general, command, **options)
    session = await session_in(bot, emu)
    return session, table_message(emu, session)


async def start_game(
    emu: Emulator,
    bot: TableBot,
    host: EmuUser,
    *,
    joiners: tuple[EmuUser, ...] = (),
    ai: int = 0,
    first: str = "r",
    command: str = "thegame new",
    **options: Any,
) -> tuple[Session, EmuMessage]:
    """Open a lobby, seat everyone, and start with `first` ("r" random or a seat index)."""
    session, table = await open_lobby(emu, bot, host, command, **options)
    for user in joiners:
        await user.click(table, custom_ids(table, ":join$")[0])
    for _ in range(ai):
        await host.click(table, custom_ids(table, ":addai$")[0])
    res = await host.click(table, custom_ids(table, ":start$")[0])
    assert res.message is not None
    await host.select(res.message, custom_ids(res.message, ":first$")[0], [first])
    assert session.state is not None
    await emu.wait_for(
        lambda: (
            bool(custom_ids(table, ":(hand|rematch)$")) or session.record.status.value != "active"
        )
    )
    return session, table


async def open_hand(user: EmuUser, table: EmuMessage) -> EmuMessage:
    res = await user.click(table, custom_ids(table, ":hand$")[0])
    assert res.ephemeral and res.message is not None
    return res.message


async def wait_current(emu: Emulator, message: EmuMessage, session: Session) -> None:
    """Wait until a hand message has been redrawn at the session's current version."""
    await emu.wait_for(
        lambda: (
            any(f":{session.record.version}:" in i for i in custom_ids(message))
            or session.record.status.value != "active"
        )
    )


async def play_a_card(user: EmuUser, hand: EmuMessage, session: Session, seat: int) -> Play:
    """The Game: pick the seat's first legal card in the hand's select, then click its pile."""
    play = next(a for a in RULES.legal_actions(session.state, seat) if isinstance(a, Play))
    await click_play(user, hand, play)
    return play


async def click_play(user: EmuUser, hand: EmuMessage, play: Play) -> None:
    await user.select(hand, custom_ids(hand, r":x\.pick$")[0], [str(play.card)])
    await user.click(hand, custom_ids(hand, rf":x\.play\.{play.card}\.{play.pile}$")[0])


async def rules_page(user: EmuUser, channel: EmuChannel, game_id: str, page: str) -> str:
    """What `user` reads on one page of `/<game> rules`: the first, or one picked in its select."""
    res = await user.slash(channel, f"{game_id} rules")
    assert res.message is not None
    if page != "intro":
        [select] = custom_ids(res.message, r":rules\.")
        await user.select(res.message, select, [page])
    return res.message.text
