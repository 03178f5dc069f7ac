"""Finished games per guild, for `/… stats`: best score, results by code, games played.

Generic on purpose: the bot passes the game's own result code ("perfect", "win", …) and a
score where lower is better (The Game: cards left), so no game's rules live here.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

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


@dataclass(frozen=True, slots=True)
class GameStats:
    game_id: str
    games: int = 0
    best: GameRecord | None = None
    """The lowest score (the earliest one on a tie); None when no game had a score."""
    results: dict[str, int] = field(default_factory=dict)
    """How many games ended with each result code."""


def _record(row: aiosqlite.Row) -> GameRecord:
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
    )


_SCOPE = "guild_id IS ? AND game_id = ?"
"""`IS` so that DM games (guild_id NULL) have records too."""


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
        details: dict[str, Any] | None = None,
        finished_at: float | None = None,
    ) -> bool:
        """Record a finished game; False (and nothing stored) if the session has one already.

        Idempotent per session, so re-handling a "finished" change after a restart is safe.
        """
        async with self.db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO records (guild_id, channel_id, game_id, session_id, result, score, "
                "players, details, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (session_id) DO NOTHING",
                (
                    guild_id,
                    channel_id,
                    game_id,
                    session_id,
                    result,
                    score,
                    players,
                    json.dumps(details or {}, separators=(",", ":")),
                    time.time() if finished_at is None else finished_at,
                ),
            )
            return cursor.rowcount == 1

    async def stats(self, guild_id: int | None, game_id: str) -> GameStats:
        """One guild's figures for one game (guild None: games played in DMs)."""
        async with self.db.read() as conn:
            counts = await conn.execute_fetchall(
                f"SELECT result, COUNT(*) AS n FROM records WHERE {_SCOPE} "
                "GROUP BY result ORDER BY n DESC, result",
                (guild_id, game_id),
            )
            async with conn.execute(
                f"SELECT * FROM records WHERE {_SCOPE} AND score IS NOT NULL "
                "ORDER BY score, finished_at, id LIMIT 1",
                (guild_id, game_id),
            ) as cursor:
                best = await cursor.fetchone()
        results = {row["result"]: row["n"] for row in counts}
        return GameStats(
            game_id=game_id,
            games=sum(results.values()),
            best=None if best is None else _record(best),
            results=results,
        )

    async def recent(self, guild_id: int | None, game_id: str, limit: int = 10) -> list[GameRecord]:
        """The latest finished games, newest first."""
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT * FROM records WHERE {_SCOPE} ORDER BY finished_at DESC, id DESC LIMIT ?",
                (guild_id, game_id, limit),
            )
        return [_record(row) for row in rows]
