"""How The Game's pieces read, the same on every screen: a pile by its direction, name, top
card (🔵 when blue), count, signals and burn; a card by its number (🔵 when blue)."""

from __future__ import annotations

from bot.context import Context
from bot.i18n import t
from bot.ui.layout import Token
from games.thegame.models import SignalKind, TheGameView

SIGNAL_EMOJI = {SignalKind.NO_PLAY: "🚫", SignalKind.NO_JUMP: "⚠️"}


def view_of(ctx: Context, seat: int | None) -> TheGameView:
    """The view of `seat` (None: the public one) of the session on screen."""
    view: TheGameView = ctx.session.rules.view(ctx.session.state, seat)
    return view


def pile_name(ctx: Context, pile: int) -> str:
    return ctx.t(f"thegame.pile.{pile}")


def pile_line(view: TheGameView, lang: str, index: int) -> str:
    """One pile as text: direction, name, top card (🔵 when blue), count, signals, burn."""
    pile = view.piles[index]
    line = t(
        lang,
        "thegame.table.pile",
        arrow="⬆️" if pile.ascending else "⬇️",
        name=t(lang, f"thegame.pile.{index}"),
        top=f"🔵{pile.top}" if pile.top_blue else str(pile.top),
        count=pile.count,
    )
    flags = "".join(SIGNAL_EMOJI[s] for s in pile.signals)
    return line + (f" {flags}" if flags else "") + (" 🔥" if pile.burns_at_turn_end else "")


def card_token(view: TheGameView, card: int) -> Token:
    return Token(str(card), emoji="🔵" if view.config.is_blue(card) else None)
