"""Commands shared by every game: /hand, /hint, /leave, /abandon, /games, /notify, /settings.

Loaded as an extension (`setup`), like each game's own commands. Lists and settings answer as
Components V2 layouts; confirmations and refusals stay short text replies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import timers
from bot.context import Context, jump_url
from bot.errors import BotError, deferring, reply
from bot.game_ui import ACCENT
from bot.hints import hint_text
from bot.i18n import cmd, t
from bot.languages import GUILD_LOCALE
from bot.lobby import is_admin
from bot.rules import send_rules
from bot.table_pictures import GUILD_PICTURES, pictures_on
from bot.turns import NOTIFY
from bot.ui.layout import Layout, Priority, Text
from bot.ui.v2 import build
from games.engine import Session
from runtime.logcontext import bind

if TYPE_CHECKING:
    from bot.client import TableBot

GAMES_LISTED = 20
SERVER_LANGUAGE = "server"
"""The /settings language choice that drops the server's choice: tables follow the server's
own Discord language again."""


class Common(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def _here(self, interaction: discord.Interaction[Any]) -> Session:
        """The live session of the channel the command was used in."""
        session = None
        if interaction.channel_id is not None:
            session = await self.bot.service.live_in_channel(interaction.channel_id)
        if session is None:
            raise BotError("no_session_here")
        bind(session.record)
        return session

    @app_commands.command(name=cmd("cmd.hand.name"), description=cmd("cmd.hand.desc"))
    @app_commands.describe(dm=cmd("cmd.hand.dm"))
    @app_commands.rename(dm=cmd("cmd.hand.dm.name"))
    async def hand(self, interaction: discord.Interaction[Any], dm: bool = False) -> None:
        session = await self._here(interaction)
        await self.bot.service.come_back(session.id, interaction.user.id)
        await self.bot.hands.deliver(interaction, session, dm=dm)

    @app_commands.command(name=cmd("cmd.hint.name"), description=cmd("cmd.hint.desc"))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """What the AI would play from the asker's seat (theirs to move), privately; counted."""
        session = await self._here(interaction)
        user_id = interaction.user.id
        # A refusal changes nothing; a strong AI may think for about a second.
        given = await deferring(interaction, self.bot.service.hint(session.id, user_id))
        session = await self.bot.service.get(session.id)
        ctx = Context.of(session, self.bot.languages.of(interaction))
        text = hint_text(ctx, self.bot.games[session.record.game_id], given)  # at its version
        await self.bot.service.come_back(session.id, user_id)  # asking is being back
        await reply(interaction, text)

    @app_commands.command(name=cmd("cmd.leave.name"), description=cmd("cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        session = await self._here(interaction)
        change = await self.bot.service.leave(session.id, interaction.user.id)
        key = "leave.lobby" if change.kind in ("lobby", "abandon") else "leave.game"
        await reply(interaction, t(self.bot.languages.of(interaction), key))

    @app_commands.command(name=cmd("cmd.abandon.name"), description=cmd("cmd.abandon.desc"))
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        session = await self._here(interaction)
        await self.bot.service.abandon(session.id, interaction.user.id, admin=is_admin(interaction))
        await reply(interaction, t(self.bot.languages.of(interaction), "abandon.done"))

    @app_commands.command(name=cmd("cmd.games.name"), description=cmd("cmd.games.desc"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        lang = self.bot.languages.of(interaction)
        sessions = await self.bot.service.live_sessions(interaction.guild_id)
        if not sessions:
            await reply(interaction, t(lang, "games.none"))
            return
        lines = [
            t(
                lang,
                "games.line",
                game=t(lang, f"{s.record.game_id}.name"),
                status=t(lang, f"status.{s.record.status.value}"),
                count=len(s.record.seats),
                link=jump_url(s),
            )
            for s in sessions[:GAMES_LISTED]
        ]
        await send_private(interaction, t(lang, "games.title"), lines)

    @app_commands.command(name=cmd("cmd.notify.name"), description=cmd("cmd.notify.desc"))
    @app_commands.describe(on=cmd("cmd.notify.on"))
    @app_commands.rename(on=cmd("cmd.notify.on.name"))
    async def notify(self, interaction: discord.Interaction[Any], on: bool) -> None:
        await self.bot.storage.prefs.user.set(interaction.user.id, NOTIFY, "1" if on else "0")
        lang = self.bot.languages.of(interaction)
        await reply(interaction, t(lang, "notify.on" if on else "notify.off"))

    @app_commands.command(name=cmd("cmd.settings.name"), description=cmd("cmd.settings.desc"))
    @app_commands.describe(
        language=cmd("cmd.settings.language"),
        turn_timer=cmd("cmd.settings.turn_timer"),
        pictures=cmd("cmd.settings.pictures"),
    )
    @app_commands.rename(
        language=cmd("cmd.settings.language.name"),
        turn_timer=cmd("cmd.settings.turn_timer.name"),
        pictures=cmd("cmd.settings.pictures.name"),
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name=cmd("cmd.language.ja"), value="ja"),
            app_commands.Choice(name=cmd("cmd.language.en"), value="en"),
            app_commands.Choice(name=cmd("cmd.language.server"), value=SERVER_LANGUAGE),
        ],
    )
    @app_commands.choices(turn_timer=timers.CHOICES)  # apart: one call takes one value type
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        language: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        pictures: bool | None = None,
    ) -> None:
        """Change what is given (Manage Server), then show all of this server's settings."""
        guild_id = interaction.guild_id
        if guild_id is None or not is_admin(interaction):
            raise BotError("not_admin")
        prefs = self.bot.storage.prefs.guild
        if language is not None and language.value == SERVER_LANGUAGE:
            await prefs.delete(guild_id, GUILD_LOCALE)
        elif language is not None:
            await prefs.set(guild_id, GUILD_LOCALE, language.value)
        if turn_timer is not None:
            await prefs.set(guild_id, timers.GUILD_TIMER, str(turn_timer.value))
        if pictures is not None:
            await prefs.set(guild_id, GUILD_PICTURES, "1" if pictures else "0")
        lang = self.bot.languages.of(interaction)
        await self.bot.languages.server_of(interaction)
        table = await self.bot.languages.table_language(guild_id)
        timer = await timers.server_default(prefs, guild_id)
        shown = await pictures_on(prefs, guild_id)
        source = "" if table.source == "settings" else f".{table.source}"
        named = t(lang, f"settings.lang.{table.lang}")
        lines = [
            t(lang, f"settings.language{source}", language=named),
            t(lang, "settings.turn_timer", timer=timers.timer_text(lang, timer)),
            t(lang, "settings.pictures", state=t(lang, f"settings.{'on' if shown else 'off'}")),
        ]
        if language is not None or turn_timer is not None or pictures is not None:
            lines.insert(0, t(lang, "settings.saved"))
        await send_private(interaction, t(lang, "settings.title"), lines)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(Common(bot))


async def show_rules(interaction: discord.Interaction[Any], bot: TableBot, game_id: str) -> None:
    """`/<game> rules`: the game's first rules page (`bot.rules`), in the reader's language."""
    await send_rules(interaction, bot.games[game_id], bot.languages.of(interaction))


async def send_private(
    interaction: discord.Interaction[Any], title: str, paragraphs: list[str]
) -> None:
    """A private Components V2 answer: a title and its paragraphs."""
    blocks = tuple(Text(text, Priority.ESSENTIAL) for text in paragraphs if text.strip())
    message = build(Layout(title, blocks, accent=ACCENT))
    await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)
