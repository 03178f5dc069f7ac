"""Hell Queue Club's events and actions in words (the catalog's `hellqueue.event.*` and
`hellqueue.action.*`)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.games.hellqueue.pieces import (
    KEYCAP,
    STONE_EMOJI,
    dice_text,
    group_text,
    recall_count,
    seat_name,
    sleep_text,
    stones_row,
    view_of,
)
from games.engine import Event
from games.hellqueue.cards import NUMBERS, STONES
from games.hellqueue.models import Awaken, Dice, Mark, Queue, Recall, Reroll, RollMarked
from games.hellqueue.models import Pick as TakeStone
from games.hellqueue.scoring import marginal


def action_text(ctx: Context, seat: int, action: Any) -> str:
    """One of `seat`'s actions in words, from that seat's view."""
    view = view_of(ctx, seat)
    player = view.players[seat]
    match action:
        case Queue():
            group = player.active.group(action.face)
            total = view.totals[action.slot]
            params = {
                "dice": dice_text(group),
                "number": NUMBERS[action.slot],
                "total": total,
                "after": total + group.count,
            }
            if action.steal_seat is not None and action.steal_face is not None:
                name = seat_name(ctx, action.steal_seat)
                face = KEYCAP[action.steal_face]
                return ctx.t("hellqueue.action.queue_steal", name=name, face=face, **params)
            return ctx.t("hellqueue.action.queue", **params)
        case Awaken():
            dice = dice_text(player.active.group(action.face))
            woken = player.sleep.count(action.wake)
            if not woken:
                return ctx.t("hellqueue.action.awaken_none", dice=dice)
            return ctx.t("hellqueue.action.awaken", dice=dice, wake=action.wake, n=woken)
        case Reroll():
            dice = dice_text(player.active.group(action.face))
            return ctx.t("hellqueue.action.reroll", dice=dice)
        case Mark():
            return ctx.t(
                "hellqueue.action.mark",
                n=action.count,
                size=ctx.t(f"hellqueue.size.{action.size}"),
                face=action.face,
                where=ctx.t(f"hellqueue.where.{action.where}"),
            )
        case RollMarked():
            marked = view.marked.count if view.marked is not None else 0
            if not marked:
                return ctx.t("hellqueue.action.roll_none")
            return ctx.t("hellqueue.action.roll", count=marked)
        case Recall():
            return ctx.t("hellqueue.action.recall", n=recall_count(view, seat))
        case TakeStone():
            gain = marginal(player.stones, STONES.index(action.stone))
            name = STONE_EMOJI[action.stone] + ctx.t(f"hellqueue.stone.{action.stone}")
            return ctx.t("hellqueue.action.pick", stone=name, gain=gain)
    raise ValueError(f"not a seat's action: {action!r}")


def event_text(event: Event, ctx: Context) -> str | None:
    """A public event in words (None: left out of the log)."""
    if not event.public:
        return None
    key = event.key.removeprefix("hellqueue.")
    p = event.params
    params: dict[str, Any] = {}
    for name in ("seat", "to_seat"):
        if name in p:
            params[name] = seat_name(ctx, p[name])
    if "slot" in p:
        params["number"] = NUMBERS[p["slot"]]
    match key:
        case "shuffled" | "rolled_setup" | "marked":
            return None
        case "revealed":
            params["stones"] = stones_row(p["stones"])
        case "queued":
            params |= {"dice": group_text(p["face"], p["count"]), "total": p["total"]}
        case "black_taken":
            key = f"black_taken.{p['source']}"
        case "black_stolen":
            params["face"] = KEYCAP[p["face"]]
        case "rolled_black" | "rolled_reroll" | "rolled_recall":
            rolled = Dice(large=tuple(p["large"]), black=tuple(p["black"]))
            shown = [t for t in (dice_text(rolled), sleep_text(p["small"])) if t]
            params["dice"] = " + ".join(shown) or ctx.t("hellqueue.event.rolled_none")
        case "awakened":
            if not p["woken"]:
                key = "awakened_none"
            params |= {
                "dice": group_text(p["face"], p["count"]),
                "wake": f"**{p['wake']}**",
                "woken": p["woken"],
            }
        case "reroll_rested":
            params["dice"] = group_text(p["face"], p["count"])
        case "reroll_chosen" | "returned":
            params["count"] = p["count"]
        case "recalled":
            key = f"recalled.{p['case']}"
            params["count"] = p["large"] + p["small"] + p["black"]
        case "roll_off":
            params["sum"] = p["sum"]
        case "placed":
            params |= {k: p[k] for k in ("place", "dice", "large", "sum", "stones")}
        case "picked":
            stone = p["stone"]
            params["stone"] = STONE_EMOJI[stone] + ctx.t(f"hellqueue.stone.{stone}")
        case "scored":
            params |= {"count": p["score"], "dice_left": p["dice_left"]}
    return ctx.t(f"hellqueue.event.{key}", **params)
