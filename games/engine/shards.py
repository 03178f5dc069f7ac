"""Which sessions a process drives when a bot runs as several shard processes.

Discord sends a guild's events to one shard only: `(guild_id >> 22) % shard_count` (its
direct messages to shard 0). A session lives in its channel's guild, so it belongs to that
shard, and only the process running the shard drives its deadlines and AI seats; the database
is all the processes share.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.session import SessionRecord


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord routes a guild's events to (DMs, with no guild: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: `ids` out of `count`."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"shard count {self.count} is not positive")
        if not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} are not within 0..{self.count - 1}")

    @classmethod
    def of(cls, count: int, ids: tuple[int, ...] | None = None) -> Shards:
        """`ids` out of `count` shards; all of them when `ids` is None."""
        return cls(count, frozenset(range(count) if ids is None else ids))

    @property
    def all(self) -> bool:
        return len(self.ids) == self.count

    def owns_guild(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def owns(self, record: SessionRecord) -> bool:
        return self.owns_guild(record.guild_id)
