"""The records of a competitive game won on points, played against AI seats as often as not.

Such a game's outcome names its winners (its tie-breaks decided) and scores every seat's points,
higher being better. A server counts a game as won only when a person is among its winners
(an AI's win is no one's), keeps the winning points as its best result, and rates the winners
first, then the others by their points.
"""

from __future__ import annotations

from bot.game_ui import ACCENT, LOST, WON, GameResult, GameUI, Standing, places_by_points
from bot.i18n import t
from games.engine import Session


def person_won(session: Session) -> bool:
    """Whether a person (not an AI seat) is among the finished session's winners."""
    outcome = session.rules.outcome(session.state)
    seats = session.record.seats
    return outcome is not None and any(seats[s].user_id is not None for s in outcome.winners)


class CompetitiveUI(GameUI):
    """`GameUI` with the records, ratings and end accent of a competitive game won on points."""

    def result(self, session: Session) -> GameResult | None:
        """The winning points are kept (as their negative: lower is better); a game counts as
        won when a person is among the winners."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        top = max(outcome.scores)
        return GameResult(result=outcome.result, score=-top, won=person_won(session))

    def standing(self, session: Session) -> Standing | None:
        """The winners first, then the others by their points, equal points sharing a place."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        return Standing(places_by_points(outcome.scores, outcome.winners))

    def wins_text(self, lang: str, wins: int) -> str:
        """A server's won games are those a person won."""
        return t(lang, "stats.won_by_player", count=wins)

    def accent(self, session: Session) -> int:
        """The table's accent: in play, then won when a person won."""
        if session.rules.outcome(session.state) is None:
            return ACCENT
        return WON if person_won(session) else LOST
