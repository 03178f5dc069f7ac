"""What bench/service.py needs of the database besides the service: the floor a store doing
one transaction per move can reach, a temporary PostgreSQL database, and the verifier that
finds each acknowledged move's log row on a connection of its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite


async def raw_commits_per_s(directory: Path, synchronous: str, seconds: float = 2.0) -> float:
    """Single-row INSERT+COMMIT transactions per second on a fresh file, same settings."""
    async with aiosqlite.connect(directory / "raw.db", isolation_level=None) as conn:
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("INSERT INTO t (payload) VALUES (?)", ('{"kind":"play","card":42}',))
            await conn.execute("COMMIT")
            done += 1
        return done / (time.perf_counter() - start)


async def pg_synchronous(url: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        commit = await conn.fetchval("SHOW synchronous_commit")
        fsync = await conn.fetchval("SHOW fsync")
    finally:
        await conn.close()
    return f"{commit}/fsync={fsync}"


async def pg_raw_commits_per_s(url: str, seconds: float = 2.0) -> float:
    """Single-row INSERT+COMMIT transactions per second on one connection."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE raw_commits (id BIGSERIAL PRIMARY KEY, payload TEXT)")
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO raw_commits (payload) VALUES ($1)", '{"kind":"play","card":42}'
                )
            done += 1
        rate = done / (time.perf_counter() - start)
        await conn.execute("DROP TABLE raw_commits")
    finally:
        await conn.close()
    return rate


@contextlib.asynccontextmanager
async def temporary_database(url: str) -> AsyncIterator[str]:
    """A new database on the server of `url` (created through the URL's own database), the
    URL of it, dropped afterwards."""
    import asyncpg

    name = f"bench_service_{os.getpid()}"
    parts = urlsplit(url)
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


class Verifier:
    """Checks each acknowledged move's log row on a connection of its own."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.items: list[tuple[str, int, Any]] = []
        self.wake = asyncio.Event()
        self.done = False
        self.checked = 0
        self.missing: list[tuple[str, int]] = []
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    def check(self, item: tuple[str, int, Any]) -> None:
        self.items.append(item)
        self.wake.set()

    async def finish(self) -> None:
        self.done = True
        self.wake.set()
        assert self.task is not None
        await self.task

    async def run(self) -> None:
        postgres = self.location.startswith("postgresql://")
        if postgres:
            import asyncpg

            conn: Any = await asyncpg.connect(self.location)
        else:
            conn = await aiosqlite.connect(self.location)
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                while self.items:
                    items, self.items = self.items[:400], self.items[400:]
                    keys = [i[0] for i in items], [i[1] for i in items]
                    if postgres:
                        rows = await conn.fetch(
                            "SELECT a.session_id, a.seq, a.payload FROM "
                            "unnest($1::TEXT[], $2::INTEGER[]) AS k (session_id, seq) "
                            "JOIN actions AS a ON a.session_id = k.session_id AND a.seq = k.seq",
                            *keys,
                        )
                    else:
                        rows = await conn.execute_fetchall(
                            "SELECT a.session_id, a.seq, a.payload FROM actions AS a JOIN "
                            "json_each(?) AS k ON a.session_id = k.value ->> 0 "
                            "AND a.seq = k.value ->> 1",
                            (json.dumps(list(zip(*keys, strict=True))),),
                        )
                    found = {(row[0], row[1]): json.loads(row[2]) for row in rows}
                    for session_id, seq, payload in items:
                        if found.get((session_id, seq)) != payload:
                            self.missing.append((session_id, seq))
                    self.checked += len(items)
                if self.done and not self.items:
                    return
        finally:
            await conn.close()
