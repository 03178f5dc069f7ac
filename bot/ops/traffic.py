"""The bot's HTTP traffic with Discord, measured from discord.py's own aiohttp session (a
`TraceConfig`: discord.py takes one, `HTTPClient.http_trace`): each answer by route template
and status, the waits Discord's 429s ask for, and each interaction's click → reply time.

A route is named by its template (`/channels/{channel_id}/messages/{message_id}`), never by
its ids or tokens, so the series stay few."""

from __future__ import annotations

import logging
import re
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

from bot.ops.metrics import Metrics

log = logging.getLogger(__name__)

API_PREFIX = re.compile(r"^(?:/[^/]+)*?/api/v\d+(?=/|$)")
WORD = re.compile(r"@?[a-z][a-z0-9_-]*")
ID_NAMES = {
    "applications": "application_id",
    "channels": "channel_id",
    "commands": "command_id",
    "guilds": "guild_id",
    "interactions": "interaction_id",
    "members": "user_id",
    "messages": "message_id",
    "roles": "role_id",
    "users": "user_id",
    "webhooks": "webhook_id",
}
"""A number in a path is the id of what the segment before it names."""

TOKENED = ("interactions", "webhooks")
"""Routes whose segment after the id is a token (an interaction's)."""

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
SCOPES = frozenset({"user", "global", "shared"})


def route_of(path: str) -> str:
    """The route template of a request's path: ids and tokens named, not shown."""
    parts = API_PREFIX.sub("", path).strip("/").split("/")
    named: list[str] = []
    for index, part in enumerate(parts):
        before = parts[index - 1] if index else ""
        if part.isdigit():
            named.append("{" + ID_NAMES.get(before, "id") + "}")
        elif index >= 2 and parts[index - 2] in TOKENED and parts[index - 1].isdigit():
            named.append("{token}")
        elif before == "reactions":
            named.append("{emoji}")
        else:
            named.append(part if WORD.fullmatch(part) else "{other}")
    return "/" + "/".join(named)


class Traffic:
    """Counts what Discord answers; `trace` goes to discord.py's HTTP client."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_end.append(self._answered)
        self.trace.on_request_exception.append(self._failed)

    async def _answered(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        # Never raise here: it would fail discord.py's request.
        if not API_PREFIX.match(params.url.path):
            return  # the gateway's websocket, not the API
        try:
            response = params.response
            route = route_of(params.url.path)
            status = response.status
            self.metrics.responses.labels(params.method, route, str(status)).inc()
            if route == CALLBACK and status < 300:
                self._replied(params.url.path)
            elif status == 429:
                await self._limited(route, response)
        except Exception:
            log.exception("could not count a Discord answer")

    async def _failed(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        if API_PREFIX.match(params.url.path):
            route = route_of(params.url.path)
            self.metrics.responses.labels(params.method, route, "error").inc()

    def _replied(self, path: str) -> None:
        """An interaction's first response went through: the time since its creation, which
        Discord stamps in its id (the host's clock against Discord's, which NTP keeps within
        milliseconds)."""
        interaction_id = int(API_PREFIX.sub("", path).split("/")[2])
        created = discord.utils.snowflake_time(interaction_id).timestamp()
        self.metrics.reply.observe(max(time.time() - created, 0.0))

    async def _limited(self, route: str, response: aiohttp.ClientResponse) -> None:
        """A 429: the wait it asks for, as discord.py reads it (the body's `retry_after`; the
        body is read once and kept by aiohttp for discord.py)."""
        scope = response.headers.get("X-RateLimit-Scope", "")
        try:
            body: Any = await response.json(content_type=None)
            wait = float(body["retry_after"])
        except (ValueError, TypeError, KeyError, aiohttp.ClientError):
            wait = float(response.headers.get("Retry-After") or 0)
        label = scope if scope in SCOPES else "unknown"
        self.metrics.rate_limited.labels(route, label).inc(wait)
