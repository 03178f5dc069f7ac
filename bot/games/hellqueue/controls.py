"""Hell Queue Club's panel controls, and what each click sends.

1. `fc` select: a face group of the active card; the `rc` button (Recall) when allowed;
2. the actions that face group allows, each a button: `q.{face}.{slot}[.{seat}.{face}]` Queue
   (only cards that can take it; the black die's source when it must be taken from someone),
   `aw.{face}.{wake}` Awaken, `rs.{face}` Reroll…, and `bk` back to step 1;
3. Reroll: `rd.{face}` multi-select of the dice to reroll, then `rg.{face}.{dice}`: one click
   that plays the Reroll, one Mark per kind of die chosen and the roll, in that order (`bk.{face}`
   goes back to step 2).

In the `reroll` phase (a Reroll begun before a restart) the same select and button carry `m`
for the face. A stone pick is a `pk.{stone}` button per colour still on the paying card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.game_ui import Pick
from bot.games.hellqueue.choice import (
    IN_REROLL,
    KINDS,
    Choice,
    decode_dice,
    encode_dice,
    reroll_actions,
    rerollable,
)
from bot.games.hellqueue.pieces import (
    BLACK,
    KEYCAP,
    STONE_EMOJI,
    dice_text,
    recall_count,
    seat_name,
)
from bot.ui.layout import Button, Control, Option, Select, Style, game_verb
from games.engine import GameError, Reason, illegal
from games.hellqueue.cards import NUMBERS, STONES
from games.hellqueue.models import Awaken, Queue, Recall, View
from games.hellqueue.models import Pick as TakeStone
from games.hellqueue.moves import legal
from games.hellqueue.scoring import marginal


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


# The panel's controls -------------------------------------------------------------------------


def pick_controls(ctx: Context, view: View, seat: int, rows: list[list[Control]]) -> str:
    """A stone pick: one button per colour still on the paying card, with what it adds."""
    payout = view.payout
    assert payout is not None and payout.picks
    owned = view.players[seat].stones
    items: list[Control] = []
    rows.append(items)
    for stone in dict.fromkeys(view.card_stones[payout.slot]):
        gain = marginal(owned, STONES.index(stone))
        label = ctx.t(
            "hellqueue.hand.pick_stone", name=ctx.t(f"hellqueue.stone.{stone}"), gain=gain
        )
        items.append(Button(game_verb(f"pk.{stone}"), label, STONE_EMOJI[stone], Style.PRIMARY))
    return ctx.t(
        "hellqueue.hand.your_pick", number=NUMBERS[payout.slot], n=payout.picks.count(seat)
    )


def turn_controls(
    ctx: Context, view: View, seat: int, choice: Choice, rows: list[list[Control]]
) -> list[str]:
    """The controls of the seat to move, a group of controls per kind of choice (each group
    starts a new row); returns the panel's lines about the choice."""
    player = view.players[seat]
    if choice.rerolling:
        lines = []
        if choice.face is None:
            lines.append(ctx.t("hellqueue.hand.reroll_phase"))
        else:
            group = dice_text(player.active.group(choice.face))
            lines.append(ctx.t("hellqueue.hand.reroll_prompt", dice=group))
        lines.append(ctx.t("hellqueue.hand.reroll_chosen", dice=choice.chosen_text()))
        _reroll_controls(ctx, view, seat, choice, rows)
        return lines
    actions = legal(view, seat)
    faces = player.active.faces()
    recall = [
        Button(game_verb("rc"), ctx.t("hellqueue.hand.recall", n=recall_count(view, seat)), "↩️")
        for action in actions
        if isinstance(action, Recall)
    ]
    if faces:
        rows.append([_face_select(ctx, view, seat, choice.face)])
    if choice.face is None:
        rows.append(list(recall))
        if faces:
            return [ctx.t("hellqueue.hand.your_turn")]
        lines = [ctx.t("hellqueue.hand.your_turn_empty")]
        return lines if actions else [*lines, ctx.t("hellqueue.hand.no_action")]
    face = choice.face
    rows.append(
        [
            _queue_button(ctx, view, seat, action)
            for action in actions
            if isinstance(action, Queue) and action.face == face
        ]
    )
    awaken: list[Control] = []
    for action in actions:
        if isinstance(action, Awaken) and action.face == face:
            woken = player.sleep.count(action.wake)
            label = (
                ctx.t("hellqueue.hand.awaken", wake=action.wake, n=woken)
                if woken
                else ctx.t("hellqueue.hand.awaken_none")
            )
            awaken.append(Button(game_verb(f"aw.{face}.{action.wake}"), label, "☀️"))
    rows.append(awaken)
    reroll = Button(game_verb(f"rs.{face}"), ctx.t("hellqueue.hand.reroll"), "🎲")
    back = Button(game_verb("bk"), ctx.t("hellqueue.hand.back"), "✖️")
    rows.append([reroll, *recall, back])
    group = dice_text(player.active.group(face))
    return [ctx.t("hellqueue.hand.face_chosen", face=face, dice=group)]


def _face_select(ctx: Context, view: View, seat: int, chosen: int | None) -> Select:
    active = view.players[seat].active
    options = []
    for face in active.faces():
        group = active.group(face)
        options.append(
            Option(
                str(face),
                ctx.t("hellqueue.hand.face_option", count=group.count, face=face),
                emoji=KEYCAP[face],
                default=face == chosen,
                description=ctx.t(
                    "hellqueue.hand.face_option_desc",
                    large=len(group.large),
                    small=len(group.small),
                    black=len(group.black),
                ),
            )
        )
    placeholder = ctx.t("hellqueue.hand.choose_face")
    return Select(game_verb("fc"), tuple(options), placeholder=placeholder)


def _queue_button(ctx: Context, view: View, seat: int, action: Queue) -> Button:
    slot, face = action.slot, action.face
    number, total = NUMBERS[slot], view.totals[slot]
    after = total + view.players[seat].active.group(face).count
    verb = f"q.{face}.{slot}"
    style = Style.PRIMARY
    if action.steal_seat is not None and action.steal_face is not None:
        verb += f".{action.steal_seat}.{action.steal_face}"
        label = ctx.t(
            "hellqueue.hand.queue_steal",
            number=number,
            face=KEYCAP[action.steal_face],
            name=seat_name(ctx, action.steal_seat),
        )
    elif total == 0 and view.black_supply == 0 and view.rest_black > 0:
        label = ctx.t("hellqueue.hand.queue_rest", number=number)
    elif after == number:
        label = ctx.t("hellqueue.hand.queue_pays", number=number, total=total, after=after)
        style = Style.SUCCESS
    else:
        label = ctx.t("hellqueue.hand.queue", number=number, total=total, after=after)
    return Button(game_verb(verb), label, "📥", style)


def _reroll_controls(
    ctx: Context, view: View, seat: int, choice: Choice, rows: list[list[Control]]
) -> None:
    """The multi-select of the dice to reroll (one option per die) and the one button that
    plays the whole Reroll."""
    chosen = Counter(choice.dice)
    options = []
    order = sorted(
        rerollable(view, seat, choice.face).items(),
        key=lambda item: (item[0][0] == "z", item[0][1], "lbsz".index(item[0][0])),
    )
    for (kind, face), count in order:
        where, size = KINDS[kind]
        for index in range(count):
            options.append(
                Option(
                    f"{kind}{face}{index}",
                    ctx.t(
                        "hellqueue.hand.die_option",
                        size=ctx.t(f"hellqueue.size.{size}"),
                        face=face,
                    ),
                    emoji=KEYCAP[face] if kind != "b" else BLACK,
                    default=index < chosen[(kind, face)],
                    description=ctx.t(f"hellqueue.where.{where}"),
                )
            )
    if options:
        rows.append(
            [
                Select(
                    game_verb(f"rd.{choice.tag}"),
                    tuple(options),
                    placeholder=ctx.t("hellqueue.hand.choose_dice"),
                    min_values=0,
                    max_values=len(options),
                )
            ]
        )
    label = ctx.t("hellqueue.hand.reroll_go", n=len(choice.dice))
    go = f"rg.{choice.tag}.{encode_dice(choice.dice)}"
    buttons: list[Control] = [Button(game_verb(go), label, "🎲", Style.SUCCESS)]
    if choice.face is not None:
        back = f"bk.{choice.face}"
        buttons.append(Button(game_verb(back), ctx.t("hellqueue.hand.back"), "✖️"))
    rows.append(buttons)


# Clicks ---------------------------------------------------------------------------------------


def control(view: View, seat: int, verb: str, args: list[str], values: Sequence[str]) -> Any:
    """A click of `seat`, the seat to move, as an action, actions or a `Pick`;
    GameError(BAD_OPTION) for a malformed one."""
    try:
        return _control(view, seat, verb, args, values)
    except (ValueError, IndexError):
        raise _bad() from None


def _control(view: View, seat: int, verb: str, args: list[str], values: Sequence[str]) -> Any:
    faces = view.players[seat].active.faces()
    match verb:
        case "fc" | "bk" if verb == "fc" or args:
            face = int(values[0]) if verb == "fc" else int(args[0])
            _need_phase(view, "play")
            if face not in faces:
                raise illegal("no_such_face", face=face)
            return Pick(f"f{face}")
        case "bk":
            return Pick("")
        case "q":
            steal = (int(args[2]), int(args[3])) if len(args) > 2 else (None, None)
            return Queue(
                face=int(args[0]), slot=int(args[1]), steal_seat=steal[0], steal_face=steal[1]
            )
        case "aw":
            return Awaken(face=int(args[0]), wake=int(args[1]))
        case "rc":
            return Recall()
        case "pk":
            return TakeStone.model_validate({"stone": args[0]})  # a colour from the click
        case "rs" | "rd":
            group = _reroll_face(view, args[0])
            picked = encode_dice([(v[0], int(v[1])) for v in values]) if verb == "rd" else ""
            return Pick(f"{'r' if group else IN_REROLL}{group or ''}.{picked}")
        case "rg":
            group = _reroll_face(view, args[0])
            return reroll_actions(group, decode_dice(args[1] if len(args) > 1 else ""))
    raise _bad()


def _need_phase(view: View, phase: str) -> None:
    if view.phase != phase:
        raise illegal("not_now")


def _reroll_face(view: View, tag: str) -> int | None:
    """The face group a reroll control rests (None: in the `reroll` phase already)."""
    if tag == IN_REROLL:
        _need_phase(view, "reroll")
        return None
    _need_phase(view, "play")
    face = int(tag)
    if face not in view.players[view.turn].active.faces():
        raise illegal("no_such_face", face=face)
    return face
