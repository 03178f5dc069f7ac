"""The websocket gateway: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, dispatch.

One bot session is "active" per shard at a time (the last one that identified as that shard).
An IDENTIFY without a `shard` field is shard 0 of 1 (an unsharded bot). A sharded bot
identifies each shard as `[id, count]`: its READY lists only the guilds of that shard, and
every guild event goes to the shard `(guild_id >> 22) % count`, direct messages to shard 0, as
on Discord; so several bot processes, each running some of the shards, share one emulator. A
shard count other than the current one ends every session of the old count.

Events are numbered per session and kept in a buffer, so a client that drops its socket can
RESUME and get what it missed. A client that closes cleanly (code 1000, `client.close()`) ends
its session, so a restarted bot identifies afresh, as on Discord.
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

log = logging.getLogger("bot.playground.emulator.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41250
UNKNOWN_ERROR = 4000
INVALID_SHARD = 4010

_FROM_DATA: Any = object()
"""`dispatch`'s default guild: the event's own `guild_id`."""


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a guild's events to; direct messages go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % count


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
    shard: tuple[int, int] = (0, 1)
    """`(id, count)` as identified."""

    def wants(self, intent: int) -> bool:
        return bool(self.intents & intent)


class Gateway:
    """Serves the gateway websocket at `/` and dispatches events to the shards' sessions."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.sessions: dict[str, GatewaySession] = {}
        self.shards: dict[int, GatewaySession] = {}
        """The active session of each shard id."""
        self.shard_count = 1
        self.sockets: set[web.WebSocketResponse] = set()
        self.connections = 0  # number of successful IDENTIFYs (a restart makes it grow)
        self.resumes = 0
        self.down = False
        """While True, connections are refused (`Emulator.gateway_outage`)."""

    @property
    def active(self) -> GatewaySession | None:
        """Shard 0's session: an unsharded bot's only one."""
        return self.shards.get(0)

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The active session of the shard a guild's events go to (None: direct messages)."""
        return self.shards.get(shard_of(guild_id, self.shard_count))

    def connected_for(self, guild_id: int | None) -> bool:
        """The shard serving `guild_id` is identified and its socket is open."""
        session = self.session_for(guild_id)
        return session is not None and session.ws is not None and not session.ws.closed

    @property
    def connected(self) -> bool:
        """Every shard is identified and its socket is open (an unsharded bot: shard 0)."""
        return all(self.connected_for_shard(i) for i in range(self.shard_count))

    def connected_for_shard(self, shard: int) -> bool:
        session = self.shards.get(shard)
        return session is not None and session.ws is not None and not session.ws.closed

    # -- dispatch -----------------------------------------------------------------------------

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        guild_id: int | None = _FROM_DATA,
    ) -> bool:
        """Send `event` to the session of the shard serving `guild_id` (by default the
        event's own `guild_id`; none: direct messages, shard 0); returns whether it took it.

        With no socket open the event is buffered for a RESUME (like Discord) if the session
        is still resumable, otherwise dropped.
        """
        if guild_id is _FROM_DATA:
            guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        session = self.session_for(guild_id)
        if session is None or not session.alive:
            log.debug("no bot session; dropping %s", event)
            return False
        if intent is not None and not session.wants(intent):
            return False
        self._send(session, event, data)
        return True

    def _send(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        del session.buffer[:-1000]
        if session.ws is not None and not session.ws.closed:
            session.queue.put_nowait(json.dumps(payload))

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

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.down:
            return web.Response(status=503, text="the gateway is unavailable")
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
                dropped = self.emu.stopping or self.down  # by us: the session lives on
                if ws.close_code in (1000, 1001) and not dropped:
                    # A clean close ends the session, like Discord: no RESUME afterwards.
                    session.alive = False
                    if self.shards.get(session.shard[0]) is session:
                        del self.shards[session.shard[0]]
            self.emu.notify()
        return ws

    async def _identify(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        if data.get("token") != self.emu.bot_token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard, count = data.get("shard") or (0, 1)
        if not 0 <= shard < count:
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = GatewaySession(id=secrets.token_hex(16), intents=int(data.get("intents") or 0))
        session.identified_at = asyncio.get_running_loop().time()
        session.shard = (shard, count)
        if count != self.shard_count:  # resharded: the sessions of the old count end
            for old in self.shards.values():
                old.alive = False
            self.shards.clear()
            self.shard_count = count
        if (replaced := self.shards.get(shard)) is not None:
            replaced.alive = False
        self.sessions[session.id] = session
        self.shards[shard] = session
        self._attach(session, ws)
        self.connections += 1
        emu = self.emu
        guilds = [g for g in emu.guilds if shard_of(g.id, count) == shard]
        ready = {
            "v": 10,
            "user": emu.bot.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "shard": [shard, count],
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        self._send(session, "READY", ready)
        for guild in guilds:
            self._send(session, "GUILD_CREATE", emu.guild_create_payload(guild, session.intents))
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
        self.shards[session.shard[0]] = session
        self._attach(session, ws)
        for payload in session.buffer:
            if payload["s"] > seq:
                session.queue.put_nowait(json.dumps(payload))
        self.resumes += 1
        self._send(session, "RESUMED", {})
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
        self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- test controls ------------------------------------------------------------------------

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every shard: each closes its socket and RESUMEs."""
        for session in self.shards.values():
            if session.ws is not None and not session.ws.closed:
                frame = {"op": RECONNECT, "d": None, "s": None, "t": None}
                session.queue.put_nowait(json.dumps(frame))

    async def drop_all(self) -> None:
        """Drop every socket as a failing Discord server does (4000, "unknown error"): each
        session stays resumable."""
        for ws in list(self.sockets):
            await ws.close(code=UNKNOWN_ERROR, message=b"unknown error")

    async def close_all(self) -> None:
        for ws in list(self.sockets):
            await ws.close(code=1001, message=b"emulator stopping")
