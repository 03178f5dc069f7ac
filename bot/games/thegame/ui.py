"""The Game on Discord: the public table, the private hand and its controls, as layouts.

Phone first: the table opens with whose turn it is and what they must do, the latest events and
any burn warning, then the picture of the four piles (when the server wants pictures) and a
section per pile; the legend is the first thing to go when the message must be summarised. The
picture's alt text is the piles' own lines, so a screen reader hears what the picture shows.
"""

from __future__ import annotations

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
    SeatResult,
    table_controls,
)
from bot.games.thegame.picture import FILENAME, table_picture
from bot.i18n import t
from bot.ui.layout import (
    Block,
    Button,
    Controls,
    Keep,
    Layout,
    Option,
    Picture,
    Priority,
    Section,
    Select,
    Separator,
    Style,
    Text,
    Token,
    Tokens,
    game_verb,
    plain,
)
from games.engine import Event, GameError, Reason, Session
from games.thegame.models import PILES, EndTurn, Play, Signal, SignalKind, TheGameView
from games.thegame.rules import PERFECT, WIN, can_place
from storage import GameStats, HistoryEntry, PlayerTally

SIGNAL_EMOJI = {SignalKind.NO_PLAY: "🚫", SignalKind.NO_JUMP: "⚠️"}
RESULT_EMOJI = {PERFECT: "🏆", WIN: "🎉", "loss": "💀", "burned": "🔥"}
RECENT = 6
"""Events shown under the status (the newest last)."""


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


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


class TheGameUI(GameUI):
    game_id = "thegame"
    rules_pages = ("intro", "setup", "turn", "scoring", "options", "rulings")
    table_verbs = frozenset({"sig"})
    unversioned_verbs = frozenset({"sig"})
    pictures = True
    channel_records = True

    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        names = ("on_fire", "min_three", "smaller_hand")
        return [t(lang, f"thegame.option.{name}") for name in names if options.get(name)]

    def table_picture(self, view: Any) -> bytes | None:
        """The four piles (see `picture`): a picture reads faster than four lines of numbers."""
        return table_picture(view)

    # Public table ---------------------------------------------------------------------------

    def _view(self, ctx: Context, seat: int | None) -> TheGameView:
        view: TheGameView = ctx.session.rules.view(ctx.session.state, seat)
        return view

    def pile_name(self, ctx: Context, pile: int) -> str:
        return ctx.t(f"thegame.pile.{pile}")

    def _seats(self, ctx: Context, view: TheGameView, playing: bool) -> str:
        seats = []
        for seat in range(len(ctx.names)):
            name = ctx.seat_label(seat)
            line = ctx.t("thegame.table.seat", name=name, count=view.hand_sizes[seat])
            if playing and seat == view.turn:
                todo = (
                    ctx.t("thegame.table.must_play", n=view.still_required)
                    if view.still_required
                    else ctx.t("thegame.table.may_end")
                )
                line = f"▶ **{line}** — {todo}"
            seats.append(line)
        return "\n".join(seats)

    def table(self, ctx: Context) -> Layout:
        view = self._view(ctx, None)
        outcome = ctx.session.rules.outcome(ctx.session.state)
        playing = outcome is None and not ctx.closed
        blocks: list[Block] = []
        if outcome is not None:
            result = self._result_text(ctx, outcome.result, view.cards_left)
            heading = ctx.t("thegame.result.title")
            blocks.append(Text(f"**{heading}**\n{result}", Priority.ESSENTIAL))
            records = self.records_text(ctx)
            if records is not None:
                blocks.append(Text(records, Priority.HIGH))
        blocks.append(Text(self._seats(ctx, view, playing), Priority.ESSENTIAL))
        log = ctx.log_lines()[-RECENT:]
        if log:
            recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
            blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
        warnings = [
            ctx.t("thegame.table.burn_warning", card=pile.top, pile=self.pile_name(ctx, i))
            for i, pile in enumerate(view.piles)
            if pile.burns_at_turn_end
        ]
        if warnings and playing:
            blocks.append(Text("\n".join(f"🔥 {w}" for w in warnings), Priority.ESSENTIAL))
        lines = [pile_line(view, ctx.lang, i) for i in range(PILES)]
        if ctx.picture is not None:
            blocks.append(Picture(ctx.picture, FILENAME, plain("\n".join(lines))))
        blocks.append(Separator())
        blocks += [Section((line,), priority=Priority.HIGH) for line in lines]
        counts = ctx.t("thegame.table.counts_value", draw=view.draw_count, left=view.cards_left)
        blocks.append(Text(counts, Priority.NORMAL))
        controls = table_controls(ctx, finished=outcome is not None)
        if playing:
            controls = Controls((*controls.items, self._signal_select(ctx, view)))
        blocks.append(controls)
        options = self.option_lines(ctx.session.record.options, ctx.lang)
        legend = " · ".join([ctx.t("thegame.table.legend"), *options])
        blocks.append(Text(f"-# {legend}", Priority.LOW))
        accent = ACCENT
        if outcome is not None:
            accent = WON if outcome.result in (PERFECT, WIN) else LOST
        return Layout(
            title=ctx.t("thegame.name"),
            blocks=tuple(blocks),
            accent=accent,
            session=ctx.sid,
            version=ctx.version,
        )

    def _signal_select(self, ctx: Context, view: TheGameView) -> Select:
        options = []
        for pile in range(PILES):
            for kind in SignalKind:
                on = kind not in view.piles[pile].signals
                label = ctx.t(
                    "thegame.signal.option",
                    pile=self.pile_name(ctx, pile),
                    signal=ctx.t(f"thegame.signal.{kind.value}"),
                    action=ctx.t("thegame.signal.set" if on else "thegame.signal.clear"),
                )
                options.append(Option(f"{pile}.{kind.value}", label, SIGNAL_EMOJI[kind]))
        return Select(
            game_verb("sig"), tuple(options), placeholder=ctx.t("thegame.signal.placeholder")
        )

    def _result_text(self, ctx: Context, result: str, left: int) -> str:
        return f"{RESULT_EMOJI.get(result, '')} " + ctx.t(f"thegame.result.{result}", count=left)

    # Private hand ---------------------------------------------------------------------------

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        view = self._view(ctx, seat)
        state = ctx.session.state
        hand = view.hand or ()
        outcome = ctx.session.rules.outcome(state)
        my_turn = outcome is None and view.turn == seat
        blocks: list[Block] = []
        if ctx.notice:
            blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
        if outcome is not None:
            status = self._result_text(ctx, outcome.result, view.cards_left)
        elif my_turn:
            status = (
                ctx.t("thegame.hand.your_turn", n=view.still_required)
                if view.still_required
                else ctx.t("thegame.hand.may_end")
            )
        else:
            status = ctx.t("thegame.hand.waiting", name=ctx.names[view.turn])
        cards = Tokens(tuple(card_token(view, c) for c in hand), empty=ctx.t("thegame.hand.empty"))
        blocks.append(Section((status, cards), priority=Priority.ESSENTIAL))
        blocks.append(Text("\n".join(pile_line(view, ctx.lang, i) for i in range(PILES))))
        log = ctx.log_lines()
        if log:
            blocks.append(Text("\n".join(log), Priority.NORMAL, keep=Keep.TAIL))
        if my_turn:
            blocks.append(self._play_controls(ctx, view, pick))
        return Layout(
            title=ctx.t("thegame.hand.title"),
            blocks=tuple(blocks),
            accent=ACCENT,
            session=ctx.sid,
            version=ctx.version,
        )

    def _play_controls(self, ctx: Context, view: TheGameView, pick: str | None) -> Controls:
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
                label = ctx.t(
                    "thegame.hand.play_on", pile=self.pile_name(ctx, pile), top=top, card=picked
                )
                emoji = "✨" if trick else ("⬆️" if ascending else "⬇️")
                items.append(
                    Button(game_verb(f"play.{picked}.{pile}"), label, emoji, Style.SUCCESS)
                )
        if view.still_required == 0:
            label = ctx.t("thegame.hand.end_turn")
            items.append(Button(game_verb("end"), label, style=Style.DANGER))
        return Controls(tuple(items))

    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        view = self._view(ctx, seat)
        match action:
            case Play():
                card = f"🔵{action.card}" if view.config.is_blue(action.card) else action.card
                top = view.piles[action.pile].top
                pile = self.pile_name(ctx, action.pile)
                return ctx.t("thegame.action.play", card=card, pile=pile, top=top)
            case EndTurn():
                return ctx.t("thegame.action.end")
            case Signal():
                key = "thegame.action.signal_on" if action.on else "thegame.action.signal_off"
                signal = ctx.t(f"thegame.signal.{action.signal.value}")
                return ctx.t(key, signal=signal, pile=self.pile_name(ctx, action.pile))
        raise ValueError(f"not a seat's action: {action!r}")

    # Clicks ---------------------------------------------------------------------------------

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
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

    # Events ---------------------------------------------------------------------------------

    def _params(self, event: Event, ctx: Context) -> dict[str, Any]:
        params = dict(event.params)
        if "seat" in params:
            params["seat"] = ctx.names[params["seat"]]
        if "pile" in params:
            params["pile"] = self.pile_name(ctx, params["pile"])
        if "signal" in params:
            params["signal"] = ctx.t(f"thegame.signal.{params['signal']}")
        return params

    def event_text(self, event: Event, ctx: Context) -> str | None:
        key = event.key.removeprefix("thegame.")
        if key in ("turn", "your_hand", "you_drew") or not event.public:
            return None
        params = self._params(event, ctx)
        if key == "signal":
            key = "signal_on" if params.pop("on") else "signal_off"
        if key == "over":
            return self._result_text(ctx, params["result"], params["cards_left"])
        return ctx.t(f"thegame.event.{key}", **params)

    def private_event_text(self, event: Event, ctx: Context) -> str | None:
        if event.key == "thegame.you_drew":
            return ctx.t("thegame.event.you_drew", cards=", ".join(map(str, event.cards)))
        return None

    # Records ----------------------------------------------------------------------------------

    def result(self, session: Session) -> GameResult | None:
        """Cards left is the score (lower is better); perfect and plain wins are wins."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        won = outcome.result in (PERFECT, WIN)
        return GameResult(result=outcome.result, score=session.state.cards_left, won=won)

    def seat_results(self, session: Session) -> tuple[SeatResult, ...] | None:
        """Cooperative: every seat shares the table's result and its cards left."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        won = outcome.result in (PERFECT, WIN)
        left = session.state.cards_left
        seat = SeatResult(won=won, score=left, result=outcome.result)
        return (seat,) * len(session.record.seats)

    def score_text(self, lang: str, score: int, players: int) -> str | None:
        return t(lang, "thegame.stats.left", count=score)

    def tally_figures(self, lang: str, tally: PlayerTally) -> list[str]:
        """The shared figures (the best is the fewest cards left), then the perfect wins."""
        perfect = t(lang, "thegame.stats.perfect", count=tally.results.get(PERFECT, 0))
        return [*super().tally_figures(lang, tally), perfect]

    def record_figures(self, lang: str, stats: GameStats) -> list[str]:
        """The shared figures, then the perfect wins: each server and each channel keeps its
        best result and its perfect wins (rulebook §9)."""
        perfect = t(lang, "thegame.stats.perfect", count=stats.results.get(PERFECT, 0))
        return [*super().record_figures(lang, stats), perfect]

    def history_text(self, lang: str, entry: HistoryEntry, names: Sequence[str]) -> str:
        record = entry.record
        key = f"thegame.result.{record.result}"
        left = record.score or 0  # a record of The Game always keeps its cards left
        return f"{RESULT_EMOJI.get(record.result, '')} " + t(lang, key, count=left)

    def replay_hands(self, ctx: Context) -> tuple[Block, ...]:
        """Each seat's cards on one line."""
        state = ctx.session.state
        view = self._view(ctx, None)
        return tuple(
            Section(
                (
                    Tokens(
                        tuple(card_token(view, c) for c in hand),
                        label=f"**{name}**",
                        empty=ctx.t("thegame.hand.empty_other"),
                    ),
                ),
                priority=Priority.NORMAL,
            )
            for name, hand in zip(ctx.names, state.hands, strict=False)
        )
