"""Start-up failures an admin can fix, each told in one line that names the fix: the setting,
the path, the two schema versions. `python -m bot` logs the line and exits with status 2,
without a traceback (a traceback says "bug" to an admin; these are not bugs)."""

from __future__ import annotations

import os
from pathlib import Path

import aiosqlite
from pydantic import ValidationError

from storage.leases import CountConflict, ShardTaken
from storage.migrations import NewerSchema

EXIT_STATUS = 2
"""Like a command line tool's usage error: restarting the same way will not help."""


class Failure(Exception):
    """A failure told in one line (`str(failure)`): at start, or (`running`) one that stops a
    running bot, such as a shard lease another process took while the bot was cut off."""

    def __init__(self, line: str, *, running: bool = False) -> None:
        super().__init__(line)
        self.running = running


def settings_lines(error: ValidationError) -> list[str]:
    """One line per bad setting, named as in `.env` (never echoing a value: it may be the
    token or a password)."""
    lines = []
    for problem in error.errors():
        message = problem["msg"].removeprefix("Value error, ")
        name = "_".join(str(part) for part in problem["loc"]).upper()
        lines.append(f"{name}: {message}" if name else message)
    return lines


def newer_schema(where: str, error: NewerSchema) -> str:
    return (
        f"the database {where} has schema version {error.found}, newer than this bot's "
        f"{error.known}: run the bot version that last used it (or a newer one), or restore a "
        "backup made for this version"
    )


def _first_existing(path: Path) -> Path:
    return next(p for p in (path, *path.parents) if p.exists() or p.is_symlink())


def _writable(path: Path) -> bool:
    """Whether this process may change `path` (for a directory: create files in it). False on
    a read-only file system even for root."""
    return os.access(path, (os.W_OK | os.X_OK) if path.is_dir() else (os.W_OK | os.R_OK))


def sqlite_problem(path: Path, error: BaseException) -> str:
    """What is wrong with the SQLite file at `path`, which could not be opened (`error`):
    found by looking at the path, since SQLite says "unable to open database file" for most
    of it."""
    path = Path(os.path.abspath(path))
    if isinstance(error, NewerSchema):
        return newer_schema(f"DATABASE_PATH {path}", error)
    if path.is_dir():
        return (
            f"DATABASE_PATH {path} is a directory: set it to a file in it, "
            f"such as {path / 'bot.sqlite3'}"
        )
    existing = _first_existing(path)
    if existing != path and not existing.is_dir():
        return (
            f"DATABASE_PATH {path} cannot be created: {existing} is a file, not a directory; "
            "set DATABASE_PATH to a path in a directory"
        )
    folder = existing if existing != path else path.parent
    blocked = [p for p in (path, folder) if p.exists() and not _writable(p)]
    if blocked or (isinstance(error, aiosqlite.Error) and "readonly" in str(error)):
        target = blocked[0] if blocked else path
        uid = os.geteuid()
        return (
            f"DATABASE_PATH {path} is read-only for this process (uid {uid}): let uid {uid} "
            f"write {target} (SQLite also writes its journal next to the file), or set "
            "DATABASE_PATH elsewhere"
        )
    if isinstance(error, aiosqlite.DatabaseError) and "not a database" in str(error):
        return (
            f"DATABASE_PATH {path} is not a SQLite database: set DATABASE_PATH to the bot's "
            "database file, or move this file away"
        )
    return f"cannot open the SQLite database DATABASE_PATH {path}: {error}"


def file_in_use(path: Path, holder: str) -> str:
    """Another bot process runs on the SQLite file at `path` (`holder`: its pid, if known)."""
    path = Path(os.path.abspath(path))
    by = f" ({holder})" if holder else ""
    return (
        f"another process already runs this bot on DATABASE_PATH {path}{by}: stop it, or give "
        "this one its own DATABASE_PATH (several processes sharing the games need PostgreSQL: "
        "DATABASE_URL)"
    )


def reason(error: BaseException) -> str:
    """An error in a few words: the system's own for a failed connection ("Connection
    refused"), not asyncio's "Connect call failed ('10.0.0.5', 5432)"."""
    if isinstance(error, OSError) and error.errno and error.errno > 0:
        return os.strerror(error.errno)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def postgres_problem(place: str, error: BaseException, waited: float) -> str:
    """What is wrong with the PostgreSQL database `place` (`database "x" on host:port`)."""
    if isinstance(error, NewerSchema):
        return newer_schema(f"DATABASE_URL ({place})", error)
    if isinstance(error, ImportError):
        return (
            "DATABASE_URL needs the PostgreSQL driver: pip install '.[postgresql]' "
            "(the Docker image has it)"
        )
    import asyncpg

    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return (
            f"PostgreSQL has no {place}: create it (createdb -O USER NAME) or fix the database "
            "name in DATABASE_URL"
        )
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return (
            f"PostgreSQL refused the login to {place} ({error}): check the user and password "
            "in DATABASE_URL"
        )
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return (
            f"the DATABASE_URL user may not create the bot's tables in {place} ({error}): make "
            "it the database's owner (ALTER DATABASE NAME OWNER TO USER)"
        )
    if isinstance(error, OSError | asyncpg.CannotConnectNowError):
        return (
            f"PostgreSQL ({place}) is not reachable ({reason(error)}; waited {waited:.0f} s): "
            "start it, or fix the host and port in DATABASE_URL (DATABASE_WAIT sets how long "
            "to wait)"
        )
    return f"PostgreSQL ({place}) failed at start: {error}"


def shards_problem(place: str, error: Exception) -> str:
    """Another process on the same database runs some of this one's shards (`ShardTaken`), or
    splits the guilds another way (`CountConflict`)."""
    if isinstance(error, CountConflict):
        theirs = ", ".join(map(str, error.others))
        return (
            f"another process runs this bot on {place} with SHARD_COUNT={theirs}, this one with "
            f"{error.count} (1: unsharded): give every process the same SHARD_COUNT"
        )
    assert isinstance(error, ShardTaken)
    seen = {holder for holder in error.taken.values() if holder is not None}
    by = "; ".join(
        (h.name or "a process")
        + (f" at {h.address}" if h.address else "")
        + (f" since {h.since}" if h.since else "")
        for h in sorted(seen, key=lambda h: h.since or "")
    )
    by = f" ({by})" if by else ""
    if error.count == 1:
        return (
            f"another process already runs this bot on {place}{by}: stop it, or split the bot "
            "with SHARD_COUNT and each process's own SHARD_IDS"
        )
    shards = ", ".join(map(str, sorted(error.taken)))
    noun = "shard" if len(error.taken) == 1 else "shards"
    return (
        f"{noun} {shards} of {error.count} already run in another process on {place}{by}: "
        "give every process its own SHARD_IDS, or stop the other one"
    )
