"""Per-player results: one row per seat of a finished game, and running totals per player.

Written by `Records.add` in the record's own transaction (`write_seats`), read for `/stats`.
Like `records`, generic: a seat's `won`, its `score` (lower is better, as the game defines it)
and its result code come from the game's Discord package; no game's rules live here.

Every read is an index search, never a scan of a server's games: the totals answer counts,
bests and the board; the ordered seat rows of one player and game answer the streaks.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.db import Database
from storage.rows import Row

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
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

# MIN(COALESCE(a, b), COALESCE(b, a)): the lower of two scores, either of which may be NULL.
_UPSERT_TOTAL = """
INSERT INTO player_totals (guild_id, user_id, game_id, players, games, wins, best_win,
    best_loss, results, last_at)
VALUES (:guild_id, :user_id, :game_id, :players, 1, :won, :best_win, :best_loss,
    json_object(:result, 1), :at)
ON CONFLICT (guild_id, user_id, game_id, players) DO UPDATE SET
    games = games + 1,
    wins = wins + excluded.wins,
    best_win = MIN(COALESCE(best_win, excluded.best_win), COALESCE(excluded.best_win, best_win)),
    best_loss = MIN(COALESCE(best_loss, excluded.best_loss),
        COALESCE(excluded.best_loss, best_loss)),
    results = json_set(results, :path, COALESCE(json_extract(results, :path), 0) + 1),
    last_at = MAX(last_at, excluded.last_at)
"""


def write_seats(
    conn: sqlite3.Connection,
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
    conn.executemany(
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
    totals: list[dict[str, Any]] = []
    for s in seats:
        if s.user_id is None:
            continue
        result = s.result or default_result
        for count in (players, ALL_COUNTS):
            totals.append(
                {
                    "guild_id": guild_id,
                    "user_id": s.user_id,
                    "game_id": game_id,
                    "players": count,
                    "won": int(s.won),
                    "best_win": s.score if s.won else None,
                    "best_loss": None if s.won else s.score,
                    "result": result,
                    "path": "$." + json.dumps(result),
                    "at": finished_at,
                }
            )
    conn.executemany(_UPSERT_TOTAL, totals)


# Wins in a row over one player's games in order: each loss starts a new run (`grp` counts
# the losses so far), a run's length is its wins; the last run is the current streak.
_STREAKS = """
WITH ordered AS (
    SELECT won, SUM(1 - won) OVER (ORDER BY finished_at, record_id) AS grp
    FROM seat_results
    WHERE guild_id = ? AND user_id = ? AND game_id = ? AND user_id IS NOT NULL
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
        where, params = "guild_id = ? AND user_id = ?", [guild_id, user_id]
        if game_id is not None:
            where += " AND game_id = ?"
            params.append(game_id)
        sql = f"SELECT * FROM player_totals WHERE {where} ORDER BY game_id, players"
        rows = await self.db.read(lambda conn: conn.execute(sql, params).fetchall())
        return [tally_of(row) for row in rows]

    async def streaks(self, guild_id: int, user_id: int, game_id: str) -> Streaks:
        """Win streaks over the player's games of `game_id` here, in the order they ended."""
        params = (guild_id, user_id, game_id)
        row = await self.db.read(lambda conn: conn.execute(_STREAKS, params).fetchone())
        return Streaks() if row is None else Streaks(current=row["current"], best=row["best"])

    async def top(self, guild_id: int, game_id: str, limit: int = 5) -> list[PlayerTally]:
        """The server's players of a game by wins, then by fewer games."""
        sql = (
            "SELECT * FROM player_totals WHERE guild_id = ? AND game_id = ? AND players = ? "
            "ORDER BY wins DESC, games, user_id LIMIT ?"
        )
        params = (guild_id, game_id, ALL_COUNTS, limit)
        rows = await self.db.read(lambda conn: conn.execute(sql, params).fetchall())
        return [tally_of(row) for row in rows]
