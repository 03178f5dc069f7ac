"""Exhaust's `GameUI`: the hooks the shared code calls, each answered by the module that holds
that job (screens, controls, words; results for the records and the solo level)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.games.exhaust import controls, results, screens, words
from bot.games.exhaust.prefs import DEFAULT_LEVEL
from bot.i18n import t
from bot.ui.layout import Layout


class ExhaustUI(results.ExhaustRecords):
    game_id = "exhaust"
    rules_pages = ("intro", "setup", "turn", "options", "rulings")

    # Hooks a module of the game answers itself: the shared code calls it directly.
    replay_hands = staticmethod(screens.replay_hands)
    control = staticmethod(controls.control)
    action_text = staticmethod(words.action_text)
    event_text = staticmethod(words.event_text)
    private_event_text = staticmethod(words.private_event_text)

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
