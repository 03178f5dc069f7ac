"""Angels & Demons Rummy's screens: the public table and each player's hand.

The public table is drawn from the public view only, so it reads the same whoever could claim a
discard. A claim window asks only the players who can claim (the rules decide from their
hands); the table shows the card and the deadline, never who is asked or who has answered, and
its hand button reads "Answer the claim window" for everyone: a click opens the clicker's hand,
with the prompt for an asked player and, for anyone else, that there is nothing to answer.
While a window is open its screens carry no version (answers move it), so an answer changes
nobody's screen but the answerer's: an edit would tell the others how many were asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from bot.game_ui import ACCENT, table_controls
from bot.games.rummy.controls import hand_status
from bot.games.rummy.pieces import (
    ATTRIBUTE_EMOJI,
    ITEM_EMOJI,
    READY,
    RED,
    WINDOW,
    card_text,
    cards_text,
    sets_text,
    view_of,
    window_deadline,
)
from bot.games.rummy.results import match_lines, result_lines, result_summary
from bot.games.rummy.words import private_event_text
from bot.ui.layout import (
    LOBBY,
    Block,
    Button,
    Control,
    Controls,
    Keep,
    Layout,
    Priority,
    Section,
    Separator,
    Style,
    Text,
)
from games.engine import Event
from games.rummy.models import View

RECENT = 6
"""Events shown under the status (the newest last)."""


def _version(ctx: Context, view: View) -> int | str:
    """The screens' version marker: none (`LOBBY`, the marker of controls that do not
    depend on the version) while a claim window is open (see the module)."""
    return LOBBY if view.phase == "window" else ctx.version


def table(ctx: Context, records: str | None, accent: int) -> Layout:
    """The public table in `accent`, drawn from the public view only; once finished, the
    match's result and `records`."""
    view = view_of(ctx, None)
    outcome = ctx.session.rules.outcome(ctx.session.state)
    blocks: list[Block] = []
    if outcome is not None:
        lines = [f"**{ctx.t('rummy.result.title')}**", *match_lines(ctx, view)]
        blocks.append(Text("\n".join(lines), Priority.ESSENTIAL))
    elif not ctx.closed:
        blocks.append(Text(_status(ctx, view), Priority.ESSENTIAL))
    log = ctx.log_lines(this_game(ctx.recent))[-RECENT:]
    if log:
        recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
        blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
    result = view.result
    if result is not None and view.phase in ("ended", "over"):
        heading = ctx.t("rummy.result.short_title", game=result.game_no)
        text = "\n".join([f"**{heading}**", *result_lines(ctx, result)])
        blocks.append(Text(text, Priority.ESSENTIAL))
    if records is not None and outcome is not None:
        blocks.append(Text(records, Priority.HIGH))
    blocks.append(Separator())
    if view.phase not in ("ended", "over"):
        field = ctx.t("rummy.table.field", cards=cards_text(ctx, view.field), count=view.deck)
        blocks.append(Text(field, Priority.HIGH))
    players = [_player_text(ctx, view, s) for s in range(view.config.players)]
    blocks.append(Text("\n".join(players), Priority.HIGH))
    if result is not None and view.phase not in ("ended", "over"):
        blocks.append(Text(result_summary(ctx, result), Priority.NORMAL))
    blocks.append(_table_controls(ctx, view, finished=outcome is not None))
    blocks.append(Text(f"-# {_legend(ctx, view)}", Priority.LOW))
    return Layout(
        title=_title(ctx, view),
        blocks=tuple(blocks),
        accent=accent,
        session=ctx.sid,
        version=_version(ctx, view),
    )


def _title(ctx: Context, view: View) -> str:
    if view.game_no == 0:
        return ctx.t("rummy.name")
    return ctx.t(
        "rummy.table.title",
        name=ctx.t("rummy.name"),
        game=view.game_no,
        games=view.config.match_games,
    )


def _status(ctx: Context, view: View) -> str:
    window, turn = view.window, view.turn
    if view.phase == "window" and window is not None:
        heading = ctx.t(
            "rummy.table.window",
            card=card_text(ctx, window.card),
            name=ctx.names[window.discarder],
            when=window_deadline(ctx, view),
        )
        return f"{WINDOW} {heading}"
    if turn is None:
        return ""
    name = ctx.names[turn]
    if view.phase == "ended":
        return ctx.t("rummy.table.ended", game=view.game_no, name=name, next=view.game_no + 1)
    if view.phase == "take":
        return "▶ " + ctx.t("rummy.table.to_take", name=name)
    if view.ready[turn]:
        return "▶ " + ctx.t("rummy.table.to_act_ready", name=name)
    return "▶ " + ctx.t("rummy.table.to_act", name=name)


def _player_text(ctx: Context, view: View, seat: int) -> str:
    marks = [ctx.t("rummy.table.hand_size", count=view.hand_sizes[seat])]
    if view.ready[seat]:
        marks.append(f"{READY} {ctx.t('rummy.ready')}")
    marks.append(ctx.t("rummy.table.score", count=view.scores[seat]))
    playing = not ctx.closed and view.turn == seat and view.phase in ("take", "act", "window")
    head = ("▶ " if playing else "") + f"**{ctx.seat_label(seat)}** — " + " · ".join(marks)
    opened = ctx.t("rummy.table.opened", sets=sets_text(ctx, view.opened[seat]))
    row = ctx.t("rummy.table.row", cards=cards_text(ctx, view.rows[seat]))
    return f"{head}\n└ {opened}\n└ {row}"


def _table_controls(ctx: Context, view: View, finished: bool) -> Controls:
    """The shared buttons; during a claim window the hand button invites everyone alike to
    answer (whoever is asked: the table must not tell)."""
    if finished or view.phase != "window":
        return table_controls(ctx, finished)
    return Controls(
        (
            Button("hand", ctx.t("rummy.table.answer"), WINDOW, Style.SUCCESS),
            Button("dm", ctx.t("table.hand_dm"), "✉️"),
        )
    )


def _legend(ctx: Context, view: View) -> str:
    config = view.config
    parts = [
        ctx.t(
            "rummy.table.legend",
            human=ATTRIBUTE_EMOJI[0],
            angel=ATTRIBUTE_EMOJI[1],
            demon=ATTRIBUTE_EMOJI[2],
            items="".join(ITEM_EMOJI.values()),
            red=RED,
            ready=READY,
        ),
        ctx.t("rummy.table.target", count=config.target),
    ]
    if config.advanced:
        parts.append(ctx.t("rummy.option.advanced"))
    return " · ".join(parts)


def hand(ctx: Context, seat: int, pick: str | None) -> Layout:
    """A player's hand with its controls, their own row and sets, and the others in short."""
    view = view_of(ctx, seat)
    blocks: list[Block] = []
    if ctx.notice:
        blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
    items: list[Control] = []
    choice: list[str] = []
    status = hand_status(ctx, view, seat, pick, items, choice)
    cards = view.hand or ()
    hand = ctx.t("rummy.hand.cards", n=len(cards), cards=cards_text(ctx, cards))
    blocks.append(Section((status, hand, _own_text(ctx, view, seat)), priority=Priority.ESSENTIAL))
    if choice:
        blocks.append(Text("\n".join(choice), Priority.ESSENTIAL))
    blocks.append(Text(_table_summary(ctx, view, seat), Priority.HIGH))
    last = _last_private(ctx, view)
    if last:
        blocks.append(Text(f"-# {last}", Priority.NORMAL))
    if items:
        blocks.append(Controls(tuple(items)))
    return Layout(
        title=ctx.t("rummy.hand.title"),
        blocks=tuple(blocks),
        accent=ACCENT,
        session=ctx.sid,
        version=_version(ctx, view),
    )


def _own_text(ctx: Context, view: View, seat: int) -> str:
    parts = [
        ctx.t("rummy.hand.opened", sets=sets_text(ctx, view.opened[seat])),
        ctx.t("rummy.hand.row", cards=cards_text(ctx, view.rows[seat])),
    ]
    if view.ready[seat]:
        parts.append(f"{READY} {ctx.t('rummy.ready')}")
    parts.append(ctx.t("rummy.table.score", count=view.scores[seat]))
    return " · ".join(parts)


def _table_summary(ctx: Context, view: View, seat: int) -> str:
    lines = []
    if view.phase not in ("ended", "over"):
        lines.append(ctx.t("rummy.table.field", cards=cards_text(ctx, view.field), count=view.deck))
    for other in range(view.config.players):
        if other == seat:
            continue
        marks = [
            ctx.t("rummy.table.hand_size", count=view.hand_sizes[other]),
            ctx.t("rummy.hand.open_count", n=len(view.opened[other])),
        ]
        if view.ready[other]:
            marks.append(f"{READY} {ctx.t('rummy.ready')}")
        marks.append(ctx.t("rummy.table.score", count=view.scores[other]))
        lines.append(f"**{ctx.names[other]}** — " + " · ".join(marks))
    return "\n".join(lines)


def _last_private(ctx: Context, view: View) -> str | None:
    """The newest private event of this short game (the cards just drawn, a lost claim);
    none during a window, whose prompt says it all."""
    if view.phase in ("window", "over"):
        return None
    for event in reversed(ctx.recent):
        if event.key == "rummy.hand":
            return None
        text = private_event_text(event, ctx)
        if text:
            return text
    return None


def replay_hands(ctx: Context) -> tuple[Block, ...]:
    """Each seat's hand on one line (open sets and discard rows are on the table)."""
    hands = ctx.session.state.hands
    return tuple(
        Section((f"**{name}** {cards_text(ctx, hand)}",), priority=Priority.NORMAL)
        for name, hand in zip(ctx.names, hands, strict=False)
    )


def this_game(events: Sequence[Event]) -> Sequence[Event]:
    """The recent events since the last deal (earlier short games are over)."""
    deals = [i for i, e in enumerate(events) if e.key == "rummy.dealt"]
    return events[deals[-1] :] if deals else events
