"""The lobby's screens: who sits where and the options, the host's first-player question,
and what a lobby becomes once started or closed."""

from __future__ import annotations

from bot.context import Context
from bot.game_ui import ACCENT, GameUI
from bot.timers import timer_text
from bot.ui.layout import LOBBY, Button, Controls, Layout, Option, Priority, Select, Style, Text
from games.engine import STRONG, Status
from games.registry import AIS
from runtime.thinking import level_of

RANDOM_FIRST = "r"
"""The first-player choice that leaves it to chance."""


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
    level = ctx.t(f"ai.level.{level_of(seat.ai_level, AIS[ctx.session.record.game_id].levels)}")
    return ctx.t("lobby.ai_seat", name=ctx.names[index], level=level)


def _name_of(ctx: Context, user_id: int) -> str:
    index = ctx.session.record.seat_of(user_id)
    return ctx.names[index] if index is not None else f"<@{user_id}>"
