"""Hell Queue Club's screens: the public table and each player's panel.

Nothing in this game is private, so the public table shows everything (the three distribution
cards with their stones and the dice under them, each player's cards, rest area, stones and
score, the supply) and the panel ("Show my hand") holds the controls of the player to move.
"""

from __future__ import annotations

from collections import Counter

from bot.context import Context
from bot.game_ui import ACCENT, table_controls
from bot.games.hellqueue.choice import Choice
from bot.games.hellqueue.controls import pick_controls, turn_controls
from bot.games.hellqueue.picture import FILENAME
from bot.games.hellqueue.pieces import (
    MARKERS,
    NONE,
    dice_text,
    seat_name,
    sleep_text,
    stone_counts_text,
    stones_row,
    view_of,
)
from bot.games.hellqueue.results import result_text
from bot.ui.layout import (
    Block,
    Control,
    Controls,
    Keep,
    Layout,
    Picture,
    Priority,
    Separator,
    Text,
    plain,
)
from games.hellqueue.cards import NUMBERS, SLOTS
from games.hellqueue.models import View
from games.hellqueue.moves import room, to_move_seat

RECENT = 6
"""Events shown under the status (the newest last)."""


def table(ctx: Context, records: str | None, accent: int) -> Layout:
    """The public table, in `accent`: it shows everything, nothing in this game being private;
    once finished, the result and `records`."""
    view = view_of(ctx, None)
    outcome = ctx.session.rules.outcome(ctx.session.state)
    blocks: list[Block] = []
    if outcome is not None:
        result = f"**{ctx.t('hellqueue.result.title')}**\n{result_text(ctx, view)}"
        blocks.append(Text(result, Priority.ESSENTIAL))
        if records is not None:
            blocks.append(Text(records, Priority.HIGH))
    elif not ctx.closed:
        blocks.append(Text(_status(ctx, view), Priority.ESSENTIAL))
    log = ctx.log_lines()[-RECENT:]
    if log:
        recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
        blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
    cards = [_card_text(ctx, view, slot) for slot in SLOTS]
    if ctx.picture is not None:
        blocks.append(Picture(ctx.picture, FILENAME, plain("\n".join(cards))))
    blocks.append(Separator())
    blocks += [Text(card, Priority.HIGH) for card in cards]
    blocks.append(Separator())
    playing = to_move_seat(view) if outcome is None and not ctx.closed else None
    players = [_player_text(ctx, view, s, s == playing) for s in range(view.config.players)]
    blocks.append(Text("\n".join(players), Priority.HIGH))
    supply = ctx.t(
        "hellqueue.table.supply",
        black=view.black_supply,
        rest_black=view.rest_black,
        stones=stone_counts_text(view.stone_supply),
    )
    blocks.append(Text(supply, Priority.NORMAL))
    blocks.append(table_controls(ctx, finished=outcome is not None))
    blocks.append(Text(f"-# {ctx.t('hellqueue.table.legend')}", Priority.LOW))
    return Layout(
        title=ctx.t("hellqueue.name"),
        blocks=tuple(blocks),
        accent=accent,
        session=ctx.sid,
        version=ctx.version,
    )


def _status(ctx: Context, view: View) -> str:
    seat = to_move_seat(view)
    if seat is None:
        return ""
    params = {"marker": MARKERS[seat], "name": ctx.names[seat]}
    if view.phase == "reroll":
        return ctx.t("hellqueue.table.rerolling", **params)
    payout = view.payout
    if payout is not None and payout.picks:
        line = ctx.t("hellqueue.table.picking", number=NUMBERS[payout.slot], **params)
        left = Counter(payout.picks)
        names = ", ".join(seat_name(ctx, s) + (f" ×{n}" if n > 1 else "") for s, n in left.items())
        return f"{line}\n{ctx.t('hellqueue.table.still_to_pick', names=names)}"
    return ctx.t("hellqueue.table.to_move", **params)


def _card_text(ctx: Context, view: View, slot: int) -> str:
    number = NUMBERS[slot]
    if view.shown[slot] is None:
        return ctx.t("hellqueue.table.card_done", number=number)
    line = ctx.t(
        "hellqueue.table.card",
        number=number,
        total=view.totals[slot],
        stones=stones_row(view.card_stones[slot]),
        deck=view.deck_sizes[slot],
    )
    if view.payout is not None and view.payout.slot == slot:
        line = f"💰 {line}"
    under = [
        f"{MARKERS[seat]} {dice_text(dice)}"
        for seat, dice in enumerate(view.queues[slot])
        if dice.count
    ]
    return line + "\n" + (" · ".join(under) or ctx.t("hellqueue.table.no_dice"))


def _player_text(ctx: Context, view: View, seat: int, playing: bool) -> str:
    player = view.players[seat]
    line = ctx.t(
        "hellqueue.table.player",
        marker=MARKERS[seat],
        name=ctx.seat_label(seat),
        score=view.scores[seat],
        stones=stone_counts_text(player.stones),
    )
    area = ctx.t(
        "hellqueue.table.area",
        active=dice_text(player.active) or NONE,
        sleep=sleep_text(player.sleep) or NONE,
        rest=player.rest_large + player.rest_small,
    )
    return ("▶ " if playing else "") + f"{line}\n└ {area}"


def hand(ctx: Context, seat: int, pick: str | None) -> Layout:
    """A player's panel: their area, the cards in short and, on their move, the controls."""
    view = view_of(ctx, seat)
    outcome = ctx.session.rules.outcome(ctx.session.state)
    moving = outcome is None and to_move_seat(view) == seat
    blocks: list[Block] = []
    if ctx.notice:
        blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
    lines: list[str] = []
    rows: list[list[Control]] = []
    if outcome is not None:
        lines.append(ctx.t("hellqueue.hand.over"))
    elif not moving:
        lines.append(_waiting_text(ctx, view))
    elif view.phase == "resolve":
        lines.append(pick_controls(ctx, view, seat, rows))
    else:
        lines += turn_controls(ctx, view, seat, Choice(view, seat, pick), rows)
    blocks.append(Text("\n".join(lines), Priority.ESSENTIAL))
    blocks.append(Text(_own_area(ctx, view, seat), Priority.HIGH))
    cards = [_card_summary(ctx, view, slot) for slot in SLOTS]
    blocks.append(Text("\n".join(c for c in cards if c), Priority.NORMAL))
    blocks += [Controls(tuple(row)) for row in rows if row]
    return Layout(
        title=ctx.t("hellqueue.hand.title"),
        blocks=tuple(blocks),
        accent=ACCENT,
        session=ctx.sid,
        version=ctx.version,
    )


def _waiting_text(ctx: Context, view: View) -> str:
    seat = to_move_seat(view)
    if seat is None:
        return ctx.t("hellqueue.hand.waiting", name=NONE)
    key = "hellqueue.hand.waiting_pick" if view.phase == "resolve" else "hellqueue.hand.waiting"
    return ctx.t(key, name=seat_name(ctx, seat))


def _own_area(ctx: Context, view: View, seat: int) -> str:
    player = view.players[seat]
    you = ctx.t(
        "hellqueue.hand.you",
        marker=MARKERS[seat],
        score=view.scores[seat],
        stones=stone_counts_text(player.stones),
    )
    active = ctx.t("hellqueue.hand.active", dice=dice_text(player.active) or NONE)
    sleep = ctx.t("hellqueue.hand.sleep", dice=sleep_text(player.sleep) or NONE)
    rest = ctx.t(
        "hellqueue.hand.rest", n=player.rest_large + player.rest_small, black=view.rest_black
    )
    return "\n".join((you, active, sleep, rest))


def _card_summary(ctx: Context, view: View, slot: int) -> str:
    if view.shown[slot] is None:
        return ""
    owners = " ".join(
        f"{MARKERS[seat]}{dice.count}" for seat, dice in enumerate(view.queues[slot]) if dice.count
    )
    return ctx.t(
        "hellqueue.hand.card",
        number=NUMBERS[slot],
        total=view.totals[slot],
        room=room(view, slot),
        stones=stones_row(view.card_stones[slot]),
        owners=owners or NONE,
    )
