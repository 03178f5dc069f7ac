"""The pictures of public tables: on unless a server turned them off with `/settings`, drawn
from the public view only, again only when that view changed, and never more often than the
table's edit interval (drawing costs tens of milliseconds, so it runs off the event loop)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.game_ui import GameUI
from games.engine import Session
from storage import PrefTable

GUILD_PICTURES = "pictures"
"""Guild pref: "0" when the server turned table pictures off (they are on by default)."""
RETRY_AFTER = 3600.0
"""Seconds a channel where the bot may not attach files goes without pictures before the
next try (a moderator may grant the permission meanwhile)."""


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
    ) -> None:
        self.guild_prefs = guild_prefs
        self.interval = interval
        self._later = later
        """Asks for another redraw of a session (its picture was kept, being too recent)."""
        self._clock = clock
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
        png = await asyncio.to_thread(ui.table_picture, view)
        self._drawn[session.id] = _Drawn(view, png, now)
        return png
