"""Finished games per guild and channel, for `/… stats`: best result, wins, results by code.

Generic on purpose: the bot passes the game's own result code ("perfect", "win", …), whether
the players won, and a score where lower is better (The Game: cards left), so no game's rules
live here.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from storage.db import Database


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    session_id: str | None
    result: str
    score: int | None
    players: int
    details: dict[str, Any]
    finished_at: float
    won: bool


@dataclass(frozen=True, slots=True)
class GameStats:
    game_id: str
    games: int = 0
    wins: int = 0
    best: GameRecord | None = None
    """The best result: the lowest-scoring win, or the lowest-scoring game when none was won
    (the earliest one on a tie); None when no game that competes has a score. A loss never
    beats a win, whatever its score."""
    results: dict[str, int] = field(default_factory=dict)
    """How many games ended with each result code."""


def _record(row: sqlite3.Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        session_id=row["session_id"],
        result=row["result"],
        score=row["score"],
        players=row["players"],
        details=json.loads(row["details"]),
        finished_at=row["finished_at"],
        won=bool(row["won"]),
    )


def _scope(
    guild_id: int | None, game_id: str, channel_id: int | None
) -> tuple[str, tuple[Any, ...]]:
    """The WHERE clause of one server's (or one channel's) records of a game.

    `guild_id IS ?` so that DM games (guild_id NULL) have records too.
    """
    if channel_id is None:
        return "guild_id IS ? AND game_id = ?", (guild_id, game_id)
    return "guild_id IS ? AND game_id = ? AND channel_id = ?", (guild_id, game_id, channel_id)


class Records:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        session_id: str | None,
        result: str,
        score: int | None,
        players: int,
        won: bool,
        details: dict[str, Any] | None = None,
        finished_at: float | None = None,
    ) -> bool:
        """Record a finished game; False (and nothing stored) if the session has one already.

        Idempotent per session, so re-handling a "finished" change after a restart is safe.
        """
        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "INSERT INTO records (guild_id, channel_id, game_id, session_id, result, score, "
                "players, won, details, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (session_id) DO NOTHING",
                (
                    guild_id,
                    channel_id,
                    game_id,
                    session_id,
                    result,
                    score,
                    players,
                    won,
                    json.dumps(details or {}, separators=(",", ":")),
                    time.time() if finished_at is None else finished_at,
                ),
            )
            return cursor.rowcount == 1

        return await self.db.write(write)

    async def stats(
        self, guild_id: int | None, game_id: str, channel_id: int | None = None
    ) -> GameStats:
        """One server's figures for one game, or one channel's (guild None: games in DMs)."""
        where, params = _scope(guild_id, game_id, channel_id)

        def read(conn: sqlite3.Connection) -> tuple[list[sqlite3.Row], sqlite3.Row | None]:
            counts = conn.execute(
                f"SELECT result, COUNT(*) AS n, SUM(won) AS wins FROM records WHERE {where} "
                "GROUP BY result ORDER BY n DESC, result",
                params,
            ).fetchall()
            # Once any game was won, only wins compete for the best result.
            best = conn.execute(
                f"SELECT * FROM records WHERE {where} AND score IS NOT NULL "
                f"AND won >= (SELECT MAX(won) FROM records WHERE {where}) "
                "ORDER BY score, finished_at, id LIMIT 1",
                params + params,
            ).fetchone()
            return counts, best

        counts, best = await self.db.read(read)
        results = {row["result"]: row["n"] for row in counts}
        return GameStats(
            game_id=game_id,
            games=sum(results.values()),
            wins=sum(row["wins"] for row in counts),
            best=None if best is None else _record(best),
            results=results,
        )

    async def recent(self, guild_id: int | None, game_id: str, limit: int = 10) -> list[GameRecord]:
        """The latest finished games, newest first."""
        where, params = _scope(guild_id, game_id, None)
        sql = f"SELECT * FROM records WHERE {where} ORDER BY finished_at DESC, id DESC LIMIT ?"
        rows = await self.db.read(lambda conn: conn.execute(sql, (*params, limit)).fetchall())
        return [_record(row) for row in rows]
