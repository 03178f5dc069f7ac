"""/exhaust: open a lobby with Exhaust's options (alone: solo against the NPC), read its rules."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import Controller
from bot.gameui.exhaust import MAX_LEVEL, MIN_LEVEL, SOLO_LEVEL_KEY, parse_level
from bot.i18n import cmd


class ExhaustCog(commands.Cog):
    group = app_commands.Group(name=cmd("cmd.exhaust.name"), description=cmd("cmd.exhaust.desc"))

    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    @group.command(name=cmd("cmd.new.name"), description=cmd("cmd.exhaust.new.desc"))
    @app_commands.describe(
        long_game=cmd("cmd.exhaust.long_game"), npc_size=cmd("cmd.exhaust.npc_size")
    )
    @app_commands.rename(
        long_game=cmd("cmd.exhaust.long_game.name"), npc_size=cmd("cmd.exhaust.npc_size.name")
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        long_game: bool = False,
        npc_size: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
    ) -> None:
        if npc_size is None:
            stored = await self.controller.storage.prefs.user.get(
                interaction.user.id, SOLO_LEVEL_KEY
            )
            npc_size = parse_level(stored)
        options = {"long_game": long_game, "npc_size": npc_size}
        await self.controller.new_lobby(interaction, "exhaust", options)

    @group.command(name=cmd("cmd.rules.name"), description=cmd("cmd.exhaust.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await self.controller.rules(interaction, "exhaust")
