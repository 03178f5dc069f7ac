"""Hell Queue Club on Discord: the public table, each player's panel and its step-by-step controls.

Nothing in this game is private, so the public table shows everything (the three distribution
cards with their stones and the dice under them, each player's cards, rest area, stones and
score, the supply) and the panel ("Show my hand") holds the controls of the player to move.

Dice read the same everywhere: a large die is a keycap (5️⃣), a small die a code span (`5`), a
black die ⚫5️⃣; the dice of one face sit together, and dice under a card follow their owner's
colour marker (🔴🔵🟡🟢, seat order). Stones are 🟥🟦🟨🟩💠⬜.

A turn is picked in steps, each a `Pick` that only redraws the panel, the choice so far carried
in the controls' custom_ids (stateless, so it survives a restart):

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
from bot.game_ui import (
    ACCENT,
    LOST,
    WON,
    GameResult,
    GameUI,
    Pick,
    Standing,
    places_by_points,
    table_controls,
)
from bot.games.hellqueue.picture import FILENAME, table_picture
from bot.i18n import t
from bot.ui.layout import (
    Block,
    Button,
    Control,
    Controls,
    Keep,
    Layout,
    Option,
    Picture,
    Priority,
    Select,
    Separator,
    Style,
    Text,
    game_verb,
    plain,
)
from games.engine import Event, GameError, Reason, Session, illegal
from games.hellqueue.cards import NUMBERS, SLOTS, STONES
from games.hellqueue.models import (
    Action,
    Awaken,
    Dice,
    Mark,
    Queue,
    Recall,
    Reroll,
    RollMarked,
    View,
)
from games.hellqueue.models import Pick as TakeStone
from games.hellqueue.moves import legal, recall_case, room, to_move_seat
from games.hellqueue.scoring import marginal

MARKERS = ("🔴", "🔵", "🟡", "🟢")
"""Seat i's colour marker (COLOURS[i])."""
STONE_EMOJI = {
    "red": "🟥",
    "blue": "🟦",
    "yellow": "🟨",
    "green": "🟩",
    "aqua": "💠",
    "white": "⬜",
}
KEYCAP = {face: f"{face}\ufe0f\u20e3" for face in range(1, 7)}
BLACK = "⚫"
NONE = "—"
RECENT = 6
"""Events shown under the status (the newest last)."""
KINDS: dict[str, tuple[str, str]] = {
    "l": ("active", "large"),
    "s": ("active", "small"),
    "b": ("active", "black"),
    "z": ("sleep", "small"),
}
"""One letter per kind of die a Reroll may choose (where it lies, its size)."""
IN_REROLL = "m"
"""The face of the reroll controls in the `reroll` phase (the face group is already resting)."""


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


# How pieces read ------------------------------------------------------------------------------


def dice_text(dice: Dice) -> str:
    """Dice grouped by face: large as keycaps, black as ⚫ + keycap, small in a code span."""
    groups = []
    for face in dice.faces():
        group = dice.group(face)
        text = KEYCAP[face] * len(group.large) + (BLACK + KEYCAP[face]) * len(group.black)
        if group.small:
            text += "`" + " ".join([str(face)] * len(group.small)) + "`"
        groups.append(text)
    return " ".join(groups)


def sleep_text(faces: Sequence[int]) -> str:
    return dice_text(Dice(small=tuple(faces)))


def group_text(face: int, count: int) -> str:
    """A face group by its size and face, where its kinds do not matter (`3 × **5**`)."""
    return f"{count} × **{face}**"


def stones_row(stones: Sequence[str]) -> str:
    """A card's stones, one emoji each."""
    return "".join(STONE_EMOJI[s] for s in stones) or NONE


def stone_counts_text(counts: Sequence[int]) -> str:
    """Stones as counts per colour (`🟥2 💠1`)."""
    parts = [f"{STONE_EMOJI[s]}{n}" for s, n in zip(STONES, counts, strict=True) if n]
    return " ".join(parts) or NONE


def encode_dice(dice: Sequence[tuple[str, int]]) -> str:
    """Dice chosen for a Reroll as `{kind}{face}` pairs (`l5z1z1`), sorted."""
    return "".join(f"{kind}{face}" for kind, face in sorted(dice))


def decode_dice(code: str) -> list[tuple[str, int]]:
    """The dice of `encode_dice`; ValueError on anything else."""
    if len(code) % 2:
        raise ValueError(f"not a dice code: {code!r}")
    dice = []
    for i in range(0, len(code), 2):
        kind, face = code[i], int(code[i + 1])
        if kind not in KINDS or not 1 <= face <= 6:
            raise ValueError(f"not a die: {code[i : i + 2]!r}")
        dice.append((kind, face))
    return dice


def rerollable(view: View, seat: int, face: int | None) -> Counter[tuple[str, int]]:
    """The dice a Reroll may choose: the seat's active card (without the face group `face`,
    which rests) and sleep card; in the `reroll` phase what is left of them."""
    player = view.players[seat]
    active = player.active if face is None else player.active.without(face)
    dice: Counter[tuple[str, int]] = Counter()
    for kind, faces in (("l", active.large), ("s", active.small), ("b", active.black)):
        dice.update((kind, f) for f in faces)
    dice.update(("z", f) for f in player.sleep)
    return dice


def reroll_actions(face: int | None, dice: Sequence[tuple[str, int]]) -> tuple[Action, ...]:
    """One click's actions: the Reroll (unless begun already), a Mark per kind, the roll."""
    actions: list[Action] = [] if face is None else [Reroll(face=face)]
    for (kind, die_face), count in sorted(Counter(dice).items()):
        where, size = KINDS[kind]
        mark = {"where": where, "size": size, "face": die_face, "count": count}
        actions.append(Mark.model_validate(mark))
    actions.append(RollMarked())
    return tuple(actions)


class _Choice:
    """A turn being picked in the panel, as far as it goes (everything validated)."""

    def __init__(self, view: View, seat: int, pick: str | None) -> None:
        self.face: int | None = None
        self.rerolling = False
        self.dice: list[tuple[str, int]] = []
        text = pick or ""
        faces = view.players[seat].active.faces()
        if view.phase == "reroll":
            self.rerolling = True
            body = text[2:] if text.startswith(f"{IN_REROLL}.") else ""
        elif len(text) >= 2 and text[0] in "fr" and text[1].isdigit() and int(text[1]) in faces:
            self.face = int(text[1])
            self.rerolling = text[0] == "r"
            body = text[3:] if self.rerolling else ""
        else:
            return
        try:
            wanted = decode_dice(body)
        except ValueError:
            wanted = []
        left = rerollable(view, seat, self.face)
        for die in sorted(wanted):
            if left[die] > 0:
                left[die] -= 1
                self.dice.append(die)

    @property
    def tag(self) -> str:
        return IN_REROLL if self.face is None else str(self.face)


def _recall_count(view: View, seat: int) -> int:
    """The dice a Recall by `seat` would take back now."""
    player = view.players[seat]
    case = recall_case(view, seat)
    if case == "rest":
        return player.rest_large + player.rest_small + view.rest_black
    if case == "black":
        return view.rest_black
    return sum(queue[seat].count for queue in view.queues)


# The UI ----------------------------------------------------------------------------------------


class HellQueueUI(GameUI):
    game_id = "hellqueue"
    pictures = True
    channel_records = True
    hidden_hands = False
    """Every die and stone is on the table: a replay's public table shows it all."""

    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        return []

    def table_picture(self, view: Any) -> bytes | None:
        """The three cards and their dice (see `picture`): rows of dice read better drawn."""
        return table_picture(view)

    def _view(self, ctx: Context, seat: int | None) -> View:
        view: View = ctx.session.rules.view(ctx.session.state, seat)
        return view

    @staticmethod
    def seat_name(ctx: Context, seat: int) -> str:
        return f"{MARKERS[seat]} {ctx.names[seat]}"

    # Public table ------------------------------------------------------------------------------

    def table(self, ctx: Context) -> Layout:
        view = self._view(ctx, None)
        outcome = ctx.session.rules.outcome(ctx.session.state)
        blocks: list[Block] = []
        if outcome is not None:
            result = f"**{ctx.t('hellqueue.result.title')}**\n{self._result_text(ctx, view)}"
            blocks.append(Text(result, Priority.ESSENTIAL))
            records = self.records_text(ctx)
            if records is not None:
                blocks.append(Text(records, Priority.HIGH))
        elif not ctx.closed:
            blocks.append(Text(self._status(ctx, view), Priority.ESSENTIAL))
        log = ctx.log_lines()[-RECENT:]
        if log:
            recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
            blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
        cards = [self._card_text(ctx, view, slot) for slot in SLOTS]
        if ctx.picture is not None:
            blocks.append(Picture(ctx.picture, FILENAME, plain("\n".join(cards))))
        blocks.append(Separator())
        blocks += [Text(card, Priority.HIGH) for card in cards]
        blocks.append(Separator())
        playing = to_move_seat(view) if outcome is None and not ctx.closed else None
        players = [self._player_text(ctx, view, s, s == playing) for s in self._seats(view)]
        blocks.append(Text("\n".join(players), Priority.HIGH))
        supply = ctx.t(
            "hellqueue.table.supply",
            black=view.black_supply,
            rest_black=view.rest_black,
            stones=stone_counts_text(view.stone_supply),
        )
        blocks.append(Text(supply, Priority.NORMAL))
        blocks.append(table_controls(ctx, finished=outcome is not None))
        blocks.append(Text(f"-# {ctx.t('hellqueue.table.legend')}", Priority.LOW))
        accent = ACCENT
        if outcome is not None:
            accent = WON if self._person_won(ctx.session) else LOST
        return Layout(
            title=ctx.t("hellqueue.name"),
            blocks=tuple(blocks),
            accent=accent,
            session=ctx.sid,
            version=ctx.version,
        )

    @staticmethod
    def _seats(view: View) -> range:
        return range(view.config.players)

    def _status(self, ctx: Context, view: View) -> str:
        seat = to_move_seat(view)
        if seat is None:
            return ""
        params = {"marker": MARKERS[seat], "name": ctx.names[seat]}
        if view.phase == "reroll":
            return ctx.t("hellqueue.table.rerolling", **params)
        payout = view.payout
        if payout is not None and payout.picks:
            line = ctx.t("hellqueue.table.picking", number=NUMBERS[payout.slot], **params)
            left = Counter(payout.picks)
            names = ", ".join(
                self.seat_name(ctx, s) + (f" ×{n}" if n > 1 else "") for s, n in left.items()
            )
            return f"{line}\n{ctx.t('hellqueue.table.still_to_pick', names=names)}"
        return ctx.t("hellqueue.table.to_move", **params)

    def _card_text(self, ctx: Context, view: View, slot: int) -> str:
        number = NUMBERS[slot]
        if view.shown[slot] is None:
            return ctx.t("hellqueue.table.card_done", number=number)
        line = ctx.t(
            "hellqueue.table.card",
            number=number,
            total=view.totals[slot],
            stones=stones_row(view.card_stones[slot]),
            deck=view.deck_sizes[slot],
        )
        if view.payout is not None and view.payout.slot == slot:
            line = f"💰 {line}"
        under = [
            f"{MARKERS[seat]} {dice_text(dice)}"
            for seat, dice in enumerate(view.queues[slot])
            if dice.count
        ]
        return line + "\n" + (" · ".join(under) or ctx.t("hellqueue.table.no_dice"))

    def _player_text(self, ctx: Context, view: View, seat: int, playing: bool) -> str:
        player = view.players[seat]
        line = ctx.t(
            "hellqueue.table.player",
            marker=MARKERS[seat],
            name=ctx.seat_label(seat),
            score=view.scores[seat],
            stones=stone_counts_text(player.stones),
        )
        area = ctx.t(
            "hellqueue.table.area",
            active=dice_text(player.active) or NONE,
            sleep=sleep_text(player.sleep) or NONE,
            rest=player.rest_large + player.rest_small,
        )
        return ("▶ " if playing else "") + f"{line}\n└ {area}"

    def _result_text(self, ctx: Context, view: View) -> str:
        outcome = ctx.session.rules.outcome(ctx.session.state)
        assert outcome is not None
        names = ", ".join(self.seat_name(ctx, seat) for seat in outcome.winners)
        key = "hellqueue.result.win" if outcome.result == "win" else "hellqueue.result.shared"
        lines = [ctx.t(key, names=names, count=outcome.scores[outcome.winners[0]])]
        order = sorted(self._seats(view), key=lambda s: (-view.scores[s], -view.dice_left[s], s))
        lines += [
            ctx.t(
                "hellqueue.result.line",
                marker=MARKERS[seat],
                name=ctx.names[seat],
                count=view.scores[seat],
                dice=view.dice_left[seat],
            )
            for seat in order
        ]
        return "\n".join(lines)

    # Private panel ------------------------------------------------------------------------------

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        view = self._view(ctx, seat)
        outcome = ctx.session.rules.outcome(ctx.session.state)
        moving = outcome is None and to_move_seat(view) == seat
        blocks: list[Block] = []
        if ctx.notice:
            blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
        lines: list[str] = []
        rows: list[list[Control]] = []
        if outcome is not None:
            lines.append(ctx.t("hellqueue.hand.over"))
        elif not moving:
            lines.append(self._waiting_text(ctx, view))
        elif view.phase == "resolve":
            lines.append(self._pick_controls(ctx, view, seat, rows))
        else:
            lines += self._turn_controls(ctx, view, seat, _Choice(view, seat, pick), rows)
        blocks.append(Text("\n".join(lines), Priority.ESSENTIAL))
        blocks.append(Text(self._own_area(ctx, view, seat), Priority.HIGH))
        cards = [self._card_summary(ctx, view, slot) for slot in SLOTS]
        blocks.append(Text("\n".join(c for c in cards if c), Priority.NORMAL))
        blocks += [Controls(tuple(row)) for row in rows if row]
        return Layout(
            title=ctx.t("hellqueue.hand.title"),
            blocks=tuple(blocks),
            accent=ACCENT,
            session=ctx.sid,
            version=ctx.version,
        )

    def _waiting_text(self, ctx: Context, view: View) -> str:
        seat = to_move_seat(view)
        if seat is None:
            return ctx.t("hellqueue.hand.waiting", name=NONE)
        key = "hellqueue.hand.waiting_pick" if view.phase == "resolve" else "hellqueue.hand.waiting"
        return ctx.t(key, name=self.seat_name(ctx, seat))

    def _own_area(self, ctx: Context, view: View, seat: int) -> str:
        player = view.players[seat]
        you = ctx.t(
            "hellqueue.hand.you",
            marker=MARKERS[seat],
            score=view.scores[seat],
            stones=stone_counts_text(player.stones),
        )
        active = ctx.t("hellqueue.hand.active", dice=dice_text(player.active) or NONE)
        sleep = ctx.t("hellqueue.hand.sleep", dice=sleep_text(player.sleep) or NONE)
        rest = ctx.t(
            "hellqueue.hand.rest", n=player.rest_large + player.rest_small, black=view.rest_black
        )
        return "\n".join((you, active, sleep, rest))

    def _card_summary(self, ctx: Context, view: View, slot: int) -> str:
        if view.shown[slot] is None:
            return ""
        owners = " ".join(
            f"{MARKERS[seat]}{dice.count}"
            for seat, dice in enumerate(view.queues[slot])
            if dice.count
        )
        return ctx.t(
            "hellqueue.hand.card",
            number=NUMBERS[slot],
            total=view.totals[slot],
            room=room(view, slot),
            stones=stones_row(view.card_stones[slot]),
            owners=owners or NONE,
        )

    def _pick_controls(self, ctx: Context, view: View, seat: int, rows: list[list[Control]]) -> str:
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

    def _turn_controls(
        self, ctx: Context, view: View, seat: int, choice: _Choice, rows: list[list[Control]]
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
            lines.append(ctx.t("hellqueue.hand.reroll_chosen", dice=self._chosen_text(choice)))
            self._reroll_controls(ctx, view, seat, choice, rows)
            return lines
        actions = legal(view, seat)
        faces = player.active.faces()
        recall = [
            Button(game_verb("rc"), self._recall_label(ctx, view, seat), "↩️")
            for action in actions
            if isinstance(action, Recall)
        ]
        if faces:
            rows.append([self._face_select(ctx, view, seat, choice.face)])
        if choice.face is None:
            rows.append(list(recall))
            if faces:
                return [ctx.t("hellqueue.hand.your_turn")]
            lines = [ctx.t("hellqueue.hand.your_turn_empty")]
            return lines if actions else [*lines, ctx.t("hellqueue.hand.no_action")]
        face = choice.face
        rows.append(
            [
                self._queue_button(ctx, view, seat, action)
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

    def _face_select(self, ctx: Context, view: View, seat: int, chosen: int | None) -> Select:
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

    def _recall_label(self, ctx: Context, view: View, seat: int) -> str:
        return ctx.t("hellqueue.hand.recall", n=_recall_count(view, seat))

    def _queue_button(self, ctx: Context, view: View, seat: int, action: Queue) -> Button:
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
                name=self.seat_name(ctx, action.steal_seat),
            )
        elif total == 0 and view.black_supply == 0 and view.rest_black > 0:
            label = ctx.t("hellqueue.hand.queue_rest", number=number)
        elif after == number:
            label = ctx.t("hellqueue.hand.queue_pays", number=number, total=total, after=after)
            style = Style.SUCCESS
        else:
            label = ctx.t("hellqueue.hand.queue", number=number, total=total, after=after)
        return Button(game_verb(verb), label, "📥", style)

    def _chosen_text(self, choice: _Choice) -> str:
        dice = Dice()
        sleeping: list[int] = []
        for kind, face in choice.dice:
            if kind == "z":
                sleeping.append(face)
            else:
                dice = dice.plus(Dice.model_validate({KINDS[kind][1]: (face,)}))
        parts = [p for p in (dice_text(dice), sleep_text(sleeping)) if p]
        return " + ".join(parts) or NONE

    def _reroll_controls(
        self, ctx: Context, view: View, seat: int, choice: _Choice, rows: list[list[Control]]
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

    # Clicks -------------------------------------------------------------------------------------

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        view = self._view(ctx, seat)
        if to_move_seat(view) != seat:
            raise GameError(Reason.NOT_YOUR_TURN)
        try:
            return self._control(ctx, view, seat, verb, args, values)
        except (ValueError, IndexError):
            raise _bad() from None

    def _control(
        self, ctx: Context, view: View, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        faces = view.players[seat].active.faces()
        match verb:
            case "fc" | "bk" if verb == "fc" or args:
                face = int(values[0]) if verb == "fc" else int(args[0])
                self._need_phase(view, "play")
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
                group = self._reroll_face(view, args[0])
                picked = encode_dice([(v[0], int(v[1])) for v in values]) if verb == "rd" else ""
                return Pick(f"{'r' if group else IN_REROLL}{group or ''}.{picked}")
            case "rg":
                group = self._reroll_face(view, args[0])
                return reroll_actions(group, decode_dice(args[1] if len(args) > 1 else ""))
        raise _bad()

    @staticmethod
    def _need_phase(view: View, phase: str) -> None:
        if view.phase != phase:
            raise illegal("not_now")

    def _reroll_face(self, view: View, tag: str) -> int | None:
        """The face group a reroll control rests (None: in the `reroll` phase already)."""
        if tag == IN_REROLL:
            self._need_phase(view, "reroll")
            return None
        self._need_phase(view, "play")
        face = int(tag)
        if face not in view.players[view.turn].active.faces():
            raise illegal("no_such_face", face=face)
        return face

    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        view = self._view(ctx, seat)
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
                    name = self.seat_name(ctx, action.steal_seat)
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
                return ctx.t("hellqueue.action.recall", n=_recall_count(view, seat))
            case TakeStone():
                gain = marginal(player.stones, STONES.index(action.stone))
                name = STONE_EMOJI[action.stone] + ctx.t(f"hellqueue.stone.{action.stone}")
                return ctx.t("hellqueue.action.pick", stone=name, gain=gain)
        raise ValueError(f"not a seat's action: {action!r}")

    # Events -------------------------------------------------------------------------------------

    def event_text(self, event: Event, ctx: Context) -> str | None:
        if not event.public:
            return None
        key = event.key.removeprefix("hellqueue.")
        p = event.params
        params: dict[str, Any] = {}
        for name in ("seat", "to_seat"):
            if name in p:
                params[name] = self.seat_name(ctx, p[name])
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

    # Records ------------------------------------------------------------------------------------

    @staticmethod
    def _person_won(session: Session) -> bool:
        outcome = session.rules.outcome(session.state)
        seats = session.record.seats
        return outcome is not None and any(seats[s].user_id is not None for s in outcome.winners)

    def result(self, session: Session) -> GameResult | None:
        """The winning score is kept (as its negative: lower is better); a game counts as won
        when a person (not an AI seat) is among the winners."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        top = max(outcome.scores)
        return GameResult(result=outcome.result, score=-top, won=self._person_won(session))

    def standing(self, session: Session) -> Standing | None:
        """The winners (the tie-breaks of the rules decided) first, then the others by their
        stones' points, equal points sharing a place."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        return Standing(places_by_points(outcome.scores, outcome.winners))

    def wins_text(self, lang: str, wins: int) -> str:
        """A server's won games are those a person won (not an AI seat)."""
        return t(lang, "hellqueue.stats.won_by_player", count=wins)
