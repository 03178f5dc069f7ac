"""/healthz and /metrics over HTTP, served by aiohttp (discord.py's own HTTP library) in the
bot's event loop: a probe sees the loop itself answer, and a stalled loop fails it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.failures import Failure, reason
from bot.ops.health import READ_TIMEOUT, Health
from bot.ops.metrics import Metrics

log = logging.getLogger(__name__)


class Endpoint:
    def __init__(
        self, health: Health, metrics: Metrics, refresh: Callable[[], Awaitable[None]]
    ) -> None:
        self.health = health
        self.metrics = metrics
        self._refresh = refresh
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            await runner.cleanup()
            raise Failure(
                f"METRICS_PORT {port} on METRICS_HOST {host}: cannot listen ({reason(error)}): "
                "pick a free port, or leave METRICS_PORT empty"
            ) from None
        self._runner = runner
        log.info("Health check and metrics: http://%s:%s/healthz and /metrics", host, self.port)

    @property
    def port(self) -> int:
        """The port listened on (the one picked, for METRICS_PORT=0)."""
        assert self._runner is not None
        return int(self._runner.addresses[0][1])

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        verdict = await self.health.verdict()
        return web.Response(text=verdict.text, status=200 if verdict.healthy else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        try:  # the live sessions, read again now and then; else the last figures
            await asyncio.wait_for(self._refresh(), READ_TIMEOUT)
        except Exception as error:
            log.warning("live sessions not counted now: %s", reason(error))
        body, content_type = self.metrics.exposition(request.headers.get("Accept", ""))
        return web.Response(body=body, headers={"Content-Type": content_type})
