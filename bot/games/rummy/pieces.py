"""How Angels & Demons Rummy's cards read in Discord, the same on every screen.

A card is its attribute's emoji (🧑 Human, 😇 Angel, 😈 Demon; an Item by its picture 🗡️🛡️🧪💍)
and its title in a code span; a red card has 🔴 in front: `🔴😇`3``. Red and black cards of a
title are the same for sets, so only the red mark tells them apart. Labels of buttons and
select options use the same shape without markdown (`🔴😇3`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.context import Context
from games.rummy.cards import ITEM, ITEM_TITLES, attribute, is_red, title
from games.rummy.models import View

ATTRIBUTE_EMOJI = ("🧑", "😇", "😈")
"""Human, Angel, Demon."""
ITEM_EMOJI = {"sword": "🗡️", "shield": "🛡️", "potion": "🧪", "ring": "💍"}
RED = "🔴"
NONE = "—"
READY = "🎯"
WINDOW = "📣"


def view_of(ctx: Context, seat: int | None) -> View:
    """The view of `seat` (None: the public one) of the session on screen."""
    view: View = ctx.session.rules.view(ctx.session.state, seat)
    return view


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


def window_deadline(ctx: Context, view: View) -> str:
    """The claim window's deadline as a Discord relative timestamp."""
    due = ctx.session.due("window")
    if due is None:  # never while a window is open; the length is the next best thing
        seconds = view.window.seconds if view.window is not None else 0
        return ctx.t("rummy.seconds", n=seconds)
    return f"<t:{math.ceil(due)}:R>"
