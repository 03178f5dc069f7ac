"""The service's sense of time: wall-clock seconds, and sleeping until an absolute moment.

Deadlines are stored as absolute wall-clock times so they survive a restart; tests drive the
same code with `ManualClock` instead of waiting.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

MAX_NAP = 60.0
"""The longest single sleep of `SystemClock`: a long wait re-reads the wall clock this often,
so a clock adjustment (NTP) shifts a 24 h deadline by at most this much."""


class Clock(Protocol):
    def now(self) -> float:
        """Wall-clock (Unix) seconds."""

    async def sleep_until(self, when: float) -> None:
        """Return once `now() >= when` (at once, after a yield, when it already is)."""


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(0)
        while (left := when - self.now()) > 0:
            await asyncio.sleep(min(left, MAX_NAP))


SYSTEM_CLOCK = SystemClock()


class ManualClock:
    """A clock for tests: time stands still until `advance` or `set` moves it."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (when, waiter)
        self._sleepers.append(entry)
        try:
            await waiter
        finally:
            self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)

    def set(self, when: float) -> None:
        """Move to `when` and wake every sleeper whose time has come."""
        self._now = when
        for due, waiter in self._sleepers:
            if due <= when and not waiter.done():
                waiter.set_result(None)
