"""The discord.py client: wiring of storage, the session service, the controller and cogs."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.cogs.common import Common
from bot.cogs.exhaust import ExhaustCog
from bot.cogs.thegame import TheGameCog
from bot.controller import Controller
from bot.gameui.base import GameUI
from bot.gameui.exhaust import ExhaustUI
from bot.gameui.thegame import TheGameUI
from bot.i18n import CatalogTranslator
from bot.settings import Settings
from bot.ui.controls import ControlButton, ControlSelect
from games.engine import SessionService
from games.registry import GAMES
from storage import Storage, open_storage

log = logging.getLogger(__name__)

UIS: dict[str, GameUI] = {ui.game_id: ui for ui in (TheGameUI(), ExhaustUI())}
COGS = (TheGameCog, ExhaustCog)


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic to a Discord-compatible server when configured."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class TableBot(commands.Bot):
    controller: Controller

    def __init__(self, settings: Settings, storage: Storage, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents: slash commands and components only
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options
        )
        self.settings = settings
        self.storage = storage
        self.service = SessionService(storage.sessions, GAMES, ai_delay=settings.ai_delay)
        self.controller = Controller(self, settings, storage, self.service, UIS)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(ControlButton, ControlSelect)
        await self.add_cog(Common(self.controller))
        for cog in COGS:
            await self.add_cog(cog(self.controller))
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.service.resume()
        for session in await self.service.live_sessions():
            self.controller.refresher.mark(session.id)

    async def close(self) -> None:
        await self.service.close()
        self.controller.refresher.close()
        await super().close()
        await self.storage.close()


async def create_bot(settings: Settings, **options: Any) -> TableBot:
    point_at(settings)
    storage = await open_storage(settings.database_path)
    return TableBot(settings, storage, **options)


async def run(settings: Settings) -> None:
    bot = await create_bot(settings)
    async with bot:
        await bot.start(settings.discord_token)
