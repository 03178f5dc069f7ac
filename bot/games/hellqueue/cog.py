"""/hellqueue: open a lobby for Hell Queue Club (3–4 seats, AI seats welcome), read its rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import show_rules
from bot.games.hellqueue.ui import HellQueueUI
from bot.i18n import cmd
from bot.timers import turn_timer_option

if TYPE_CHECKING:
    from bot.client import TableBot

GAME_ID = "hellqueue"


class HellQueueCog(commands.Cog):
    game_id = GAME_ID
    """Refusals of these commands read this game's catalog first (`bot.errors.Tree`)."""
    group = app_commands.Group(
        name=cmd("cmd.hellqueue.name"), description=cmd("cmd.hellqueue.desc")
    )

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @group.command(name=cmd("cmd.new.name"), description=cmd("cmd.hellqueue.new.desc"))
    @turn_timer_option
    async def new(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        timer = None if turn_timer is None else turn_timer.value
        await self.bot.lobby.open(interaction, GAME_ID, {}, timer)

    @group.command(name=cmd("cmd.rules.name"), description=cmd("cmd.hellqueue.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await show_rules(interaction, self.bot, GAME_ID)


async def setup(bot: TableBot) -> None:
    bot.add_game(HellQueueUI())
    await bot.add_cog(HellQueueCog(bot))
