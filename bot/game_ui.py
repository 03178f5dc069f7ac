"""What each game's Discord package supplies: its screens, its controls, its words.

A game registers one `GameUI` from its extension's `setup`; shared code calls only this.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.context import Context
from bot.i18n import t
from bot.ui.layout import (
    Block,
    Button,
    Controls,
    Layout,
    Picture,
    Priority,
    Separator,
    Style,
    Text,
    without_controls,
)
from games.engine import Event, Session
from storage import GameRecord, GameStats, HistoryEntry, PlayerTally, PrefTable, Streaks

ACCENT = 0x5865F2
"""The accent colour of a table in play (Discord's blurple)."""
WON = 0x2ECC71
LOST = 0xE74C3C
ENDED = 0x95A5A6
"""The accent of a table closed before its end (abandoned): grey, nothing more to play."""


@dataclass(frozen=True)
class Pick:
    """A choice that only changes the hand screen (e.g. the selected card), not the game."""

    value: str


@dataclass(frozen=True)
class GameResult:
    """What a server's records keep of a finished game. Lower `score` is better."""

    result: str
    score: int | None
    won: bool


@dataclass(frozen=True)
class SeatResult:
    """What a player's stats keep of one seat of a finished game. Lower `score` is better
    (a game that counts points up stores minus the points); `result` is the seat's own result
    code, the game's when empty."""

    won: bool
    score: int | None = None
    result: str = ""


@dataclass(frozen=True)
class Standing:
    """A finished competitive game's places, for the ratings: each seat's (1 is first, equal
    places tie), and those of any side outside the seats (`opponents`: an AI's rating key and
    its place, such as a solo game's NPC)."""

    places: tuple[int, ...]
    opponents: tuple[tuple[str, int], ...] = ()


def places_by_points(points: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Places from points (higher is better) where the game names its winners: the winners
    share first place, then the others by points, equal points sharing a place."""
    others = sorted((p for seat, p in enumerate(points) if seat not in winners), reverse=True)
    return tuple(
        1 if seat in winners else len(winners) + others.index(p) + 1
        for seat, p in enumerate(points)
    )


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


def when(at: float, style: str = "R") -> str:
    """A moment as a Discord timestamp: each reader sees it in their own time zone and language
    (R: "3 hours ago", d: a date)."""
    return f"<t:{int(at)}:{style}>"


def players_label(lang: str, players: int) -> str:
    """A player count in words: solo, 3 players, or all games together (0)."""
    if players == 0:
        return t(lang, "stats.all")
    return t(lang, "stats.solo") if players == 1 else t(lang, "stats.players", count=players)


def figures_line(lang: str, label: str, figures: Sequence[str]) -> str:
    """The one shape of every stats line, whatever the game: `label: figure · figure · …`."""
    return t(lang, "stats.line", label=label, figures=t(lang, "stats.separator").join(figures))


class GameUI(ABC):
    game_id: str
    table_verbs: frozenset[str] = frozenset()
    """Game verbs whose controls sit on the public table rather than a hand."""
    unversioned_verbs: frozenset[str] = frozenset()
    """Game verbs that stay valid whatever changed since they were drawn (e.g. signals)."""
    pictures: bool = False
    """Whether `table_picture` draws the table (where a picture reads better than text)."""
    streaks: bool = True
    """Whether `/stats` shows a player's win streaks in this game."""
    channel_records: bool = False
    """Whether the end table and the board show this channel's records beside the server's."""
    hidden_hands: bool = True
    """Whether a seat holds what the others cannot see (a replay then shows every hand)."""
    rules_pages: tuple[str, ...] = ("intro", "setup", "turn", "scoring", "rulings")
    """The pages of `/<game> rules` in order (see `bot.rules`): each is the catalog text
    `{game_id}.rules.{page}`; a game adds `options` for its variants or leaves a page out."""

    @abstractmethod
    def option_lines(
        self, options: dict[str, Any], lang: str, players: int | None = None
    ) -> list[str]:
        """The chosen options in words; in a lobby, `players` is the seats taken so far (an
        option that applies only to some player counts is told only then)."""

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
        order (a choice the rules take in steps): all of them are committed together, or none
        when any is refused.

        Raises GameError(BAD_OPTION) for a malformed control.
        """

    @abstractmethod
    def event_text(self, event: Event, ctx: Context) -> str | None:
        """A public event of this game in words (None to leave it out of the table's log)."""

    @abstractmethod
    def action_text(self, ctx: Context, seat: int, action: Any) -> str:
        """One of `seat`'s actions in words (what the move is, for /hint), from that seat's
        view only: it must say nothing the seat cannot see."""

    def private_event_text(self, event: Event, ctx: Context) -> str | None:
        """A private event in words, for the hand of its audience."""
        return None

    # Records, stats, history and replays ----------------------------------------------------
    # The defaults suit a game whose outcome names its winners and scores points up (higher is
    # better): a game with other results or other figures overrides them.

    def result(self, session: Session) -> GameResult | None:
        """What this server's records keep of the finished session: by default the game's
        result code, won when anyone won, and the best score (stored negated)."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        score = -max(outcome.scores) if outcome.scores else None
        return GameResult(result=outcome.result, score=score, won=bool(outcome.winners))

    def seat_results(self, session: Session) -> tuple[SeatResult, ...] | None:
        """Each seat's result for its player's stats: by default won when among the outcome's
        winners, the seat's points (stored negated) when the outcome scores every seat."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        count = len(session.record.seats)
        scores = outcome.scores if len(outcome.scores) == count else ()
        return tuple(
            SeatResult(
                won=seat in outcome.winners,
                score=-scores[seat] if scores else None,
                result="win" if seat in outcome.winners else "loss",
            )
            for seat in range(count)
        )

    def standing(self, session: Session) -> Standing | None:
        """The finished session's places for the ratings; None (the default) for a game that
        is not rated, such as a cooperative one. A competitive game declares its own."""
        return None

    def ai_name(self, lang: str, key: str) -> str:
        """A rated AI by its key: an AI level, or an opponent of the game's own (`Standing`)."""
        return t(lang, "ratings.ai", level=t(lang, f"ai.level.{key}"))

    def score_text(self, lang: str, score: int, players: int) -> str | None:
        """A stored score (a record's or a seat's, lower is better) in words, None to show
        none; by default points, stored negated."""
        return t(lang, "stats.points", count=-score)

    def tally_figures(self, lang: str, tally: PlayerTally) -> list[str]:
        """A player's figures at one player count: played, won, lost and the best result; a
        game with figures of its own adds them."""
        figures = [
            t(lang, "stats.played", count=tally.games),
            t(lang, "stats.won", count=tally.wins),
            t(lang, "stats.lost", count=tally.losses),
        ]
        best = tally.best
        shown = None if best is None else self.score_text(lang, best[0], tally.players)
        if best is not None and shown is not None:
            figures.append(t(lang, "stats.best" if best[1] else "stats.best_loss", best=shown))
        return figures

    def tally_line(self, lang: str, tally: PlayerTally) -> str:
        """A player's figures at one player count (`tally.players`, 0 for all together)."""
        label = players_label(lang, tally.players)
        return figures_line(lang, label, self.tally_figures(lang, tally))

    def stats_lines(
        self, lang: str, tallies: Sequence[PlayerTally], streaks: Streaks | None
    ) -> list[str]:
        """A player's figures in this game for `/stats`: all games, then each player count
        (when there are several), then the win streaks."""
        lines = [self.tally_line(lang, tally) for tally in tallies if tally.players == 0]
        counts = [tally for tally in tallies if tally.players != 0]
        if len(counts) > 1:
            lines += [self.tally_line(lang, tally) for tally in counts]
        elif counts:
            lines = [self.tally_line(lang, counts[0])]
        if self.streaks and streaks is not None:
            lines.append(t(lang, "stats.streaks", current=streaks.current, best=streaks.best))
        return lines

    def wins_text(self, lang: str, wins: int) -> str:
        """How many of a server's games count as won (`GameResult.won`), in words."""
        return t(lang, "stats.won", count=wins)

    def record_figures(self, lang: str, stats: GameStats) -> list[str]:
        """A server's (or a channel's) figures in this game: played, won and the best result;
        a game with figures of its own adds them."""
        figures = [t(lang, "stats.played", count=stats.games), self.wins_text(lang, stats.wins)]
        best = stats.best
        if best is not None and best.score is not None:
            shown = self.score_text(lang, best.score, best.players)
            if shown is not None:
                key = "stats.best" if best.won else "stats.best_loss"
                figures.append(t(lang, key, best=shown))
        return figures

    def records_lines(self, lang: str, server: GameStats, channel: GameStats) -> list[str]:
        """The server's figures, then this channel's where the game keeps channel records:
        what the end table shows and the board starts with."""
        lines = [figures_line(lang, t(lang, "stats.server"), self.record_figures(lang, server))]
        if self.channel_records:
            figures = self.record_figures(lang, channel)
            lines.append(figures_line(lang, t(lang, "stats.channel"), figures))
        return lines

    def records_text(self, ctx: Context) -> str | None:
        """The end table's records (`ctx.records`) under their heading; None before they are
        read."""
        if ctx.records is None:
            return None
        lines = self.records_lines(ctx.lang, ctx.records.server, ctx.records.channel)
        changes = [
            ctx.t(
                "ratings.change",
                name=ctx.names[c.seat] if c.seat >= 0 else self.ai_name(ctx.lang, c.ai),
                rating=c.after,
                delta=f"{c.delta:+d}" if c.delta else "±0",
            )
            for c in ctx.records.ratings
            if c.rated and c.seat < len(ctx.names)
        ]
        if changes:
            separator = ctx.t("stats.separator")
            lines.append(ctx.t("ratings.changes", changes=separator.join(changes)))
        return "\n".join([f"**{ctx.t('records.title')}**", *lines])

    def board_lines(
        self, lang: str, server: GameStats, channel: GameStats, best: Sequence[GameRecord]
    ) -> list[str]:
        """This game's part of the server's board (above its top players): its records, then
        its best results (`best`, a win always before a loss)."""
        lines = self.records_lines(lang, server, channel)
        shown = [
            (record, text)
            for record in best
            if record.score is not None
            and (text := self.score_text(lang, record.score, record.players)) is not None
        ]
        if shown:
            results = [
                t(lang, "stats.board.best_line", n=i, result=text, when=when(r.finished_at, "d"))
                for i, (r, text) in enumerate(shown, 1)
            ]
            separator = t(lang, "stats.separator")
            lines.append(t(lang, "stats.board.best", results=separator.join(results)))
        return lines

    def history_text(self, lang: str, entry: HistoryEntry, names: Sequence[str]) -> str:
        """A finished game's result in words for `/history` (`names`: its seats as shown);
        by default its winners, with each seat's points when the game scores seats."""
        winners = [names[s.seat] for s in entry.seats if s.won and s.seat < len(names)]
        text = t(lang, "history.winners", names=", ".join(winners)) if winners else ""
        scored = [
            f"{names[s.seat]} {shown}"
            for s in entry.seats
            if s.score is not None
            and s.seat < len(names)
            and (shown := self.score_text(lang, s.score, len(entry.seats))) is not None
        ]
        if scored:
            text = " · ".join(filter(None, [text, ", ".join(scored)]))
        return text or t(lang, "history.no_winner")

    def replay_hands(self, ctx: Context) -> tuple[Block, ...]:
        """Every seat's hidden holdings at a replayed step (the game is over, so a replay shows
        them all). By default each seat's own hand screen without its controls, nothing when
        the game has no `hidden_hands`; a game whose hands fit a line overrides this."""
        if not self.hidden_hands:
            return ()
        blocks: list[Block] = []
        for seat, name in enumerate(ctx.names):
            hand = without_controls(self.hand(ctx, seat, None))
            blocks.append(Text(f"**{name}**", Priority.NORMAL))
            blocks += [
                replace(block, priority=Priority.NORMAL)
                for block in hand.blocks
                if not isinstance(block, Picture | Separator)
            ]
        return tuple(blocks)

    async def rematch_options(self, session: Session, prefs: PrefTable) -> dict[str, Any]:
        """The options of a rematch of this finished session (by default, the same)."""
        return dict(session.record.options)

    async def after_finish(self, session: Session, prefs: PrefTable) -> None:
        """Game-specific bookkeeping when a game ends (e.g. a remembered solo level)."""
        return None
