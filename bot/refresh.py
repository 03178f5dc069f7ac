"""Coalesced redraws: at most one redraw of a session's messages per interval, always of
the latest state, so fast AI turns never exceed Discord's edit rate.

The interval runs from the end of one redraw to the start of the next: a redraw's edits go out
after it has drawn (a picture may take a while), so timed from its start, two edits could leave
closer together than the interval; timed from its end, they never do, and a table edited every
`interval` seconds stays within Discord's 5 edits per 5 s with `interval` above 1."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from storage.session_store import RETRY_AFTER, StoreUnavailable

log = logging.getLogger(__name__)


class Refresher:
    def __init__(self, interval: float, redraw: Callable[[str], Awaitable[None]]) -> None:
        self.interval = interval
        self._redraw = redraw
        self._dirty: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._last: dict[str, float] = {}

    def mark(self, session_id: str) -> None:
        self._dirty.add(session_id)
        task = self._tasks.get(session_id)
        if task is None or task.done():
            self._tasks[session_id] = asyncio.get_running_loop().create_task(self._run(session_id))

    async def _run(self, session_id: str) -> None:
        while session_id in self._dirty:
            wait = self._last.get(session_id, 0.0) + self.interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty.discard(session_id)
            try:
                await self._redraw(session_id)
            except StoreUnavailable:  # a database outage: redraw once it is back
                log.warning("redraw of session %s waits for the store", session_id)
                self._dirty.add(session_id)
                await asyncio.sleep(RETRY_AFTER)
            except Exception:
                log.exception("redraw of session %s failed", session_id)
            finally:
                self._last[session_id] = time.monotonic()
        del self._tasks[session_id]
        # The last redraw's time matters for one more interval only; then forget the session.
        stamp = self._last[session_id]
        asyncio.get_running_loop().call_later(self.interval, self._expire, session_id, stamp)

    def _expire(self, session_id: str, stamp: float) -> None:
        if session_id not in self._tasks and self._last.get(session_id) == stamp:
            del self._last[session_id]

    def pending(self, session_id: str) -> bool:
        """Whether another redraw of the session is asked for and not begun yet."""
        return session_id in self._dirty

    async def idle(self) -> None:
        """Wait until every pending redraw is done (tests, shutdown)."""
        while pending := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
