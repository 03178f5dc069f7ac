"""/thegame: open a lobby with The Game's options, and read its rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import show_rules
from bot.games.thegame.ui import TheGameUI
from bot.i18n import cmd
from bot.timers import turn_timer_option

if TYPE_CHECKING:
    from bot.client import TableBot

GAME_ID = "thegame"


class TheGameCog(commands.Cog):
    game_id = GAME_ID
    """Refusals of these commands read this game's catalog first (`bot.errors.Tree`)."""
    group = app_commands.Group(name=cmd("cmd.thegame.name"), description=cmd("cmd.thegame.desc"))

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @group.command(name=cmd("cmd.new.name"), description=cmd("cmd.thegame.new.desc"))
    @app_commands.describe(
        on_fire=cmd("cmd.thegame.on_fire"),
        min_three=cmd("cmd.thegame.min_three"),
        smaller_hand=cmd("cmd.thegame.smaller_hand"),
    )
    @app_commands.rename(
        on_fire=cmd("cmd.thegame.on_fire.name"),
        min_three=cmd("cmd.thegame.min_three.name"),
        smaller_hand=cmd("cmd.thegame.smaller_hand.name"),
    )
    @turn_timer_option
    async def new(
        self,
        interaction: discord.Interaction[Any],
        on_fire: bool = False,
        min_three: bool = False,
        smaller_hand: bool = False,
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        options = {"on_fire": on_fire, "min_three": min_three, "smaller_hand": smaller_hand}
        timer = None if turn_timer is None else turn_timer.value
        await self.bot.lobby.open(interaction, GAME_ID, options, timer)

    @group.command(name=cmd("cmd.rules.name"), description=cmd("cmd.thegame.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await show_rules(interaction, self.bot, GAME_ID)


async def setup(bot: TableBot) -> None:
    bot.add_game(TheGameUI())
    await bot.add_cog(TheGameCog(bot))
