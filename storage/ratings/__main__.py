"""`python -m storage.ratings --rebuild [--database LOCATION]`: recompute every rating by
replaying the rated games in the order they finished, on SQLite or PostgreSQL.

The database is the bot's (DATABASE_URL, else DATABASE_PATH) unless `--database` names one.
One that is missing, unreachable or of a newer schema is refused in one line, exit status 2,
with nothing written.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import aiosqlite

from storage import is_postgres_url, open_storage
from storage.migrations import NewerSchema

REFUSED = 2
"""Exit status when the database cannot be used (nothing was written)."""


class Refusal(Exception):
    """The command will not run: one line says why; nothing was written."""


def _location(given: str | None) -> str:
    """The database as the bot finds it: `--database`, else DATABASE_URL, else DATABASE_PATH
    (default data/bot.sqlite3)."""
    if given:
        return given
    return os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH") or "data/bot.sqlite3"


def _place(url: str) -> str:
    """host:port/name of a PostgreSQL URL, never its password."""
    parts = urlsplit(url)
    return f"{parts.netloc.rpartition('@')[2] or 'localhost'}{parts.path}"


async def rebuild(location: str) -> int:
    """Open the database at `location` (never creating one) and rebuild its ratings."""
    if not is_postgres_url(location):
        path = Path(location)
        if not path.is_file() or path.stat().st_size == 0:
            raise Refusal(f"no bot database at {path} (set DATABASE_PATH or --database)")
    try:
        storage = await open_storage(location)
    except NewerSchema as error:
        raise Refusal(f"{error}: rebuild with the bot version that last used it") from None
    except aiosqlite.Error as error:
        raise Refusal(f"cannot open the SQLite database {location}: {error}") from None
    except OSError as error:
        if not is_postgres_url(location):
            raise Refusal(f"cannot open the SQLite database {location}: {error}") from None
        why = os.strerror(error.errno) if error.errno else str(error)
        raise Refusal(f"cannot reach PostgreSQL at {_place(location)}: {why}") from None
    except Exception as error:
        if type(error).__module__.split(".")[0] != "asyncpg":
            raise
        raise Refusal(f"PostgreSQL at {_place(location)} refused: {error}") from None
    async with storage:
        return await storage.ratings.rebuild()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.ratings", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--rebuild", action="store_true", required=True, help="replay every game")
    parser.add_argument("--database", help="a SQLite file or postgresql://… (default: as the bot)")
    args = parser.parse_args(argv)
    try:
        games = asyncio.run(rebuild(_location(args.database)))
    except Refusal as refusal:
        print(f"{parser.prog}: {refusal}", file=sys.stderr, flush=True)
        return REFUSED
    print(f"rebuilt the ratings from {games} rated games", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
