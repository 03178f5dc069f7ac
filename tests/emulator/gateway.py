"""The websocket gateway: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatch.

One bot session is "active" at a time (the last one that identified). Events are numbered per
session and kept in a buffer, so a client that drops its socket can RESUME and get what it
missed. A client that closes cleanly (code 1000, `client.close()`) ends its session, so a
restarted bot identifies afresh, as on Discord.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .emulator import Emulator

log = logging.getLogger("tests.emulator.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41250

# Intents bits the emulator honours when deciding what to dispatch.
INTENT_GUILDS = 1 << 0
INTENT_MEMBERS = 1 << 1
INTENT_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


@dataclass(eq=False)
class GatewaySession:
    """A bot's gateway session; survives a dropped socket until RESUMEd or invalidated."""

    id: str
    intents: int
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    buffer: list[dict[str, Any]] = field(default_factory=list)
    alive: bool = True
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    identified_at: float = 0.0

    def wants(self, intent: int) -> bool:
        return bool(self.intents & intent)


class Gateway:
    """Serves the gateway websocket at `/` and dispatches events to the active bot session."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.sessions: dict[str, GatewaySession] = {}
        self.active: GatewaySession | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        self.connections = 0  # number of successful IDENTIFYs (a restart makes it grow)
        self.resumes = 0

    @property
    def connected(self) -> bool:
        """A bot is identified and its socket is open."""
        return self.active is not None and self.active.ws is not None and not self.active.ws.closed

    # -- dispatch -----------------------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None) -> bool:
        """Send `event` to the active session; returns whether a session took it.

        With no socket open the event is buffered for a RESUME (like Discord) if the session
        is still resumable, otherwise dropped.
        """
        session = self.active
        if session is None or not session.alive:
            log.debug("no bot session; dropping %s", event)
            return False
        if intent is not None and not session.wants(intent):
            return False
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        del session.buffer[:-1000]
        if session.ws is not None and not session.ws.closed:
            session.queue.put_nowait(json.dumps(payload))
        return True

    async def _writer(self, session: GatewaySession, ws: web.WebSocketResponse) -> None:
        """Sends queued frames in order for one socket."""
        try:
            while True:
                frame = await session.queue.get()
                if ws.closed:
                    return
                await ws.send_str(frame)
        except (ConnectionResetError, RuntimeError, asyncio.CancelledError):
            return

    def _attach(self, session: GatewaySession, ws: web.WebSocketResponse) -> None:
        if session.writer is not None:
            session.writer.cancel()
        session.ws = ws
        session.queue = asyncio.Queue()
        session.writer = asyncio.create_task(self._writer(session, ws))

    # -- socket handling ----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.sockets.add(ws)
        session: GatewaySession | None = None
        await ws.send_json(
            {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                data = frame.get("d")
                if op == HEARTBEAT:
                    ack = json.dumps({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                    if session is not None and session.ws is ws:
                        session.queue.put_nowait(ack)  # keep one writer per socket
                    else:
                        await ws.send_str(ack)
                elif op == IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == RESUME:
                    session = await self._resume(ws, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    self._members_chunk(session, data)
                elif op in (PRESENCE, VOICE):
                    pass
                else:
                    log.warning("gateway: unhandled op %s: %s", op, frame)
        finally:
            self.sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if session.writer is not None:
                    session.writer.cancel()
                if ws.close_code in (1000, 1001) and not self.emu.stopping:
                    # A clean close ends the session, like Discord: no RESUME afterwards.
                    session.alive = False
                    if self.active is session:
                        self.active = None
            self.emu.notify()
        return ws

    async def _identify(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        if data.get("token") != self.emu.bot_token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = GatewaySession(id=secrets.token_hex(16), intents=int(data.get("intents") or 0))
        session.identified_at = asyncio.get_running_loop().time()
        if self.active is not None:
            self.active.alive = False
        self.sessions[session.id] = session
        self.active = session
        self._attach(session, ws)
        self.connections += 1
        emu = self.emu
        ready = {
            "v": 10,
            "user": emu.bot.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in emu.guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "shard": [0, 1],
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        self.dispatch("READY", ready)
        for guild in emu.guilds:
            self.dispatch("GUILD_CREATE", emu.guild_create_payload(guild, session.intents))
        emu.notify()
        return session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if data.get("token") != self.emu.bot_token or session is None or not session.alive:
            await ws.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        seq = int(data.get("seq") or 0)
        self.active = session
        self._attach(session, ws)
        for payload in session.buffer:
            if payload["s"] > seq:
                session.queue.put_nowait(json.dumps(payload))
        self.resumes += 1
        self.dispatch("RESUMED", {})
        self.emu.notify()
        return session

    def _members_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.emu.guild_by_id(int(data["guild_id"]))
        if guild is None:
            return
        query = (data.get("query") or "").lower()
        ids = {int(i) for i in data.get("user_ids") or []}
        members = [
            guild.member_payload(u)
            for u in guild.members.values()
            if (not ids or u.id in ids) and u.name.lower().startswith(query)
        ]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # -- test controls ------------------------------------------------------------------------

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes its socket and RESUMEs."""
        session = self.active
        if session is not None and session.ws is not None and not session.ws.closed:
            session.queue.put_nowait(json.dumps({"op": RECONNECT, "d": None, "s": None, "t": None}))

    async def close_all(self) -> None:
        for ws in list(self.sockets):
            await ws.close(code=1001, message=b"emulator stopping")
