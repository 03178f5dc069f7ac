"""The ratings' tables (migration 7 of `storage.migrations`), in SQLite's dialect and
PostgreSQL's. Kept apart from the earlier migrations so the ratings stay one feature's files."""

from __future__ import annotations

MIN_GAMES = 5
"""Rated games a player needs before the leaderboard lists them (the board's partial index
and its query both name this number, so the index applies)."""

V7 = f"""
-- Each player's (and each AI level's) rating per server and game: OpenSkill's mean and
-- deviation, and `ordinal` (mean minus three deviations), by which the board sorts.
-- user_id 0 is an AI (no Discord id is 0), named by `ai`; a person's `ai` is ''.
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    ai TEXT NOT NULL DEFAULT '',
    game_id TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL CHECK (sigma > 0),
    ordinal REAL NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 1),
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id, ai, game_id)
) WITHOUT ROWID;

-- The leaderboard: a server's people of one game with enough games, best first.
CREATE INDEX ratings_board ON ratings (guild_id, game_id, ordinal DESC, user_id)
    WHERE user_id <> 0 AND games >= {MIN_GAMES};

-- Every rated game's entrants, written in its record's transaction: the place each took and
-- the rating before and after, so the end table shows the change and a rebuild replays them.
-- seat -1: an opponent outside the seats (a solo game's NPC). rated 0: it played at its
-- rating but kept it (a seat an AI held for its player).
CREATE TABLE rating_results (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= -1),
    guild_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    ai TEXT NOT NULL DEFAULT '',
    place INTEGER NOT NULL CHECK (place >= 1),
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    finished_at REAL NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    PRIMARY KEY (record_id, seat)
) WITHOUT ROWID;

-- A rebuild replays every rated game in the order they finished.
CREATE INDEX rating_results_order ON rating_results (finished_at, record_id, seat);

-- Moves an AI played for a player's seat (timer run out, or away), so a seat an AI held for
-- most of its moves is not rated for its player.
ALTER TABLE seats ADD COLUMN ai_moves INTEGER NOT NULL DEFAULT 0 CHECK (ai_moves >= 0);
"""

V7_PG = f"""
CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    ai TEXT NOT NULL DEFAULT '',
    game_id TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    ordinal DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 1),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, ai, game_id)
);

CREATE INDEX ratings_board ON ratings (guild_id, game_id, ordinal DESC, user_id)
    WHERE user_id <> 0 AND games >= {MIN_GAMES};

CREATE TABLE rating_results (
    record_id BIGINT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= -1),
    guild_id BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    ai TEXT NOT NULL DEFAULT '',
    place INTEGER NOT NULL CHECK (place >= 1),
    rated BOOLEAN NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (record_id, seat)
);

CREATE INDEX rating_results_order ON rating_results (finished_at, record_id, seat);

ALTER TABLE seats ADD COLUMN ai_moves INTEGER NOT NULL DEFAULT 0 CHECK (ai_moves >= 0);
"""
