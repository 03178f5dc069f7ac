"""The Game's events and actions in words (the catalog's `thegame.event.*` and
`thegame.action.*`)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.games.thegame.pieces import pile_name, view_of
from bot.games.thegame.results import result_text
from games.engine import Event
from games.thegame.models import EndTurn, Play, Signal


def action_text(ctx: Context, seat: int, action: Any) -> str:
    """One of `seat`'s actions in words, from that seat's view."""
    view = view_of(ctx, seat)
    match action:
        case Play():
            card = f"🔵{action.card}" if view.config.is_blue(action.card) else action.card
            top = view.piles[action.pile].top
            pile = pile_name(ctx, action.pile)
            return ctx.t("thegame.action.play", card=card, pile=pile, top=top)
        case EndTurn():
            return ctx.t("thegame.action.end")
        case Signal():
            key = "thegame.action.signal_on" if action.on else "thegame.action.signal_off"
            signal = ctx.t(f"thegame.signal.{action.signal.value}")
            return ctx.t(key, signal=signal, pile=pile_name(ctx, action.pile))
    raise ValueError(f"not a seat's action: {action!r}")


def _params(event: Event, ctx: Context) -> dict[str, Any]:
    params = dict(event.params)
    if "seat" in params:
        params["seat"] = ctx.names[params["seat"]]
    if "pile" in params:
        params["pile"] = pile_name(ctx, params["pile"])
    if "signal" in params:
        params["signal"] = ctx.t(f"thegame.signal.{params['signal']}")
    return params


def event_text(event: Event, ctx: Context) -> str | None:
    """A public event in words (None: left out of the log)."""
    key = event.key.removeprefix("thegame.")
    if key in ("turn", "your_hand", "you_drew") or not event.public:
        return None
    params = _params(event, ctx)
    if key == "signal":
        key = "signal_on" if params.pop("on") else "signal_off"
    if key == "over":
        return result_text(ctx, params["result"], params["cards_left"])
    return ctx.t(f"thegame.event.{key}", **params)


def private_event_text(event: Event, ctx: Context) -> str | None:
    """A private event in words, for the hand of its audience."""
    if event.key == "thegame.you_drew":
        return ctx.t("thegame.event.you_drew", cards=", ".join(map(str, event.cards)))
    return None
