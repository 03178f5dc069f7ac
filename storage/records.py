"""Finished games per guild and channel: best result, wins, results by code, the latest games.

Generic on purpose: the bot passes the game's own result code ("perfect", "win", …), whether
the players won, and a score where lower is better (The Game: cards left), so no game's rules
live here. Each record may carry its seats (`storage.players`), written in the same
transaction. Every query here is served by an index (migration 4), so a server's figures cost
the same with ten games or a hundred thousand.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.database import Database
from storage.players import SeatRow, write_seats
from storage.ratings import Entrant, rate
from storage.sql import Conn, Row, dumps

NO_GUILD = 0
"""`record_totals.guild_key` of games outside a server (no Discord id is 0)."""


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
    hints: int = 0
    """Hints (/hint) the players asked for in the game; more than 0 marks a game played with
    hints."""


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


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    user_id: int | None
    name: str
    won: bool
    score: int | None
    result: str
    hints: int = 0


def stored_seat(row: Row) -> StoredSeat:
    return StoredSeat(
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        won=bool(row["won"]),
        score=row["score"],
        result=row["result"],
        hints=row["hints"],
    )


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A finished game as `/history` lists it: its record, its seats, its table message."""

    record: GameRecord
    seats: tuple[StoredSeat, ...]
    table_message_id: int | None


def game_record(row: Row) -> GameRecord:
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
        hints=row["hints"],
    )


def _scope(
    guild_id: int | None, game_id: str | None, channel_id: int | None = None, alias: str = ""
) -> tuple[str, list[Any]]:
    """The WHERE clause of one server's (or one channel's) records, of one game or all.

    `guild_id IS NULL` for DM games, spelled out rather than compared with a parameter that
    may be NULL (`IS NOT DISTINCT FROM`, which no index of PostgreSQL serves).
    """
    params: list[Any] = []
    if guild_id is None:
        clauses = [f"{alias}guild_id IS NULL"]
    else:
        params.append(guild_id)
        clauses = [f"{alias}guild_id = ${len(params)}"]
    if game_id is not None:
        params.append(game_id)
        clauses.append(f"{alias}game_id = ${len(params)}")
    if channel_id is not None:
        params.append(channel_id)
        clauses.append(f"{alias}channel_id = ${len(params)}")
    return " AND ".join(clauses), params


async def _best(
    conn: Conn | Database, where: str, params: list[Any], limit: int
) -> list[GameRecord]:
    rows = await conn.fetch(_best_sql(where, f"${len(params) + 1}"), *params, limit)
    return [game_record(row) for row in rows]


def _best_sql(where: str, limit: str) -> str:
    """Once any game was won, only wins compete (a win without a score hides every loss)."""
    return (
        f"SELECT * FROM records WHERE {where} AND score IS NOT NULL "
        f"AND won = (SELECT won FROM records WHERE {where} ORDER BY won DESC LIMIT 1) "
        f"ORDER BY won DESC, score, finished_at, id LIMIT {limit}"
    )


_INSERT = """
INSERT INTO records (guild_id, channel_id, game_id, session_id, result, score, players, won,
    details, finished_at, hints)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (session_id) DO NOTHING RETURNING id
"""

_TOTAL = """
INSERT INTO record_totals (guild_key, game_id, channel_id, result, games, wins)
VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (guild_key, game_id, channel_id, result)
DO UPDATE SET games = record_totals.games + 1, wins = record_totals.wins + excluded.wins
"""


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
        seats: Sequence[SeatRow] = (),
        hints: int = 0,
        entrants: Sequence[Entrant] = (),
    ) -> bool:
        """Record a finished game and its seats; False (and nothing stored) if the session has
        one already. `hints`: how many the players asked for (a game played with hints);
        `entrants`: the sides of a competitive game and their places, to rate it.

        Idempotent per session, so re-handling a "finished" change after a restart is safe.
        """
        at = time.time() if finished_at is None else finished_at
        row = (
            guild_id,
            channel_id,
            game_id,
            session_id,
            result,
            score,
            players,
            won,
            dumps(details or {}),
            at,
            hints,
        )

        async def write(conn: Conn) -> bool:
            record_id = await conn.fetchval(_INSERT, *row)
            if record_id is None:
                return False
            key = guild_id or NO_GUILD
            await conn.execute(_TOTAL, key, game_id, channel_id, result, int(won))
            if seats:
                await write_seats(
                    conn,
                    record_id,
                    guild_id=guild_id,
                    game_id=game_id,
                    players=players,
                    finished_at=at,
                    default_result=result,
                    seats=seats,
                )
            if entrants:  # a competitive game: rated in the same transaction
                await rate(
                    conn,
                    record_id,
                    guild_id=guild_id,
                    game_id=game_id,
                    finished_at=at,
                    entrants=entrants,
                )
            return True

        return await self.db.write(write)

    async def stats(
        self, guild_id: int | None, game_id: str, channel_id: int | None = None
    ) -> GameStats:
        """One server's figures for one game, or one channel's (guild None: games in DMs)."""
        where, params = _scope(guild_id, game_id, channel_id)
        after = len(params) + 1  # the totals' parameters follow the records'
        totals = f"guild_key = ${after} AND game_id = ${after + 1}" + (
            "" if channel_id is None else f" AND channel_id = ${after + 2}"
        )
        keys = [guild_id or NO_GUILD, game_id, *([] if channel_id is None else [channel_id])]
        counts = self.db.dialect.json_rows(
            "c.result, c.n, c.wins",
            "(SELECT result, SUM(games) AS n, SUM(wins) AS wins FROM record_totals "
            f"WHERE {totals} GROUP BY result) AS c",
        )
        # One query, the counts as JSON rows beside the best record's columns (NULL without
        # one): each call to SQLite waits for a turn of a busy event loop to come back.
        row = await self.db.fetchrow(
            f"SELECT {counts} AS counts, b.* FROM (SELECT 1 AS one) AS o "
            f"LEFT JOIN ({_best_sql(where, '1')}) AS b ON TRUE",
            *params,
            *keys,
        )
        assert row is not None  # a LEFT JOIN from one row has that row
        rows = sorted(json.loads(row["counts"]), key=lambda c: (-c[1], c[0]))
        results = {result: int(n) for result, n, _ in rows}
        best = None if row["id"] is None else game_record(row)
        return GameStats(
            game_id=game_id,
            games=sum(results.values()),
            wins=sum(int(wins) for _, _, wins in rows),
            best=best,
            results=results,
        )

    async def best(
        self, guild_id: int | None, game_id: str, channel_id: int | None = None, limit: int = 3
    ) -> list[GameRecord]:
        """The best results, best first: every win before any loss, then the lowest score."""
        where, params = _scope(guild_id, game_id, channel_id)
        return await _best(self.db, where, params, limit)

    async def history(
        self, guild_id: int | None, game_id: str | None = None, limit: int = 10
    ) -> list[HistoryEntry]:
        """The latest finished games of a server (of one game, or all), newest first, with
        their seats and their table message (while the session is kept)."""
        where, params = _scope(guild_id, game_id, alias="r.")
        dialect = self.db.dialect

        async def read(conn: Conn) -> tuple[list[Row], list[Row]]:
            rows = await conn.fetch(
                "SELECT r.*, s.table_message_id FROM records AS r "
                "LEFT JOIN sessions AS s ON s.id = r.session_id "
                f"WHERE {where} ORDER BY r.finished_at DESC, r.id DESC LIMIT ${len(params) + 1}",
                *params,
                limit,
            )
            seat_rows = await conn.fetch(
                f"SELECT * FROM seat_results WHERE {dialect.in_list('record_id', 1, 'BIGINT')} "
                "ORDER BY record_id, seat",
                dialect.listed([row["id"] for row in rows]),
            )
            return rows, seat_rows

        rows, seat_rows = await self.db.read(read)
        seats: dict[int, list[StoredSeat]] = {row["id"]: [] for row in rows}
        for seat in seat_rows:
            seats[seat["record_id"]].append(stored_seat(seat))
        return [
            HistoryEntry(game_record(row), tuple(seats[row["id"]]), row["table_message_id"])
            for row in rows
        ]

    async def recent(self, guild_id: int | None, game_id: str, limit: int = 10) -> list[GameRecord]:
        """The latest finished games, newest first."""
        where, params = _scope(guild_id, game_id)
        sql = (
            f"SELECT * FROM records WHERE {where} "
            f"ORDER BY finished_at DESC, id DESC LIMIT ${len(params) + 1}"
        )
        return [game_record(row) for row in await self.db.fetch(sql, *params, limit)]
