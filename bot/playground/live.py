"""The page's live feed: a WebSocket per open page, fed by the emulator's own message events.

Each page belongs to one user and is sent only the messages that user can see, as they are
created, edited or deleted; edits that come faster than the page reads are coalesced (the
page gets the latest state of each message, in one frame).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from aiohttp import WSMsgType, web

from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from bot.playground.payloads import message_json, visible, world_json

log = logging.getLogger(__name__)


class Page:
    """One open page: its user, its socket, and what is waiting to be sent to it."""

    def __init__(self, user: EmuUser, ws: web.WebSocketResponse) -> None:
        self.user = user
        self.ws = ws
        self.shown: set[int] = set()
        self.pending: dict[int, dict[str, Any] | None] = {}
        self.world = False
        self.wake = asyncio.Event()

    def push(self, message_id: int, payload: dict[str, Any] | None) -> None:
        """Queue a message's latest state (None: gone from this user's view)."""
        if payload is None and message_id not in self.shown:
            return
        self.pending.pop(message_id, None)
        self.pending[message_id] = payload
        self.wake.set()

    def push_world(self) -> None:
        self.world = True
        self.wake.set()

    async def write(self, emu: Emulator) -> None:
        while not self.ws.closed:
            await self.wake.wait()
            self.wake.clear()
            pending, self.pending = self.pending, {}
            frame: dict[str, Any] = {"op": "update", "messages": [], "deleted": []}
            if self.world:
                self.world = False
                frame["world"] = world_json(emu, self.user)
            for message_id, payload in pending.items():
                if payload is None:
                    self.shown.discard(message_id)
                    frame["deleted"].append(str(message_id))
                else:
                    self.shown.add(message_id)
                    frame["messages"].append(payload)
            with contextlib.suppress(ConnectionError):
                await self.ws.send_json(frame)


class Live:
    """Every open page, and the emulator listener that feeds them."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.pages: set[Page] = set()
        emu.message_listeners.append(self.on_message)

    def close(self) -> None:
        self.emu.message_listeners.remove(self.on_message)

    def on_message(self, message: EmuMessage) -> None:
        payload: dict[str, Any] | None = None
        for page in self.pages:
            if self.emu.can_see(page.user, message):
                payload = payload or message_json(self.emu, message)
                page.push(message.id, payload)
            else:
                page.push(message.id, None)

    def world_changed(self) -> None:
        """A user's or the server's language changed: every page redraws its chrome."""
        for page in self.pages:
            page.push_world()

    async def serve(self, request: web.Request, user: EmuUser) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30.0)
        await ws.prepare(request)
        page = Page(user, ws)
        # The snapshot and the registration happen with no await between them, so the page
        # misses no change: everything after the snapshot is pushed.
        messages = visible(self.emu, user)
        page.shown.update(m.id for m in messages)
        hello = {
            "op": "hello",
            "world": world_json(self.emu, user),
            "messages": [message_json(self.emu, m) for m in messages],
        }
        self.pages.add(page)
        writer: asyncio.Task[None] | None = None
        try:
            await ws.send_json(hello)
            # One writer from here on, so frames keep their order.
            writer = asyncio.create_task(page.write(self.emu), name=f"playground-{user.name}")
            async for frame in ws:
                if frame.type == WSMsgType.ERROR:
                    log.debug("page socket of %s: %s", user.name, ws.exception())
        finally:
            self.pages.discard(page)
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
        return ws
