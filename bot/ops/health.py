"""Whether the bot is serving, as /healthz answers (Docker's and compose's health check, a
supervisor's, a load balancer's): every gateway connection this process runs is open, and the
store answered within the last `FRESH` seconds.

The store's answer is its last committed change when there was one lately (a busy bot costs the
probe nothing), else a cheap read made for the probe: one primary-key lookup, never a write,
so a probe never costs an fsync. Probes at once share one read."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.failures import reason

FRESH = 5.0
"""Seconds a store's answer (a commit, or the probe's read) vouches for it."""

READ_TIMEOUT = 2.0
"""Seconds the probe's read may take before the store counts as not answering."""


@dataclass(frozen=True, slots=True)
class Verdict:
    healthy: bool
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(("ok" if self.healthy else "unhealthy", *self.lines)) + "\n"


def open_shards(client: discord.Client) -> dict[int, bool]:
    """Each gateway connection of this process: whether it is open now (shard 0 alone for an
    unsharded bot; none before the first connection)."""
    if isinstance(client, discord.AutoShardedClient):
        return {shard_id: not info.is_closed() for shard_id, info in client.shards.items()}
    ws = client.ws
    return {} if ws is None else {0: ws.open}


class Health:
    def __init__(
        self,
        client: discord.Client,
        read: Callable[[], Awaitable[object]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self._read = read
        self._clock = clock
        self._answered = -math.inf
        self._reading: asyncio.Future[object] | None = None

    def committed(self) -> None:
        """The store committed a change: it answers."""
        self._answered = self._clock()

    async def verdict(self) -> Verdict:
        lines = (self._gateway(), await self._store())
        return Verdict(all(line.startswith("ok") for line in lines), lines)

    def _gateway(self) -> str:
        shards = open_shards(self.client)
        if not self.client.is_ready() or not shards:
            return "gateway: not connected yet (starting)"
        closed = sorted(shard for shard, is_open in shards.items() if not is_open)
        if closed:
            return f"gateway: disconnected (shard {', '.join(map(str, closed))})"
        return f"ok: gateway connected ({len(shards)} shard{'s' if len(shards) > 1 else ''})"

    async def _store(self) -> str:
        age = self._clock() - self._answered
        if age > FRESH:
            if self._reading is None or self._reading.done():
                self._reading = asyncio.ensure_future(self._read())
                self._reading.add_done_callback(_seen)
            try:
                await asyncio.wait_for(asyncio.shield(self._reading), READ_TIMEOUT)
            except TimeoutError:
                return f"store: did not answer within {READ_TIMEOUT:.0f} s"
            except Exception as error:
                return f"store: did not answer ({reason(error)})"
            self._answered = self._clock()
            age = 0.0
        return f"ok: store answered {age:.1f} s ago"


def _seen(future: asyncio.Future[object]) -> None:
    """A read the probe gave up on still ends: take its error, so asyncio does not log it."""
    if not future.cancelled():
        future.exception()
