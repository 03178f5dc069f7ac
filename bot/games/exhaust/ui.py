"""Exhaust's `GameUI`: the hooks the shared code calls, each answered by the module that holds
that job (screens, controls, words; results for the records and the solo level)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.games.exhaust import controls, results, screens, words
from bot.games.exhaust.prefs import DEFAULT_LEVEL
from bot.i18n import t
from bot.ui.layout import Block, Layout
from games.engine import Event


class ExhaustUI(results.ExhaustRecords):
    game_id = "exhaust"
    rules_pages = ("intro", "setup", "turn", "options", "rulings")

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

    def _ending(self, ctx: Context) -> str:
        session = ctx.session
        if session.rules.outcome(session.state) is None:
            return ""
        return results.result_text(ctx, self.next_level(session))

    def table(self, ctx: Context) -> Layout:
        return screens.table(ctx, self._ending(ctx), self.records_text(ctx))

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        return screens.hand(ctx, seat, pick, self._ending(ctx))

    def replay_hands(self, ctx: Context) -> tuple[Block, ...]:
        """Each seat's spell cards on one line (time cards and the NPC are on the table)."""
        return screens.replay_hands(ctx)

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        return controls.control(ctx, seat, verb, args, values)

    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        return words.action_text(ctx, seat, action)

    def event_text(self, event: Event, ctx: Context) -> str | None:
        return words.event_text(event, ctx)

    def private_event_text(self, event: Event, ctx: Context) -> str | None:
        return words.private_event_text(event, ctx)
