"""Exhaust's hand controls, and what each click sends.

1. `cmb` select: the combo (only combos that take some legal play);
2. `crd.{combo}` multi-select: the cards (only cards that take part in a legal play there);
3. `cpy.{combo}.{cards}.{targets}` select: for each copy card, the card it copies;
4. `pc.{combo}.{cards}.{targets}` button: play. `time`, `flip` and `next` are single buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.errors import error_text
from bot.game_ui import Pick
from bot.games.exhaust.choice import ALPHABET, Choice, decode, encode
from bot.games.exhaust.pieces import (
    COPY_EMOJI,
    DEPLETION_EMOJI,
    TIME_EMOJI,
    card_text,
    cards_text,
    combo_kind_name,
    combo_name,
    hand_order,
    need_text,
    view_of,
)
from bot.ui.layout import Button, Control, Option, Select, Style, game_verb
from games.engine import GameError, Reason, illegal
from games.exhaust.cards import is_copy
from games.exhaust.combos import SET_SIZE
from games.exhaust.models import FlipDepletion, NextGame, PlayCards, UseTime, View
from games.exhaust.plays import SelectionCheck

SELECT_MAX = 25
GAME_ID = "exhaust"
"""This game's catalog, for the refusals a selection shows."""


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


def play_controls(
    ctx: Context, view: View, seat: int, choice: Choice, items: list[Control]
) -> list[str]:
    """Add the controls of the player to move; return the hand's lines about the choice."""
    lines: list[str] = []
    if choice.offers:
        options = tuple(
            Option(
                str(i),
                combo_kind_name(ctx, view.combos[i].combo, view.players),
                description=_combo_option_text(ctx, view, i),
                default=i == choice.combo,
            )
            for i in sorted(choice.offers)
        )
        placeholder = ctx.t("exhaust.hand.choose_combo")
        items.append(Select(game_verb("cmb"), options[:SELECT_MAX], placeholder=placeholder))
    else:
        lines.append(ctx.t("exhaust.hand.no_spell"))
    if choice.combo is not None:
        _card_selects(ctx, view, choice, items)
        name = combo_name(ctx, choice.combo)
        if not choice.cards:
            lines.append(ctx.t("exhaust.hand.choose_cards_for", combo=name))
        else:
            chosen = cards_text(choice.cards, choice.pairs)
            lines.append(ctx.t("exhaust.hand.chosen", combo=name, cards=chosen))
            check = choice.check
            if check is not None and not check.ok:
                lines.append("⚠️ " + reason_text(ctx, check))
            elif len(choice.targets) < len(choice.copies):
                lines.append(_copy_select(ctx, choice, items))
            else:
                lines.append(ctx.t("exhaust.hand.ready"))
    if choice.ready:
        label = ctx.t("exhaust.hand.play", count=len(choice.cards))
        items.append(Button(game_verb(f"pc.{choice.code()}"), label, "✨", Style.SUCCESS))
    if view.time_cards[seat] > 0:
        items.append(Button(game_verb("time"), ctx.t("exhaust.hand.use_time"), TIME_EMOJI))
    if view.long_game and view.depletion[seat] > view.flipped[seat]:
        label = ctx.t("exhaust.hand.flip")
        items.append(Button(game_verb("flip"), label, DEPLETION_EMOJI))
    if choice.cards:
        label = ctx.t("exhaust.hand.clear")
        items.append(Button(game_verb(f"clr.{choice.combo}"), label, "↩️"))
    return lines


def _combo_option_text(ctx: Context, view: View, index: int) -> str:
    cv = view.combos[index]
    need = need_text(ctx, view, index)
    if not cv.plays:
        return ctx.t("exhaust.hand.combo_option_empty", need=need)
    top = cv.plays[-1]
    target = dict(top.copies)
    shown = " ".join(card_text(c, target.get(c)) for c in top.cards)
    return ctx.t("exhaust.hand.combo_option", top=shown, need=need)


def _card_selects(ctx: Context, view: View, choice: Choice, items: list[Control]) -> None:
    """The card multi-select(s) for the chosen combo.

    More than 25 offered cards (never in a real game: hands only shrink from 15) are split
    over two selects (`crd.{combo}.{other's picks}.{part}`), each carrying the other's picks
    in its custom_id.
    """
    assert choice.combo is not None
    offered = hand_order(choice.offers[choice.combo])[: 2 * SELECT_MAX]
    kind = view.combos[choice.combo].combo.kind
    chunks = [offered[i : i + SELECT_MAX] for i in range(0, len(offered), SELECT_MAX)]
    for part, chunk in enumerate(chunks, start=1):
        keep = [c for c in choice.cards if c not in chunk]
        act = f"crd.{choice.combo}"
        if len(chunks) > 1:  # the part number keeps the custom_ids apart when keep is empty
            act += f".{encode(keep)}.{part}"
        cap = min(len(chunk), SET_SIZE.get(kind, len(chunk)))
        options = tuple(
            Option(ALPHABET[c], _option_label(ctx, c), default=c in choice.cards) for c in chunk
        )
        items.append(
            Select(
                game_verb(act),
                options,
                placeholder=ctx.t("exhaust.hand.choose_cards"),
                min_values=1 if len(chunks) == 1 else 0,
                max_values=cap,
            )
        )


def _option_label(ctx: Context, card: int) -> str:
    return f"{card_text(card)} {ctx.t('exhaust.copy')}" if is_copy(card) else card_text(card)


def _copy_select(ctx: Context, choice: Choice, items: list[Control]) -> str:
    """The select for the next copy card without a target; returns the hand's prompt."""
    index = len(choice.targets)
    reals = hand_order(choice.reals)[:SELECT_MAX]
    options = tuple(Option(ALPHABET[c], f"{COPY_EMOJI} → {card_text(c)}") for c in reals)
    placeholder = ctx.t("exhaust.hand.copy_placeholder", n=index + 1, of=len(choice.copies))
    items.append(Select(game_verb(f"cpy.{choice.code()}"), options, placeholder=placeholder))
    return ctx.t("exhaust.hand.copy_prompt", n=index + 1, of=len(choice.copies))


def reason_text(ctx: Context, check: SelectionCheck) -> str:
    reason = check.reason or ""
    if reason == "not_your_turn":
        return ctx.t("error.not_your_turn")
    params = {k: v for k, v in check.params.items() if isinstance(v, int | str)}
    return error_text(ctx.lang, illegal(reason, **params), GAME_ID)


# Clicks --------------------------------------------------------------------------------------


def control(ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]) -> Any:
    view = view_of(ctx, seat)
    wanted = "next" if verb == "next" else "play"
    if not view.my_turn or view.phase != wanted:
        raise GameError(Reason.NOT_YOUR_TURN)
    try:
        match verb:
            case "cmb":
                return Pick(str(int(values[0])))
            case "crd":
                combo = int(args[0])
                keep = decode(args[1]) if len(args) > 1 else ()
                picked = decode("".join(values))
                return Pick(f"{combo}.{encode(sorted({*keep, *picked}))}")
            case "cpy":
                combo, cards = int(args[0]), decode(args[1])
                targets = decode(args[2]) if len(args) > 2 else ()
                return Pick(f"{combo}.{encode(cards)}.{encode((*targets, *decode(values[0])))}")
            case "clr":
                return Pick(str(int(args[0])))
            case "pc":
                cards = tuple(hand_order(decode(args[1])))
                targets = decode(args[2]) if len(args) > 2 else ()
                copies = tuple(c for c in cards if is_copy(c))
                if len(targets) != len(copies):
                    raise _bad()
                pairs = tuple(zip(copies, targets, strict=True))
                return PlayCards(combo=int(args[0]), cards=cards, copies=pairs)
            case "time":
                return UseTime()
            case "flip":
                return FlipDepletion()
            case "next":
                return NextGame()
    except (ValueError, IndexError):
        raise _bad() from None
    raise _bad()
