"""Waiting at start for a PostgreSQL server that is not up yet: compose starts it beside the
bot, a reboot starts both at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import asyncpg

NOT_UP_YET = (OSError, asyncpg.CannotConnectNowError)
"""A server not (yet) up: refused, unreachable or timed out, a host name not resolvable yet,
or "the database system is starting up". Anything else (a wrong password, no such database)
will not mend by waiting."""

FIRST_DELAY = 0.5
LONGEST_DELAY = 10.0
CONNECT_TIMEOUT = 10.0


async def until_reachable(
    url: str, patience: float, on_wait: Callable[[Exception, float, float], None]
) -> None:
    """Return once the server at `url` accepts a connection; until then retry with backoff
    for up to `patience` seconds, calling `on_wait(error, delay, seconds left)` before each
    wait, then raise the last error."""
    deadline = time.monotonic() + patience
    delay = FIRST_DELAY
    while True:
        left = deadline - time.monotonic()
        try:
            conn = await asyncpg.connect(url, timeout=max(1.0, min(CONNECT_TIMEOUT, left)))
        except NOT_UP_YET as error:
            left = deadline - time.monotonic()
            if left <= 0:
                raise
            pause = min(delay, left)
            on_wait(error, pause, left)
            await asyncio.sleep(pause)
            delay = min(delay * 2, LONGEST_DELAY)
        else:
            await conn.close()
            return
