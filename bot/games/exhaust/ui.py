"""Exhaust on Discord: the public table, the private hand and its play controls.

A play is picked in steps, each a `Pick` that only redraws the hand, with the whole choice so
far encoded in the controls' custom_ids (stateless, so it survives a restart):

1. `cmb` select: the combo (only combos that take some legal play);
2. `crd.{combo}` multi-select: the cards (only cards that take part in a legal play there);
3. `cpy.{combo}.{cards}.{targets}` select: for each copy card, the card it copies;
4. `pc.{combo}.{cards}.{targets}` button: play. `time`, `flip` and `next` are single buttons.

Card ids are written one character each (`ALPHABET`), so a play of any size fits in a
custom_id; copy targets are one character per copy, in the copies' id order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.errors import error_text
from bot.game_ui import (
    ACCENT,
    LOST,
    WON,
    GameResult,
    GameUI,
    Pick,
    SeatResult,
    Standing,
    table_controls,
)
from bot.games.exhaust.prefs import DEFAULT_LEVEL, MAX_LEVEL, SoloLevels
from bot.i18n import has, t
from bot.ui.layout import (
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
    Token,
    Tokens,
    game_verb,
)
from games.engine import Event, GameError, Reason, Session, illegal
from games.exhaust.cards import HIGHEST, is_copy
from games.exhaust.cards import colour as colour_of
from games.exhaust.cards import number as number_of
from games.exhaust.combos import SET_SIZE, Combo, table
from games.exhaust.models import NPC, FlipDepletion, NextGame, PlayCards, Played, UseTime, View
from games.exhaust.plays import SelectionCheck, check_selection, playable_cards
from storage import HistoryEntry, PrefTable

COLOUR_EMOJI = ("🔥", "💧", "🌪️", "🌱")
"""Red = fire, blue = water, yellow = wind, green = earth (the seed's four elements)."""
COPY_EMOJI = "📜"
TIME_EMOJI = "⏳"
DEPLETION_EMOJI = "🪫"
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"
"""One custom_id character per card id (0..63)."""
SELECT_MAX = 25
GOLD = 0xF1C40F
"""The accent of a finished game with several players (some won, one lost)."""
RECENT = 6

NPC_KEY = "npc-"
"""The rating key of the solo NPC, followed by its pile size: each level is an opponent of
its own."""


def encode(cards: Sequence[int]) -> str:
    return "".join(ALPHABET[c] for c in cards)


def decode(text: str) -> tuple[int, ...]:
    """Card ids from `encode`; ValueError on a character that is not a card."""
    cards = []
    for char in text:
        index = ALPHABET.find(char)
        if index < 0:
            raise ValueError(f"not a card: {char!r}")
        cards.append(index)
    return tuple(cards)


def card_text(card: int, target: int | None = None) -> str:
    """A card as players read it: `🔥7`; a copy `📜`, or `📜🔥7` once it copies red 7."""
    if is_copy(card):
        return COPY_EMOJI + ("" if target is None else card_text(target))
    return f"{COLOUR_EMOJI[colour_of(card)]}{number_of(card)}"


def cards_text(cards: Sequence[int], copies: Sequence[tuple[int, int]] = ()) -> str:
    target = dict(copies)
    return " ".join(f"`{card_text(c, target.get(c))}`" for c in cards)


def hand_order(cards: Sequence[int]) -> list[int]:
    """Number cards by number then colour (pairs side by side), copies last."""
    return sorted(cards, key=lambda c: (1, 0, c) if is_copy(c) else (0, number_of(c), c))


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


class _Choice:
    """A play being picked, as far as it goes: combo, cards, copy targets (all validated)."""

    def __init__(self, view: View, pick: str | None) -> None:
        self.offers = {
            cv.index: cards for cv in view.combos if (cards := playable_cards(view, cv.index))
        }
        self.combo: int | None = None
        self.cards: tuple[int, ...] = ()
        self.targets: tuple[int, ...] = ()
        self.check: SelectionCheck | None = None
        parts = (pick or "").split(".")
        try:
            combo = int(parts[0]) if parts[0] else None
            cards = decode(parts[1]) if len(parts) > 1 else ()
            targets = decode(parts[2]) if len(parts) > 2 else ()
        except ValueError:
            return
        if combo not in self.offers:
            return
        self.combo = combo
        offered = set(self.offers[combo])
        self.cards = tuple(sorted({c for c in cards if c in offered}))
        if not self.cards:
            return
        self.check = check_selection(view, combo, self.cards)
        reals = self.reals
        if len(set(reals)) == 1:
            targets = (reals[0],) * len(self.copies)
        chosen: list[int] = []
        for target in targets[: len(self.copies)]:
            if target not in reals:
                break
            chosen.append(target)
        self.targets = tuple(chosen)

    @property
    def reals(self) -> tuple[int, ...]:
        return tuple(c for c in self.cards if not is_copy(c))

    @property
    def copies(self) -> tuple[int, ...]:
        return tuple(c for c in self.cards if is_copy(c))

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.copies, self.targets, strict=False))

    @property
    def ready(self) -> bool:
        return bool(self.check and self.check.ok and len(self.targets) == len(self.copies))

    def code(self) -> str:
        """`{combo}.{cards}[.{targets}]`, the Pick value and the tail of the step controls."""
        text = f"{self.combo}.{encode(self.cards)}"
        return f"{text}.{encode(self.targets)}" if self.targets else text


class ExhaustUI(GameUI):
    game_id = "exhaust"
    rules_pages = ("intro", "setup", "turn", "options", "rulings")

    def __init__(self) -> None:
        self._next_level: dict[str, int] = {}
        """Solo: the player's level after a finished session, as stored by `after_finish`."""

    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        """The long variant; and the NPC pile of a solo game, told while one seat is taken (a
        start alone is a solo game; with others there is no NPC)."""
        lines = []
        if options.get("long_game"):
            lines.append(t(lang, "exhaust.option.long_game"))
        if players == 1:
            size = options.get("npc_size", DEFAULT_LEVEL)
            lines.append(t(lang, "exhaust.option.npc_size", count=size))
        return lines

    # Names ------------------------------------------------------------------------------------

    def _view(self, ctx: Context, seat: int | None) -> View:
        view: View = ctx.session.rules.view(ctx.session.state, seat)
        return view

    @staticmethod
    def _combo_name(ctx: Context, combo: Combo, players: int) -> str:
        name = ctx.t(f"exhaust.combo.{combo.kind.value}")
        if combo.kind.value == "single" and players > 2:
            name += " " + "".join(COLOUR_EMOJI[c] for c in combo.colours)
        return name

    def combo_name(self, ctx: Context, index: int) -> str:
        players = ctx.session.state.config.players
        combos = table(players)
        if not 0 <= index < len(combos):
            return "?"
        return self._combo_name(ctx, combos[index], players)

    def seat_name(self, ctx: Context, position: int, view: View) -> str:
        if view.solo and position == NPC:
            return ctx.t("exhaust.npc")
        if 0 <= position < len(ctx.names):
            return ctx.names[position]
        return "?"

    def _need_text(self, ctx: Context, view: View, index: int) -> str:
        cv = view.combos[index]
        if cv.need_number is not None:
            if cv.need_number > HIGHEST:
                return ctx.t("exhaust.need.none")
            return ctx.t("exhaust.need.number", n=cv.need_number)
        return ctx.t("exhaust.need.count", count=cv.need_count)

    def _combo_line(self, ctx: Context, view: View, index: int) -> str:
        cv = view.combos[index]
        name = self._combo_name(ctx, cv.combo, view.players)
        need = self._need_text(ctx, view, index)
        if not cv.plays:
            return ctx.t("exhaust.table.combo_empty", name=name, need=need)
        top: Played = cv.plays[-1]
        return ctx.t(
            "exhaust.table.combo",
            name=name,
            cards=cards_text(top.cards, top.copies),
            plays=len(cv.plays),
            need=need,
        )

    def _depletion_text(self, ctx: Context, view: View, seat: int) -> str:
        held, flipped = view.depletion[seat], view.flipped[seat]
        if not held:
            return ""
        parts = []
        if held - flipped:
            parts.append(ctx.t("exhaust.depletion.face_up", n=held - flipped))
        if flipped:
            parts.append(ctx.t("exhaust.depletion.flipped", n=flipped))
        return f"{DEPLETION_EMOJI} " + ", ".join(parts)

    def _seat_line(self, ctx: Context, view: View, seat: int, playing: bool) -> str:
        parts = [ctx.t("exhaust.table.cards", count=view.hand_sizes[seat])]
        if view.time_cards[seat]:
            parts.append(f"{TIME_EMOJI}{view.time_cards[seat]}")
        if view.long_game:
            parts.append(self._depletion_text(ctx, view, seat) or f"{DEPLETION_EMOJI} 0")
        line = f"**{ctx.seat_label(seat)}** — " + " · ".join(parts)
        return ("▶ " + line) if playing and view.turn == seat else line

    # Public table -----------------------------------------------------------------------------

    def table(self, ctx: Context) -> Layout:
        view = self._view(ctx, None)
        outcome = ctx.session.rules.outcome(ctx.session.state)
        title = ctx.t("exhaust.name")
        if view.long_game:
            title = ctx.t("exhaust.table.title_long", name=title, game=view.game_no)
        blocks: list[Block] = []
        if outcome is not None:
            result = f"**{ctx.t('exhaust.result.title')}**\n{self.result_text(ctx)}"
            blocks.append(Text(result, Priority.ESSENTIAL))
            records = self.records_text(ctx)
            if records is not None:
                blocks.append(Text(records, Priority.HIGH))
        playing = outcome is None and view.phase == "play" and not ctx.closed
        seats = [self._seat_line(ctx, view, s, playing) for s in range(view.players)]
        if view.npc is not None:
            npc = view.npc
            line = ctx.t(
                "exhaust.table.npc",
                name=ctx.t("exhaust.npc"),
                hand=cards_text(hand_order(npc.hand)) or "—",
                count=npc.pile,
            )
            if npc.time_cards:
                line += f" · {TIME_EMOJI}{npc.time_cards}"
            seats.append(("▶ " if playing and view.turn == NPC else "") + line)
        blocks.append(Text("\n".join(seats), Priority.ESSENTIAL))
        if not ctx.closed and outcome is None and view.phase == "next" and view.turn is not None:
            text = ctx.t(
                "exhaust.table.next",
                name=self.seat_name(ctx, view.turn, view),
                game=view.game_no,
                next=view.game_no + 1,
            )
            heading = ctx.t("exhaust.table.next_title")
            blocks.append(Text(f"**{heading}** — {text}", Priority.ESSENTIAL))
        log = ctx.log_lines(self._this_game(ctx.recent))[-RECENT:]
        if log:
            recent = "\n".join([f"**{ctx.t('table.recent')}**", *log])
            blocks.append(Text(recent, Priority.ESSENTIAL, keep=Keep.TAIL))
        blocks.append(Separator())
        blocks += [
            Section((self._combo_line(ctx, view, i),), priority=Priority.HIGH)
            for i in range(len(view.combos))
        ]
        piles = ctx.t("exhaust.table.piles", refill=view.refill, time=view.time_pile)
        if view.long_game:
            piles += " · " + ctx.t("exhaust.table.depletion_pile", n=view.depletion_pile)
        blocks.append(Text(piles, Priority.NORMAL))
        blocks.append(table_controls(ctx, finished=outcome is not None))
        legend = " · ".join([ctx.t("exhaust.table.legend"), *self._config_lines(ctx, view)])
        blocks.append(Text(f"-# {legend}", Priority.LOW))
        accent = ACCENT
        if outcome is not None:
            won = outcome.result == "win"
            accent = GOLD if not view.solo else (WON if won else LOST)
        return Layout(
            title=title, blocks=tuple(blocks), accent=accent, session=ctx.sid, version=ctx.version
        )

    @staticmethod
    def _this_game(events: Sequence[Event]) -> Sequence[Event]:
        """The recent events since the last deal (a long match's earlier games are over)."""
        deals = [i for i, e in enumerate(events) if e.key == "exhaust.next_game"]
        return events[deals[-1] :] if deals else events

    def _config_lines(self, ctx: Context, view: View) -> list[str]:
        if view.solo:
            return [ctx.t("exhaust.option.solo", count=ctx.session.state.config.npc_size)]
        return [ctx.t("exhaust.option.long_game")] if view.long_game else []

    def next_level(self, session: Session) -> int:
        """Solo: the level the player's next game defaults to (stored, or derived)."""
        cached = self._next_level.get(session.id)
        if cached is not None:
            return cached
        outcome = session.rules.outcome(session.state)
        size: int = session.state.config.npc_size
        won = outcome is not None and outcome.result == "win"
        return min(MAX_LEVEL, size + 1) if won else size

    def result_text(self, ctx: Context) -> str:
        session = ctx.session
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return ""
        view = self._view(ctx, None)
        if view.solo:
            key = "solo_win" if outcome.result == "win" else "solo_loss"
            pile = ctx.t("exhaust.table.cards", count=session.state.config.npc_size)
            upcoming = ctx.t("exhaust.table.cards", count=self.next_level(session))
            return ctx.t(f"exhaust.result.{key}", pile=pile, next=upcoming)
        loser = view.losers[-1]
        winners = ", ".join(self.seat_name(ctx, s, view) for s in range(view.players) if s != loser)
        name = self.seat_name(ctx, loser, view)
        if view.long_game:
            tally = ", ".join(
                f"{self.seat_name(ctx, s, view)} {view.depletion[s]}" for s in range(view.players)
            )
            return ctx.t(
                "exhaust.result.match",
                loser=name,
                winners=winners,
                count=view.game_no,
                tally=tally,
            )
        return ctx.t("exhaust.result.game", loser=name, winners=winners)

    # Private hand -----------------------------------------------------------------------------

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        view = self._view(ctx, seat)
        hand = hand_order(view.hand or ())
        outcome = ctx.session.rules.outcome(ctx.session.state)
        blocks: list[Block] = []
        if ctx.notice:
            blocks.append(Text(f"⚠️ {ctx.notice}", Priority.ESSENTIAL))
        items: list[Control] = []
        choice_lines: list[str] = []
        if outcome is not None:
            status = self.result_text(ctx)
        elif view.phase == "next":
            if view.my_turn:
                status = ctx.t("exhaust.hand.start_next", next=view.game_no + 1)
                label = ctx.t("exhaust.hand.next_button", next=view.game_no + 1)
                items.append(Button(game_verb("next"), label, "▶️", Style.PRIMARY))
            else:
                name = self.seat_name(ctx, view.turn if view.turn is not None else seat, view)
                status = ctx.t("exhaust.hand.waiting_next", name=name, next=view.game_no + 1)
        elif not view.my_turn:
            name = self.seat_name(ctx, view.turn, view) if view.turn is not None else "—"
            status = ctx.t("exhaust.hand.waiting", name=name)
        else:
            status = ctx.t("exhaust.hand.your_turn")
            choice_lines = self._play_controls(ctx, view, seat, _Choice(view, pick), items)
        cards = Tokens(tuple(Token(card_text(c)) for c in hand), empty=ctx.t("exhaust.hand.empty"))
        mine = [ctx.t("exhaust.hand.time", n=view.time_cards[seat])]
        if view.long_game:
            mine.append(self._depletion_text(ctx, view, seat) or f"{DEPLETION_EMOJI} 0")
        blocks.append(Section((status, cards, " · ".join(mine)), priority=Priority.ESSENTIAL))
        if choice_lines:
            blocks.append(Text("\n".join(choice_lines), Priority.ESSENTIAL))
        table_lines = []
        if view.phase in ("play", "next"):
            table_lines.append(
                " · ".join(
                    f"{self._combo_name(ctx, cv.combo, view.players)} "
                    f"{self._need_text(ctx, view, cv.index)}"
                    for cv in view.combos
                )
            )
        if view.npc is not None and view.phase == "play":
            table_lines.append(
                ctx.t(
                    "exhaust.table.npc",
                    name=ctx.t("exhaust.npc"),
                    hand=cards_text(hand_order(view.npc.hand)) or "—",
                    count=view.npc.pile,
                )
            )
        drawn = self._last_drawn(ctx)
        if drawn and view.phase == "play":
            table_lines.append(drawn)
        if table_lines:
            blocks.append(Text("\n".join(table_lines), Priority.HIGH))
        if items:
            blocks.append(Controls(tuple(items)))
        return Layout(
            title=ctx.t("exhaust.hand.title"),
            blocks=tuple(blocks),
            accent=ACCENT,
            session=ctx.sid,
            version=ctx.version,
        )

    def _last_drawn(self, ctx: Context) -> str | None:
        """The refill card this seat drew last (a private Pair reward), in this game."""
        for event in reversed(ctx.recent):
            if event.key == "exhaust.hand":
                return None
            if event.key == "exhaust.reward_card":
                return self.private_event_text(event, ctx)
        return None

    def _play_controls(
        self, ctx: Context, view: View, seat: int, choice: _Choice, items: list[Control]
    ) -> list[str]:
        """Add the controls of the player to move; return the hand's lines about the choice."""
        lines: list[str] = []
        if choice.offers:
            options = tuple(
                Option(
                    str(i),
                    self._combo_name(ctx, view.combos[i].combo, view.players),
                    description=self._combo_option_text(ctx, view, i),
                    default=i == choice.combo,
                )
                for i in sorted(choice.offers)
            )
            placeholder = ctx.t("exhaust.hand.choose_combo")
            items.append(Select(game_verb("cmb"), options[:SELECT_MAX], placeholder=placeholder))
        else:
            lines.append(ctx.t("exhaust.hand.no_spell"))
        if choice.combo is not None:
            self._card_selects(ctx, view, choice, items)
            name = self.combo_name(ctx, choice.combo)
            if not choice.cards:
                lines.append(ctx.t("exhaust.hand.choose_cards_for", combo=name))
            else:
                chosen = cards_text(choice.cards, choice.pairs)
                lines.append(ctx.t("exhaust.hand.chosen", combo=name, cards=chosen))
                check = choice.check
                if check is not None and not check.ok:
                    lines.append("⚠️ " + self.reason_text(ctx, check))
                elif len(choice.targets) < len(choice.copies):
                    lines.append(self._copy_select(ctx, choice, items))
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

    def _combo_option_text(self, ctx: Context, view: View, index: int) -> str:
        cv = view.combos[index]
        need = self._need_text(ctx, view, index)
        if not cv.plays:
            return ctx.t("exhaust.hand.combo_option_empty", need=need)
        top = cv.plays[-1]
        target = dict(top.copies)
        shown = " ".join(card_text(c, target.get(c)) for c in top.cards)
        return ctx.t("exhaust.hand.combo_option", top=shown, need=need)

    def _card_selects(
        self, ctx: Context, view: View, choice: _Choice, items: list[Control]
    ) -> None:
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
                Option(ALPHABET[c], self._option_label(ctx, c), default=c in choice.cards)
                for c in chunk
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

    @staticmethod
    def _option_label(ctx: Context, card: int) -> str:
        return f"{card_text(card)} {ctx.t('exhaust.copy')}" if is_copy(card) else card_text(card)

    def _copy_select(self, ctx: Context, choice: _Choice, items: list[Control]) -> str:
        """The select for the next copy card without a target; returns the hand's prompt."""
        index = len(choice.targets)
        reals = hand_order(choice.reals)[:SELECT_MAX]
        options = tuple(Option(ALPHABET[c], f"{COPY_EMOJI} → {card_text(c)}") for c in reals)
        placeholder = ctx.t("exhaust.hand.copy_placeholder", n=index + 1, of=len(choice.copies))
        items.append(Select(game_verb(f"cpy.{choice.code()}"), options, placeholder=placeholder))
        return ctx.t("exhaust.hand.copy_prompt", n=index + 1, of=len(choice.copies))

    def reason_text(self, ctx: Context, check: SelectionCheck) -> str:
        reason = check.reason or ""
        if reason == "not_your_turn":
            return ctx.t("error.not_your_turn")
        params = {k: v for k, v in check.params.items() if isinstance(v, int | str)}
        return error_text(ctx.lang, illegal(reason, **params), self.game_id)

    # Clicks ------------------------------------------------------------------------------------

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        view = self._view(ctx, seat)
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

    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        view = self._view(ctx, seat)
        match action:
            case PlayCards():
                cards = cards_text(hand_order(action.cards), action.copies)
                combo = self._combo_name(ctx, view.combos[action.combo].combo, view.players)
                return ctx.t("exhaust.action.play", cards=cards, combo=combo)
            case UseTime():
                return ctx.t("exhaust.action.time")
            case FlipDepletion():
                return ctx.t("exhaust.action.flip")
            case NextGame():
                return ctx.t("exhaust.action.next", next=view.game_no + 1)
        raise ValueError(f"not a seat's action: {action!r}")

    # Events ------------------------------------------------------------------------------------

    def _params(self, event: Event, ctx: Context) -> dict[str, Any]:
        params = dict(event.params)
        view = self._view(ctx, None)
        if "seat" in params:
            params["seat"] = self.seat_name(ctx, params["seat"], view)
        if "combo" in params:
            params["combo"] = self.combo_name(ctx, params["combo"])
        copies = [tuple(pair) for pair in params.pop("copies", ())]
        params["cards"] = cards_text(event.cards, copies)
        params["count"] = params.get("count", len(event.cards))
        return params

    def event_text(self, event: Event, ctx: Context) -> str | None:
        if not event.public:
            return None
        key = event.key.removeprefix("exhaust.")
        params = self._params(event, ctx)
        match key:
            case "dealt":
                key = "dealt_solo" if "npc_pile" in params else "dealt"
                params["count"] = params.pop("hand")
            case "reward_none" | "npc_reward_none":
                key = f"{key}.{params.pop('reward')}"
            case "reward_time" | "npc_reward_time":
                if params.get("due", 0) > params["count"]:
                    key += "_short"
        full = f"exhaust.event.{key}"
        if not has(full):
            return None
        return ctx.t(full, **params)

    def private_event_text(self, event: Event, ctx: Context) -> str | None:
        if event.key == "exhaust.reward_card":
            return ctx.t("exhaust.event.you_drew", cards=cards_text(event.cards))
        return None

    # After the game ----------------------------------------------------------------------------

    def result(self, session: Session) -> GameResult | None:
        """A solo win scores minus the NPC pile beaten (lowest = biggest); others score 0."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        config = session.state.config
        won = outcome.result == "win"
        score = -config.npc_size if config.solo and won else 0
        return GameResult(result=outcome.result, score=score, won=won)

    def seat_results(self, session: Session) -> tuple[SeatResult, ...] | None:
        """A seat wins when it is not the loser; a solo seat keeps the NPC pile it played
        (stored negated: the bigger pile is the better result)."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        config = session.state.config
        score = -config.npc_size if config.solo else None
        return tuple(
            SeatResult(
                won=seat in outcome.winners,
                score=score,
                result="win" if seat in outcome.winners else "loss",
            )
            for seat in range(len(session.record.seats))
        )

    def standing(self, session: Session) -> Standing | None:
        """Everyone but the loser shares first place; solo, the player and the NPC of the pile
        they played (each pile size an opponent rated on its own) take first and second."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        config = session.state.config
        if config.solo:
            won = bool(outcome.winners)
            npc = (f"{NPC_KEY}{config.npc_size}", 2 if won else 1)
            return Standing(places=(1 if won else 2,), opponents=(npc,))
        seats = range(len(session.record.seats))
        return Standing(places=tuple(1 if s in outcome.winners else 2 for s in seats))

    def ai_name(self, lang: str, key: str) -> str:
        if key.startswith(NPC_KEY):
            return t(lang, "exhaust.ratings.npc", n=key.removeprefix(NPC_KEY))
        return super().ai_name(lang, key)

    def score_text(self, lang: str, score: int, players: int) -> str | None:
        """Only solo games have a score: the NPC pile (stored negated)."""
        return t(lang, "exhaust.stats.level", n=-score) if score < 0 else None

    def wins_text(self, lang: str, wins: int) -> str:
        """A server's won games are its solo wins: with others, someone always fails."""
        return t(lang, "exhaust.stats.solo_wins", count=wins)

    def history_text(self, lang: str, entry: HistoryEntry, names: Sequence[str]) -> str:
        if len(entry.seats) == 1:
            seat = entry.seats[0]
            level = -seat.score if seat.score is not None else "?"
            key = "exhaust.history.solo_win" if seat.won else "exhaust.history.solo_loss"
            return t(lang, key, n=level)
        losers = [names[s.seat] for s in entry.seats if not s.won and s.seat < len(names)]
        if not losers:
            return super().history_text(lang, entry, names)
        return t(lang, "exhaust.history.loser", name=", ".join(losers))

    def replay_hands(self, ctx: Context) -> tuple[Block, ...]:
        """Each seat's spell cards on one line (time cards and the NPC are on the table)."""
        view = self._view(ctx, None)
        hands = ctx.session.state.hands
        return tuple(
            Section(
                (
                    Tokens(
                        tuple(Token(card_text(c)) for c in hand_order(hands[seat])),
                        label=f"**{self.seat_name(ctx, seat, view)}**",
                        empty=ctx.t("exhaust.hand.empty_other"),
                    ),
                ),
                priority=Priority.NORMAL,
            )
            for seat in range(min(view.players, len(hands)))
        )

    async def rematch_options(self, session: Session, prefs: PrefTable) -> dict[str, Any]:
        """A solo rematch is played at the player's current level (N+1 after a win)."""
        options = dict(session.record.options)
        user_id = session.record.seats[0].user_id if session.record.seats else None
        if session.state is not None and session.state.config.solo and user_id is not None:
            options["npc_size"] = await SoloLevels(prefs).get(user_id)
        return options

    async def after_finish(self, session: Session, prefs: PrefTable) -> None:
        """Solo: after a win the player's level becomes N+1; remember it for the table."""
        config = session.state.config
        user_id = session.record.seats[0].user_id
        outcome = session.rules.outcome(session.state)
        if not config.solo or user_id is None or outcome is None:
            return
        levels = SoloLevels(prefs)
        if outcome.result == "win":
            await levels.set(user_id, min(MAX_LEVEL, config.npc_size + 1))
        self._next_level[session.id] = await levels.get(user_id)
