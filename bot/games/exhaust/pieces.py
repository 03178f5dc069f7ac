"""How Exhaust's pieces read, the same on every screen: a card is its element and number
(`🔥7`), a copy card `📜` (`📜🔥7` once it copies red 7); combos and seats by name."""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from games.exhaust.cards import HIGHEST, is_copy
from games.exhaust.cards import colour as colour_of
from games.exhaust.cards import number as number_of
from games.exhaust.combos import Combo, table
from games.exhaust.models import NPC, View

COLOUR_EMOJI = ("🔥", "💧", "🌪️", "🌱")
"""Red = fire, blue = water, yellow = wind, green = earth (the seed's four elements)."""
COPY_EMOJI = "📜"
TIME_EMOJI = "⏳"
DEPLETION_EMOJI = "🪫"


def card_text(card: int, target: int | None = None) -> str:
    """A card as players read it: `🔥7`; a copy `📜`, or `📜🔥7` once it copies red 7."""
    if is_copy(card):
        return COPY_EMOJI + ("" if target is None else card_text(target))
    return f"{COLOUR_EMOJI[colour_of(card)]}{number_of(card)}"


def cards_text(cards: Sequence[int], copies: Sequence[tuple[int, int]] = ()) -> str:
    target = dict(copies)
    return " ".join(f"`{card_text(c, target.get(c))}`" for c in cards)


def hand_order(cards: Sequence[int]) -> list[int]:
    """Number cards by number then colour (pairs side by side), copies last."""
    return sorted(cards, key=lambda c: (1, 0, c) if is_copy(c) else (0, number_of(c), c))


def view_of(ctx: Context, seat: int | None) -> View:
    """The view of `seat` (None: the public one) of the session on screen."""
    view: View = ctx.session.rules.view(ctx.session.state, seat)
    return view


def combo_kind_name(ctx: Context, combo: Combo, players: int) -> str:
    name = ctx.t(f"exhaust.combo.{combo.kind.value}")
    if combo.kind.value == "single" and players > 2:
        name += " " + "".join(COLOUR_EMOJI[c] for c in combo.colours)
    return name


def combo_name(ctx: Context, index: int) -> str:
    players = ctx.session.state.config.players
    combos = table(players)
    if not 0 <= index < len(combos):
        return "?"
    return combo_kind_name(ctx, combos[index], players)


def seat_name(ctx: Context, position: int, view: View) -> str:
    if view.solo and position == NPC:
        return ctx.t("exhaust.npc")
    if 0 <= position < len(ctx.names):
        return ctx.names[position]
    return "?"


def need_text(ctx: Context, view: View, index: int) -> str:
    cv = view.combos[index]
    if cv.need_number is not None:
        if cv.need_number > HIGHEST:
            return ctx.t("exhaust.need.none")
        return ctx.t("exhaust.need.number", n=cv.need_number)
    return ctx.t("exhaust.need.count", count=cv.need_count)


def depletion_text(ctx: Context, view: View, seat: int) -> str:
    held, flipped = view.depletion[seat], view.flipped[seat]
    if not held:
        return ""
    parts = []
    if held - flipped:
        parts.append(ctx.t("exhaust.depletion.face_up", n=held - flipped))
    if flipped:
        parts.append(ctx.t("exhaust.depletion.flipped", n=flipped))
    return f"{DEPLETION_EMOJI} " + ", ".join(parts)
