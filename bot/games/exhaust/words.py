"""Exhaust's events and actions in words (the catalog's `exhaust.event.*` and
`exhaust.action.*`)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.games.exhaust.pieces import (
    cards_text,
    combo_kind_name,
    combo_name,
    hand_order,
    seat_name,
    view_of,
)
from bot.i18n import has
from games.engine import Event
from games.exhaust.models import FlipDepletion, NextGame, PlayCards, UseTime


def action_text(ctx: Context, seat: int, action: Any) -> str:
    """One of `seat`'s actions in words, from that seat's view."""
    view = view_of(ctx, seat)
    match action:
        case PlayCards():
            cards = cards_text(hand_order(action.cards), action.copies)
            combo = combo_kind_name(ctx, view.combos[action.combo].combo, view.players)
            return ctx.t("exhaust.action.play", cards=cards, combo=combo)
        case UseTime():
            return ctx.t("exhaust.action.time")
        case FlipDepletion():
            return ctx.t("exhaust.action.flip")
        case NextGame():
            return ctx.t("exhaust.action.next", next=view.game_no + 1)
    raise ValueError(f"not a seat's action: {action!r}")


def _params(event: Event, ctx: Context) -> dict[str, Any]:
    params = dict(event.params)
    view = view_of(ctx, None)
    if "seat" in params:
        params["seat"] = seat_name(ctx, params["seat"], view)
    if "combo" in params:
        params["combo"] = combo_name(ctx, params["combo"])
    copies = [tuple(pair) for pair in params.pop("copies", ())]
    params["cards"] = cards_text(event.cards, copies)
    params["count"] = params.get("count", len(event.cards))
    return params


def event_text(event: Event, ctx: Context) -> str | None:
    """A public event in words (None: left out of the log)."""
    if not event.public:
        return None
    key = event.key.removeprefix("exhaust.")
    params = _params(event, ctx)
    match key:
        case "dealt":
            key = "dealt_solo" if "npc_pile" in params else "dealt"
            params["count"] = params.pop("hand")
        case "reward_none" | "npc_reward_none":
            key = f"{key}.{params.pop('reward')}"
        case "reward_time" | "npc_reward_time":
            if params.get("due", 0) > params["count"]:
                key += "_short"
    full = f"exhaust.event.{key}"
    if not has(full):
        return None
    return ctx.t(full, **params)


def private_event_text(event: Event, ctx: Context) -> str | None:
    """A private event in words, for the hand of its audience."""
    if event.key == "exhaust.reward_card":
        return ctx.t("exhaust.event.you_drew", cards=cards_text(event.cards))
    return None
