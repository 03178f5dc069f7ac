"""Ratings on PostgreSQL (see `storage.ratings`): rated in the record's transaction, each
entrant's rating row locked first (`FOR UPDATE`) so two shard processes finishing games of the
same players at once rate one after the other; the board, a player's ratings, the end table's
changes, and the rebuild."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from storage.postgres.db import PgDatabase
from storage.rating_schema import MIN_GAMES
from storage.ratings import (
    AHEAD,
    BOARD,
    NEW,
    Entrant,
    Rating,
    RatingChange,
    Skill,
    change_of,
    play,
    rating_of,
    rating_rows,
    replay,
    result_rows,
)

_READ = """
SELECT mu, sigma, games FROM ratings
WHERE guild_id = $1 AND user_id = $2 AND ai = $3 AND game_id = $4 FOR UPDATE
"""

_UPSERT = """
INSERT INTO ratings (guild_id, user_id, ai, game_id, mu, sigma, ordinal, games, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (guild_id, user_id, ai, game_id) DO UPDATE SET mu = excluded.mu,
    sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,
    updated_at = excluded.updated_at
"""

_RESULT = """
INSERT INTO rating_results (record_id, seat, guild_id, game_id, user_id, ai, place, rated,
    finished_at, mu_before, sigma_before, mu_after, sigma_after)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
"""


async def rate(
    conn: asyncpg.Connection,
    record_id: int,
    *,
    guild_id: int | None,
    game_id: str,
    finished_at: float,
    entrants: Sequence[Entrant],
) -> None:
    """Rate a finished game inside its record's transaction (as `storage.ratings.rate`)."""
    if guild_id is None or len(entrants) < 2:
        return
    before = []
    for e in sorted(entrants, key=lambda e: e.key):  # one lock order for every process
        row = await conn.fetchrow(_READ, guild_id, *e.key, game_id)
        before.append((e, NEW if row is None else Skill(row["mu"], row["sigma"], row["games"])))
    found = {e.seat: skill for e, skill in before}
    skills = [found[e.seat] for e in entrants]
    after = play(skills, [e.place for e in entrants])
    await conn.executemany(_UPSERT, rating_rows(guild_id, game_id, finished_at, entrants, after))
    rows = result_rows(record_id, guild_id, game_id, finished_at, entrants, skills, after)
    await conn.executemany(_RESULT, rows)


class PgRatings:
    """Reads of the ratings of a server, and the rebuild, on PostgreSQL."""

    def __init__(self, db: PgDatabase) -> None:
        self.db = db

    async def board(self, guild_id: int, game_id: str, limit: int = 10) -> list[Rating]:
        rows = await self.db.fetch(BOARD.format("$1", "$2", "$3"), guild_id, game_id, limit)
        return [rating_of(row, rank) for rank, row in enumerate(rows, 1)]

    async def ais(self, guild_id: int, game_id: str) -> list[Rating]:
        sql = (
            "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = 0 AND game_id = $2 "
            "ORDER BY ordinal DESC, ai"
        )
        return [rating_of(row) for row in await self.db.fetch(sql, guild_id, game_id)]

    async def player(self, guild_id: int, user_id: int) -> list[Rating]:
        async def read(conn: asyncpg.Connection) -> list[Rating]:
            rows = await conn.fetch(
                "SELECT * FROM ratings WHERE guild_id = $1 AND user_id = $2 AND ai = '' "
                "ORDER BY game_id",
                guild_id,
                user_id,
            )
            found = []
            for row in rows:
                rank = None
                if row["games"] >= MIN_GAMES:
                    sql = AHEAD.format("$1", "$2", "$3", "$4")
                    ahead = await conn.fetchval(
                        sql, guild_id, row["game_id"], row["ordinal"], user_id
                    )
                    rank = int(ahead) + 1
                found.append(rating_of(row, rank))
            return found

        return await self.db.read(read)

    async def changes(self, session_id: str) -> list[RatingChange]:
        sql = (
            "SELECT rr.* FROM rating_results AS rr JOIN records AS r ON r.id = rr.record_id "
            "WHERE r.session_id = $1 ORDER BY rr.seat < 0, rr.seat"
        )
        return [change_of(row) for row in await self.db.fetch(sql, session_id)]

    async def rebuild(self) -> int:
        """Recompute every rating by replaying the rated games in order, in one transaction
        that holds the ratings locked (a game finishing meanwhile waits, then rates on top)."""

        async def write(conn: asyncpg.Connection) -> int:
            await conn.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
            rows = await conn.fetch(
                "SELECT * FROM rating_results ORDER BY finished_at, record_id, seat"
            )
            ratings, updates = replay(rows)
            await conn.execute("DELETE FROM ratings")
            await conn.executemany(
                _UPSERT,
                [
                    (g, u, ai, game, s.mu, s.sigma, s.ordinal, s.games, at)
                    for (g, u, ai, game), (s, at) in ratings.items()
                ],
            )
            await conn.execute(
                "UPDATE rating_results AS rr SET mu_before = u.mb, sigma_before = u.sb, "
                "mu_after = u.ma, sigma_after = u.sa FROM unnest($1::DOUBLE PRECISION[], "
                "$2::DOUBLE PRECISION[], $3::DOUBLE PRECISION[], $4::DOUBLE PRECISION[], "
                "$5::BIGINT[], $6::INTEGER[]) AS u (mb, sb, ma, sa, record_id, seat) "
                "WHERE rr.record_id = u.record_id AND rr.seat = u.seat",
                *(list(column) for column in zip(*updates, strict=True))
                if updates
                else ([], [], [], [], [], []),
            )
            return len({row["record_id"] for row in rows})

        return await self.db.write(write)
