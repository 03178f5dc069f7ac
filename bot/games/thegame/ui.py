"""The Game on Discord: the public table, the private hand and its controls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.context import Context
from bot.game_ui import COLOUR, GameResult, GameUI, Pick, table_controls
from bot.i18n import t
from bot.ui.controls import game_button, game_select
from bot.ui.screen import Screen
from games.engine import Event, GameError, Reason, Session
from games.thegame.models import PILES, EndTurn, Play, Signal, SignalKind, TheGameView
from games.thegame.rules import PERFECT, WIN, can_place
from storage import GameStats

SIGNAL_EMOJI = {SignalKind.NO_PLAY: "🚫", SignalKind.NO_JUMP: "⚠️"}
RESULT_EMOJI = {PERFECT: "🏆", WIN: "🎉", "loss": "💀", "burned": "🔥"}


def _bad() -> GameError:
    return GameError(Reason.BAD_OPTION, "control")


class TheGameUI(GameUI):
    game_id = "thegame"
    table_verbs = frozenset({"sig"})
    unversioned_verbs = frozenset({"sig"})

    def option_lines(self, options: dict[str, Any], lang: str) -> list[str]:
        names = ("on_fire", "min_three", "smaller_hand")
        return [t(lang, f"thegame.option.{name}") for name in names if options.get(name)]

    # Public table ---------------------------------------------------------------------------

    def _view(self, ctx: Context, seat: int | None) -> TheGameView:
        view: TheGameView = ctx.session.rules.view(ctx.session.state, seat)
        return view

    def pile_name(self, ctx: Context, pile: int) -> str:
        return ctx.t(f"thegame.pile.{pile}")

    def _pile_lines(self, ctx: Context, view: TheGameView) -> list[str]:
        lines = []
        for index, pile in enumerate(view.piles):
            arrow = "⬆️" if pile.ascending else "⬇️"
            top = f"🔵{pile.top}" if pile.top_blue else str(pile.top)
            flags = "".join(SIGNAL_EMOJI[s] for s in pile.signals)
            fire = " 🔥" if pile.burns_at_turn_end else ""
            lines.append(
                ctx.t(
                    "thegame.table.pile",
                    arrow=arrow,
                    name=self.pile_name(ctx, index),
                    top=top,
                    count=pile.count,
                )
                + (f" {flags}" if flags else "")
                + fire
            )
        return lines

    def table(self, ctx: Context) -> Screen:
        view = self._view(ctx, None)
        outcome = ctx.session.rules.outcome(ctx.session.state)
        embed = discord.Embed(title=ctx.t("thegame.name"), colour=COLOUR)
        embed.description = "\n".join(self._pile_lines(ctx, view))
        embed.add_field(
            name=ctx.t("thegame.table.counts"),
            value=ctx.t("thegame.table.counts_value", draw=view.draw_count, left=view.cards_left),
            inline=False,
        )
        seats = []
        for seat, name in enumerate(ctx.names):
            line = ctx.t("thegame.table.seat", name=name, cards=view.hand_sizes[seat])
            if outcome is None and seat == view.turn:
                line = (
                    "▶ "
                    + line
                    + " — "
                    + (
                        ctx.t("thegame.table.must_play", n=view.still_required)
                        if view.still_required
                        else ctx.t("thegame.table.may_end")
                    )
                )
            seats.append(line)
        embed.add_field(name=ctx.t("thegame.table.players"), value="\n".join(seats), inline=False)
        warnings = [
            ctx.t("thegame.table.burn_warning", card=pile.top, pile=self.pile_name(ctx, i))
            for i, pile in enumerate(view.piles)
            if pile.burns_at_turn_end
        ]
        if warnings and outcome is None:
            embed.add_field(
                name=ctx.t("thegame.table.on_fire"), value="\n".join(warnings), inline=False
            )
        log = ctx.log_lines()
        if log:
            embed.add_field(name=ctx.t("table.recent"), value="\n".join(log)[-1000:], inline=False)
        options = self.option_lines(ctx.session.record.options, ctx.lang)
        embed.set_footer(text=" · ".join([ctx.t("thegame.table.legend"), *options]))
        if outcome is not None:
            embed.colour = (
                discord.Colour.green() if outcome.result in (PERFECT, WIN) else discord.Colour.red()
            )
            embed.insert_field_at(
                0,
                name=ctx.t("thegame.result.title"),
                value=self._result_text(ctx, outcome.result, view.cards_left),
                inline=False,
            )
            if ctx.records:
                embed.add_field(
                    name=ctx.t("records.title"),
                    value=ctx.t("thegame.records", **ctx.records),
                    inline=False,
                )
            return Screen(embeds=[embed], items=table_controls(ctx, finished=True))
        items = table_controls(ctx, finished=False)
        options_ = []
        for pile in range(PILES):
            for kind in SignalKind:
                on = kind not in view.piles[pile].signals
                options_.append(
                    discord.SelectOption(
                        label=ctx.t(
                            "thegame.signal.option",
                            pile=self.pile_name(ctx, pile),
                            signal=ctx.t(f"thegame.signal.{kind.value}"),
                            action=ctx.t("thegame.signal.set" if on else "thegame.signal.clear"),
                        ),
                        value=f"{pile}.{kind.value}",
                        emoji=SIGNAL_EMOJI[kind],
                    )
                )
        items.append(
            game_select(
                ctx.sid,
                ctx.version,
                "sig",
                options=options_,
                placeholder=ctx.t("thegame.signal.placeholder"),
                row=1,
            )
        )
        return Screen(embeds=[embed], items=items)

    def _result_text(self, ctx: Context, result: str, left: int) -> str:
        return f"{RESULT_EMOJI.get(result, '')} " + ctx.t(f"thegame.result.{result}", left=left)

    # Private hand ---------------------------------------------------------------------------

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Screen:
        view = self._view(ctx, seat)
        state = ctx.session.state
        hand = view.hand or ()
        embed = discord.Embed(title=ctx.t("thegame.hand.title"), colour=COLOUR)
        cards = " ".join(f"`🔵{c}`" if view.config.is_blue(c) else f"`{c}`" for c in hand)
        lines = [cards or ctx.t("thegame.hand.empty")]
        lines.append(
            " · ".join(
                f"{'⬆️' if p.ascending else '⬇️'}{self.pile_name(ctx, i)} **{p.top}**"
                + "".join(SIGNAL_EMOJI[s] for s in p.signals)
                for i, p in enumerate(view.piles)
            )
        )
        outcome = ctx.session.rules.outcome(state)
        my_turn = outcome is None and view.turn == seat
        if outcome is not None:
            lines.append(self._result_text(ctx, outcome.result, view.cards_left))
        elif my_turn:
            lines.append(
                ctx.t("thegame.hand.your_turn", n=view.still_required)
                if view.still_required
                else ctx.t("thegame.hand.may_end")
            )
        else:
            lines.append(ctx.t("thegame.hand.waiting", name=ctx.names[view.turn]))
        lines += ctx.log_lines()
        if ctx.notice:
            lines.insert(0, f"⚠️ {ctx.notice}")
        embed.description = "\n".join(lines)
        items: list[discord.ui.Item[discord.ui.View]] = []
        if not my_turn:
            return Screen(embeds=[embed], items=items)
        playable = [c for c in hand if any(can_place(state, c, p) for p in range(PILES))]
        picked = int(pick) if pick and pick.isdigit() and int(pick) in playable else None
        if playable:
            items.append(
                game_select(
                    ctx.sid,
                    ctx.version,
                    "pick",
                    options=[
                        discord.SelectOption(
                            label=str(c),
                            value=str(c),
                            default=c == picked,
                            emoji="🔵" if view.config.is_blue(c) else None,
                        )
                        for c in playable
                    ],
                    placeholder=ctx.t("thegame.hand.choose_card"),
                    row=0,
                )
            )
        if picked is not None:
            for pile in range(PILES):
                if can_place(state, picked, pile):
                    top = view.piles[pile].top
                    trick = abs(picked - top) == 10 and (picked < top) == view.piles[pile].ascending
                    items.append(
                        game_button(
                            ctx.sid,
                            ctx.version,
                            f"play.{picked}.{pile}",
                            label=ctx.t(
                                "thegame.hand.play_on",
                                pile=self.pile_name(ctx, pile),
                                top=top,
                                card=picked,
                            ),
                            emoji="✨" if trick else ("⬆️" if view.piles[pile].ascending else "⬇️"),
                            style=discord.ButtonStyle.success,
                            row=1,
                        )
                    )
        if view.still_required == 0:
            items.append(
                game_button(
                    ctx.sid,
                    ctx.version,
                    "end",
                    label=ctx.t("thegame.hand.end_turn"),
                    style=discord.ButtonStyle.danger,
                    row=2,
                )
            )
        return Screen(embeds=[embed], items=items)

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

    def records_summary(self, server: GameStats, channel: GameStats) -> dict[str, Any]:
        """Best result and perfect wins per server and per channel (rulebook §9); the best is
        the fewest cards left among wins, a loss only while nothing was won."""
        return {
            "best": server.best.score if server.best is not None else "—",
            "games": server.games,
            "wins": server.wins,
            "perfect": server.results.get(PERFECT, 0),
            "channel_best": channel.best.score if channel.best is not None else "—",
            "channel_perfect": channel.results.get(PERFECT, 0),
            "channel_games": channel.games,
        }
