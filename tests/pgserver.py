"""A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary directory, a server
that listens only on a Unix socket in that directory, stopped and deleted at the end.

The server binaries are found on PATH, else in Debian's `/usr/lib/postgresql/<version>/bin`
(`.ci/run` installs the `postgresql` package when neither has them). PostgreSQL refuses to run
as root, so when the tests run as root the cluster belongs to `nobody` and its commands run
as that user. Nothing here skips: a cluster that cannot start raises, and every test that needs
it fails with the reason.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from storage import open_storage

DEBIAN_BINARIES = Path("/usr/lib/postgresql")
UNPRIVILEGED = "nobody"
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
"""Durability the tests do not need (a crash of the throwaway server loses nothing of
value); the bench runs its own server with the defaults."""
MEMORY = Path("/dev/shm")
"""Where the cluster goes when it exists: on tmpfs a CREATE DATABASE takes milliseconds, on a
busy disk half a second (it copies and checkpoints the template's files)."""


def binaries() -> Path:
    """The directory holding `initdb`, `pg_ctl` and `postgres`."""
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).parent

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.parent.parent.name))

    debian = sorted(DEBIAN_BINARIES.glob("*/bin/initdb"), key=version, reverse=True)
    if debian:
        return debian[0].parent
    raise RuntimeError(
        "PostgreSQL server binaries not found (no initdb on PATH or in "
        f"{DEBIAN_BINARIES}/*/bin): install Debian's postgresql package (.ci/run does)"
    )


@dataclass
class Cluster:
    directory: Path
    bin: Path
    user: pwd.struct_passwd | None
    """Who runs the server: `nobody` when the tests run as root, else None (ourselves)."""
    migrated: bool = False
    """Whether the `MIGRATED` template exists yet."""
    flags: str = ""
    """The server's `-c name=value` settings, to start it again the same way."""

    @property
    def data(self) -> Path:
        return self.directory / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.directory}"

    def _run(self, *command: str) -> None:
        options: dict[str, Any] = {}
        if self.user is not None:
            options = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        done = subprocess.run(
            [str(self.bin / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            cwd=self.directory,
            env={**os.environ, "LC_ALL": "C"},
            check=False,
            **options,
        )
        if done.returncode != 0:
            log = self.directory / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{command[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}{tail}"
            )

    @classmethod
    def start(cls, settings: dict[str, str] | None = None, *, in_memory: bool = True) -> Cluster:
        """initdb and start a server with `settings` (defaults: `FAST`), on tmpfs when there
        is one unless not `in_memory` (a bench of durable commits wants a real disk)."""
        usable = in_memory and MEMORY.is_dir() and os.access(MEMORY, os.W_OK)
        memory = MEMORY if usable else None
        directory = Path(tempfile.mkdtemp(prefix="tablebot-pg-", dir=memory))
        user = pwd.getpwnam(UNPRIVILEGED) if os.geteuid() == 0 else None
        if user is not None:
            os.chown(directory, user.pw_uid, user.pw_gid)
        cluster = cls(directory, binaries(), user)
        try:
            cluster._run(
                "initdb", "-D", str(cluster.data), "-U", "postgres", "--auth=trust",
                "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions",
            )  # fmt: skip
            options = {
                "listen_addresses": "''",
                "unix_socket_directories": f"'{directory}'",
                "max_connections": "300",
                "shared_buffers": "32MB",
                **(FAST if settings is None else settings),
            }
            cluster.flags = " ".join(f"-c {name}={value}" for name, value in options.items())
            cluster.start_server()
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        return cluster

    def start_server(self) -> None:
        """Start the server (again, after `stop_server`), waiting until it takes connections."""
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.directory / "server.log"),
            "-o", self.flags, "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop_server(self) -> None:
        """Stop the server as an outage would (every connection dropped), keeping its data."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)


_names = itertools.count(1)

MIGRATED = "tablebot_migrated"
"""A database with every migration applied, copied for each test that wants a ready schema
(a file copy takes a few milliseconds; migrating anew, a quarter of a second)."""


async def _create(admin: asyncpg.Connection, name: str, template: str) -> None:
    # FILE_COPY: PostgreSQL 15's default (WAL_LOG) writes the whole template to the WAL.
    await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE {template} STRATEGY FILE_COPY')


@contextlib.asynccontextmanager
async def fresh_database(cluster: Cluster, *, migrated: bool = False) -> AsyncIterator[str]:
    """A new database on `cluster` (its URL), dropped afterwards: empty, or `migrated`."""
    name = f"test_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(cluster.url())
    try:
        if migrated and not cluster.migrated:
            await _create(admin, MIGRATED, "template0")
            storage = await open_storage(cluster.url(MIGRATED))
            await storage.close()
            cluster.migrated = True
        await _create(admin, name, MIGRATED if migrated else "template0")
    finally:
        await admin.close()
    try:
        yield cluster.url(name)
    finally:
        admin = await asyncpg.connect(cluster.url())
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
