"""Shard leases (`storage.leases`) on PostgreSQL.

A lease is a session-level advisory lock on a connection of its own: it lasts as long as that
connection, so a process that crashes or is killed loses its leases with its socket and a
replacement can claim them at once. Each process also holds its shard count under a shared
lock, which the processes of one count share; another count held beside it refuses the claim.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import asyncpg

from storage.leases import CountConflict, Holder, ShardTaken, name_of
from storage.postgres.db import kept
from storage.reconnect import Kept

SHARDS = 0x74620001
"""The first key of a shard id's lock (the second is the id); "tb" and 1."""
COUNTS = 0x74620002
"""The first key of a shard count's shared lock (the second is the count)."""

KEEPALIVE = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}
"""The server drops the connection of a machine that vanished within about 25 s, and with it
that machine's leases (the operating system's default waits two hours)."""

_OTHERS = """
SELECT l.classid::bigint AS kind, l.objid::bigint AS key, a.application_name,
       host(a.client_addr) AS address,
       to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"') AS since
FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.pid <> pg_backend_pid()
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid IN ($1::bigint::oid, $2::bigint::oid)
"""
"""The shard and count locks other connections hold, with who holds them."""


async def _take(conn: asyncpg.Connection, count: int, ids: frozenset[int]) -> None:
    """Take the count's shared lock and every id's lock on `conn`, or none of them."""
    try:
        await conn.execute("SELECT pg_try_advisory_lock_shared($1, $2)", COUNTS, count)
        held = "SELECT s, pg_try_advisory_lock($1, s) FROM unnest($2::INTEGER[]) AS s"
        taken = [row[0] for row in await conn.fetch(held, SHARDS, sorted(ids)) if not row[1]]
        others = await conn.fetch(_OTHERS, SHARDS, COUNTS)
        if counts := sorted({r["key"] for r in others if r["kind"] == COUNTS} - {count}):
            raise CountConflict(count, counts)
        if taken:
            holders = {
                r["key"]: Holder(r["application_name"], r["address"], r["since"])
                for r in others
                if r["kind"] == SHARDS
            }
            raise ShardTaken(count, {shard: holders.get(shard) for shard in taken})
    except BaseException:
        await _let_go(conn)
        raise


async def _let_go(conn: asyncpg.Connection) -> None:
    if not conn.is_closed():
        await conn.execute("SELECT pg_advisory_unlock_all()")


class ShardLeases:
    """The leases of one process: `claim` them at start, `release` at the end."""

    def __init__(self, count: int, ids: frozenset[int], kept: Kept[asyncpg.Connection]) -> None:
        self.count = count
        self.ids = ids
        self._kept = kept

    @classmethod
    async def claim(
        cls, url: str, count: int, ids: Iterable[int], on_lost: Callable[[Exception], None]
    ) -> ShardLeases:
        """Hold `ids` of `count` shards for this process; raises `ShardTaken` or
        `CountConflict` (holding nothing) when another process stands in the way. Should the
        connection holding them drop, they are claimed again; `on_lost` hears if another
        process took one meanwhile."""
        shards = frozenset(ids)
        leases = kept(
            url,
            f"holding shard leases {sorted(shards)}",
            functools.partial(_take, count=count, ids=shards),
            on_lost,
            application_name=name_of(count, shards)[:63],
            **KEEPALIVE,
        )
        return cls(count, shards, await leases.open())

    async def release(self) -> None:
        """Let the shards go at once (not when the server notices the closed connection)."""
        await self._kept.stop(_let_go)
