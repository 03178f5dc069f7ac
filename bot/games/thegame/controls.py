"""The Game's controls, and what each click sends: in the hand, `pick` (a card, a `Pick` that
only redraws the hand), `play.{card}.{pile}` and `end`; on the table, `sig` (a signal on a pile,
set or cleared by anyone at any time)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.game_ui import Pick
from bot.games.thegame.pieces import SIGNAL_EMOJI, pile_name
from bot.ui.layout import Button, Controls, Option, Select, Style, game_verb
from games.engine import GameError, Reason
from games.thegame.models import PILES, EndTurn, Play, Signal, SignalKind, TheGameView
from games.thegame.rules import can_place


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


def signal_select(ctx: Context, view: TheGameView) -> Select:
    options = []
    for pile in range(PILES):
        for kind in SignalKind:
            on = kind not in view.piles[pile].signals
            label = ctx.t(
                "thegame.signal.option",
                pile=pile_name(ctx, pile),
                signal=ctx.t(f"thegame.signal.{kind.value}"),
                action=ctx.t("thegame.signal.set" if on else "thegame.signal.clear"),
            )
            options.append(Option(f"{pile}.{kind.value}", label, SIGNAL_EMOJI[kind]))
    return Select(game_verb("sig"), tuple(options), placeholder=ctx.t("thegame.signal.placeholder"))


def play_controls(ctx: Context, view: TheGameView, pick: str | None) -> Controls:
    state = ctx.session.state
    hand = view.hand or ()
    items: list[Button | Select] = []
    playable = [c for c in hand if any(can_place(state, c, p) for p in range(PILES))]
    picked = int(pick) if pick and pick.isdigit() and int(pick) in playable else None
    if playable:
        options = tuple(
            Option(
                str(c),
                str(c),
                emoji="🔵" if view.config.is_blue(c) else None,
                default=c == picked,
            )
            for c in playable
        )
        placeholder = ctx.t("thegame.hand.choose_card")
        items.append(Select(game_verb("pick"), options, placeholder=placeholder))
    if picked is not None:
        for pile in range(PILES):
            if not can_place(state, picked, pile):
                continue
            top = view.piles[pile].top
            ascending = view.piles[pile].ascending
            trick = abs(picked - top) == 10 and (picked < top) == ascending
            label = ctx.t("thegame.hand.play_on", pile=pile_name(ctx, pile), top=top, card=picked)
            emoji = "✨" if trick else ("⬆️" if ascending else "⬇️")
            items.append(Button(game_verb(f"play.{picked}.{pile}"), label, emoji, Style.SUCCESS))
    if view.still_required == 0:
        label = ctx.t("thegame.hand.end_turn")
        items.append(Button(game_verb("end"), label, style=Style.DANGER))
    return Controls(tuple(items))


# Clicks --------------------------------------------------------------------------------------


def control(ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]) -> Any:
    """A click as an action or a `Pick`; GameError(BAD_OPTION) for a malformed one."""
    state = ctx.session.state
    try:
        match verb:
            case "pick":
                card = int(values[0])
                if card not in state.hands[seat]:
                    raise _bad()
                return Pick(str(card))
            case "play":
                return Play(card=int(args[0]), pile=int(args[1]))
            case "end":
                return EndTurn()
            case "sig":
                pile_text, kind_text = values[0].split(".")
                pile, kind = int(pile_text), SignalKind(kind_text)
                return Signal(pile=pile, signal=kind, on=kind not in state.signals[pile])
    except (ValueError, IndexError):
        raise _bad() from None
    raise _bad()
