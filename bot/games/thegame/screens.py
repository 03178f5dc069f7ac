"""The Game's screens: the public table and each player's hand.

Phone first: the table opens with whose turn it is and what they must do, the latest events and
any burn warning, then the picture of the four piles (when the server wants pictures) and a
section per pile; the legend is the first thing to go when the message must be summarised. The
picture's alt text is the piles' own lines, so a screen reader hears what the picture shows.
"""

from __future__ import annotations

from bot.context import Context
from bot.game_ui import ACCENT, LOST, WON, table_controls
from bot.games.thegame.controls import play_controls, signal_select
from bot.games.thegame.picture import FILENAME
from bot.games.thegame.pieces import card_token, pile_line, pile_name, view_of
from bot.games.thegame.results import result_text
from bot.ui.layout import (
    Block,
    Controls,
    Keep,
    Layout,
    Picture,
    Priority,
    Section,
    Separator,
    Text,
    Tokens,
    plain,
)
from games.thegame.models import PILES, TheGameView
from games.thegame.rules import PERFECT, WIN

RECENT = 6
"""Events shown under the status (the newest last)."""


def _seats(ctx: Context, view: TheGameView, playing: bool) -> str:
    seats = []
    for seat in range(len(ctx.names)):
        name = ctx.seat_label(seat)
        line = ctx.t("thegame.table.seat", name=name, count=view.hand_sizes[seat])
        if playing and seat == view.turn:
            todo = (
                ctx.t("thegame.table.must_play", n=view.still_required)
                if view.still_required
                else ctx.t("thegame.table.may_end")
            )
            line = f"▶ **{line}** — {todo}"
        seats.append(line)
    return "\n".join(seats)


def table(ctx: Context, records: str | None, options: list[str]) -> Layout:
    """The public table; once finished, the result and the `records`; the chosen `options`
    in its legend."""
    view = view_of(ctx, None)
    outcome = ctx.session.rules.outcome(ctx.session.state)
    playing = outcome is None and not ctx.closed
    blocks: list[Block] = []
    if outcome is not None:
        result = result_text(ctx, outcome.result, view.cards_left)
        heading = ctx.t("thegame.result.title")
        blocks.append(Text(f"**{heading}**\n{result}", Priority.ESSENTIAL))
        if records is not None:
            blocks.append(Text(records, Priority.HIGH))
    blocks.append(Text(_seats(ctx, view, playing), Priority.ESSENTIAL))
    log = ctx.log_lines()[-RECENT:]
    if log:
        recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
        blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
    warnings = [
        ctx.t("thegame.table.burn_warning", card=pile.top, pile=pile_name(ctx, i))
        for i, pile in enumerate(view.piles)
        if pile.burns_at_turn_end
    ]
    if warnings and playing:
        blocks.append(Text("\n".join(f"🔥 {w}" for w in warnings), Priority.ESSENTIAL))
    lines = [pile_line(view, ctx.lang, i) for i in range(PILES)]
    if ctx.picture is not None:
        blocks.append(Picture(ctx.picture, FILENAME, plain("\n".join(lines))))
    blocks.append(Separator())
    blocks += [Section((line,), priority=Priority.HIGH) for line in lines]
    counts = ctx.t("thegame.table.counts_value", draw=view.draw_count, left=view.cards_left)
    blocks.append(Text(counts, Priority.NORMAL))
    controls = table_controls(ctx, finished=outcome is not None)
    if playing:
        controls = Controls((*controls.items, signal_select(ctx, view)))
    blocks.append(controls)
    legend = " · ".join([ctx.t("thegame.table.legend"), *options])
    blocks.append(Text(f"-# {legend}", Priority.LOW))
    accent = ACCENT
    if outcome is not None:
        accent = WON if outcome.result in (PERFECT, WIN) else LOST
    return Layout(
        title=ctx.t("thegame.name"),
        blocks=tuple(blocks),
        accent=accent,
        session=ctx.sid,
        version=ctx.version,
    )


def hand(ctx: Context, seat: int, pick: str | None) -> Layout:
    """A player's hand, the piles, and on their turn the controls."""
    view = view_of(ctx, seat)
    state = ctx.session.state
    hand = view.hand or ()
    outcome = ctx.session.rules.outcome(state)
    my_turn = outcome is None and view.turn == seat
    blocks: list[Block] = []
    if ctx.notice:
        blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
    if outcome is not None:
        status = result_text(ctx, outcome.result, view.cards_left)
    elif my_turn:
        status = (
            ctx.t("thegame.hand.your_turn", n=view.still_required)
            if view.still_required
            else ctx.t("thegame.hand.may_end")
        )
    else:
        status = ctx.t("thegame.hand.waiting", name=ctx.names[view.turn])
    cards = Tokens(tuple(card_token(view, c) for c in hand), empty=ctx.t("thegame.hand.empty"))
    blocks.append(Section((status, cards), priority=Priority.ESSENTIAL))
    blocks.append(Text("\n".join(pile_line(view, ctx.lang, i) for i in range(PILES))))
    log = ctx.log_lines()
    if log:
        blocks.append(Text("\n".join(log), Priority.NORMAL, keep=Keep.TAIL))
    if my_turn:
        blocks.append(play_controls(ctx, view, pick))
    return Layout(
        title=ctx.t("thegame.hand.title"),
        blocks=tuple(blocks),
        accent=ACCENT,
        session=ctx.sid,
        version=ctx.version,
    )


def replay_hands(ctx: Context) -> tuple[Block, ...]:
    """Each seat's cards on one line."""
    state = ctx.session.state
    view = view_of(ctx, None)
    return tuple(
        Section(
            (
                Tokens(
                    tuple(card_token(view, c) for c in hand),
                    label=f"**{name}**",
                    empty=ctx.t("thegame.hand.empty_other"),
                ),
            ),
            priority=Priority.NORMAL,
        )
        for name, hand in zip(ctx.names, state.hands, strict=False)
    )
