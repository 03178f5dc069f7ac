"""Shard leases as the bot sees them: while a process runs, it holds each of its shard ids on the
database the shard processes share, so two processes never drive the same shard's games, and
its shard count, so processes that split the guilds differently (SHARD_COUNT 2 and 4, or an
unsharded process beside sharded ones) are refused too: their shards would overlap.

Here are the refusals of a claim and who stands in the way, for the admin's one line
(`bot.failures`), without the driver; `storage.postgres.leases` holds the leases.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Set
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lease, as the database sees its connection."""

    name: str
    """The holder's `name_of` (its application name on PostgreSQL)."""
    address: str | None
    since: str


def name_of(count: int, ids: Set[int]) -> str:
    """This process as a holder of `ids` of `count` shards, for the admin told of it."""
    listed = ",".join(map(str, sorted(ids)))
    return f"tablebot {socket.gethostname()} pid {os.getpid()} shards {listed}/{count}"


class ShardTaken(Exception):
    """Another process holds some of the shards this one was to run."""

    def __init__(self, count: int, taken: dict[int, Holder | None]) -> None:
        super().__init__(f"shards {sorted(taken)} of {count} are held by another process")
        self.count = count
        self.taken = taken


class CountConflict(Exception):
    """Another process runs the bot on this database with another shard count."""

    def __init__(self, count: int, others: list[int]) -> None:
        super().__init__(f"other processes run with shard count {others}, this one with {count}")
        self.count = count
        self.others = others
