"""Numbered schema migrations, one list for both backends, applied at start.

Migration N (1-based) is `MIGRATIONS[N - 1]`: the same change of tables, columns, keys and
indexes, written once in SQLite's dialect and once in PostgreSQL's (JSON and BOOLEAN columns,
BIGINT for Discord ids, a trigger function), so a database of either kind at version N has one
schema. Never edit a released migration: append a new one, in both dialects.

Each migration runs on the writer connection in its own transaction (a write of the group
commit) together with the bump of the version (`Dialect.schema_version`: SQLite's
`PRAGMA user_version`, PostgreSQL's `schema_version` table, under an advisory lock held until
the transaction ends), so a failed migration leaves the database at the previous version (DDL
is transactional in both), and two processes opening one database at once apply it once.
Write one statement per paragraph (see `statements`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from storage.rating_schema import V7, V7_PG
from storage.sql import Conn, Write

if TYPE_CHECKING:
    from storage.database import Database

LIVE = "status IN ('lobby', 'active')"
"""The live-session predicate; queries repeat it verbatim so the partial indexes apply."""

V1 = f"""
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    locale TEXT NOT NULL,
    options TEXT NOT NULL CHECK (json_valid(options)),
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    config TEXT CHECK (config IS NULL OR json_valid(config)),
    table_message_id INTEGER,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

-- At most one live session per channel: the database backs up the service's channel lock.
CREATE UNIQUE INDEX sessions_live_channel ON sessions (channel_id) WHERE {LIVE};

CREATE INDEX sessions_live_guild ON sessions (guild_id) WHERE {LIVE};

CREATE TABLE seats (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER,
    name TEXT NOT NULL,
    PRIMARY KEY (session_id, seat)
) WITHOUT ROWID;

CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Append-only: (session_id, seq) as the key makes a second writer at one version fail.
CREATE TABLE actions (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    actor INTEGER NOT NULL,
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

-- A cache over the log: the latest state of a session, at `version`.
CREATE TABLE snapshots (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (json_valid(state))
);

CREATE TABLE user_prefs (
    user_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
) WITHOUT ROWID;

CREATE TABLE guild_prefs (
    guild_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

-- Finished games; no foreign key, so records outlive pruned sessions. One per session.
CREATE TABLE records (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    session_id TEXT UNIQUE,
    result TEXT NOT NULL,
    score INTEGER,
    players INTEGER NOT NULL,
    details TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(details)),
    finished_at REAL NOT NULL
);

CREATE INDEX records_guild_game ON records (guild_id, game_id);

-- Hands sent by DM are ordinary messages the bot edits later, even after a restart.
CREATE TABLE hand_messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (session_id, user_id)
) WITHOUT ROWID;
"""

V2 = """
-- Turn timers: the timer a session was opened with, and who is away or running late.
ALTER TABLE sessions ADD COLUMN turn_timer INTEGER CHECK (turn_timer IS NULL OR turn_timer > 0);

ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));

ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);

ALTER TABLE seats ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';

-- Every timed thing as an absolute moment, so a restart waits only for what is left.
-- `seat` is -1 for a window (the whole table's), so the key has no NULL in it.
CREATE TABLE deadlines (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('window', 'warn', 'turn')),
    seat INTEGER NOT NULL CHECK ((kind = 'window') = (seat = -1) AND seat >= -1),
    due REAL NOT NULL,
    fired INTEGER NOT NULL DEFAULT 0 CHECK (fired IN (0, 1)),
    PRIMARY KEY (session_id, kind, seat)
) WITHOUT ROWID;

CREATE INDEX deadlines_due ON deadlines (due);
"""

V3 = """
-- Whether the players won, set by the bot: a loss never ranks above a win.
ALTER TABLE records ADD COLUMN won INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1));

-- Records kept before this migration: the result codes the games then counted as wins.
UPDATE records SET won = 1 WHERE result IN ('win', 'perfect');

DROP INDEX records_guild_game;

CREATE INDEX records_guild_game_channel ON records (guild_id, game_id, channel_id);
"""

V4 = """
-- One row per seat of a finished game, written in the transaction of its record: who sat
-- there (a user, or an AI when user_id is NULL), whether that seat won, and its score as
-- the game defines it (lower is better, like records.score).
CREATE TABLE seat_results (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    guild_id INTEGER,
    game_id TEXT NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL DEFAULT '',
    players INTEGER NOT NULL CHECK (players >= 1),
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    score INTEGER,
    result TEXT NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (record_id, seat)
) WITHOUT ROWID;

-- A player's games of one server in order: /stats per player and game, and their streaks.
CREATE INDEX seat_results_player
    ON seat_results (guild_id, user_id, game_id, finished_at, record_id, won)
    WHERE user_id IS NOT NULL;

-- Running totals per server, player, game and player count (0: every count together), kept
-- in the record's transaction, so a server's board never reads its games one by one.
-- best_win / best_loss: the lowest score among the player's wins / losses.
CREATE TABLE player_totals (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    players INTEGER NOT NULL CHECK (players >= 0),
    games INTEGER NOT NULL CHECK (games >= 1),
    wins INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    best_win INTEGER,
    best_loss INTEGER,
    results TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(results)),
    last_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id, game_id, players)
) WITHOUT ROWID;

-- The board: a server's players of one game by wins.
CREATE INDEX player_totals_board ON player_totals (guild_id, game_id, players, wins DESC, games);

-- /history: a server's latest games, of every game or of one.
CREATE INDEX records_guild_finished ON records (guild_id, finished_at);

CREATE INDEX records_guild_game_finished ON records (guild_id, game_id, finished_at);

-- The best results, a win always before a loss, per server and per channel (the channel
-- index also does the work of records_guild_game_channel).
CREATE INDEX records_guild_game_best ON records (guild_id, game_id, won DESC, score, finished_at);

CREATE INDEX records_guild_game_channel_best
    ON records (guild_id, game_id, channel_id, won DESC, score, finished_at);

DROP INDEX records_guild_game_channel;

-- How many games of each result a channel has, kept in the record's transaction, so the
-- figures of a server or a channel add up a few rows instead of counting its games.
-- guild_key: the guild id, 0 for games outside a server (a key column cannot be NULL).
CREATE TABLE record_totals (
    guild_key INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    result TEXT NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 0),
    wins INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_key, game_id, channel_id, result)
) WITHOUT ROWID;

INSERT INTO record_totals (guild_key, game_id, channel_id, result, games, wins)
SELECT COALESCE(guild_id, 0), game_id, channel_id, result, COUNT(*), SUM(won)
FROM records GROUP BY COALESCE(guild_id, 0), game_id, channel_id, result;
"""

V5 = """
-- A session whose log no longer loads is set aside as abandoned (so it holds no channel and
-- is never resumed) with the reason here; NULL for every sound session.
ALTER TABLE sessions ADD COLUMN quarantine TEXT;

-- The seats the game waits for at `version` (a JSON list), written with every move, so a
-- restart finds the sessions whose AI is to move without loading any. NULL: not known.
ALTER TABLE sessions ADD COLUMN to_move TEXT CHECK (to_move IS NULL OR json_valid(to_move));

-- The seats an AI plays now (AI seats, and players' seats while they are away).
CREATE INDEX seats_autoplay ON seats (session_id) WHERE user_id IS NULL OR away = 1;
"""

V6 = """
-- Hints (/hint): how many each seat's player asked for in the game, counted as they ask.
ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);

-- A finished game played with hints says so: its hints in all, and each seat's.
ALTER TABLE records ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);

ALTER TABLE seat_results ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);
"""

# PostgreSQL: the same migrations. -----------------------------------------------------------

V1_PG = f"""
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    guild_id BIGINT,
    channel_id BIGINT NOT NULL,
    host_id BIGINT NOT NULL,
    locale TEXT NOT NULL,
    options JSON NOT NULL,
    seed BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    config JSON,
    table_message_id BIGINT,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE UNIQUE INDEX sessions_live_channel ON sessions (channel_id) WHERE {LIVE};

CREATE INDEX sessions_live_guild ON sessions (guild_id) WHERE {LIVE};

CREATE TABLE seats (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    user_id BIGINT,
    name TEXT NOT NULL,
    PRIMARY KEY (session_id, seat)
);

CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    actor INTEGER NOT NULL,
    payload JSON NOT NULL,
    PRIMARY KEY (session_id, seq)
);

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'actions are append-only';
END;
$$;

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

CREATE TABLE snapshots (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    state JSON NOT NULL
);

CREATE TABLE user_prefs (
    user_id BIGINT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
);

CREATE TABLE guild_prefs (
    guild_id BIGINT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE records (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id BIGINT,
    channel_id BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    session_id TEXT UNIQUE,
    result TEXT NOT NULL,
    score INTEGER,
    players INTEGER NOT NULL,
    details JSON NOT NULL DEFAULT '{{}}',
    finished_at DOUBLE PRECISION NOT NULL
);

CREATE INDEX records_guild_game ON records (guild_id, game_id);

CREATE TABLE hand_messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (session_id, user_id)
);
"""

V2_PG = """
ALTER TABLE sessions ADD COLUMN turn_timer INTEGER CHECK (turn_timer IS NULL OR turn_timer > 0);

ALTER TABLE seats ADD COLUMN away BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);

ALTER TABLE seats ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';

CREATE TABLE deadlines (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('window', 'warn', 'turn')),
    seat INTEGER NOT NULL CHECK ((kind = 'window') = (seat = -1) AND seat >= -1),
    due DOUBLE PRECISION NOT NULL,
    fired BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (session_id, kind, seat)
);

CREATE INDEX deadlines_due ON deadlines (due);
"""

V3_PG = """
ALTER TABLE records ADD COLUMN won BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE records SET won = TRUE WHERE result IN ('win', 'perfect');

DROP INDEX records_guild_game;

CREATE INDEX records_guild_game_channel ON records (guild_id, game_id, channel_id);
"""

V4_PG = """
CREATE TABLE seat_results (
    record_id BIGINT NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    guild_id BIGINT,
    game_id TEXT NOT NULL,
    user_id BIGINT,
    name TEXT NOT NULL DEFAULT '',
    players INTEGER NOT NULL CHECK (players >= 1),
    won BOOLEAN NOT NULL,
    score INTEGER,
    result TEXT NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (record_id, seat)
);

CREATE INDEX seat_results_player
    ON seat_results (guild_id, user_id, game_id, finished_at, record_id, won)
    WHERE user_id IS NOT NULL;

CREATE TABLE player_totals (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    players INTEGER NOT NULL CHECK (players >= 0),
    games INTEGER NOT NULL CHECK (games >= 1),
    wins INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    best_win INTEGER,
    best_loss INTEGER,
    results JSONB NOT NULL DEFAULT '{}',
    last_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, game_id, players)
);

CREATE INDEX player_totals_board ON player_totals (guild_id, game_id, players, wins DESC, games);

CREATE INDEX records_guild_finished ON records (guild_id, finished_at);

CREATE INDEX records_guild_game_finished ON records (guild_id, game_id, finished_at);

CREATE INDEX records_guild_game_best ON records (guild_id, game_id, won DESC, score, finished_at);

CREATE INDEX records_guild_game_channel_best
    ON records (guild_id, game_id, channel_id, won DESC, score, finished_at);

DROP INDEX records_guild_game_channel;

CREATE TABLE record_totals (
    guild_key BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    channel_id BIGINT NOT NULL,
    result TEXT NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 0),
    wins INTEGER NOT NULL CHECK (wins >= 0 AND wins <= games),
    PRIMARY KEY (guild_key, game_id, channel_id, result)
);

INSERT INTO record_totals (guild_key, game_id, channel_id, result, games, wins)
SELECT COALESCE(guild_id, 0), game_id, channel_id, result, COUNT(*), SUM(won::INTEGER)
FROM records GROUP BY COALESCE(guild_id, 0), game_id, channel_id, result;
"""

V5_PG = """
ALTER TABLE sessions ADD COLUMN quarantine TEXT;

ALTER TABLE sessions ADD COLUMN to_move JSONB
    CHECK (to_move IS NULL OR jsonb_typeof(to_move) = 'array');

CREATE INDEX seats_autoplay ON seats (session_id) WHERE user_id IS NULL OR away;
"""

V6_PG = """
ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);

ALTER TABLE records ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);

ALTER TABLE seat_results ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);
"""


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema change, in each backend's dialect."""

    sqlite: str
    postgresql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(V1, V1_PG),
    Migration(V2, V2_PG),
    Migration(V3, V3_PG),
    Migration(V4, V4_PG),
    Migration(V5, V5_PG),
    Migration(V6, V6_PG),
    Migration(V7, V7_PG),
)


class NewerSchema(RuntimeError):
    """The database was migrated by a newer version of the bot than this one: it has a schema
    this code does not know, so it must not touch it."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(f"database schema version {found} is newer than this code ({known})")
        self.found = found
        self.known = known


def statements(script: str) -> Iterator[str]:
    """The statements of a migration: one per paragraph (lines up to a blank line), comment
    lines left out. (`executescript` is not used: it commits any open transaction first,
    which would break the one-transaction-per-migration rule.)"""
    for paragraph in script.split("\n\n"):
        lines = [line for line in paragraph.splitlines() if not line.lstrip().startswith("--")]
        statement = "\n".join(lines).strip()
        if statement:
            if not statement.endswith(";"):
                raise ValueError(f"a migration's paragraph is not one statement: {statement!r}")
            yield statement


async def _version(conn: Conn) -> int:
    """The applied version (0 for a database never migrated), read under the migrations'
    lock where the database needs one (SQLite's write transaction is one already)."""
    if conn.dialect.lock_schema:
        await conn.script(conn.dialect.lock_schema)
    return int(await conn.fetchval(conn.dialect.schema_version))


async def schema_version(db: Database) -> int:
    return int(await db.fetchval(db.dialect.schema_version))


def _apply(number: int, migration: Migration) -> Write[bool]:
    async def apply(conn: Conn) -> bool:
        if await _version(conn) >= number:
            return False  # another process applied it while we waited for the lock
        sqlite = conn.dialect.name == "sqlite"
        for statement in statements(migration.sqlite if sqlite else migration.postgresql):
            await conn.execute(statement)
        await conn.execute(conn.dialect.set_version.format(number))
        return True

    return apply


async def migrate(db: Database, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
    """Apply the migrations the database lacks; returns their numbers (empty when up to
    date)."""
    current = await db.write(_version)
    if current > len(migrations):
        raise NewerSchema(current, len(migrations))
    applied: list[int] = []
    for number in range(current + 1, len(migrations) + 1):
        if await db.write(_apply(number, migrations[number - 1])):
            applied.append(number)
    return applied
