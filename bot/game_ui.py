"""What each game's Discord package supplies: its screens, its controls, its words.

A game registers one `GameUI` from its extension's `setup`; shared code calls only this.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.context import Context
from bot.i18n import t
from bot.ui.layout import Button, Controls, Layout, Style
from games.engine import Event, Session
from storage import GameStats, PrefTable

ACCENT = 0x5865F2
"""The accent colour of a table in play (Discord's blurple)."""
WON = 0x2ECC71
LOST = 0xE74C3C


@dataclass(frozen=True)
class Pick:
    """A choice that only changes the hand screen (e.g. the selected card), not the game."""

    value: str


@dataclass(frozen=True)
class GameResult:
    """What a server's records keep of a finished game. Lower `score` is better."""

    result: str
    score: int
    won: bool


def table_controls(ctx: Context, finished: bool) -> Controls:
    """The public table's own buttons: Rematch once finished, else the ways to see a hand."""
    if finished:
        return Controls((Button("rematch", ctx.t("table.rematch"), "🔁", Style.PRIMARY),))
    return Controls(
        (
            Button("hand", ctx.t("table.show_hand"), "🃏", Style.PRIMARY),
            Button("dm", ctx.t("table.hand_dm"), "✉️"),
        )
    )


class GameUI(ABC):
    game_id: str
    table_verbs: frozenset[str] = frozenset()
    """Game verbs whose controls sit on the public table rather than a hand."""
    unversioned_verbs: frozenset[str] = frozenset()
    """Game verbs that stay valid whatever changed since they were drawn (e.g. signals)."""
    pictures: bool = False
    """Whether `table_picture` draws the table (where a picture reads better than text)."""

    @abstractmethod
    def option_lines(self, options: dict[str, Any], lang: str) -> list[str]:
        """The lobby's description of the chosen options."""

    @abstractmethod
    def table(self, ctx: Context) -> Layout:
        """The public table, in play or finished; it must show only the public view.

        Whose turn it is, what they must do and the recent events come first (a phone shows
        the top of a message); `ctx.picture`, when given, is this game's `table_picture` of the
        public view, to show in the layout (whose text must say everything without it).
        """

    @abstractmethod
    def hand(self, ctx: Context, seat: int, pick: str | None) -> Layout:
        """A seat's private hand with its controls (game verbs in `bot.ui.controls.GAME_NS`)."""

    def table_picture(self, view: Any) -> bytes | None:
        """A PNG of the public table drawn from the public `view` only, or None when a picture
        would not read better than the text (the default)."""
        return None

    @abstractmethod
    def control(
        self, ctx: Context, seat: int, verb: str, args: list[str], values: Sequence[str]
    ) -> Any:
        """Turn a click into an engine action, or a `Pick` that only redraws the hand.

        A tuple of actions is one move of the clicker played as several engine actions, in
        order (a choice the rules take in steps); check that they are legal in turn first, as
        each is committed on its own.

        Raises GameError(BAD_OPTION) for a malformed control.
        """

    @abstractmethod
    def event_text(self, event: Event, ctx: Context) -> str | None:
        """A public event of this game in words (None to leave it out of the table's log)."""

    def private_event_text(self, event: Event, ctx: Context) -> str | None:
        """A private event in words, for the hand of its audience."""
        return None

    @abstractmethod
    def result(self, session: Session) -> GameResult | None:
        """What this server's records keep of the finished session."""

    @abstractmethod
    def records_summary(self, server: GameStats, channel: GameStats) -> dict[str, Any]:
        """The figures the finished table shows from this server's and this channel's records."""

    async def rematch_options(self, session: Session, prefs: PrefTable) -> dict[str, Any]:
        """The options of a rematch of this finished session (by default, the same)."""
        return dict(session.record.options)

    async def after_finish(self, session: Session, prefs: PrefTable) -> None:
        """Game-specific bookkeeping when a game ends (e.g. a remembered solo level)."""
        return None

    def rules_text(self, lang: str) -> str:
        return t(lang, f"{self.game_id}.rules")
