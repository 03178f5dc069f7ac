"""Commands shared by every game: /hand, /leave, /abandon, /games, /notify, /language."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import Controller
from bot.i18n import cmd


class Common(commands.Cog):
    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    @app_commands.command(name=cmd("cmd.hand.name"), description=cmd("cmd.hand.desc"))
    @app_commands.describe(dm=cmd("cmd.hand.dm"))
    @app_commands.rename(dm=cmd("cmd.hand.dm.name"))
    async def hand(self, interaction: discord.Interaction[Any], dm: bool = False) -> None:
        await self.controller.show_hand(interaction, dm=dm)

    @app_commands.command(name=cmd("cmd.leave.name"), description=cmd("cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.controller.leave(interaction)

    @app_commands.command(name=cmd("cmd.abandon.name"), description=cmd("cmd.abandon.desc"))
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await self.controller.abandon(interaction)

    @app_commands.command(name=cmd("cmd.games.name"), description=cmd("cmd.games.desc"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        await self.controller.list_games(interaction)

    @app_commands.command(name=cmd("cmd.notify.name"), description=cmd("cmd.notify.desc"))
    @app_commands.describe(on=cmd("cmd.notify.on"))
    @app_commands.rename(on=cmd("cmd.notify.on.name"))
    async def notify(self, interaction: discord.Interaction[Any], on: bool) -> None:
        await self.controller.set_notify(interaction, on)

    @app_commands.command(name=cmd("cmd.language.name"), description=cmd("cmd.language.desc"))
    @app_commands.describe(language=cmd("cmd.language.language"))
    @app_commands.rename(language=cmd("cmd.language.language.name"))
    @app_commands.choices(
        language=[
            app_commands.Choice(name=cmd("cmd.language.ja"), value="ja"),
            app_commands.Choice(name=cmd("cmd.language.en"), value="en"),
        ]
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        await self.controller.set_language(interaction, language.value)
