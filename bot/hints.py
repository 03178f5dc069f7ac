"""Hints (/hint) in words: the AI's move as its game says it, the reason as a short phrase from
the catalog, and the count of hints on the table.

A reason code `c` of game `g` reads `g.reason.c` from that game's catalog, else the shared
`hint.reason.c` (codes of the shared search), else a shared phrase for a code the catalog does
not know yet, so a new code in a game's AI never breaks a hint. A code's params fill its
phrase; a param named `move` is itself a reason code (the search says which move it kept), and
`playouts` is what a phrase counts.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.game_ui import GameUI
from bot.i18n import has, t
from bot.ui.layout import Controls, Layout, Priority, Text
from games.engine import AiDecision
from runtime import Hint

UNKNOWN = "hint.reason.unknown"


def reason_text(lang: str, game_id: str, decision: AiDecision) -> str:
    """The decision's reason as a phrase in `lang`."""
    params: dict[str, Any] = dict(decision.params)
    if "playouts" in params:
        params["count"] = params.pop("playouts")
    if isinstance(params.get("move"), str):
        params["move"] = _phrase(lang, game_id, params["move"], {})
    return _phrase(lang, game_id, decision.reason, params)


def _phrase(lang: str, game_id: str, code: str, params: dict[str, Any]) -> str:
    for key in (f"{game_id}.reason.{code}", f"hint.reason.{code}"):
        if has(key):
            try:
                return t(lang, key, **params)
            except (KeyError, IndexError, ValueError):  # params the phrase does not fit
                break
    return t(lang, UNKNOWN)


def hint_text(ctx: Context, ui: GameUI, hint: Hint) -> str:
    """The private reply to /hint: the move in words, why, and the table's hint count."""
    decision = hint.decision
    return ctx.t(
        "hint.reply",
        action=ui.action_text(ctx, hint.seat, decision.action),
        reason=reason_text(ctx.lang, ui.game_id, decision),
        count=hints_used(ctx),
    )


def hints_used(ctx: Context) -> int:
    return sum(seat.hints for seat in ctx.session.record.seats)


def with_hint_count(layout: Layout, ctx: Context) -> Layout:
    """The table with "hints used: N" above its buttons, once anyone asked for a hint."""
    used = hints_used(ctx)
    if not used:
        return layout
    note = Text(f"-# {ctx.t('table.hints', n=used)}", Priority.NORMAL)
    blocks = list(layout.blocks)
    at = next((i for i, b in enumerate(blocks) if isinstance(b, Controls)), len(blocks))
    blocks.insert(at, note)
    return Layout(layout.title, tuple(blocks), layout.accent, layout.session, layout.version)
