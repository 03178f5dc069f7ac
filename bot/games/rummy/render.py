"""How Angels & Demons Rummy reads in Discord: cards, sets, the score of a goal.

A card is its attribute's emoji (🧑 Human, 😇 Angel, 😈 Demon; an Item by its picture 🗡️🛡️🧪💍)
and its title in a code span; a red card has 🔴 in front: `🔴😇`3``. Red and black cards of a
title are the same for sets, so only the red mark tells them apart. Labels of buttons and
select options use the same shape without markdown (`🔴😇3`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from games.rummy.cards import ITEM, ITEM_TITLES, attribute, is_red, title
from games.rummy.models import RedScore, ShortResult

ATTRIBUTE_EMOJI = ("🧑", "😇", "😈")
"""Human, Angel, Demon."""
ITEM_EMOJI = {"sword": "🗡️", "shield": "🛡️", "potion": "🧪", "ring": "💍"}
RED = "🔴"
NONE = "—"


def card_emoji(card: int) -> str:
    attr = attribute(card)
    return ITEM_EMOJI[title(card)] if attr == ITEM else ATTRIBUTE_EMOJI[attr]


def title_text(ctx: Context, card: int) -> str:
    """A number card's number, or an Item's picture name in the reader's language."""
    name = title(card)
    return ctx.t(f"rummy.item.{name}") if name in ITEM_TITLES else name


def card_text(ctx: Context, card: int) -> str:
    """A card in a message: `🔴😇`3``."""
    return f"{RED if is_red(card) else ''}{card_emoji(card)}`{title_text(ctx, card)}`"


def card_label(ctx: Context, card: int) -> str:
    """A card on a button or a select option (no markdown there): `🔴😇3`."""
    return f"{RED if is_red(card) else ''}{card_emoji(card)}{title_text(ctx, card)}"


def cards_text(ctx: Context, cards: Sequence[int], empty: str = NONE) -> str:
    return " ".join(card_text(ctx, c) for c in cards) or empty


def cards_label(ctx: Context, cards: Sequence[int]) -> str:
    return " ".join(card_label(ctx, c) for c in cards)


def sets_text(ctx: Context, sets: Sequence[Sequence[int]], empty: str = NONE) -> str:
    """Sets side by side, each in brackets: `[😇`1` 😇`2` 😇`3`] [🧑`5` 🧑`5`]`."""
    return " ".join(f"[{cards_text(ctx, s)}]" for s in sets) or empty


# The score of a goal --------------------------------------------------------------------------


def red_text(ctx: Context, red: RedScore) -> str:
    """A red card at a goal: basic `🔴😇`3` +1`; advanced with its condition and ✅/❌."""
    card = card_text(ctx, red.card)
    if red.condition == "red":
        return ctx.t("rummy.result.red_plain", card=card, points=red.points)
    return ctx.t(
        "rummy.result.red_condition",
        card=card,
        condition=ctx.t(f"rummy.condition.{red.condition}"),
        mark="✅" if red.met else "❌",
        points=red.points,
    )


def goal_lines(ctx: Context, result: ShortResult) -> list[str]:
    """The full score of a goal: the winning hand, the open sets, each red card and each bonus
    check, the total (and, advanced, what the discarder lost)."""
    assert result.seat is not None and result.card is not None
    name = ctx.names[result.seat]
    card = card_text(ctx, result.card)
    if result.from_seat is None:
        head = ctx.t("rummy.result.goal_take", name=name, card=card)
    else:
        head = ctx.t(
            "rummy.result.goal_discard", name=name, card=card, from_name=ctx.names[result.from_seat]
        )
    lines = [
        head,
        ctx.t("rummy.result.hand", sets=sets_text(ctx, result.split)),
        ctx.t("rummy.result.opened", sets=sets_text(ctx, result.opened), points=result.set_points),
    ]
    if result.red:
        reds = " · ".join(red_text(ctx, red) for red in result.red)
        lines.append(ctx.t("rummy.result.red", cards=reds, points=result.red_points))
    else:
        lines.append(ctx.t("rummy.result.red_none"))
    if result.bonus:
        flips = " · ".join(
            ctx.t("rummy.result.flip", card=card_text(ctx, flip.card), points=flip.points)
            for flip in result.bonus
        )
        lines.append(ctx.t("rummy.result.bonus", flips=flips, points=result.bonus_points))
    else:
        lines.append(ctx.t("rummy.result.bonus_none"))
    lines.append(ctx.t("rummy.result.total", name=name, count=result.total))
    if result.loss and result.from_seat is not None:
        lines.append(
            ctx.t("rummy.result.loss", name=ctx.names[result.from_seat], count=result.loss)
        )
    return lines


def result_lines(ctx: Context, result: ShortResult) -> list[str]:
    """How a short game ended, in full."""
    if result.kind == "goal":
        return goal_lines(ctx, result)
    if result.kind == "deck_out":
        return [ctx.t("rummy.result.deck_out", game=result.game_no)]
    assert result.seat is not None
    return [
        ctx.t("rummy.result.item_victory", name=ctx.names[result.seat]),
        ctx.t("rummy.result.item_sets", sets=sets_text(ctx, result.opened)),
    ]


def result_summary(ctx: Context, result: ShortResult) -> str:
    """A short game's end in one line (shown while the next one is played)."""
    if result.kind == "goal" and result.seat is not None:
        return ctx.t(
            "rummy.result.summary",
            game=result.game_no,
            name=ctx.names[result.seat],
            points=result.total,
            sets=result.set_points,
            red=result.red_points,
            bonus=result.bonus_points,
        )
    return result_lines(ctx, result)[0]
