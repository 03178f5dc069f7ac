"""Per-player results on PostgreSQL (see `storage.players`): seat rows and running totals,
written in the record's transaction, and the reads of `/stats`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from storage.players import ALL_COUNTS, PlayerTally, SeatRow, Streaks, tally_of
from storage.postgres.db import PgDatabase

_INSERT_SEAT = """
INSERT INTO seat_results (record_id, seat, guild_id, game_id, user_id, name, players, won,
    score, result, finished_at, hints)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
"""

# LEAST and GREATEST skip NULLs: the lower of two scores, either of which may be NULL.
_UPSERT_TOTAL = """
INSERT INTO player_totals (guild_id, user_id, game_id, players, games, wins, best_win,
    best_loss, results, last_at)
VALUES ($1, $2, $3, $4, 1, $5, $6, $7, jsonb_build_object($8::TEXT, 1), $9)
ON CONFLICT (guild_id, user_id, game_id, players) DO UPDATE SET
    games = player_totals.games + 1,
    wins = player_totals.wins + excluded.wins,
    best_win = LEAST(player_totals.best_win, excluded.best_win),
    best_loss = LEAST(player_totals.best_loss, excluded.best_loss),
    results = player_totals.results || jsonb_build_object(
        $8::TEXT, COALESCE((player_totals.results ->> $8::TEXT)::INTEGER, 0) + 1),
    last_at = GREATEST(player_totals.last_at, excluded.last_at)
"""


async def write_seats(
    conn: asyncpg.Connection,
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
        await conn.executemany(_UPSERT_TOTAL, totals)


# Wins in a row, as in `storage.players`: each loss starts a new run.
_STREAKS = """
WITH ordered AS (
    SELECT won, SUM(1 - won::INTEGER) OVER (ORDER BY finished_at, record_id) AS grp
    FROM seat_results
    WHERE guild_id = $1 AND user_id = $2 AND game_id = $3 AND user_id IS NOT NULL
),
runs AS (SELECT grp, SUM(won::INTEGER) AS n FROM ordered GROUP BY grp)
SELECT COALESCE(MAX(n), 0) AS best,
    COALESCE((SELECT n FROM runs ORDER BY grp DESC LIMIT 1), 0) AS current
FROM runs
"""


class PgPlayers:
    """Reads of the per-player results of one server."""

    def __init__(self, db: PgDatabase) -> None:
        self.db = db

    async def totals(
        self, guild_id: int, user_id: int, game_id: str | None = None
    ) -> list[PlayerTally]:
        """The player's totals in this server, per game and player count (0: all counts)."""
        where, params = "guild_id = $1 AND user_id = $2", [guild_id, user_id]
        if game_id is not None:
            where += " AND game_id = $3"
            params.append(game_id)
        sql = f"SELECT * FROM player_totals WHERE {where} ORDER BY game_id, players"
        return [tally_of(row) for row in await self.db.fetch(sql, *params)]

    async def streaks(self, guild_id: int, user_id: int, game_id: str) -> Streaks:
        """Win streaks over the player's games of `game_id` here, in the order they ended."""
        row = await self.db.fetchrow(_STREAKS, guild_id, user_id, game_id)
        return Streaks() if row is None else Streaks(current=row["current"], best=row["best"])

    async def top(self, guild_id: int, game_id: str, limit: int = 5) -> list[PlayerTally]:
        """The server's players of a game by wins, then by fewer games."""
        sql = (
            "SELECT * FROM player_totals WHERE guild_id = $1 AND game_id = $2 AND players = $3 "
            "ORDER BY wins DESC, games, user_id LIMIT $4"
        )
        rows = await self.db.fetch(sql, guild_id, game_id, ALL_COUNTS, limit)
        return [tally_of(row) for row in rows]
