"""Discord's REST rate limits, answered as Discord answers them.

Two kinds, as on Discord:

- **Per route**: a route's requests share a bucket per top-level resource of the path (its
  channel, guild, or webhook and token), counted in windows of `per` seconds. A success says
  where the bucket stands (`X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After`,
  `-Bucket`), so a client can wait before it is refused; a request past the limit gets a 429
  with `retry_after` in its body and `X-RateLimit-Scope: user`. The message create and edit
  routes are limited by default (Discord: 5 per 5 s per channel); any route can be given a
  limit (`Emulator.route_limits`).
- **Global**: every request made with the bot token counts against one window per bot
  (Discord: 50 a second). No success announces it; the 429 carries `X-RateLimit-Global: true`,
  `X-RateLimit-Scope: global` and `"global": true`. Interaction callbacks and interaction
  webhooks (authenticated by their token, not the bot's) are not bound by it, as on Discord.

A refused request changes nothing: its handler never runs.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import ApiError

if TYPE_CHECKING:
    from .emulator import Emulator


@dataclass(frozen=True)
class RateLimit:
    """`count` requests per bucket every `per` seconds (Discord's message routes: 5 per 5 s).

    Shrink `per` (e.g. `RateLimit(5, 0.2)`) to keep the behaviour but not the wait.
    """

    count: int = 5
    per: float = 5.0


DISCORD_MESSAGES = RateLimit(5, 5.0)
"""Discord's limit of message creates, and of edits, per channel."""

DISCORD_GLOBAL = RateLimit(50, 1.0)
"""Discord's global limit: 50 requests a second per bot."""

MESSAGE_ROUTES = {
    "POST /channels/{channel_id}/messages": "create",
    "PATCH /channels/{channel_id}/messages/{message_id}": "edit",
}
"""The routes `Emulator.rate_limit` limits, per channel, each in a bucket of its own."""

MAJOR_PARAMETERS = (("channel_id",), ("guild_id",), ("app_id", "token"))
"""The top-level resources Discord keys a route's buckets by, first match wins."""


@dataclass(frozen=True)
class RateLimitHit:
    """A 429 the emulator answered: `scope` "user" (a route's bucket) or "global"."""

    method: str
    path: str
    channel_id: int | None
    retry_after: float
    scope: str = "user"
    bucket: str | None = None


@dataclass
class _Window:
    start: float
    used: int = 0


class RateLimits:
    """The windows of every bucket (and the global one), read against the emulator's knobs
    (`rate_limit`, `route_limits`, `global_limit`, `rate_limit_headers`) at each request, so
    a test may change them at any time."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self._windows: dict[tuple[str, str], _Window] = {}

    def limit_of(self, route: str) -> RateLimit | None:
        """The limit of `route` ("METHOD /template"), if it has one."""
        if route in self.emu.route_limits:
            return self.emu.route_limits[route]
        return self.emu.rate_limit if route in MESSAGE_ROUTES else None

    def check(
        self, route: str, params: Mapping[str, str], path: str, *, bot_token: bool
    ) -> dict[str, str]:
        """Count a request to `route` (its path parameters `params`): raises the 429 Discord
        would answer, or returns the headers its answer carries."""
        now = asyncio.get_running_loop().time()
        limit = self.emu.global_limit
        if bot_token and limit is not None:
            window = self._window(("global", ""), limit, now)
            if window.used >= limit.count:
                raise self._refuse(route, params, path, _reset_after(window, limit, now))
            window.used += 1
        limit = self.limit_of(route)
        if limit is None:
            return {}
        bucket = bucket_hash(route)
        window = self._window((bucket, major_parameter(params)), limit, now)
        reset_after = _reset_after(window, limit, now)
        headers = {
            "X-RateLimit-Limit": str(limit.count),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        if window.used >= limit.count:
            headers["X-RateLimit-Remaining"] = "0"
            raise self._refuse(route, params, path, reset_after, bucket, headers)
        window.used += 1
        headers["X-RateLimit-Remaining"] = str(limit.count - window.used)
        return headers if self.emu.rate_limit_headers else {}

    def _window(self, key: tuple[str, str], limit: RateLimit, now: float) -> _Window:
        window = self._windows.get(key)
        if window is None or now - window.start >= limit.per:
            window = self._windows[key] = _Window(start=now)
        return window

    def _refuse(
        self,
        route: str,
        params: Mapping[str, str],
        path: str,
        retry_after: float,
        bucket: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> ApiError:
        scope = "global" if bucket is None else "user"
        channel = params.get("channel_id", "")
        hit = RateLimitHit(
            route.split(" ", 1)[0],
            path,
            int(channel) if channel.isdigit() else None,
            retry_after,
            scope,
            bucket,
        )
        self.emu.rate_limit_hits.append(hit)
        answer = dict(headers or {})
        answer.update(
            {
                "Retry-After": str(math.ceil(retry_after)),
                "X-RateLimit-Scope": scope,
                "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
            }
        )
        if bucket is None:
            answer["X-RateLimit-Global"] = "true"
        message = "You are being rate limited."
        body = {"message": message, "retry_after": retry_after, "global": bucket is None}
        return ApiError(429, 0, message, headers=answer, body=body)


def _reset_after(window: _Window, limit: RateLimit, now: float) -> float:
    """Seconds until the window starts over, rounded up to the millisecond so a client that
    sleeps exactly this long lands in the next one."""
    return max(math.ceil((window.start + limit.per - now) * 1000) / 1000, 0.001)


def bucket_hash(route: str) -> str:
    """The bucket's name: one per route, the same for every channel (as Discord's hash is)."""
    kind = MESSAGE_ROUTES.get(route)
    if kind is not None:
        return f"emulator-channel-messages-{kind}"
    return "emulator-" + "-".join(
        part.strip("{}@") for part in route.lower().replace(" /", "/").split("/") if part
    )


def major_parameter(params: Mapping[str, str]) -> str:
    """The top-level resource a request's bucket is kept for (empty: the route's only one)."""
    for names in MAJOR_PARAMETERS:
        if all(name in params for name in names):
            return ":".join(params[name] for name in names)
    return ""
