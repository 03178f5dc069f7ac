"""Angels & Demons Rummy's events, actions and claim-window answers in words (the catalog's
`rummy.event.*`, `rummy.action.*` and `rummy.answer.*`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.games.rummy.pieces import card_text, cards_text, view_of
from games.engine import Event
from games.rummy.models import Discard, Gain, Goal, NextGame, Open, Pass, Take


def answer_text(ctx: Context, choice: str, cards: Sequence[int]) -> str:
    """A claim-window answer in words (Pass, Goal, or Gain with its cards)."""
    return ctx.t(f"rummy.answer.{choice}", cards=cards_text(ctx, cards))


def action_text(ctx: Context, seat: int, action: Any) -> str:
    """One of `seat`'s actions in words, from that seat's view."""
    view = view_of(ctx, seat)
    match action:
        case Take():
            return ctx.t("rummy.action.take", card=card_text(ctx, action.card))
        case Goal() if view.window is not None:
            card = card_text(ctx, view.window.card)
            return ctx.t("rummy.action.goal_claim", card=card)
        case Goal():
            return ctx.t("rummy.action.goal")
        case Open():
            return ctx.t("rummy.action.open", cards=cards_text(ctx, action.cards))
        case Discard():
            key = "rummy.action.discard_ready" if action.ready else "rummy.action.discard"
            return ctx.t(key, card=card_text(ctx, action.card))
        case Pass():
            return ctx.t("rummy.action.pass")
        case Gain() if view.window is not None:
            card = card_text(ctx, view.window.card)
            return ctx.t("rummy.action.gain", card=card, cards=cards_text(ctx, action.cards))
        case NextGame():
            return ctx.t("rummy.action.next", next=view.game_no + 1)
    raise ValueError(f"not a seat's action: {action!r}")


def event_text(event: Event, ctx: Context) -> str | None:
    """A public event in words (None: left out of the log)."""
    if not event.public:
        return None
    key = event.key.removeprefix("rummy.")
    p = event.params
    params: dict[str, Any] = {"cards": cards_text(ctx, event.cards)}
    for name in ("seat", "to_seat"):
        if name in p:
            params[name] = ctx.names[p[name]]
    for name in ("game", "deck", "count", "points", "score", "hand"):
        if name in p:
            params[name] = p[name]
    match key:
        case "window" | "no_claim" | "next_game":
            return None  # the table's status shows the window; the deal follows
        case "window_closed":
            if not p.get("deadline"):
                return None
        case "dealt":
            params["count"] = p["hand"]
        case "scored" | "lost_points":
            params["count"] = p["points"]
        case "goal":
            key = "goal_discard" if "to_seat" in p else "goal_take"
        case "match_over":
            params["names"] = ", ".join(ctx.names[s] for s in p["seats"])
    return ctx.t(f"rummy.event.{key}", **params)


def private_event_text(event: Event, ctx: Context) -> str | None:
    """A private event in words, for the hand of its audience."""
    match event.key:
        case "rummy.drew_cards":
            return ctx.t("rummy.event.you_drew", cards=cards_text(ctx, event.cards))
        case "rummy.answer":
            said = answer_text(ctx, event.params["choice"], event.cards)
            return ctx.t("rummy.event.you_answered", answer=said)
        case "rummy.claim_lost":
            return ctx.t("rummy.event.claim_lost")
    return None
