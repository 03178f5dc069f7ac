"""The shared lobby: who sits where, the options, and the setup controls."""

from __future__ import annotations

import discord

from bot.gameui.base import COLOUR, Context, GameUI
from bot.ui.controls import LOBBY, ControlButton, ControlSelect
from bot.ui.screen import Screen
from games.engine import Status


def lobby_screen(ctx: Context, ui: GameUI) -> Screen:
    record = ctx.session.record
    rules = ctx.session.rules
    embed = discord.Embed(
        title=ctx.t("lobby.title", game=ctx.t(f"{record.game_id}.name")),
        description=ctx.t("lobby.description"),
        colour=COLOUR,
    )
    seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(ctx.names))
    embed.add_field(
        name=ctx.t("lobby.seats", n=len(record.seats), max=rules.max_players),
        value=seats or "—",
        inline=False,
    )
    options = ui.option_lines(record.options, ctx.lang)
    embed.add_field(
        name=ctx.t("lobby.options"),
        value="\n".join(options) or ctx.t("lobby.no_options"),
        inline=False,
    )
    host = record.host_id
    embed.set_footer(text=ctx.t("lobby.footer", host=_name_of(ctx, host)))
    sid = ctx.sid
    items: list[discord.ui.Item[discord.ui.View]] = [
        ControlButton(
            sid, LOBBY, "join", label=ctx.t("lobby.join"), style=discord.ButtonStyle.success, row=0
        ),
        ControlButton(sid, LOBBY, "leave", label=ctx.t("lobby.leave"), row=0),
        ControlButton(sid, LOBBY, "addai", label=ctx.t("lobby.add_ai"), emoji="🤖", row=0),
        ControlButton(sid, LOBBY, "rmai", label=ctx.t("lobby.remove_ai"), row=0),
        ControlButton(
            sid,
            LOBBY,
            "start",
            label=ctx.t("lobby.start"),
            style=discord.ButtonStyle.primary,
            row=1,
        ),
        ControlButton(
            sid,
            LOBBY,
            "cancel",
            label=ctx.t("lobby.cancel"),
            style=discord.ButtonStyle.danger,
            row=1,
        ),
    ]
    return Screen(embeds=[embed], items=items)


def first_player_screen(ctx: Context) -> Screen:
    """Asked of the host on Start: who plays first (random by default)."""
    options = [discord.SelectOption(label=ctx.t("lobby.random_first"), value="r", default=True)]
    options += [
        discord.SelectOption(label=name[:100], value=str(i)) for i, name in enumerate(ctx.names)
    ]
    select = ControlSelect(
        ctx.sid, LOBBY, "first", options=options, placeholder=ctx.t("lobby.who_first"), row=0
    )
    go = ControlButton(
        ctx.sid,
        LOBBY,
        "first.r",
        label=ctx.t("lobby.start_random"),
        style=discord.ButtonStyle.primary,
        row=1,
    )
    return Screen(embeds=[], items=[select, go], content=ctx.t("lobby.who_first"))


def closed_screen(ctx: Context) -> Screen:
    record = ctx.session.record
    key = "lobby.abandoned" if record.status is Status.ABANDONED else "lobby.closed"
    embed = discord.Embed(
        title=ctx.t(f"{record.game_id}.name"), description=ctx.t(key), colour=COLOUR
    )
    return Screen(embeds=[embed])


def _name_of(ctx: Context, user_id: int) -> str:
    index = ctx.session.record.seat_of(user_id)
    return ctx.names[index] if index is not None else f"<@{user_id}>"
