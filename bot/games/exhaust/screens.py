"""Exhaust's screens: the public table and each player's hand."""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from bot.game_ui import ACCENT, LOST, WON, table_controls
from bot.games.exhaust.choice import Choice
from bot.games.exhaust.controls import play_controls
from bot.games.exhaust.pieces import (
    DEPLETION_EMOJI,
    TIME_EMOJI,
    card_text,
    cards_text,
    combo_kind_name,
    depletion_text,
    hand_order,
    need_text,
    seat_name,
    view_of,
)
from bot.games.exhaust.words import private_event_text
from bot.ui.layout import (
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
    Token,
    Tokens,
    game_verb,
)
from games.engine import Event
from games.exhaust.models import NPC, Played, View

GOLD = 0xF1C40F
"""The accent of a finished game with several players (some won, one lost)."""
RECENT = 6
"""Events shown under the status (the newest last)."""


def _combo_line(ctx: Context, view: View, index: int) -> str:
    cv = view.combos[index]
    name = combo_kind_name(ctx, cv.combo, view.players)
    need = need_text(ctx, view, index)
    if not cv.plays:
        return ctx.t("exhaust.table.combo_empty", name=name, need=need)
    top: Played = cv.plays[-1]
    return ctx.t(
        "exhaust.table.combo",
        name=name,
        cards=cards_text(top.cards, top.copies),
        plays=len(cv.plays),
        need=need,
    )


def _seat_line(ctx: Context, view: View, seat: int, playing: bool) -> str:
    parts = [ctx.t("exhaust.table.cards", count=view.hand_sizes[seat])]
    if view.time_cards[seat]:
        parts.append(f"{TIME_EMOJI}{view.time_cards[seat]}")
    if view.long_game:
        parts.append(depletion_text(ctx, view, seat) or f"{DEPLETION_EMOJI} 0")
    line = f"**{ctx.seat_label(seat)}** — " + " · ".join(parts)
    return ("▶ " + line) if playing and view.turn == seat else line


def table(ctx: Context, ending: str, records: str | None) -> Layout:
    """The public table; once finished, the `ending` in words and the `records`."""
    view = view_of(ctx, None)
    outcome = ctx.session.rules.outcome(ctx.session.state)
    title = ctx.t("exhaust.name")
    if view.long_game:
        title = ctx.t("exhaust.table.title_long", name=title, game=view.game_no)
    blocks: list[Block] = []
    if outcome is not None:
        result = f"**{ctx.t('exhaust.result.title')}**\n{ending}"
        blocks.append(Text(result, Priority.ESSENTIAL))
        if records is not None:
            blocks.append(Text(records, Priority.HIGH))
    playing = outcome is None and view.phase == "play" and not ctx.closed
    seats = [_seat_line(ctx, view, s, playing) for s in range(view.players)]
    if view.npc is not None:
        npc = view.npc
        line = ctx.t(
            "exhaust.table.npc",
            name=ctx.t("exhaust.npc"),
            hand=cards_text(hand_order(npc.hand)) or "—",
            count=npc.pile,
        )
        if npc.time_cards:
            line += f" · {TIME_EMOJI}{npc.time_cards}"
        seats.append(("▶ " if playing and view.turn == NPC else "") + line)
    blocks.append(Text("\n".join(seats), Priority.ESSENTIAL))
    if not ctx.closed and outcome is None and view.phase == "next" and view.turn is not None:
        text = ctx.t(
            "exhaust.table.next",
            name=seat_name(ctx, view.turn, view),
            game=view.game_no,
            next=view.game_no + 1,
        )
        heading = ctx.t("exhaust.table.next_title")
        blocks.append(Text(f"**{heading}** — {text}", Priority.ESSENTIAL))
    log = ctx.log_lines(this_game(ctx.recent))[-RECENT:]
    if log:
        recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
        blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
    blocks.append(Separator())
    blocks += [
        Section((_combo_line(ctx, view, i),), priority=Priority.HIGH)
        for i in range(len(view.combos))
    ]
    piles = ctx.t("exhaust.table.piles", refill=view.refill, time=view.time_pile)
    if view.long_game:
        piles += " · " + ctx.t("exhaust.table.depletion_pile", n=view.depletion_pile)
    blocks.append(Text(piles, Priority.NORMAL))
    blocks.append(table_controls(ctx, finished=outcome is not None))
    legend = " · ".join([ctx.t("exhaust.table.legend"), *_config_lines(ctx, view)])
    blocks.append(Text(f"-# {legend}", Priority.LOW))
    accent = ACCENT
    if outcome is not None:
        won = outcome.result == "win"
        accent = GOLD if not view.solo else (WON if won else LOST)
    return Layout(
        title=title, blocks=tuple(blocks), accent=accent, session=ctx.sid, version=ctx.version
    )


def this_game(events: Sequence[Event]) -> Sequence[Event]:
    """The recent events since the last deal (a long match's earlier games are over)."""
    deals = [i for i, e in enumerate(events) if e.key == "exhaust.next_game"]
    return events[deals[-1] :] if deals else events


def _config_lines(ctx: Context, view: View) -> list[str]:
    if view.solo:
        return [ctx.t("exhaust.option.solo", count=ctx.session.state.config.npc_size)]
    return [ctx.t("exhaust.option.long_game")] if view.long_game else []


def hand(ctx: Context, seat: int, pick: str | None, ending: str) -> Layout:
    """A player's hand with its controls on their turn; once finished, the `ending`."""
    view = view_of(ctx, seat)
    hand = hand_order(view.hand or ())
    outcome = ctx.session.rules.outcome(ctx.session.state)
    blocks: list[Block] = []
    if ctx.notice:
        blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
    items: list[Control] = []
    choice_lines: list[str] = []
    if outcome is not None:
        status = ending
    elif view.phase == "next":
        if view.my_turn:
            status = ctx.t("exhaust.hand.start_next", next=view.game_no + 1)
            label = ctx.t("exhaust.hand.next_button", next=view.game_no + 1)
            items.append(Button(game_verb("next"), label, "▶️", Style.PRIMARY))
        else:
            name = seat_name(ctx, view.turn if view.turn is not None else seat, view)
            status = ctx.t("exhaust.hand.waiting_next", name=name, next=view.game_no + 1)
    elif not view.my_turn:
        name = seat_name(ctx, view.turn, view) if view.turn is not None else "—"
        status = ctx.t("exhaust.hand.waiting", name=name)
    else:
        status = ctx.t("exhaust.hand.your_turn")
        choice_lines = play_controls(ctx, view, seat, Choice(view, pick), items)
    cards = Tokens(tuple(Token(card_text(c)) for c in hand), empty=ctx.t("exhaust.hand.empty"))
    mine = [ctx.t("exhaust.hand.time", n=view.time_cards[seat])]
    if view.long_game:
        mine.append(depletion_text(ctx, view, seat) or f"{DEPLETION_EMOJI} 0")
    blocks.append(Section((status, cards, " · ".join(mine)), priority=Priority.ESSENTIAL))
    if choice_lines:
        blocks.append(Text("\n".join(choice_lines), Priority.ESSENTIAL))
    table_lines = []
    if view.phase in ("play", "next"):
        table_lines.append(
            " · ".join(
                f"{combo_kind_name(ctx, cv.combo, view.players)} {need_text(ctx, view, cv.index)}"
                for cv in view.combos
            )
        )
    if view.npc is not None and view.phase == "play":
        table_lines.append(
            ctx.t(
                "exhaust.table.npc",
                name=ctx.t("exhaust.npc"),
                hand=cards_text(hand_order(view.npc.hand)) or "—",
                count=view.npc.pile,
            )
        )
    drawn = _last_drawn(ctx)
    if drawn and view.phase == "play":
        table_lines.append(drawn)
    if table_lines:
        blocks.append(Text("\n".join(table_lines), Priority.HIGH))
    if items:
        blocks.append(Controls(tuple(items)))
    return Layout(
        title=ctx.t("exhaust.hand.title"),
        blocks=tuple(blocks),
        accent=ACCENT,
        session=ctx.sid,
        version=ctx.version,
    )


def _last_drawn(ctx: Context) -> str | None:
    """The refill card this seat drew last (a private Pair reward), in this game."""
    for event in reversed(ctx.recent):
        if event.key == "exhaust.hand":
            return None
        if event.key == "exhaust.reward_card":
            return private_event_text(event, ctx)
    return None


def replay_hands(ctx: Context) -> tuple[Block, ...]:
    """Each seat's spell cards on one line (time cards and the NPC are on the table)."""
    view = view_of(ctx, None)
    hands = ctx.session.state.hands
    return tuple(
        Section(
            (
                Tokens(
                    tuple(Token(card_text(c)) for c in hand_order(hands[seat])),
                    label=f"**{seat_name(ctx, seat, view)}**",
                    empty=ctx.t("exhaust.hand.empty_other"),
                ),
            ),
            priority=Priority.NORMAL,
        )
        for seat in range(min(view.players, len(hands)))
    )
