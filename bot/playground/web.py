"""The playground's web server: the page, its live feed, and the actions a person takes in it
(slash commands, clicks, picks, language changes), each carried out as that user through the
emulator, exactly as a test user acts.

It listens on loopback only, and answers only requests addressed to a loopback host name (a
page elsewhere cannot reach it through a DNS name that resolves to 127.0.0.1) and, for actions,
only JSON (a form on another site cannot post one without the browser asking first).
"""

from __future__ import annotations

import contextlib
import ipaddress
import mimetypes
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import yarl
from aiohttp import web

from bot.playground.emulator import (
    EmulatorError,
    InteractionFailed,
    InteractionResult,
    InvalidInteraction,
)
from bot.playground.emulator.emulator import Emulator
from bot.playground.emulator.models import EmuChannel, EmuMessage, EmuUser
from bot.playground.live import Live
from bot.playground.payloads import (
    channels_of,
    commands_json,
    message_json,
    players,
    visible,
    world_json,
)

STATIC = Path(__file__).parent / "static"
LOCALES = {"en": "en-US", "ja": "ja"}
"""The languages a user or the server can pick, as Discord's locale codes."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class BadRequest(Exception):
    """A request the page should never make: answered 400 with the reason."""


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not is_loopback(request.url.host or ""):
        return web.Response(status=421, text="the playground answers on loopback only")
    if request.method == "POST" and request.content_type != "application/json":
        return web.Response(status=415, text="actions are JSON")
    try:
        return await handler(request)
    except BadRequest as error:
        return web.json_response({"error": str(error)}, status=400)


class Site:
    """The routes, over one emulator and the live feed of its pages."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.live = Live(emu)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[guard])
        app.router.add_get("/", self.index)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/attachments/{id:\\d+}/{name}", self.attachment)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/commands", self.commands)
        app.router.add_post("/api/slash", self.slash)
        app.router.add_post("/api/click", self.click)
        app.router.add_post("/api/select", self.select)
        app.router.add_post("/api/locale", self.locale)
        return app

    # -- lookups --------------------------------------------------------------------------

    def user(self, name: object) -> EmuUser:
        found = next((u for u in players(self.emu) if u.name == name), None)
        if found is None:
            raise BadRequest(f"no user {name!r}")
        return found

    def channel(self, user: EmuUser, channel_id: object) -> EmuChannel:
        found = next((c for c in channels_of(self.emu, user) if str(c.id) == channel_id), None)
        if found is None:
            raise BadRequest(f"{user.name} has no channel {channel_id!r}")
        return found

    def message(self, message_id: object) -> EmuMessage:
        found = self.emu.messages.get(int(str(message_id))) if str(message_id).isdigit() else None
        if found is None:
            raise BadRequest(f"no message {message_id!r}")
        return found

    @staticmethod
    async def body(request: web.Request) -> Mapping[str, Any]:
        try:
            data = await request.json()
        except ValueError:
            raise BadRequest("the body is not JSON") from None
        if not isinstance(data, dict):
            raise BadRequest("the body is not a JSON object")
        return data

    # -- pages and files ------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def attachment(self, request: web.Request) -> web.Response:
        data = self.emu.attachment_data.get(int(request.match_info["id"]))
        if data is None:
            raise web.HTTPNotFound()
        kind = mimetypes.guess_type(request.match_info["name"])[0] or "application/octet-stream"
        return web.Response(body=data, content_type=kind)

    async def socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and not is_loopback(yarl.URL(origin).host or ""):
            raise web.HTTPForbidden(text="the playground's feed is for its own page")
        return await self.live.serve(request, self.user(request.query.get("user")))

    async def state(self, request: web.Request) -> web.Response:
        """What the page's live feed opens with, for one look without a socket."""
        user = self.user(request.query.get("user"))
        messages = [message_json(self.emu, m) for m in visible(self.emu, user)]
        return web.json_response({"world": world_json(self.emu, user), "messages": messages})

    async def commands(self, request: web.Request) -> web.Response:
        user = self.user(request.query.get("user"))
        channel = self.channel(user, request.query.get("channel"))
        return web.json_response(commands_json(self.emu, user, channel))

    # -- actions --------------------------------------------------------------------------

    async def slash(self, request: web.Request) -> web.Response:
        data = await self.body(request)
        user = self.user(data.get("user"))
        channel = self.channel(user, data.get("channel"))
        options = {o["name"]: self.option(o) for o in data.get("options") or []}
        return await self.act(user.slash(channel, str(data.get("command")), **options))

    async def click(self, request: web.Request) -> web.Response:
        data = await self.body(request)
        user, message = self.user(data.get("user")), self.message(data.get("message"))
        return await self.act(user.click(message, str(data.get("custom_id"))))

    async def select(self, request: web.Request) -> web.Response:
        data = await self.body(request)
        user, message = self.user(data.get("user")), self.message(data.get("message"))
        values = data.get("values")
        if not isinstance(values, list):
            raise BadRequest("a pick names its values")
        picked = [str(v) for v in values]
        return await self.act(user.select(message, str(data.get("custom_id")), picked))

    async def locale(self, request: web.Request) -> web.Response:
        """A user's language (sent with each of their interactions), or with no user the
        server's (its `guild_locale`)."""
        data = await self.body(request)
        locale = LOCALES.get(str(data.get("locale")))
        if locale is None:
            raise BadRequest(f"languages are {sorted(LOCALES)}")
        if data.get("user") is None:
            self.emu.set_guild_locale(self.emu.guild, locale)
        else:
            self.user(data.get("user")).locale = locale
        self.live.world_changed()
        return web.json_response({"ok": True})

    def option(self, option: Mapping[str, Any]) -> Any:
        """A slash command option's value as the emulator takes it: people, channels and roles
        as the emulator's own objects (by id); everything else as the page typed it."""
        kind, value = option.get("type"), option.get("value")
        if kind in (6, 9) and str(value).isdigit():
            user = self.emu.user_by_id(int(str(value)))
            if user is not None:
                return user
        if kind == 7:
            found = self.emu.channels.get(int(str(value))) if str(value).isdigit() else None
            return found if found is not None else value
        if kind in (8, 9):
            role = next((r for r in self.emu.guild.roles if str(r.id) == str(value)), None)
            return role if role is not None else value
        return value

    async def act(self, action: Awaitable[InteractionResult]) -> web.Response:
        """Carry out one interaction; the page learns of its messages through the live feed,
        and of a refusal or a failure here."""
        try:
            result = await action
        except InvalidInteraction as error:
            return web.json_response({"ok": False, "refused": str(error)})
        except InteractionFailed:
            return web.json_response({"ok": False, "failed": True})
        except EmulatorError as error:
            return web.json_response({"ok": False, "refused": str(error)})
        message = result.message
        return web.json_response(
            {
                "ok": True,
                "type": result.type,
                "message": None if message is None else str(message.id),
                "ephemeral": result.ephemeral,
            }
        )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host` (loopback only) and `port` (0: any free port)."""
    if not is_loopback(host):
        raise ValueError(f"the playground listens on loopback only, not {host!r}")
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


@contextlib.asynccontextmanager
async def serve(emu: Emulator, host: str, port: int) -> AsyncIterator[str]:
    """Serve the page until the block ends; yields its URL."""
    site = Site(emu)
    sock = bind(host, port)
    runner = web.AppRunner(site.app(), access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    try:
        await web.SockSite(runner, sock).start()
        bound_host, bound_port = sock.getsockname()[:2]
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        yield f"http://{shown}:{bound_port}/"
    finally:
        site.live.close()
        await runner.cleanup()
