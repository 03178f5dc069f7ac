"""The Game's results and records: cooperative, so every seat shares the table's result, and
the cards left are the score (lower is better); perfect wins are counted apart (rulebook §9).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from bot.game_ui import GameResult, GameUI, SeatResult
from bot.i18n import t
from games.engine import Session
from games.thegame.rules import PERFECT, WIN
from storage import GameStats, HistoryEntry, PlayerTally

RESULT_EMOJI = {PERFECT: "🏆", WIN: "🎉", "loss": "💀", "burned": "🔥"}


def result_text(ctx: Context, result: str, left: int) -> str:
    """The table's result with its cards left."""
    return f"{RESULT_EMOJI.get(result, '')} " + ctx.t(f"thegame.result.{result}", count=left)


class TheGameRecords(GameUI):
    """The Game's records hooks of `GameUI`."""

    def result(self, session: Session) -> GameResult | None:
        """Cards left is the score (lower is better); perfect and plain wins are wins."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        won = outcome.result in (PERFECT, WIN)
        return GameResult(result=outcome.result, score=session.state.cards_left, won=won)

    def seat_results(self, session: Session) -> tuple[SeatResult, ...] | None:
        """Cooperative: every seat shares the table's result and its cards left."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        won = outcome.result in (PERFECT, WIN)
        left = session.state.cards_left
        seat = SeatResult(won=won, score=left, result=outcome.result)
        return (seat,) * len(session.record.seats)

    def score_text(self, lang: str, score: int, players: int) -> str | None:
        return t(lang, "thegame.stats.left", count=score)

    def tally_figures(self, lang: str, tally: PlayerTally) -> list[str]:
        """The shared figures (the best is the fewest cards left), then the perfect wins."""
        perfect = t(lang, "thegame.stats.perfect", count=tally.results.get(PERFECT, 0))
        return [*super().tally_figures(lang, tally), perfect]

    def record_figures(self, lang: str, stats: GameStats) -> list[str]:
        """The shared figures, then the perfect wins: each server and each channel keeps its
        best result and its perfect wins (rulebook §9)."""
        perfect = t(lang, "thegame.stats.perfect", count=stats.results.get(PERFECT, 0))
        return [*super().record_figures(lang, stats), perfect]

    def history_text(self, lang: str, entry: HistoryEntry, names: Sequence[str]) -> str:
        record = entry.record
        key = f"thegame.result.{record.result}"
        left = record.score or 0  # a record of The Game always keeps its cards left
        return f"{RESULT_EMOJI.get(record.result, '')} " + t(lang, key, count=left)
