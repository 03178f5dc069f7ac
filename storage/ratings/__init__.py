"""Ratings per server and game: OpenSkill (Plackett–Luce) over every rated finished game.

A finished competitive game's entrants (its seats, and an opponent outside them such as a solo
game's NPC) come with their places from the game's own code (`GameUI.standing`); the record's
transaction (`Records.add`) calls `rate`, which reads their ratings, plays the match and writes
the new ratings and one `rating_results` row per entrant. Those rows are the replayable
history: `python -m storage.ratings --rebuild` wipes the ratings and plays every rated game
again in the order they finished, on SQLite or PostgreSQL.

A person is rated by user id, an AI by its key (its level, `normal` or `strong`, or a game's
own opponent such as `npc-5`): a person's rating then means something against the AI's. The
board sorts by the conservative rating (mean minus three deviations), shown on a familiar
scale: a newcomer starts at 1000, an established average player sits near 1500.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from storage.db import Database
from storage.rating_schema import MIN_GAMES
from storage.rows import Row

MODEL = PlackettLuce()
SCALE = 24.0
BASE = 1000.0
"""Shown rating = BASE + SCALE × (mu − 3σ): 1000 for a newcomer (mu 25, σ 25/3), about 1500
for an average player once their deviation has shrunk."""

AI_USER = 0
"""`user_id` of an AI's rating: no Discord id is 0."""


def shown(mu: float, sigma: float) -> int:
    """The conservative rating on the shown scale."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(3.0, SCALE, BASE))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side of a rated game: a seat, or (seat -1) an opponent outside the seats."""

    seat: int
    place: int
    """1 is first; equal places tie."""
    user_id: int | None = None
    """The person rated; None for an AI, named by `ai`."""
    ai: str = ""
    rated: bool = True
    """False: plays at its rating but keeps it (a seat an AI held for its player)."""

    @property
    def key(self) -> tuple[int, str]:
        return (AI_USER, self.ai) if self.user_id is None else (self.user_id, "")


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


def play(before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Every entrant's rating after one game, each a team of one; places may tie."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Skill(team[0].mu, team[0].sigma, s.games + 1) for team, s in zip(rated, before, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class Rating:
    """One person's (user_id) or AI's (`ai`) rating in one game of a server."""

    user_id: int | None
    ai: str
    game_id: str
    skill: Skill
    rank: int | None = None
    """Their place on the board (None: fewer than MIN_GAMES games, or an AI)."""

    @property
    def games(self) -> int:
        return self.skill.games

    @property
    def shown(self) -> int:
        return self.skill.shown


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A seat's rating before and after a finished game (shown values)."""

    seat: int
    user_id: int | None
    ai: str
    before: int
    after: int
    rated: bool

    @property
    def delta(self) -> int:
        return self.after - self.before


def rating_of(row: Row, rank: int | None = None) -> Rating:
    user_id = row["user_id"] or None
    skill = Skill(row["mu"], row["sigma"], row["games"])
    return Rating(user_id, row["ai"], row["game_id"], skill, rank)


def change_of(row: Row) -> RatingChange:
    before = shown(row["mu_before"], row["sigma_before"])
    after = shown(row["mu_after"], row["sigma_after"]) if row["rated"] else before
    user_id = row["user_id"] or None
    return RatingChange(row["seat"], user_id, row["ai"], before, after, bool(row["rated"]))


def result_rows(
    record_id: int,
    guild_id: int,
    game_id: str,
    at: float,
    entrants: Sequence[Entrant],
    before: Sequence[Skill],
    after: Sequence[Skill],
) -> list[tuple[Any, ...]]:
    """The `rating_results` rows of one game, in column order."""
    return [
        (
            record_id,
            e.seat,
            guild_id,
            game_id,
            e.key[0],
            e.key[1],
            e.place,
            e.rated,
            at,
            b.mu,
            b.sigma,
            a.mu,
            a.sigma,
        )
        for e, b, a in zip(entrants, before, after, strict=True)
    ]


def merged(entrants: Sequence[Entrant], after: Sequence[Skill]) -> dict[tuple[int, str], Skill]:
    """Each rated side's new rating: an AI in several seats of one game (two normal AIs) takes
    the mean of its seats' results, and counts the game once."""
    seats: dict[tuple[int, str], list[Skill]] = {}
    for e, a in zip(entrants, after, strict=True):
        if e.rated:
            seats.setdefault(e.key, []).append(a)
    return {
        key: Skill(
            sum(s.mu for s in found) / len(found),
            sum(s.sigma for s in found) / len(found),
            found[0].games,
        )
        for key, found in seats.items()
    }


def rating_rows(
    guild_id: int, game_id: str, at: float, entrants: Sequence[Entrant], after: Sequence[Skill]
) -> list[tuple[Any, ...]]:
    """The `ratings` rows a game writes: its rated sides' new ratings, in column order."""
    return [
        (guild_id, *key, game_id, a.mu, a.sigma, a.ordinal, a.games, at)
        for key, a in merged(entrants, after).items()
    ]


Key = tuple[int, int, str, str]
"""(guild_id, user_id, ai, game_id): one rating."""


def replay(rows: Iterable[Row]) -> tuple[dict[Key, tuple[Skill, float]], list[tuple[Any, ...]]]:
    """Play every stored game again from fresh ratings (`rows`: `rating_results` in the order
    the games finished, each game's entrants together). Returns every rating with the time of
    its last game, and each entrant's (mu_before, sigma_before, mu_after, sigma_after,
    record_id, seat) as the replay found them."""
    ratings: dict[Key, tuple[Skill, float]] = {}
    updates: list[tuple[Any, ...]] = []
    game: list[Row] = []

    def flush() -> None:
        first = game[0]
        guild_id, game_id, at = first["guild_id"], first["game_id"], first["finished_at"]
        entrants = [
            Entrant(r["seat"], r["place"], r["user_id"] or None, r["ai"], bool(r["rated"]))
            for r in game
        ]
        before = [ratings.get((guild_id, *e.key, game_id), (NEW, 0.0))[0] for e in entrants]
        after = play(before, [e.place for e in entrants])
        for key, skill in merged(entrants, after).items():
            ratings[(guild_id, *key, game_id)] = (skill, at)
        for row, b, a in zip(game, before, after, strict=True):
            updates.append((b.mu, b.sigma, a.mu, a.sigma, row["record_id"], row["seat"]))
        game.clear()

    for row in rows:
        if game and row["record_id"] != game[0]["record_id"]:
            flush()
        game.append(row)
    if game:
        flush()
    return ratings, updates


_READ = (
    "SELECT mu, sigma, games FROM ratings "
    "WHERE guild_id = ? AND user_id = ? AND ai = ? AND game_id = ?"
)

_UPSERT = """
INSERT INTO ratings (guild_id, user_id, ai, game_id, mu, sigma, ordinal, games, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, user_id, ai, game_id) DO UPDATE SET mu = excluded.mu,
    sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,
    updated_at = excluded.updated_at
"""

_RESULT = """
INSERT INTO rating_results (record_id, seat, guild_id, game_id, user_id, ai, place, rated,
    finished_at, mu_before, sigma_before, mu_after, sigma_after)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

BOARD = (
    "SELECT * FROM ratings WHERE guild_id = {0} AND game_id = {1} AND user_id <> 0 "
    f"AND games >= {MIN_GAMES} ORDER BY ordinal DESC, user_id LIMIT {{2}}"
)
"""The leaderboard (placeholders per dialect): the partial index `ratings_board` serves it."""

AHEAD = (
    "SELECT COUNT(*) FROM ratings WHERE guild_id = {0} AND game_id = {1} AND user_id <> 0 "
    f"AND games >= {MIN_GAMES} AND (ordinal > {{2}} OR (ordinal = {{2}} AND user_id < {{3}}))"
)
"""How many people are above a rating on the board: a range of the same index."""


def rate(
    conn: sqlite3.Connection,
    record_id: int,
    *,
    guild_id: int | None,
    game_id: str,
    finished_at: float,
    entrants: Sequence[Entrant],
) -> None:
    """Rate a finished game inside its record's transaction (games outside a server, or with
    fewer than two sides, are not rated)."""
    if guild_id is None or len(entrants) < 2:
        return
    before = []
    for e in entrants:
        row = conn.execute(_READ, (guild_id, *e.key, game_id)).fetchone()
        before.append(NEW if row is None else Skill(row["mu"], row["sigma"], row["games"]))
    after = play(before, [e.place for e in entrants])
    conn.executemany(_UPSERT, rating_rows(guild_id, game_id, finished_at, entrants, after))
    rows = result_rows(record_id, guild_id, game_id, finished_at, entrants, before, after)
    conn.executemany(_RESULT, rows)


class Ratings:
    """Reads of the ratings of a server, and the rebuild, on SQLite."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def board(self, guild_id: int, game_id: str, limit: int = 10) -> list[Rating]:
        """The server's people of a game with enough rated games, best first."""
        sql = BOARD.format("?1", "?2", "?3")
        rows = await self.db.read(lambda c: c.execute(sql, (guild_id, game_id, limit)).fetchall())
        return [rating_of(row, rank) for rank, row in enumerate(rows, 1)]

    async def ais(self, guild_id: int, game_id: str) -> list[Rating]:
        """The AIs' ratings in a game of this server, best first."""
        sql = (
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = 0 AND game_id = ? "
            "ORDER BY ordinal DESC, ai"
        )
        rows = await self.db.read(lambda c: c.execute(sql, (guild_id, game_id)).fetchall())
        return [rating_of(row) for row in rows]

    async def player(self, guild_id: int, user_id: int) -> list[Rating]:
        """A person's rating in each game they were rated in here, with their board rank."""

        def read(conn: sqlite3.Connection) -> list[Rating]:
            rows = conn.execute(
                "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? AND ai = '' "
                "ORDER BY game_id",
                (guild_id, user_id),
            ).fetchall()
            found = []
            for row in rows:
                rank = None
                if row["games"] >= MIN_GAMES:
                    params = (guild_id, row["game_id"], row["ordinal"], user_id)
                    rank = (
                        conn.execute(AHEAD.format("?1", "?2", "?3", "?4"), params).fetchone()[0] + 1
                    )
                found.append(rating_of(row, rank))
            return found

        return await self.db.read(read)

    async def changes(self, session_id: str) -> list[RatingChange]:
        """Each entrant's change in the finished game of `session_id` (none if not rated): its
        seats in order, then any opponent outside them."""
        sql = (
            "SELECT rr.* FROM rating_results AS rr JOIN records AS r ON r.id = rr.record_id "
            "WHERE r.session_id = ? ORDER BY rr.seat < 0, rr.seat"
        )
        rows = await self.db.read(lambda c: c.execute(sql, (session_id,)).fetchall())
        return [change_of(row) for row in rows]

    async def rebuild(self) -> int:
        """Recompute every rating by replaying the rated games in order, in one transaction;
        returns how many games were replayed."""

        def write(conn: sqlite3.Connection) -> int:
            rows = conn.execute(
                "SELECT * FROM rating_results ORDER BY finished_at, record_id, seat"
            ).fetchall()
            ratings, updates = replay(rows)
            conn.execute("DELETE FROM ratings")
            conn.executemany(
                _UPSERT,
                [
                    (g, u, ai, game, s.mu, s.sigma, s.ordinal, s.games, at)
                    for (g, u, ai, game), (s, at) in ratings.items()
                ],
            )
            conn.executemany(
                "UPDATE rating_results SET mu_before = ?, sigma_before = ?, mu_after = ?, "
                "sigma_after = ? WHERE record_id = ? AND seat = ?",
                updates,
            )
            return len({row["record_id"] for row in rows})

        return await self.db.write(write)
