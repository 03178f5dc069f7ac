"""Hell Queue Club's `GameUI`: the hooks the shared code calls, each answered by the module
that holds that job (screens, controls, words; the records are every competitive game's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.games.hellqueue import controls, screens, words
from bot.games.hellqueue.picture import table_picture
from bot.games.hellqueue.pieces import view_of
from bot.ui import competitive
from bot.ui.layout import Layout
from games.engine import GameError, Reason
from games.hellqueue.moves import to_move_seat


class HellQueueUI(competitive.CompetitiveUI):
    game_id = "hellqueue"
    pictures = True
    channel_records = True
    hidden_hands = False
    """Every die and stone is on the table: a replay's public table shows it all."""

    # Hooks a module of the game answers itself: the shared code calls it directly.
    hand = staticmethod(screens.hand)
    action_text = staticmethod(words.action_text)
    event_text = staticmethod(words.event_text)

    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        return []

    def table_picture(self, view: Any) -> bytes | None:
        """The three cards and their dice (see `picture`): rows of dice read better drawn."""
        return table_picture(view)

    def table(self, ctx: Context) -> Layout:
        return screens.table(ctx, self.records_text(ctx), self.accent(ctx.session))

    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        view = view_of(ctx, seat)
        if to_move_seat(view) != seat:
            raise GameError(Reason.NOT_YOUR_TURN)
        return controls.control(view, seat, verb, args, values)
