"""The pictures of public tables: on unless a server turned them off with `/settings`, drawn
from the public view only, again only when that view changed, and never more often than the
table's edit interval.

Drawing costs milliseconds of Pillow calls that hold the GIL: in a thread it would stall the
event loop, and every click waiting on it, for as long. So pictures are drawn in a worker
process of their own (`in_worker_process`), one at a time; a game's `table_picture` must
therefore pickle (a method of a `GameUI` without unpicklable state does).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot.game_ui import GameUI
from games.engine import Session
from runtime.workers import process_pool
from storage import PrefTable

log = logging.getLogger(__name__)

GUILD_PICTURES = "pictures"
"""Guild pref: "0" when the server turned table pictures off (they are on by default)."""
RETRY_AFTER = 3600.0
"""Seconds a channel where the bot may not attach files goes without pictures before the
next try (a moderator may grant the permission meanwhile)."""

Draw = Callable[[Any], bytes | None]
Painter = Callable[[Draw, Any], Awaitable[bytes | None]]
"""Runs a game's `table_picture` on a view somewhere off the event loop."""

RESPAWN_AFTER = 60.0
"""Seconds pictures are drawn in threads after the picture process died, before a new one."""


class _PictureProcess:
    """The worker process, started on first use and shared by every bot of this process."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.broken_until = 0.0

    def start(self, modules: tuple[str, ...]) -> None:
        """Spawn the process and import `modules` there (the games' drawing code and Pillow),
        so the first table does not wait for that (about a second of CPU)."""
        if self.pool is None and time.monotonic() >= self.broken_until:
            self.pool = process_pool(1)
            self.pool.submit(_import, modules)

    async def draw(self, draw: Draw, view: Any) -> bytes | None:
        if time.monotonic() < self.broken_until:
            return await in_thread(draw, view)
        if self.pool is None:
            self.pool = process_pool(1)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, draw, view)
        except BrokenProcessPool:
            log.warning("the picture process died; drawing in threads for %.0f s", RESPAWN_AFTER)
            self.pool = None
            self.broken_until = time.monotonic() + RESPAWN_AFTER
            return await in_thread(draw, view)


def _import(modules: tuple[str, ...]) -> None:
    for module in modules:
        importlib.import_module(module)


_PROCESS = _PictureProcess()


def start_picture_process(uis: Iterable[GameUI]) -> None:
    """Have the picture process up, with the drawing code of `uis` that draw, before a table
    asks for a picture."""
    _PROCESS.start(tuple(type(ui).__module__ for ui in uis if ui.pictures))


async def in_worker_process(draw: Draw, view: Any) -> bytes | None:
    """`draw(view)` in the picture process; in a thread while that process is down."""
    return await _PROCESS.draw(draw, view)


async def in_thread(draw: Draw, view: Any) -> bytes | None:
    """`draw(view)` in a thread of this process (tests, where the drawing is watched)."""
    return await asyncio.to_thread(draw, view)


async def pictures_on(guild_prefs: PrefTable, guild_id: int | None) -> bool:
    if guild_id is None:
        return True
    return await guild_prefs.get(guild_id, GUILD_PICTURES) != "0"


@dataclass(frozen=True)
class _Drawn:
    view: Any
    png: bytes | None
    at: float


class TablePictures:
    def __init__(
        self,
        guild_prefs: PrefTable,
        interval: float,
        later: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
        painter: Painter = in_worker_process,
    ) -> None:
        self.guild_prefs = guild_prefs
        self.interval = interval
        self._later = later
        """Asks for another redraw of a session (its picture was kept, being too recent)."""
        self._clock = clock
        self._painter = painter
        self._drawn: dict[str, _Drawn] = {}
        self._refused: dict[int, float] = {}
        """Channels where Discord refused an upload (no Attach Files), until when."""

    def refused(self, channel_id: int) -> None:
        """The bot may not attach files in this channel: no pictures there for a while."""
        self._refused[channel_id] = self._clock() + RETRY_AFTER

    def forget_session(self, sid: str) -> None:
        self._drawn.pop(sid, None)

    async def picture(self, session: Session, ui: GameUI) -> bytes | None:
        """The table picture to show now, or None (no state, no picture for this game, or
        turned off). When the view changed within an interval of the last drawing, the last
        picture is kept and a redraw is asked for, which draws the new one in time."""
        if session.state is None or not ui.pictures:
            return None
        until = self._refused.get(session.record.channel_id)
        if until is not None and self._clock() < until:
            return None
        if not await pictures_on(self.guild_prefs, session.record.guild_id):
            return None
        view = session.rules.view(session.state, None)
        drawn = self._drawn.get(session.id)
        if drawn is not None and drawn.view == view:
            return drawn.png
        now = self._clock()
        if drawn is not None and now - drawn.at < self.interval:
            self._later(session.id)
            return drawn.png
        png = await self._painter(ui.table_picture, view)
        self._drawn[session.id] = _Drawn(view, png, now)
        return png
