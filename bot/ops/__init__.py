"""Running the bot as a service: its figures (`metrics`, `traffic`), its health (`health`),
the HTTP endpoint serving both (`server`, on `METRICS_PORT`), and log lines that say which
game they are about (`logs`).

`Ops` hooks the counting in at a few places only: an observer of the session service (each
change it observes was committed: the store answers), the service's `on_commit` (set where the
service is made), discord.py's HTTP trace; the rest is read when /metrics is."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterable, Mapping

import discord

from bot.ops.health import Health, open_shards
from bot.ops.metrics import Metrics, Shard
from bot.ops.server import Endpoint
from bot.ops.traffic import Traffic
from bot.settings import Settings
from games.engine import Status
from runtime import Change, SessionService

__all__ = ["Metrics", "Ops"]

PROBE_SESSION = "0" * 16
"""The session the health check's read looks up: any id will do, it only has to be asked."""

COUNT_EVERY = 10.0
"""Seconds the live sessions' count is kept before /metrics reads it again from the store."""


class LiveSessions:
    """Live sessions per (game, status) of the guilds this process runs, counted from the
    store (one read of the live sessions' rows, every `COUNT_EVERY` seconds at most)."""

    def __init__(self, service: SessionService, games: Iterable[str]) -> None:
        self.service = service
        self._zero = {(g, s.value): 0 for g in games for s in (Status.LOBBY, Status.ACTIVE)}
        self._counts: Mapping[tuple[str, str], int] = {}
        self._at = -COUNT_EVERY
        self._lock = asyncio.Lock()

    def __call__(self) -> Mapping[tuple[str, str], int]:
        return self._counts

    async def refresh(self) -> None:
        async with self._lock:
            if time.monotonic() - self._at < COUNT_EVERY:
                return
            records = await self.service.store.live_sessions()
            counted = Counter((r.game_id, r.status.value) for r in records if self.service.owns(r))
            self._counts = {**self._zero, **counted}
            self._at = time.monotonic()


class Ops:
    def __init__(
        self,
        client: discord.Client,
        service: SessionService,
        metrics: Metrics,
        settings: Settings,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.health = Health(client, lambda: service.store.version(PROBE_SESSION))
        self.traffic = Traffic(metrics)
        client.http.http_trace = self.traffic.trace  # read when discord.py logs in
        service.observe(self._observed)
        self.live = LiveSessions(service, service.games)
        metrics.watch(self.live, lambda: _shards(client))
        self.endpoint: Endpoint | None = None

    def _observed(self, change: Change) -> None:
        self.metrics.on_change(change)
        self.health.committed()

    async def start(self) -> None:
        """Serve /healthz and /metrics on METRICS_PORT (nothing when it is unset)."""
        port = self.settings.metrics_port
        if port is not None and self.endpoint is None:
            endpoint = Endpoint(self.health, self.metrics, self.live.refresh)
            await endpoint.start(self.settings.metrics_host, port)
            self.endpoint = endpoint

    async def close(self) -> None:
        if self.endpoint is not None:
            await self.endpoint.close()
            self.endpoint = None


def _shards(client: discord.Client) -> list[Shard]:
    latencies = (
        dict(client.latencies)
        if isinstance(client, discord.AutoShardedClient)
        else {0: client.latency}
    )
    return [
        Shard(shard, is_open, latencies.get(shard, float("inf")))
        for shard, is_open in sorted(open_shards(client).items())
    ]
