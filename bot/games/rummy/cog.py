"""/rummy: open a lobby for Angels & Demons Rummy (2–4 seats, AI seats welcome), read its rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import show_rules
from bot.games.rummy.ui import RummyUI
from bot.i18n import cmd
from bot.timers import turn_timer_option
from games.engine.options import field_bounds
from games.rummy.models import CLAIM_BOUNDS, CLAIM_SECONDS, Config

if TYPE_CHECKING:
    from bot.client import TableBot

GAME_ID = "rummy"
MATCH_GAMES = field_bounds(Config, "match_games")


class RummyCog(commands.Cog):
    game_id = GAME_ID
    """Refusals of these commands read this game's catalog first (`bot.errors.Tree`)."""
    group = app_commands.Group(name=cmd("cmd.rummy.name"), description=cmd("cmd.rummy.desc"))

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @group.command(name=cmd("cmd.new.name"), description=cmd("cmd.rummy.new.desc"))
    @app_commands.describe(
        advanced=cmd("cmd.rummy.advanced"),
        claim_seconds=cmd("cmd.rummy.claim_seconds"),
        match_games=cmd("cmd.rummy.match_games"),
    )
    @app_commands.rename(
        advanced=cmd("cmd.rummy.advanced.name"),
        claim_seconds=cmd("cmd.rummy.claim_seconds.name"),
        match_games=cmd("cmd.rummy.match_games.name"),
    )
    @turn_timer_option
    async def new(
        self,
        interaction: discord.Interaction[Any],
        advanced: bool = False,
        claim_seconds: app_commands.Range[int, CLAIM_BOUNDS[0], CLAIM_BOUNDS[1]] = CLAIM_SECONDS,
        match_games: app_commands.Range[int, MATCH_GAMES[0], MATCH_GAMES[1]] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        """`match_games` left out plays the seed's length for the seats the match starts with."""
        options: dict[str, Any] = {"advanced": advanced, "claim_seconds": claim_seconds}
        if match_games is not None:
            options["match_games"] = match_games
        timer = None if turn_timer is None else turn_timer.value
        await self.bot.lobby.open(interaction, GAME_ID, options, timer)

    @group.command(name=cmd("cmd.rules.name"), description=cmd("cmd.rummy.rules.desc"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await show_rules(interaction, self.bot, GAME_ID)


async def setup(bot: TableBot) -> None:
    bot.add_game(RummyUI())
    await bot.add_cog(RummyCog(bot))
