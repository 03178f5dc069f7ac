"""The shared lobby: opening a table, who sits where, the options, and the setup controls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.context import Context, jump_url, message_url
from bot.errors import BotError, deferring, reply
from bot.i18n import t
from bot.languages import Languages
from bot.lobby_screens import RANDOM_FIRST, first_player_screen, started_screen
from bot.tables import Tables
from bot.timers import chosen_or_default
from bot.ui.v2 import build
from games.engine import NORMAL, GameError, Reason, Session, Status
from runtime import SessionService
from runtime.logcontext import bind
from storage import PrefTable

VERBS = frozenset({"join", "leave", "addai", "rmai", "start", "first", "cancel"})


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


class Lobby:
    def __init__(
        self,
        service: SessionService,
        tables: Tables,
        languages: Languages,
        guild_prefs: PrefTable,
    ) -> None:
        self.service = service
        self.tables = tables
        self.languages = languages
        self.guild_prefs = guild_prefs

    async def open(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        options: dict[str, Any],
        turn_timer: int | None = None,
    ) -> None:
        """`/<game> new`: open a lobby in this channel and post its table.

        `turn_timer` is the seconds chosen in the command (0 off), None for the server's.
        """
        lang = self.languages.of(interaction)
        if interaction.channel_id is None:
            raise BotError("no_channel")
        try:
            session = await self.service.create(
                game_id,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                locale=await self.languages.server_of(interaction),
                options=options,
                turn_timer=await chosen_or_default(
                    self.guild_prefs, interaction.guild_id, turn_timer
                ),
            )
        except GameError as error:
            if error.reason is Reason.CHANNEL_BUSY:
                channel = interaction.channel_id
                busy = await self.service.live_in_channel(channel)
                link = jump_url(busy) if busy else message_url(interaction.guild_id, channel, None)
                raise GameError(Reason.CHANNEL_BUSY, link=link) from None
            raise
        bind(session.record)
        # A post waits out the channel's rate limit (5 messages in 5 s, reached when games
        # there end quickly), so it may need more than Discord's 3 s.
        await deferring(interaction, self.tables.post(session))
        await reply(interaction, t(lang, "lobby.opened", link=jump_url(session)))

    async def control(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        verb: str,
        args: Sequence[str],
        values: Sequence[str],
    ) -> None:
        sid, user = session.id, interaction.user
        match verb:
            case "join":
                await self.service.join(sid, user.id, user.display_name)
            case "leave":
                await self.service.leave(sid, user.id)
            case "addai":  # `addai` a NORMAL seat, `addai.strong` a STRONG one
                await self.service.add_ai(sid, user.id, args[0] if args else NORMAL)
            case "rmai":
                await self.service.remove_ai(sid, user.id)
            case "cancel":
                await self.service.abandon(sid, user.id, admin=is_admin(interaction))
                session = await self.service.get(sid)
            case "start":
                if session.record.host_id != user.id:
                    raise GameError(Reason.NOT_HOST)
                if session.record.status is not Status.LOBBY:
                    raise GameError(Reason.NOT_IN_LOBBY)
                ctx = Context.of(session, self.languages.of(interaction))
                message = build(first_player_screen(ctx))
                await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)
                return
            case "first":
                choice = values[0] if values else (args[0] if args else RANDOM_FIRST)
                first = _first_seat(choice, len(session.record.seats))
                await self.service.start(sid, user.id, first)
                started = started_screen(Context.of(session, self.languages.of(interaction)))
                await interaction.response.edit_message(**build(started).edit_kwargs())
                return
        await self.tables.answer(interaction, session)


def _first_seat(choice: str, seats: int) -> int | None:
    if choice == RANDOM_FIRST:
        return None
    if not choice.isdigit() or not 0 <= int(choice) < seats:
        raise GameError(Reason.BAD_OPTION, "first_player")
    return int(choice)
