"""Angels & Demons Rummy on Discord: the public table, each player's hand and the claim window.

The public table is drawn from the public view only, so it reads the same whoever could claim a
discard. A claim window asks only the players who can claim (the rules decide from their
hands); the table shows the card and the deadline, never who is asked or who has answered, and
its hand button reads "Answer the claim window" for everyone: a click opens the clicker's hand,
with the prompt for an asked player and, for anyone else, that there is nothing to answer.
While a window is open its screens carry no version (answers move it), so an answer changes
nobody's screen but the answerer's: an edit would tell the others how many were asked.

Hand controls (game verbs; only legal choices are offered):
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

import math
from collections.abc import Iterable, Sequence
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
from bot.games.rummy.render import (
    ATTRIBUTE_EMOJI,
    ITEM_EMOJI,
    NONE,
    RED,
    card_label,
    card_text,
    cards_label,
    cards_text,
    result_lines,
    result_summary,
    sets_text,
)
from bot.i18n import t
from bot.ui.layout import (
    LOBBY,
    Block,
    Button,
    Control,
    Controls,
    Keep,
    Layout,
    Option,
    Priority,
    Section,
    Select,
    Separator,
    Style,
    Text,
    game_verb,
)
from games.engine import Event, GameError, Reason, Session, illegal
from games.rummy.cards import CARDS, is_red, kind, kinds_of
from games.rummy.models import (
    Discard,
    Gain,
    Goal,
    NextGame,
    Open,
    Pass,
    Take,
    View,
)

RECENT = 6
"""Events shown under the status (the newest last)."""
GOLD = 0xF1C40F
"""The accent of a shared win."""
READY = "🎯"
WINDOW = "📣"
WINDOW_VERBS = frozenset({"wp", "wg", "wn"})


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


class RummyUI(GameUI):
    game_id = "rummy"
    rules_pages = ("intro", "setup", "turn", "scoring", "options", "rulings")
    unversioned_verbs = WINDOW_VERBS
    channel_records = True

    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        lines = []
        if options.get("advanced"):
            lines.append(t(lang, "rummy.option.advanced"))
        seconds = options.get("claim_seconds")
        if seconds is not None:
            lines.append(t(lang, "rummy.option.claim_seconds", count=seconds))
        games = options.get("match_games")
        if games is None:
            lines.append(t(lang, "rummy.option.match_default"))
        else:
            lines.append(t(lang, "rummy.option.match_games", count=games))
        return lines

    def _view(self, ctx: Context, seat: int | None) -> View:
        view: View = ctx.session.rules.view(ctx.session.state, seat)
        return view

    @staticmethod
    def _version(ctx: Context, view: View) -> int | str:
        """The screens' version marker: none (`LOBBY`, the marker of controls that do not
        depend on the version) while a claim window is open (see the module)."""
        return LOBBY if view.phase == "window" else ctx.version

    @staticmethod
    def _when(ctx: Context, view: View) -> str:
        """The claim window's deadline as a Discord relative timestamp."""
        due = ctx.session.due("window")
        if due is None:  # never while a window is open; the length is the next best thing
            seconds = view.window.seconds if view.window is not None else 0
            return ctx.t("rummy.seconds", n=seconds)
        return f"<t:{math.ceil(due)}:R>"

    # Public table -------------------------------------------------------------------------------

    def table(self, ctx: Context) -> Layout:
        view = self._view(ctx, None)
        outcome = ctx.session.rules.outcome(ctx.session.state)
        blocks: list[Block] = []
        if outcome is not None:
            lines = [f"**{ctx.t('rummy.result.title')}**", *self._match_lines(ctx, view)]
            blocks.append(Text("\n".join(lines), Priority.ESSENTIAL))
        elif not ctx.closed:
            blocks.append(Text(self._status(ctx, view), Priority.ESSENTIAL))
        log = ctx.log_lines(this_game(ctx.recent))[-RECENT:]
        if log:
            recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
            blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
        result = view.result
        if result is not None and view.phase in ("ended", "over"):
            heading = ctx.t("rummy.result.short_title", game=result.game_no)
            text = "\n".join([f"**{heading}**", *result_lines(ctx, result)])
            blocks.append(Text(text, Priority.ESSENTIAL))
        records = self.records_text(ctx) if outcome is not None else None
        if records is not None:
            blocks.append(Text(records, Priority.HIGH))
        blocks.append(Separator())
        if view.phase not in ("ended", "over"):
            field = ctx.t("rummy.table.field", cards=cards_text(ctx, view.field), count=view.deck)
            blocks.append(Text(field, Priority.HIGH))
        players = [self._player_text(ctx, view, s) for s in range(view.config.players)]
        blocks.append(Text("\n".join(players), Priority.HIGH))
        if result is not None and view.phase not in ("ended", "over"):
            blocks.append(Text(result_summary(ctx, result), Priority.NORMAL))
        blocks.append(self._table_controls(ctx, view, finished=outcome is not None))
        blocks.append(Text(f"-# {self._legend(ctx, view)}", Priority.LOW))
        return Layout(
            title=self._title(ctx, view),
            blocks=tuple(blocks),
            accent=self._accent(ctx.session),
            session=ctx.sid,
            version=self._version(ctx, view),
        )

    @staticmethod
    def _title(ctx: Context, view: View) -> str:
        if view.game_no == 0:
            return ctx.t("rummy.name")
        return ctx.t(
            "rummy.table.title",
            name=ctx.t("rummy.name"),
            game=view.game_no,
            games=view.config.match_games,
        )

    def _status(self, ctx: Context, view: View) -> str:
        window, turn = view.window, view.turn
        if view.phase == "window" and window is not None:
            heading = ctx.t(
                "rummy.table.window",
                card=card_text(ctx, window.card),
                name=ctx.names[window.discarder],
                when=self._when(ctx, view),
            )
            return f"{WINDOW} {heading}"
        if turn is None:
            return ""
        name = ctx.names[turn]
        if view.phase == "ended":
            return ctx.t("rummy.table.ended", game=view.game_no, name=name, next=view.game_no + 1)
        if view.phase == "take":
            return "▶ " + ctx.t("rummy.table.to_take", name=name)
        if view.ready[turn]:
            return "▶ " + ctx.t("rummy.table.to_act_ready", name=name)
        return "▶ " + ctx.t("rummy.table.to_act", name=name)

    def _player_text(self, ctx: Context, view: View, seat: int) -> str:
        marks = [ctx.t("rummy.table.hand_size", count=view.hand_sizes[seat])]
        if view.ready[seat]:
            marks.append(f"{READY} {ctx.t('rummy.ready')}")
        marks.append(ctx.t("rummy.table.score", count=view.scores[seat]))
        playing = not ctx.closed and view.turn == seat and view.phase in ("take", "act", "window")
        head = ("▶ " if playing else "") + f"**{ctx.seat_label(seat)}** — " + " · ".join(marks)
        opened = ctx.t("rummy.table.opened", sets=sets_text(ctx, view.opened[seat]))
        row = ctx.t("rummy.table.row", cards=cards_text(ctx, view.rows[seat]))
        return f"{head}\n└ {opened}\n└ {row}"

    def _table_controls(self, ctx: Context, view: View, finished: bool) -> Controls:
        """The shared buttons; during a claim window the hand button invites everyone alike to
        answer (whoever is asked: the table must not tell)."""
        if finished or view.phase != "window":
            return table_controls(ctx, finished)
        return Controls(
            (
                Button("hand", ctx.t("rummy.table.answer"), WINDOW, Style.SUCCESS),
                Button("dm", ctx.t("table.hand_dm"), "✉️"),
            )
        )

    def _legend(self, ctx: Context, view: View) -> str:
        config = view.config
        parts = [
            ctx.t(
                "rummy.table.legend",
                human=ATTRIBUTE_EMOJI[0],
                angel=ATTRIBUTE_EMOJI[1],
                demon=ATTRIBUTE_EMOJI[2],
                items="".join(ITEM_EMOJI.values()),
                red=RED,
                ready=READY,
            ),
            ctx.t("rummy.table.target", count=config.target),
        ]
        if config.advanced:
            parts.append(ctx.t("rummy.option.advanced"))
        return " · ".join(parts)

    def _match_lines(self, ctx: Context, view: View) -> list[str]:
        outcome = ctx.session.rules.outcome(ctx.session.state)
        assert outcome is not None
        names = ", ".join(ctx.names[s] for s in outcome.winners)
        score = outcome.scores[outcome.winners[0]]
        if outcome.result == "item_victory":
            head = ctx.t("rummy.result.match_item", names=names, games=view.game_no)
        else:
            shared = len(outcome.winners) > 1
            key = "rummy.result.match_shared" if shared else "rummy.result.match_win"
            points = ctx.t("stats.points", count=score)
            games = ctx.t("rummy.short_games", count=view.game_no)
            head = ctx.t(key, names=names, points=points, games=games)
        order = sorted(range(view.config.players), key=lambda s: (-view.scores[s], s))
        lines = [head]
        lines += [
            ctx.t("rummy.result.standing", name=ctx.names[s], count=view.scores[s]) for s in order
        ]
        return lines

    # Private hand -------------------------------------------------------------------------------

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        view = self._view(ctx, seat)
        blocks: list[Block] = []
        if ctx.notice:
            blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
        items: list[Control] = []
        choice: list[str] = []
        status = self._hand_status(ctx, view, seat, pick, items, choice)
        cards = view.hand or ()
        hand = ctx.t("rummy.hand.cards", n=len(cards), cards=cards_text(ctx, cards))
        blocks.append(
            Section((status, hand, self._own_text(ctx, view, seat)), priority=Priority.ESSENTIAL)
        )
        if choice:
            blocks.append(Text("\n".join(choice), Priority.ESSENTIAL))
        blocks.append(Text(self._table_summary(ctx, view, seat), Priority.HIGH))
        last = self._last_private(ctx, view)
        if last:
            blocks.append(Text(f"-# {last}", Priority.NORMAL))
        if items:
            blocks.append(Controls(tuple(items)))
        return Layout(
            title=ctx.t("rummy.hand.title"),
            blocks=tuple(blocks),
            accent=ACCENT,
            session=ctx.sid,
            version=self._version(ctx, view),
        )

    def _hand_status(
        self,
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
            return self._match_lines(ctx, view)[0]
        if view.phase == "window":
            return self._window_prompt(ctx, view, seat, items)
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
        return self._act_controls(ctx, view, pick, items, choice)

    def _act_controls(
        self, ctx: Context, view: View, pick: str | None, items: list[Control], choice: list[str]
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

    def _window_prompt(self, ctx: Context, view: View, seat: int, items: list[Control]) -> str:
        """The claim window as this player sees it: Pass with the Goal or Gains this player can
        make when asked; else what the window waits for, which says nothing about the others."""
        window = view.window
        assert window is not None
        when = self._when(ctx, view)
        card = card_text(ctx, window.card)
        if seat == window.discarder:
            return f"{WINDOW} " + ctx.t("rummy.hand.window_own", card=card, when=when)
        answer = view.my_answer
        if answer is not None:
            said = self._answer_text(ctx, answer.choice, answer.cards)
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

    @staticmethod
    def _answer_text(ctx: Context, choice: str, cards: Sequence[int]) -> str:
        return ctx.t(f"rummy.answer.{choice}", cards=cards_text(ctx, cards))

    def _own_text(self, ctx: Context, view: View, seat: int) -> str:
        parts = [
            ctx.t("rummy.hand.opened", sets=sets_text(ctx, view.opened[seat])),
            ctx.t("rummy.hand.row", cards=cards_text(ctx, view.rows[seat])),
        ]
        if view.ready[seat]:
            parts.append(f"{READY} {ctx.t('rummy.ready')}")
        parts.append(ctx.t("rummy.table.score", count=view.scores[seat]))
        return " · ".join(parts)

    def _table_summary(self, ctx: Context, view: View, seat: int) -> str:
        lines = []
        if view.phase not in ("ended", "over"):
            lines.append(
                ctx.t("rummy.table.field", cards=cards_text(ctx, view.field), count=view.deck)
            )
        for other in range(view.config.players):
            if other == seat:
                continue
            marks = [
                ctx.t("rummy.table.hand_size", count=view.hand_sizes[other]),
                ctx.t("rummy.hand.open_count", n=len(view.opened[other])),
            ]
            if view.ready[other]:
                marks.append(f"{READY} {ctx.t('rummy.ready')}")
            marks.append(ctx.t("rummy.table.score", count=view.scores[other]))
            lines.append(f"**{ctx.names[other]}** — " + " · ".join(marks))
        return "\n".join(lines)

    def _last_private(self, ctx: Context, view: View) -> str | None:
        """The newest private event of this short game (the cards just drawn, a lost claim);
        none during a window, whose prompt says it all."""
        if view.phase in ("window", "over"):
            return None
        for event in reversed(ctx.recent):
            if event.key == "rummy.hand":
                return None
            text = self.private_event_text(event, ctx)
            if text:
                return text
        return None

    def replay_hands(self, ctx: Context) -> tuple[Block, ...]:
        """Each seat's hand on one line (open sets and discard rows are on the table)."""
        hands = ctx.session.state.hands
        return tuple(
            Section((f"**{name}** {cards_text(ctx, hand)}",), priority=Priority.NORMAL)
            for name, hand in zip(ctx.names, hands, strict=False)
        )

    # Clicks -------------------------------------------------------------------------------------

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        view = self._view(ctx, seat)
        try:
            if verb in WINDOW_VERBS:
                return self._claim(view, seat, verb, args)
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
                    return self._discard_pick(ctx, view, values)
                case "ds" | "dr":
                    return Discard(card=int(args[0]), ready=verb == "dr")
                case "nx":
                    return NextGame()
        except (ValueError, IndexError):  # pydantic's ValidationError is a ValueError
            raise _bad() from None
        raise _bad()

    @staticmethod
    def _discard_pick(ctx: Context, view: View, values: Sequence[str]) -> Pick:
        """The card chosen in the discard select: one it offered, or a refusal that says so."""
        card = int(values[0])
        if card not in discard_choices(view):
            if not 0 <= card < len(CARDS):
                raise _bad()
            raise illegal("not_offered_discard", card=card_text(ctx, card))
        return Pick(f"d{card}")

    @staticmethod
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

    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        view = self._view(ctx, seat)
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

    # Events -------------------------------------------------------------------------------------

    def event_text(self, event: Event, ctx: Context) -> str | None:
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

    def private_event_text(self, event: Event, ctx: Context) -> str | None:
        match event.key:
            case "rummy.drew_cards":
                return ctx.t("rummy.event.you_drew", cards=cards_text(ctx, event.cards))
            case "rummy.answer":
                said = self._answer_text(ctx, event.params["choice"], event.cards)
                return ctx.t("rummy.event.you_answered", answer=said)
            case "rummy.claim_lost":
                return ctx.t("rummy.event.claim_lost")
        return None

    # Records ------------------------------------------------------------------------------------

    @staticmethod
    def _person_won(session: Session) -> bool:
        outcome = session.rules.outcome(session.state)
        seats = session.record.seats
        return outcome is not None and any(seats[s].user_id is not None for s in outcome.winners)

    def _accent(self, session: Session) -> int:
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return ACCENT
        if len(outcome.winners) > 1:
            return GOLD
        return WON if self._person_won(session) else LOST

    def result(self, session: Session) -> GameResult | None:
        """The winning score is kept (as its negative: lower is better); a match counts as won
        when a person (not an AI seat) is among the winners."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        top = max(outcome.scores)
        return GameResult(result=outcome.result, score=-top, won=self._person_won(session))

    def standing(self, session: Session) -> Standing | None:
        """The match's winners first, then the others by their match points, equal points
        sharing a place."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        return Standing(places_by_points(outcome.scores, outcome.winners))

    def wins_text(self, lang: str, wins: int) -> str:
        """A server's won matches are those a person won (not an AI seat)."""
        return t(lang, "rummy.stats.won_by_player", count=wins)


def this_game(events: Sequence[Event]) -> Sequence[Event]:
    """The recent events since the last deal (earlier short games are over)."""
    deals = [i for i, e in enumerate(events) if e.key == "rummy.dealt"]
    return events[deals[-1] :] if deals else events


def _picked_discard(pick: str | None, choices: Sequence[int]) -> int | None:
    """The card a `d{card}` pick chose, if it is still offered."""
    if not pick or not pick.startswith("d") or not pick[1:].isdigit():
        return None
    card = int(pick[1:])
    return card if card in choices else None
