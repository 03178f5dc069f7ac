"""The Game's `GameUI`: the hooks the shared code calls, each answered by the module that holds
that job (screens, controls, words; results for the records)."""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.games.thegame import controls, results, screens, words
from bot.games.thegame.picture import table_picture
from bot.i18n import t
from bot.ui.layout import Layout


class TheGameUI(results.TheGameRecords):
    game_id = "thegame"
    rules_pages = ("intro", "setup", "turn", "scoring", "options", "rulings")
    table_verbs = frozenset({"sig"})
    unversioned_verbs = frozenset({"sig"})
    pictures = True
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
        names = ("on_fire", "min_three", "smaller_hand")
        return [t(lang, f"thegame.option.{name}") for name in names if options.get(name)]

    def table_picture(self, view: Any) -> bytes | None:
        """The four piles (see `picture`): a picture reads faster than four lines of numbers."""
        return table_picture(view)

    def table(self, ctx: Context) -> Layout:
        options = self.option_lines(ctx.session.record.options, ctx.lang)
        return screens.table(ctx, self.records_text(ctx), options)
