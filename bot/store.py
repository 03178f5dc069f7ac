"""The bot's store at start: wait for PostgreSQL while it comes up, open and migrate the
database, and hold this process's shard leases. Whatever goes wrong becomes a one-line
`Failure` naming the fix."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

import aiosqlite

from bot.failures import (
    Failure,
    file_in_use,
    postgres_problem,
    reason,
    shards_problem,
    sqlite_problem,
)
from bot.settings import Settings
from storage import FileInUse, Storage, open_storage
from storage.leases import CountConflict, ShardTaken
from storage.migrations import NewerSchema
from storage.session_store import StoreUnavailable

if TYPE_CHECKING:
    from storage.postgres.leases import ShardLeases

log = logging.getLogger(__name__)

DEFAULT_PORT = 5432


def postgres_place(url: str) -> str:
    """`database "name" on host:port` (or on a socket directory): never the user's password."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    hosts = parts.netloc.rpartition("@")[2] or query.get("host", [""])[0] or "localhost"
    if not hosts.startswith("/") and "," not in hosts and not hosts.rpartition("]")[2].count(":"):
        hosts = f"{hosts}:{query.get('port', [DEFAULT_PORT])[0]}"
    name = parts.path.lstrip("/") or query.get("dbname", [""])[0] or parts.username or "postgres"
    return f'database "{name}" on {hosts}'


def describe_store(settings: Settings) -> str:
    """The store, as the ready line names it: the SQLite file where it really is (through
    any symbolic link, such as the Docker image's data/ → /data), or the PostgreSQL database."""
    if settings.database_url:
        return f"PostgreSQL {postgres_place(settings.database_url)}"
    return f"SQLite {Path(settings.database_path).resolve()}"


def _waiting(place: str) -> Callable[[Exception, float, float], None]:
    def log_wait(error: Exception, delay: float, left: float) -> None:
        log.warning(
            "PostgreSQL (%s) is not reachable yet (%s): trying again in %.1f s (DATABASE_WAIT "
            "allows %.0f s more)",
            place,
            reason(error),
            delay,
            left,
        )

    return log_wait


async def open_store(settings: Settings) -> Storage:
    """Open (and migrate) the database of `settings`, waiting up to `DATABASE_WAIT` seconds
    for a PostgreSQL server that is not up yet. A SQLite file is held for this process as
    long as it runs: a second bot on the same file stops here."""
    if not settings.database_url:
        path = settings.database_path
        synchronous = settings.database_synchronous
        try:
            return await open_storage(path, synchronous=synchronous, exclusive=True)
        except FileInUse as error:
            raise Failure(file_in_use(path, error.holder)) from None
        except (OSError, aiosqlite.Error, RuntimeError) as error:
            raise Failure(sqlite_problem(path, error)) from None
    url = settings.database_url
    place = postgres_place(url)
    started = time.monotonic()
    try:
        return await open_storage(url, patience=settings.database_wait, on_wait=_waiting(place))
    except (ImportError, OSError, NewerSchema, StoreUnavailable) as error:
        raise Failure(postgres_problem(place, error, time.monotonic() - started)) from None
    except Exception as error:
        import asyncpg

        if not isinstance(error, asyncpg.PostgresError | asyncpg.InterfaceError):
            raise
        raise Failure(postgres_problem(place, error, time.monotonic() - started)) from None


async def claim_shards(
    settings: Settings, on_lost: Callable[[Failure], None]
) -> ShardLeases | None:
    """On PostgreSQL, hold this process's shards (all of them when SHARD_IDS is unset; one,
    0 of 1, when the bot is not sharded) for as long as it runs; `on_lost` hears of a lease
    another process took while the connection holding it was down. None on SQLite: one file
    serves one process."""
    if not settings.database_url:
        return None
    from storage.postgres.leases import ShardLeases

    url = settings.database_url
    place = postgres_place(url)
    shards = settings.shards
    count, ids = (1, frozenset({0})) if shards is None else (shards.count, shards.ids)

    def lost(error: Exception) -> None:
        on_lost(Failure(shards_problem(place, error), running=True))

    try:
        return await ShardLeases.claim(url, count, ids, lost)
    except (ShardTaken, CountConflict) as error:
        raise Failure(shards_problem(place, error)) from None
    except OSError as error:
        raise Failure(postgres_problem(place, error, 0)) from None
