"""/exhaust: open a lobby with Exhaust's options (alone: solo against the NPC), read its rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import show_rules
from bot.games.exhaust.prefs import MAX_LEVEL, MIN_LEVEL, SoloLevels
from bot.games.exhaust.ui import ExhaustUI
from bot.i18n import cmd
from bot.timers import turn_timer_option

if TYPE_CHECKING:
    from bot.client import TableBot

GAME_ID = "exhaust"


class ExhaustCog(commands.Cog):
    game_id = GAME_ID
    """Refusals of these commands read this game's catalog first (`bot.errors.Tree`)."""
    group = app_commands.Group(name=cmd("cmd.exhaust.name"), description=cmd("cmd.exhaust.desc"))

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @group.command(name=cmd("cmd.new.name"), description=cmd("cmd.exhaust.new.desc"))
    @app_commands.describe(
        long_game=cmd("cmd.exhaust.long_game"), npc_size=cmd("cmd.exhaust.npc_size")
    )
    @app_commands.rename(
        long_game=cmd("cmd.exhaust.long_game.name"), npc_size=cmd("cmd.exhaust.npc_size.name")
    )
    @turn_timer_option
    async def new(
        self,
        interaction: discord.Interaction[Any],
        long_game: bool = False,
        npc_size: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        if npc_size is None:
            npc_size = await SoloLevels(self.bot.storage.prefs.user).get(interaction.user.id)
        options = {"long_game": long_game, "npc_size": npc_size}
        timer = None if turn_timer is None else turn_timer.value
        await self.bot.lobby.open(interaction, GAME_ID, options, timer)

    @group.command(name=cmd("cmd.rules.name"), description=cmd("cmd.exhaust.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await show_rules(interaction, self.bot, GAME_ID)


async def setup(bot: TableBot) -> None:
    bot.add_game(ExhaustUI())
    await bot.add_cog(ExhaustCog(bot))
