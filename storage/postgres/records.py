"""Finished games on PostgreSQL (see `storage.records`): each record with its seats and the
running totals in one transaction, and the figures, best results and history read back."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import asyncpg

from storage.players import SeatRow
from storage.postgres.db import PgDatabase
from storage.postgres.players import write_seats
from storage.postgres.ratings import rate
from storage.ratings import Entrant
from storage.records import (
    NO_GUILD,
    GameRecord,
    GameStats,
    HistoryEntry,
    StoredSeat,
    game_record,
    stored_seat,
)


def _scope(
    guild_id: int | None, game_id: str | None, channel_id: int | None = None, alias: str = ""
) -> tuple[str, list[Any]]:
    """The WHERE clause of one server's (or one channel's) records, of one game or all.

    `guild_id IS NULL` for DM games, spelled out rather than `IS NOT DISTINCT FROM`, which no
    index serves.
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
    conn: asyncpg.Connection | PgDatabase, where: str, params: list[Any], limit: int
) -> list[GameRecord]:
    """Once any game was won, only wins compete (a win without a score hides every loss)."""
    rows = await conn.fetch(
        f"SELECT * FROM records WHERE {where} AND score IS NOT NULL "
        f"AND won >= (SELECT bool_or(won) FROM records WHERE {where}) "
        f"ORDER BY won DESC, score, finished_at, id LIMIT ${len(params) + 1}",
        *params,
        limit,
    )
    return [game_record(row) for row in rows]


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


class PgRecords:
    def __init__(self, db: PgDatabase) -> None:
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
        one already. Idempotent per session."""
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
            json.dumps(details or {}, separators=(",", ":")),
            at,
            hints,
        )

        async def write(conn: asyncpg.Connection) -> bool:
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
        totals = "guild_key = $1 AND game_id = $2" + (
            "" if channel_id is None else " AND channel_id = $3"
        )
        keys = [guild_id or NO_GUILD, game_id, *([] if channel_id is None else [channel_id])]

        async def read(conn: asyncpg.Connection) -> tuple[list[asyncpg.Record], list[GameRecord]]:
            counts = await conn.fetch(
                "SELECT result, SUM(games) AS n, SUM(wins) AS wins FROM record_totals "
                f"WHERE {totals} GROUP BY result ORDER BY n DESC, result",
                *keys,
            )
            return counts, await _best(conn, where, params, 1)

        counts, best = await self.db.read(read)
        results = {row["result"]: int(row["n"]) for row in counts}
        return GameStats(
            game_id=game_id,
            games=sum(results.values()),
            wins=sum(int(row["wins"]) for row in counts),
            best=best[0] if best else None,
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

        async def read(
            conn: asyncpg.Connection,
        ) -> tuple[list[asyncpg.Record], list[asyncpg.Record]]:
            rows = await conn.fetch(
                "SELECT r.*, s.table_message_id FROM records AS r "
                "LEFT JOIN sessions AS s ON s.id = r.session_id "
                f"WHERE {where} ORDER BY r.finished_at DESC, r.id DESC LIMIT ${len(params) + 1}",
                *params,
                limit,
            )
            seat_rows = await conn.fetch(
                "SELECT * FROM seat_results WHERE record_id = ANY($1::BIGINT[]) "
                "ORDER BY record_id, seat",
                [row["id"] for row in rows],
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
