"""Per-player results: one row per seat of a finished game, and running totals per player.

Written by `Records.add` in the record's own transaction (`write_seats`), read for `/stats`.
Like `records`, generic: a seat's `won`, its `score` (lower is better, as the game defines it)
and its result code come from the game's Discord package; no game's rules live here.

Every read is an index search, never a scan of a server's games: the totals answer counts,
bests and the board; the ordered seat rows of one player and game answer the streaks.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from storage.sql import Conn, Dialect, Row, greatest, least

if TYPE_CHECKING:
    from storage.database import Database

ALL_COUNTS = 0
"""The `players` of a player's totals over every player count together."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """What a finished game's seat keeps (input of `Records.add`)."""

    seat: int
    user_id: int | None
    """None for an AI seat (or a seat an AI took over for good)."""
    won: bool
    score: int | None = None
    """Lower is better, as the game defines it; None when the game keeps no score."""
    result: str = ""
    """The seat's own result code (defaults to the game's)."""
    name: str = ""
    hints: int = 0
    """Hints (/hint) the seat's player asked for in the game."""


@dataclass(frozen=True, slots=True)
class PlayerTally:
    """One player's figures in one game of one server, for one player count (0: all)."""

    user_id: int
    game_id: str
    players: int
    games: int
    wins: int
    best_win: int | None
    best_loss: int | None
    results: dict[str, int] = field(default_factory=dict)
    last_at: float = 0.0

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def best(self) -> tuple[int, bool] | None:
        """The best score and whether it was a win: a loss counts only while nothing was won."""
        if self.wins:
            return None if self.best_win is None else (self.best_win, True)
        return None if self.best_loss is None else (self.best_loss, False)


@dataclass(frozen=True, slots=True)
class Streaks:
    """Wins in a row: up to the player's latest game, and the longest ever."""

    current: int = 0
    best: int = 0


def tally_of(row: Row) -> PlayerTally:
    return PlayerTally(
        user_id=row["user_id"],
        game_id=row["game_id"],
        players=row["players"],
        games=row["games"],
        wins=row["wins"],
        best_win=row["best_win"],
        best_loss=row["best_loss"],
        results=json.loads(row["results"]),
        last_at=row["last_at"],
    )


_INSERT_SEAT = """
INSERT INTO seat_results (record_id, seat, guild_id, game_id, user_id, name, players, won,
    score, result, finished_at, hints)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
"""


@functools.cache
def _upsert_total(dialect: Dialect) -> str:
    """Add one game to a player's totals: the lower scores kept, the result counted."""
    return f"""
INSERT INTO player_totals (guild_id, user_id, game_id, players, games, wins, best_win,
    best_loss, results, last_at)
VALUES ($1, $2, $3, $4, 1, $5, $6, $7, {dialect.counter("$8")}, $9)
ON CONFLICT (guild_id, user_id, game_id, players) DO UPDATE SET
    games = player_totals.games + 1,
    wins = player_totals.wins + excluded.wins,
    best_win = {least("player_totals.best_win", "excluded.best_win")},
    best_loss = {least("player_totals.best_loss", "excluded.best_loss")},
    results = {dialect.count_up("player_totals.results", "$8")},
    last_at = {greatest("player_totals.last_at", "excluded.last_at")}
"""


async def write_seats(
    conn: Conn,
    record_id: int,
    *,
    guild_id: int | None,
    game_id: str,
    players: int,
    finished_at: float,
    default_result: str,
    seats: Sequence[SeatRow],
) -> None:
    """Store a record's seats and add them to their players' totals (inside its transaction).

    Totals are per server: a game outside one (guild None) keeps its seats but no totals.
    """
    await conn.executemany(
        _INSERT_SEAT,
        [
            (
                record_id,
                s.seat,
                guild_id,
                game_id,
                s.user_id,
                s.name,
                players,
                s.won,
                s.score,
                s.result or default_result,
                finished_at,
                s.hints,
            )
            for s in seats
        ],
    )
    if guild_id is None:
        return
    totals: list[tuple[Any, ...]] = []
    for s in seats:
        if s.user_id is None:
            continue
        result = s.result or default_result
        for count in (players, ALL_COUNTS):
            totals.append(
                (
                    guild_id,
                    s.user_id,
                    game_id,
                    count,
                    int(s.won),
                    s.score if s.won else None,
                    None if s.won else s.score,
                    result,
                    finished_at,
                )
            )
    if totals:
        await conn.executemany(_upsert_total(conn.dialect), totals)


# Wins in a row over one player's games in order: each loss starts a new run (`grp` counts
# the losses so far), a run's length is its wins; the last run is the current streak.
_STREAKS = """
WITH ordered AS (
    SELECT CAST(won AS INTEGER) AS won,
        SUM(1 - CAST(won AS INTEGER)) OVER (ORDER BY finished_at, record_id) AS grp
    FROM seat_results
    WHERE guild_id = $1 AND user_id = $2 AND game_id = $3 AND user_id IS NOT NULL
),
runs AS (SELECT grp, SUM(won) AS n FROM ordered GROUP BY grp)
SELECT COALESCE(MAX(n), 0) AS best,
    COALESCE((SELECT n FROM runs ORDER BY grp DESC LIMIT 1), 0) AS current
FROM runs
"""


class Players:
    """Reads of the per-player results of one server."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def totals(
        self, guild_id: int, user_id: int, game_id: str | None = None
    ) -> list[PlayerTally]:
        """The player's totals in this server, per game and player count (0: all counts)."""
        where = "guild_id = $1 AND user_id = $2"
        params: list[int | str] = [guild_id, user_id]
        if game_id is not None:
            where += " AND game_id = $3"
            params.append(game_id)
        sql = f"SELECT * FROM player_totals WHERE {where} ORDER BY game_id, players"
        return [tally_of(row) for row in await self.db.fetch(sql, *params)]

    async def streaks(self, guild_id: int, user_id: int, game_id: str) -> Streaks:
        """Win streaks over the player's games of `game_id` here, in the order they ended."""
        row = await self.db.fetchrow(_STREAKS, guild_id, user_id, game_id)
        if row is None:
            return Streaks()
        return Streaks(current=int(row["current"]), best=int(row["best"]))

    async def top(self, guild_id: int, game_id: str, limit: int = 5) -> list[PlayerTally]:
        """The server's players of a game by wins, then by fewer games."""
        sql = (
            "SELECT * FROM player_totals WHERE guild_id = $1 AND game_id = $2 AND players = $3 "
            "ORDER BY wins DESC, games, user_id LIMIT $4"
        )
        rows = await self.db.fetch(sql, guild_id, game_id, ALL_COUNTS, limit)
        return [tally_of(row) for row in rows]
