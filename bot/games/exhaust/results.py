"""Exhaust's results and records: the end in words, what a server and a player keep of a
game, the places for the ratings, and each player's solo level (N+1 after a win).

With others, everyone but the one who failed wins; solo, the player wins or loses against the
NPC, whose pile is the level and the only score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.context import Context
from bot.game_ui import GameResult, GameUI, SeatResult, Standing
from bot.games.exhaust.pieces import seat_name, view_of
from bot.games.exhaust.prefs import MAX_LEVEL, SoloLevels
from bot.i18n import t
from games.engine import Session
from storage import HistoryEntry, PrefTable

NPC_KEY = "npc-"
"""The rating key of the solo NPC, followed by its pile size: each level is an opponent of
its own."""


def result_text(ctx: Context, level: int) -> str:
    """The finished game in words; solo, with the `level` the player's next game is at."""
    session = ctx.session
    outcome = session.rules.outcome(session.state)
    if outcome is None:
        return ""
    view = view_of(ctx, None)
    if view.solo:
        key = "solo_win" if outcome.result == "win" else "solo_loss"
        pile = ctx.t("exhaust.table.cards", count=session.state.config.npc_size)
        upcoming = ctx.t("exhaust.table.cards", count=level)
        return ctx.t(f"exhaust.result.{key}", pile=pile, next=upcoming)
    loser = view.losers[-1]
    winners = ", ".join(seat_name(ctx, s, view) for s in range(view.players) if s != loser)
    name = seat_name(ctx, loser, view)
    if view.long_game:
        tally = ", ".join(
            f"{seat_name(ctx, s, view)} {view.depletion[s]}" for s in range(view.players)
        )
        return ctx.t(
            "exhaust.result.match",
            loser=name,
            winners=winners,
            count=view.game_no,
            tally=tally,
        )
    return ctx.t("exhaust.result.game", loser=name, winners=winners)


def _won_level(session: Session) -> int | None:
    """The level a won game raises its player to (N+1, at most `MAX_LEVEL`); None unless won."""
    outcome = session.rules.outcome(session.state)
    if outcome is None or outcome.result != "win":
        return None
    return min(MAX_LEVEL, session.state.config.npc_size + 1)


class ExhaustRecords(GameUI):
    """Exhaust's records hooks of `GameUI`, and the solo level they keep."""

    def __init__(self) -> None:
        self._next_level: dict[str, int] = {}
        """Solo: the player's level after a finished session, as stored by `after_finish`."""

    def next_level(self, session: Session) -> int:
        """Solo: the level the player's next game defaults to (stored, or derived)."""
        cached = self._next_level.get(session.id)
        if cached is not None:
            return cached
        raised = _won_level(session)
        return session.state.config.npc_size if raised is None else raised

    def result(self, session: Session) -> GameResult | None:
        """A solo win scores minus the NPC pile beaten (lowest = biggest); others score 0."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        config = session.state.config
        won = outcome.result == "win"
        score = -config.npc_size if config.solo and won else 0
        return GameResult(result=outcome.result, score=score, won=won)

    def seat_results(self, session: Session) -> tuple[SeatResult, ...] | None:
        """A seat wins when it is not the loser; a solo seat keeps the NPC pile it played
        (stored negated: the bigger pile is the better result)."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        config = session.state.config
        score = -config.npc_size if config.solo else None
        return tuple(
            SeatResult(
                won=seat in outcome.winners,
                score=score,
                result="win" if seat in outcome.winners else "loss",
            )
            for seat in range(len(session.record.seats))
        )

    def standing(self, session: Session) -> Standing | None:
        """Everyone but the loser shares first place; solo, the player and the NPC of the pile
        they played (each pile size an opponent rated on its own) take first and second."""
        outcome = session.rules.outcome(session.state)
        if outcome is None:
            return None
        config = session.state.config
        if config.solo:
            won = bool(outcome.winners)
            npc = (f"{NPC_KEY}{config.npc_size}", 2 if won else 1)
            return Standing(places=(1 if won else 2,), opponents=(npc,))
        seats = range(len(session.record.seats))
        return Standing(places=tuple(1 if s in outcome.winners else 2 for s in seats))

    def ai_name(self, lang: str, key: str) -> str:
        if key.startswith(NPC_KEY):
            return t(lang, "exhaust.ratings.npc", n=key.removeprefix(NPC_KEY))
        return super().ai_name(lang, key)

    def score_text(self, lang: str, score: int, players: int) -> str | None:
        """Only solo games have a score: the NPC pile (stored negated)."""
        return t(lang, "exhaust.stats.level", n=-score) if score < 0 else None

    def wins_text(self, lang: str, wins: int) -> str:
        """A server's won games are its solo wins: with others, someone always fails."""
        return t(lang, "exhaust.stats.solo_wins", count=wins)

    def history_text(self, lang: str, entry: HistoryEntry, names: Sequence[str]) -> str:
        if len(entry.seats) == 1:
            seat = entry.seats[0]
            level = -seat.score if seat.score is not None else "?"
            key = "exhaust.history.solo_win" if seat.won else "exhaust.history.solo_loss"
            return t(lang, key, n=level)
        losers = [names[s.seat] for s in entry.seats if not s.won and s.seat < len(names)]
        if not losers:
            return super().history_text(lang, entry, names)
        return t(lang, "exhaust.history.loser", name=", ".join(losers))

    async def rematch_options(self, session: Session, prefs: PrefTable) -> dict[str, Any]:
        """A solo rematch is played at the player's current level: N+1 after a win, decided
        from the finished game itself, since the Rematch button may be clicked before
        `after_finish` has stored the new level."""
        options = dict(session.record.options)
        user_id = session.record.seats[0].user_id if session.record.seats else None
        if session.state is not None and session.state.config.solo and user_id is not None:
            raised = _won_level(session)
            options["npc_size"] = raised or await SoloLevels(prefs).get(user_id)
        return options

    async def after_finish(self, session: Session, prefs: PrefTable) -> None:
        """Solo: after a win the player's level becomes N+1; remember it for the table."""
        config = session.state.config
        user_id = session.record.seats[0].user_id
        outcome = session.rules.outcome(session.state)
        if not config.solo or user_id is None or outcome is None:
            return
        levels = SoloLevels(prefs)
        if (raised := _won_level(session)) is not None:
            await levels.set(user_id, raised)
        self._next_level[session.id] = await levels.get(user_id)
