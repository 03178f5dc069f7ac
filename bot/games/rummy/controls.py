"""Angels & Demons Rummy's hand controls, and what each click sends.

Only legal choices are offered (game verbs):
- `tk.{card}`: take a field card, a button each;
- `gl`: goal after a take; `op.{a}.{b}.{c}`: open a big set, a button per kind of set the hand
  makes (which copies go down never changes a score, so the red copies are laid, where their
  points are safe);
- `dc` select: the card to discard (one option per kind and colour), a `Pick` (`d{card}`)
  that shows `ds.{card}` Discard and, where it applies, `dr.{card}` Discard and declare Ready;
  a Ready player just has the one discard the rules leave;
- `nx`: deal the next short game (its first player);
- the claim window: `wp` Pass, `wg` Goal, `wn.….{a}.{b}` Gain with two hand cards, each naming
  its window by `{short game}.{card}` after the verb. They stay valid while others answer
  and are refused once that window has closed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.context import Context
from bot.game_ui import Pick
from bot.games.rummy.pieces import (
    NONE,
    READY,
    WINDOW,
    card_label,
    card_text,
    cards_label,
    view_of,
    window_deadline,
)
from bot.games.rummy.results import match_lines, result_summary
from bot.games.rummy.words import answer_text
from bot.ui.layout import Button, Control, Option, Select, Style, game_verb
from games.engine import GameError, Reason, illegal
from games.rummy.cards import CARDS, is_red, kind, kinds_of
from games.rummy.models import Discard, Gain, Goal, NextGame, Open, Pass, Take, View

WINDOW_VERBS = frozenset({"wp", "wg", "wn"})
"""The claim window's answers: valid whatever else changed while the window is open."""


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


def one_per_kinds(sets: Iterable[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """One set of cards per kind of set (red cards first: a red card in an open set keeps its
    point; otherwise copies are alike), in the hand's order."""
    best: dict[tuple[int, ...], tuple[int, ...]] = {}
    for cards in sets:
        key = kinds_of(cards)
        held = best.get(key)
        if held is None or sum(map(is_red, cards)) > sum(map(is_red, held)):
            best[key] = cards
    return [best[key] for key in sorted(best)]


def discard_choices(view: View) -> list[int]:
    """The cards worth offering to discard: one per kind and colour, preferring a copy others
    saw go into the hand (so less of what stays in it is known to them)."""
    seat = view.seat
    known = set(view.known[seat]) if seat is not None else set()
    chosen: dict[tuple[int, bool], int] = {}
    for action in view.legal:
        if isinstance(action, Discard) and not action.ready:
            card = action.card
            key = (kind(card), is_red(card))
            held = chosen.get(key)
            if held is None or (card in known and held not in known):
                chosen[key] = card
    return sorted(chosen.values())


def _picked_discard(pick: str | None, choices: Sequence[int]) -> int | None:
    """The card a `d{card}` pick chose, if it is still offered."""
    if not pick or not pick.startswith("d") or not pick[1:].isdigit():
        return None
    card = int(pick[1:])
    return card if card in choices else None


# The hand's controls -------------------------------------------------------------------------


def hand_status(
    ctx: Context,
    view: View,
    seat: int,
    pick: str | None,
    items: list[Control],
    choice: list[str],
) -> str:
    """The hand's first line; adds the controls to `items` and lines about a choice in
    progress to `choice`."""
    outcome = ctx.session.rules.outcome(ctx.session.state)
    if outcome is not None:
        return match_lines(ctx, view)[0]
    if view.phase == "window":
        return _window_prompt(ctx, view, seat, items)
    if view.phase == "ended":
        ended = result_summary(ctx, view.result) if view.result is not None else ""
        if view.turn == seat and NextGame() in view.legal:
            label = ctx.t("rummy.hand.next_button", next=view.game_no + 1)
            items.append(Button(game_verb("nx"), label, "▶️", Style.PRIMARY))
            return f"{ended}\n" + ctx.t("rummy.hand.start_next", next=view.game_no + 1)
        name = ctx.names[view.turn] if view.turn is not None else NONE
        return f"{ended}\n" + ctx.t("rummy.hand.waiting_next", name=name, next=view.game_no + 1)
    if view.turn != seat or not view.legal:
        name = ctx.names[view.turn] if view.turn is not None else NONE
        return ctx.t("rummy.hand.waiting", name=name)
    if view.phase == "take":
        for card in view.field:
            if Take(card=card) in view.legal:
                label = ctx.t("rummy.hand.take", card=card_label(ctx, card))
                items.append(Button(game_verb(f"tk.{card}"), label, "✋", Style.PRIMARY))
        return ctx.t("rummy.hand.your_take")
    return _act_controls(ctx, view, pick, items, choice)


def _act_controls(
    ctx: Context, view: View, pick: str | None, items: list[Control], choice: list[str]
) -> str:
    """After the take: goal, open a big set, or discard (with Ready where it applies)."""
    legal = view.legal
    seat = view.seat
    assert seat is not None
    if Goal() in legal:
        items.append(Button(game_verb("gl"), ctx.t("rummy.hand.goal"), "🏆", Style.SUCCESS))
    if view.ready[seat]:
        taken = view.taken
        assert taken is not None
        label = ctx.t("rummy.hand.discard", card=card_label(ctx, taken))
        items.append(Button(game_verb(f"ds.{taken}"), label, "🗑️", Style.DANGER))
        key = "your_act_ready_goal" if Goal() in legal else "your_act_ready"
        return ctx.t(f"rummy.hand.{key}", card=card_text(ctx, taken))
    opens = one_per_kinds(a.cards for a in legal if isinstance(a, Open))
    for cards in opens:
        label = ctx.t("rummy.hand.open", cards=cards_label(ctx, cards))
        verb = "op." + ".".join(map(str, cards))
        items.append(Button(game_verb(verb), label, "📤", Style.PRIMARY))
    choices = discard_choices(view)
    ready = {a.card for a in legal if isinstance(a, Discard) and a.ready}
    picked = _picked_discard(pick, choices)
    options = tuple(
        Option(
            str(card),
            card_label(ctx, card),
            default=card == picked,
            description=ctx.t("rummy.hand.ready_possible") if card in ready else None,
        )
        for card in choices
    )
    placeholder = ctx.t("rummy.hand.choose_discard")
    items.append(Select(game_verb("dc"), options, placeholder=placeholder))
    if picked is not None:
        label = ctx.t("rummy.hand.discard", card=card_label(ctx, picked))
        items.append(Button(game_verb(f"ds.{picked}"), label, "🗑️", Style.DANGER))
        if picked in ready:
            label = ctx.t("rummy.hand.discard_ready", card=card_label(ctx, picked))
            items.append(Button(game_verb(f"dr.{picked}"), label, READY, Style.SUCCESS))
        choice.append(ctx.t("rummy.hand.chosen", card=card_text(ctx, picked)))
    key = "rummy.hand.your_act_goal" if Goal() in legal else "rummy.hand.your_act"
    return ctx.t(key)


def _window_prompt(ctx: Context, view: View, seat: int, items: list[Control]) -> str:
    """The claim window as this player sees it: Pass with the Goal or Gains this player can
    make when asked; else what the window waits for, which says nothing about the others."""
    window = view.window
    assert window is not None
    when = window_deadline(ctx, view)
    card = card_text(ctx, window.card)
    if seat == window.discarder:
        return f"{WINDOW} " + ctx.t("rummy.hand.window_own", card=card, when=when)
    answer = view.my_answer
    if answer is not None:
        said = answer_text(ctx, answer.choice, answer.cards)
        return f"{WINDOW} " + ctx.t("rummy.hand.window_answered", answer=said, when=when)
    name = ctx.names[window.discarder]
    if not view.legal:
        nothing = ctx.t("rummy.hand.window_not_asked", name=name, card=card, when=when)
        return f"{WINDOW} {nothing}"
    tag = f"{view.game_no}.{window.card}"
    items.append(Button(game_verb(f"wp.{tag}"), ctx.t("rummy.hand.pass"), "👋"))
    if Goal() in view.legal:
        label = ctx.t("rummy.hand.claim_goal")
        items.append(Button(game_verb(f"wg.{tag}"), label, "🏆", Style.SUCCESS))
    gains = one_per_kinds(a.cards for a in view.legal if isinstance(a, Gain))
    for a, b in gains:
        label = ctx.t("rummy.hand.gain", cards=cards_label(ctx, (a, b)))
        items.append(Button(game_verb(f"wn.{tag}.{a}.{b}"), label, "🤲", Style.PRIMARY))
    return f"{WINDOW} " + ctx.t("rummy.hand.window", name=name, card=card, when=when)


# Clicks --------------------------------------------------------------------------------------


def control(ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]) -> Any:
    """A click as an action or a `Pick`; GameError(BAD_OPTION) for a malformed one."""
    view = view_of(ctx, seat)
    try:
        if verb in WINDOW_VERBS:
            return _claim(view, seat, verb, args)
        if not view.legal:
            raise GameError(Reason.NOT_YOUR_TURN)
        match verb:
            case "tk":
                return Take(card=int(args[0]))
            case "gl":
                return Goal()
            case "op":
                return Open.model_validate({"cards": tuple(int(a) for a in args)})
            case "dc":
                return _discard_pick(ctx, view, values)
            case "ds" | "dr":
                return Discard(card=int(args[0]), ready=verb == "dr")
            case "nx":
                return NextGame()
    except (ValueError, IndexError):  # pydantic's ValidationError is a ValueError
        raise _bad() from None
    raise _bad()


def _discard_pick(ctx: Context, view: View, values: Sequence[str]) -> Pick:
    """The card chosen in the discard select: one it offered, or a refusal that says so."""
    card = int(values[0])
    if card not in discard_choices(view):
        if not 0 <= card < len(CARDS):
            raise _bad()
        raise illegal("not_offered_discard", card=card_text(ctx, card))
    return Pick(f"d{card}")


def _claim(view: View, seat: int, verb: str, args: list[str]) -> Any:
    """An answer in the claim window named by the control (`{short game}.{card}`)."""
    game, card = int(args[0]), int(args[1])
    window = view.window
    if window is None or view.game_no != game or window.card != card:
        raise illegal("window_closed")
    if seat == window.discarder:
        raise GameError(Reason.NOT_YOUR_TURN)
    if view.my_answer is not None:
        raise illegal("already_answered")
    if not view.legal:
        raise illegal("not_asked")
    if verb == "wp":
        return Pass()
    if verb == "wg":
        return Goal()
    return Gain.model_validate({"cards": (int(args[2]), int(args[3]))})
