"""A running bot's /healthz and /metrics, read over real HTTP as a health check and Prometheus
read them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.client import TableBot
from bot.playground.emulator import Emulator


async def get(bot: TableBot, path: str) -> tuple[int, str]:
    """GET `path` from the bot's endpoint: the status and the body."""
    assert bot.ops.endpoint is not None, "the bot serves no endpoint (METRICS_PORT unset)"
    url = f"http://127.0.0.1:{bot.ops.endpoint.port}{path}"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


@dataclass(frozen=True)
class Figures:
    """One scrape of /metrics: every sample, by name and labels."""

    samples: list[tuple[str, dict[str, str], float]]

    def __call__(self, name: str, **labels: str) -> float:
        """The sum of the samples called `name` whose labels include `labels` (0 if none)."""
        return sum(
            value
            for sample, have, value in self.samples
            if sample == name and labels.items() <= have.items()
        )

    def label_values(self) -> set[str]:
        return {value for _, labels, _ in self.samples for value in labels.values()}


async def figures(bot: TableBot) -> Figures:
    status, text = await get(bot, "/metrics")
    assert status == 200, text
    samples = [
        (sample.name, dict(sample.labels), sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    ]
    return Figures(samples)


async def figures_once(emu: Emulator, bot: TableBot, holds: Callable[[Figures], bool]) -> Figures:
    """Scrape until the figures satisfy `holds` (a figure counted after the bot's reply, such
    as the reply's own time, shows a moment later)."""

    async def scraped() -> Figures | None:
        now = await figures(bot)
        return now if holds(now) else None

    found: Figures = await emu.wait_for(scraped, message="the figures never showed it")
    return found


async def health_once(emu: Emulator, bot: TableBot, status: int) -> str:
    """Probe /healthz until it answers `status`; its body."""

    async def probed() -> str | None:
        answered, body = await get(bot, "/healthz")
        return body if answered == status else None

    body: str = await emu.wait_for(probed, message=f"/healthz never answered {status}")
    return body
