"""Connections that come back: waiting, with backoff, for a database server that is not up yet,
and a connection of one's own kept open across the server's restarts and network cuts.

Driver-neutral: the driver says how to open and close a connection and which of its errors
mean the server cannot be reached (`storage.postgres`; a SQLite file never goes away).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
C = TypeVar("C")

Errors = tuple[type[Exception], ...]

OnWait = Callable[[Exception, float, float], None]
"""Told `(error, delay, seconds left)` before each wait."""


async def retry(
    attempt: Callable[[float], Awaitable[T]],
    transient: Errors,
    *,
    patience: float = math.inf,
    delay: float = 0.5,
    most: float = 10.0,
    on_wait: OnWait | None = None,
) -> T:
    """The result of `attempt(seconds of patience left)`; one that raises a `transient` error
    is tried again, the waits doubling from `delay` to `most` seconds, for up to `patience`
    seconds in all; then the last error is raised."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return await attempt(deadline - time.monotonic())
        except transient as error:
            left = deadline - time.monotonic()
            if left <= 0:
                raise
            if on_wait is not None:
                on_wait(error, min(delay, left), left)
            await asyncio.sleep(min(delay, left))
            delay = min(delay * 2, most)


class Kept(Generic[C]):
    """A connection of its own, opened again (with backoff) whenever the server drops it (a
    restart, a network cut), `setup` run on each before it counts as open: what it holds
    (LISTENs, leases) lasts as long as the connection. An error opening it that `lost` does
    not cover ends the retries: `on_error` hears it."""

    def __init__(
        self,
        what: str,
        connect: Callable[[], Awaitable[C]],
        setup: Callable[[C], Awaitable[None]],
        *,
        close: Callable[[C], Awaitable[None]],
        watch: Callable[[C, Callable[[], None]], None],
        lost: Errors,
        on_error: Callable[[Exception], None] | None = None,
    ) -> None:
        """`watch(conn, dropped)` has `dropped()` called when `conn` drops; `lost`: what
        opening raises while the server cannot be reached."""
        self.what, self._connect, self._setup = what, connect, setup
        self._close, self._watch, self._lost, self._on_error = close, watch, lost, on_error
        self.conn: C | None = None
        self._stopped = False
        self._again: asyncio.Task[None] | None = None

    async def open(self) -> Kept[C]:
        conn = await self._connect()
        try:
            await self._setup(conn)
            if self._stopped:  # while it opened
                raise asyncio.CancelledError
        except BaseException:
            await self._close(conn)
            raise
        self._watch(conn, self._dropped)
        self.conn = conn
        return self

    def _dropped(self) -> None:
        if not self._stopped:
            log.warning("lost the connection %s; opening it again", self.what)
            self.conn = None
            self._again = asyncio.get_running_loop().create_task(self._open_again())

    async def _open_again(self) -> None:
        try:
            await retry(lambda _: self.open(), self._lost, delay=0.1, most=30.0)
        except Exception as error:
            if self._on_error is None:
                raise
            self._on_error(error)
        else:
            log.info("the connection %s is open again", self.what)

    async def stop(self, last: Callable[[C], Awaitable[object]] | None = None) -> None:
        """Open it no more; close it, if open, after `last(connection)`."""
        self._stopped = True
        if self._again is not None:
            self._again.cancel()
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                if last is not None:
                    await last(conn)
            finally:
                await self._close(conn)
