"""Angels & Demons Rummy's `GameUI`: the hooks the shared code calls, each answered by the
module that holds that job (screens, controls, words; the records are every competitive
game's, a shared win shown in gold)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.games.rummy import controls, screens, words
from bot.games.rummy.controls import WINDOW_VERBS
from bot.i18n import t
from bot.ui import competitive
from bot.ui.layout import Layout
from games.engine import Session

GOLD = 0xF1C40F
"""The accent of a shared win."""


class RummyUI(competitive.CompetitiveUI):
    game_id = "rummy"
    rules_pages = ("intro", "setup", "turn", "scoring", "options", "rulings")
    unversioned_verbs = WINDOW_VERBS
    channel_records = True

    # Hooks a module of the game answers itself: the shared code calls it directly.
    hand = staticmethod(screens.hand)
    replay_hands = staticmethod(screens.replay_hands)
    control = staticmethod(controls.control)
    action_text = staticmethod(words.action_text)
    event_text = staticmethod(words.event_text)
    private_event_text = staticmethod(words.private_event_text)

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

    def table(self, ctx: Context) -> Layout:
        return screens.table(ctx, self.records_text(ctx), self.accent(ctx.session))

    def accent(self, session: Session) -> int:
        """A shared win is gold."""
        outcome = session.rules.outcome(session.state)
        if outcome is not None and len(outcome.winners) > 1:
            return GOLD
        return super().accent(session)
