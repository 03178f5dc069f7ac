"""The Game's `GameUI`: the hooks the shared code calls, each answered by the module that holds
that job (screens, controls, words; results for the records)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.games.thegame import controls, results, screens, words
from bot.games.thegame.picture import table_picture
from bot.i18n import t
from bot.ui.layout import Block, Layout
from games.engine import Event


class TheGameUI(results.TheGameRecords):
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

    def table(self, ctx: Context) -> Layout:
        options = self.option_lines(ctx.session.record.options, ctx.lang)
        return screens.table(ctx, self.records_text(ctx), options)

    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        return screens.hand(ctx, seat, pick)

    def replay_hands(self, ctx: Context) -> tuple[Block, ...]:
        """Each seat's cards on one line."""
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
