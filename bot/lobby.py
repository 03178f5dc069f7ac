"""The shared lobby: opening a table, who sits where, the options, and the setup controls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.context import Context, jump_url, message_url
from bot.errors import BotError, deferring, reply
from bot.game_ui import ACCENT, GameUI
from bot.i18n import t
from bot.languages import Languages
from bot.timers import chosen_or_default, timer_text
from bot.ui.layout import LOBBY, Button, Controls, Layout, Option, Priority, Select, Style, Text
from bot.ui.v2 import build
from games.engine import NORMAL, STRONG, GameError, Reason, Session, SessionService, Status
from games.engine.logcontext import bind
from games.engine.thinking import level_of
from games.registry import AIS
from storage import PrefTable

if TYPE_CHECKING:
    from bot.tables import Tables

VERBS = frozenset({"join", "leave", "addai", "rmai", "start", "first", "cancel"})
RANDOM_FIRST = "r"


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


# Screens ------------------------------------------------------------------------------------


def lobby_screen(ctx: Context, ui: GameUI) -> Layout:
    record = ctx.session.record
    rules = ctx.session.rules
    seats = "\n".join(f"{i + 1}. {_seat_text(ctx, i)}" for i in range(len(record.seats)))
    heading = ctx.t("lobby.seats", n=len(record.seats), max=rules.max_players)
    options = ui.option_lines(record.options, ctx.lang, len(record.seats))
    if record.turn_timer:
        options.append(ctx.t("lobby.turn_timer", timer=timer_text(ctx.lang, record.turn_timer)))
    host = ctx.t("lobby.footer", host=_name_of(ctx, record.host_id))
    # A game whose AI has one level (strong would play as normal) offers no strong seat.
    strong = STRONG in AIS[record.game_id].levels
    buttons = [
        Button("join", ctx.t("lobby.join"), style=Style.SUCCESS),
        Button("leave", ctx.t("lobby.leave")),
        Button("addai", ctx.t("lobby.add_ai"), "🤖"),
    ]
    if strong:
        buttons.append(Button(f"addai.{STRONG}", ctx.t("lobby.add_ai_strong"), "🧠"))
    buttons += [
        Button("rmai", ctx.t("lobby.remove_ai")),
        Button("start", ctx.t("lobby.start"), style=Style.PRIMARY),
        Button("cancel", ctx.t("lobby.cancel"), style=Style.DANGER),
    ]
    controls = Controls(tuple(buttons))
    description = ctx.t("lobby.description" if strong else "lobby.description_one_level")
    blocks = (
        Text(f"**{heading}**\n{seats or '—'}", Priority.ESSENTIAL),
        Text(
            f"**{ctx.t('lobby.options')}**\n" + ("\n".join(options) or ctx.t("lobby.no_options")),
            Priority.HIGH,
        ),
        Text(f"{description}\n-# {host}"),
        controls,
    )
    title = ctx.t("lobby.title", game=ctx.t(f"{record.game_id}.name"))
    return Layout(title, blocks, accent=ACCENT, session=ctx.sid, version=LOBBY)


def first_player_screen(ctx: Context) -> Layout:
    """Asked of the host on Start: who plays first (random by default)."""
    options = [Option(RANDOM_FIRST, ctx.t("lobby.random_first"), default=True)]
    options += [Option(str(i), name) for i, name in enumerate(ctx.names)]
    controls = Controls(
        (
            Select("first", tuple(options), placeholder=ctx.t("lobby.who_first")),
            Button(f"first.{RANDOM_FIRST}", ctx.t("lobby.start_random"), style=Style.PRIMARY),
        )
    )
    return Layout(
        ctx.t("lobby.who_first"), (controls,), accent=ACCENT, session=ctx.sid, version=LOBBY
    )


def started_screen(ctx: Context) -> Layout:
    """What the host's first-player question becomes once the game started (a V2 message stays
    V2, so it is replaced by a layout, not by plain text)."""
    title = ctx.t(f"{ctx.session.record.game_id}.name")
    return Layout(title, (Text(ctx.t("lobby.started"), Priority.ESSENTIAL),), accent=ACCENT)


def closed_screen(ctx: Context) -> Layout:
    record = ctx.session.record
    key = "lobby.abandoned" if record.status is Status.ABANDONED else "lobby.closed"
    if record.quarantine:
        key = "lobby.quarantined"
    title = ctx.t(f"{record.game_id}.name")
    return Layout(title, (Text(ctx.t(key), Priority.ESSENTIAL),), accent=ACCENT)


def _seat_text(ctx: Context, index: int) -> str:
    """A lobby seat: its name, and for an AI seat the level it plays at (a level its game no
    longer offers plays, and reads, as normal)."""
    seat = ctx.session.record.seats[index]
    if not seat.is_ai:
        return ctx.names[index]
    offered = AIS[ctx.session.record.game_id].levels
    level = ctx.t(f"ai.level.{level_of(seat.ai_level, offered)}")
    return ctx.t("lobby.ai_seat", name=ctx.names[index], level=level)


def _name_of(ctx: Context, user_id: int) -> str:
    index = ctx.session.record.seat_of(user_id)
    return ctx.names[index] if index is not None else f"<@{user_id}>"
