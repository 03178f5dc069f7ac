"""REST routes under /api/v10 that discord.py calls in a typical bot.

Every answer is JSON with `Content-Type: application/json` exactly (discord.py treats anything
else as text). Errors have Discord's shape `{"code", "message", "errors"?}`. Unknown routes
are logged and recorded in `Emulator.unknown_routes` so a missing route is easy to spot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .errors import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_DM_USER,
    CANNOT_EDIT_OTHERS_MESSAGE,
    INVALID_FORM_BODY,
    INVALID_WEBHOOK_TOKEN,
    MISSING_PERMISSIONS,
    UNKNOWN_APPLICATION_COMMAND,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_INTERACTION,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    UNKNOWN_WEBHOOK,
    ApiError,
)
from .interactions import (
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    AUTOCOMPLETE,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    ApiCall,
    InteractionResult,
)
from .models import (
    ATTACH_FILES,
    DM,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    EmuChannel,
    EmuGuild,
    EmuMessage,
)
from .validation import validate_choices, validate_commands, validate_modal

if TYPE_CHECKING:
    from .emulator import Emulator

log = logging.getLogger("bot.playground.emulator.rest")

Handler = Callable[["ApiRequest"], Awaitable[web.Response]]
ATTACHMENT_PATH = re.compile(r"/attachments/(?P<id>\d+)/[^/]+")
"""Where an attachment's bytes are served (its `url`), like Discord's CDN."""


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with Content-Type exactly `application/json` (no charset), as discord.py expects."""
    resp = web.Response(body=json.dumps(data).encode(), status=status, headers=headers)
    resp.headers["Content-Type"] = "application/json"
    return resp


def no_content(headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=204, headers=headers)


@dataclass
class ApiRequest:
    """A parsed request: route parameters, query, JSON body (or `payload_json`) and files."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[dict[str, Any]] = field(default_factory=list)
    interaction: InteractionResult | None = None

    def int_param(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(404, 0, "404: Not Found") from None

    def json(self) -> dict[str, Any]:
        if not isinstance(self.body, dict):
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        return self.body


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern))


def _bad_response_type(rtype: Any, kind: int) -> ApiError:
    errors = {
        "type": {
            "_errors": [
                {
                    "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                    "message": f"Response type {rtype} is not valid for interaction type {kind}",
                }
            ]
        }
    }
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=errors)


class RestApi:
    """Routes and handlers; state lives on the `Emulator`."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.routes: list[tuple[str, str, re.Pattern[str], Handler, bool]] = []
        add = self._add
        add("GET", "/users/@me", self.get_me)
        add("POST", "/users/@me/channels", self.create_dm)
        add("GET", "/users/{user_id}", self.get_user)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/gateway", self.get_gateway, auth=False)
        add("GET", "/gateway/bot", self.get_gateway)
        # application commands
        add("GET", "/applications/{app_id}/commands", self.get_commands)
        add("PUT", "/applications/{app_id}/commands", self.put_commands)
        add("POST", "/applications/{app_id}/commands", self.post_command)
        add("GET", "/applications/{app_id}/commands/{command_id}", self.get_command)
        add("PATCH", "/applications/{app_id}/commands/{command_id}", self.patch_command)
        add("DELETE", "/applications/{app_id}/commands/{command_id}", self.delete_command)
        add("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands)
        add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands)
        add("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.post_command)
        add(
            "GET",
            "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
            self.get_command,
        )
        add(
            "PATCH",
            "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
            self.patch_command,
        )
        add(
            "DELETE",
            "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}",
            self.delete_command,
        )
        # channels and messages
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("GET", "/channels/{channel_id}/messages", self.get_messages)
        add("POST", "/channels/{channel_id}/messages", self.post_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add(
            "PUT",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self.add_reaction,
        )
        add(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self.remove_reaction,
        )
        # guilds
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_roles)
        add("GET", "/guilds/{guild_id}/members", self.list_members)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        # interactions and their webhooks (no bot token: the interaction token authenticates)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, auth=False)
        add("POST", "/webhooks/{app_id}/{token}", self.followup, auth=False)
        add(
            "GET",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.get_webhook_message,
            auth=False,
        )
        add(
            "PATCH",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.edit_webhook_message,
            auth=False,
        )
        add(
            "DELETE",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.delete_webhook_message,
            auth=False,
        )

    def _add(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        self.routes.append((method, pattern, _compile(pattern), handler, auth))

    # -- plumbing -----------------------------------------------------------------------------

    async def handle_outside_api(self, request: web.Request) -> web.Response:
        found = ATTACHMENT_PATH.fullmatch(request.path)
        if request.method == "GET" and found is not None:
            data = self.emu.attachment_data.get(int(found["id"]))
            if data is not None:
                return web.Response(body=data, content_type="application/octet-stream")
        call = ApiCall(request.method, request.path, 404, 0, "404: Not Found", at=emu_now())
        log.warning("emulator: request outside /api/v10: %s %s", request.method, request.path)
        self.emu.unknown_routes.append(call)
        self.emu.calls.append(call)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    def _route(self, method: str, path: str) -> tuple[str, re.Match[str], Handler, bool] | None:
        """The route `path` takes ("METHOD /template"), its match, handler and whether it
        needs the bot token."""
        for route_method, template, pattern, handler, auth in self.routes:
            if route_method == method and (match := pattern.fullmatch(path)) is not None:
                return f"{method} {template}", match, handler, auth
        return None

    async def handle(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        found = self._route(method, path)
        if found is None:
            call = ApiCall(method, path, 404, 0, "404: Not Found", at=emu_now())
            log.warning(
                "emulator: unknown route %s %s (add it to bot/playground/emulator/rest.py)",
                method,
                path,
            )
            self.emu.unknown_routes.append(call)
            self.emu.calls.append(call)
            self.emu.errors.append(call)
            return json_response({"message": "404: Not Found", "code": 0}, 404)
        route, match, handler, auth = found
        req = ApiRequest(
            method=method,
            path=path,
            params=match.groupdict(),
            query=dict(request.query),
            body=None,
        )
        limits: dict[str, str] = {}
        try:
            if auth and request.headers.get("Authorization") != f"Bot {self.emu.bot_token}":
                raise ApiError(401, 0, "401: Unauthorized")
            req.body, req.files = await self._read_body(request)
            limits = self.emu.limits.check(route, req.params, path, bot_token=auth)
            response = await handler(req)
        except ApiError as err:
            text = "; ".join([err.message, *err.detail])
            call = ApiCall(method, path, err.status, err.code, text, req.body, emu_now())
            self.emu.calls.append(call)
            if err.status != 429:
                self.emu.errors.append(call)
                log.info("emulator: %s", call)
            if req.interaction is not None:
                req.interaction.errors.append(call)
            self.emu.notify()
            return json_response(err.body(), err.status, {**limits, **err.headers})
        self.emu.calls.append(ApiCall(method, path, response.status, body=req.body, at=emu_now()))
        response.headers.update(limits)
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        if not request.body_exists:
            return None, []
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            files: list[dict[str, Any]] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.filename:
                    data = bytes(await part.read())
                    index = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    files.append(
                        {
                            "index": int(index[1]) if index else len(files),
                            "filename": part.filename,
                            "size": len(data),
                            "content_type": part.headers.get("Content-Type"),
                            "data": data,
                        }
                    )
            return payload, files
        text = await request.text()
        if not text:
            return None, []
        try:
            return json.loads(text), []
        except json.JSONDecodeError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    # -- lookups ------------------------------------------------------------------------------

    def _channel(self, req: ApiRequest) -> EmuChannel:
        channel = self.emu.channels.get(req.int_param("channel_id"))
        if channel is None:
            raise ApiError(404, UNKNOWN_CHANNEL, "Unknown Channel")
        return channel

    def _guild(self, req: ApiRequest) -> EmuGuild:
        guild = self.emu.guild_by_id(req.int_param("guild_id"))
        if guild is None:
            raise ApiError(404, UNKNOWN_GUILD, "Unknown Guild")
        return guild

    def _channel_message(self, req: ApiRequest) -> EmuMessage:
        """A message the bot token can reach: not deleted, not ephemeral, in that channel."""
        channel = self._channel(req)
        message = self.emu.messages.get(req.int_param("message_id"))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel is not channel
        ):
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def _check_app(self, req: ApiRequest) -> None:
        if req.int_param("app_id") != self.emu.application_id:
            raise ApiError(403, 50001, "Missing Access")

    # -- users, application, gateway ----------------------------------------------------------

    async def get_me(self, req: ApiRequest) -> web.Response:
        data = self.emu.bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}
        return json_response(data)

    async def get_user(self, req: ApiRequest) -> web.Response:
        user = self.emu.user_by_id(req.int_param("user_id"))
        if user is None:
            raise ApiError(404, UNKNOWN_USER, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, req: ApiRequest) -> web.Response:
        body = req.json()
        user = self.emu.users.get(int(body.get("recipient_id") or 0))
        if user is None:
            raise ApiError(404, UNKNOWN_USER, "Unknown User")
        return json_response(self.emu.dm_channel(user).payload())

    async def get_application(self, req: ApiRequest) -> web.Response:
        emu = self.emu
        return json_response(
            {
                "id": str(emu.application_id),
                "name": emu.bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": emu.bot.payload(),
                "owner": emu.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(emu.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def get_gateway(self, req: ApiRequest) -> web.Response:
        data: dict[str, Any] = {"url": self.emu.gateway_url.rstrip("/")}
        if req.path.endswith("/bot"):
            data |= {
                "shards": self.emu.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        return json_response(data)

    # -- application commands -----------------------------------------------------------------

    def _command_pool(self, req: ApiRequest) -> tuple[list[dict[str, Any]], int | None]:
        self._check_app(req)
        if "guild_id" in req.params:
            guild = self._guild(req)
            return self.emu.guild_commands.setdefault(guild.id, []), guild.id
        return self.emu.global_commands, None

    def _normalize_command(
        self, body: dict[str, Any], guild_id: int | None, existing: dict[str, Any] | None
    ) -> dict[str, Any]:
        cmd = dict(body)
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "")
        cmd.setdefault("options", [])
        cmd.setdefault("nsfw", False)
        perms = cmd.get("default_member_permissions")
        cmd["default_member_permissions"] = None if perms is None else str(perms)
        cmd["id"] = existing["id"] if existing else str(self.emu.ids())
        cmd["application_id"] = str(self.emu.application_id)
        cmd["version"] = str(self.emu.ids())
        cmd["default_permission"] = True
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
            cmd.pop("dm_permission", None)
        else:
            cmd.pop("guild_id", None)
            if cmd.get("dm_permission") is None:
                cmd["dm_permission"] = True
        return cmd

    async def get_commands(self, req: ApiRequest) -> web.Response:
        pool, _ = self._command_pool(req)
        return json_response(pool)

    async def put_commands(self, req: ApiRequest) -> web.Response:
        pool, guild_id = self._command_pool(req)
        validate_commands(req.body)
        old = {(c["type"], c["name"]): c for c in pool}
        new = [
            self._normalize_command(
                body, guild_id, old.get((body.get("type", 1), body.get("name")))
            )
            for body in req.body
        ]
        pool[:] = new
        self.emu.notify()
        return json_response(new)

    async def post_command(self, req: ApiRequest) -> web.Response:
        pool, guild_id = self._command_pool(req)
        body = req.json()
        validate_commands([body])
        key = (body.get("type", 1), body.get("name"))
        existing = next((c for c in pool if (c["type"], c["name"]) == key), None)
        cmd = self._normalize_command(body, guild_id, existing)
        if existing is not None:
            pool[pool.index(existing)] = cmd
        else:
            pool.append(cmd)
        self.emu.notify()
        return json_response(cmd, 200 if existing else 201)

    def _find_command(
        self, req: ApiRequest
    ) -> tuple[list[dict[str, Any]], dict[str, Any], int | None]:
        pool, guild_id = self._command_pool(req)
        cmd = next((c for c in pool if c["id"] == req.params["command_id"]), None)
        if cmd is None:
            raise ApiError(404, UNKNOWN_APPLICATION_COMMAND, "Unknown application command")
        return pool, cmd, guild_id

    async def get_command(self, req: ApiRequest) -> web.Response:
        _, cmd, _ = self._find_command(req)
        return json_response(cmd)

    async def patch_command(self, req: ApiRequest) -> web.Response:
        pool, cmd, guild_id = self._find_command(req)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "application_id", "version")}
        merged.update(req.json())
        validate_commands([merged])
        new = self._normalize_command(merged, guild_id, cmd)
        pool[pool.index(cmd)] = new
        self.emu.notify()
        return json_response(new)

    async def delete_command(self, req: ApiRequest) -> web.Response:
        pool, cmd, _ = self._find_command(req)
        pool.remove(cmd)
        self.emu.notify()
        return no_content()

    # -- channels and messages ----------------------------------------------------------------

    async def get_channel(self, req: ApiRequest) -> web.Response:
        return json_response(self._channel(req).payload())

    async def get_messages(self, req: ApiRequest) -> web.Response:
        channel = self._channel(req)
        limit = int(req.query.get("limit", 50))
        if not 1 <= limit <= 100:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body")
        msgs = self.emu.channel_messages(channel)  # oldest first
        if "before" in req.query:
            before = int(req.query["before"])
            msgs = [m for m in msgs if m.id < before][-limit:]
        elif "after" in req.query:
            after = int(req.query["after"])
            msgs = [m for m in msgs if m.id > after][:limit]
        elif "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in msgs if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in msgs if m.id > around][: limit - len(older)]
            msgs = older + newer
        else:
            msgs = msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    def _check_uploads(self, req: ApiRequest, channel: EmuChannel) -> None:
        """Uploading files to a server channel needs the bot's Attach Files permission."""
        guild = channel.guild
        allowed = guild is None or guild.permissions_of(self.emu.bot) & ATTACH_FILES
        if req.files and not allowed:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")

    async def post_message(self, req: ApiRequest) -> web.Response:
        channel = self._channel(req)
        if channel.type == DM and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, CANNOT_DM_USER, "Cannot send messages to this user")
        self._check_uploads(req, channel)
        body = req.body if isinstance(req.body, dict) else {}
        msg_type = 19 if body.get("message_reference") else 0
        message = self.emu.create_message(
            channel, self.emu.bot, body, files=req.files, msg_type=msg_type
        )
        return json_response(message.payload())

    async def get_message(self, req: ApiRequest) -> web.Response:
        return json_response(self._channel_message(req).payload())

    async def patch_message(self, req: ApiRequest) -> web.Response:
        message = self._channel_message(req)
        if message.author.id != self.emu.bot.id:
            raise ApiError(
                403, CANNOT_EDIT_OTHERS_MESSAGE, "Cannot edit a message authored by another user"
            )
        self._check_uploads(req, message.channel)
        self.emu.edit_message(message, req.json(), files=req.files)
        return json_response(message.payload())

    async def delete_message(self, req: ApiRequest) -> web.Response:
        message = self._channel_message(req)
        if message.author.id != self.emu.bot.id and message.channel.type == DM:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        self.emu.delete_message(message)
        return no_content()

    async def typing(self, req: ApiRequest) -> web.Response:
        self._channel(req)
        return no_content()

    async def add_reaction(self, req: ApiRequest) -> web.Response:
        message = self._channel_message(req)
        emoji = req.params["emoji"]
        message.reactions.setdefault(emoji, set()).add(self.emu.bot.id)
        message.bot_reactions.add(emoji)
        self.emu.notify()
        return no_content()

    async def remove_reaction(self, req: ApiRequest) -> web.Response:
        message = self._channel_message(req)
        emoji = req.params["emoji"]
        message.reactions.get(emoji, set()).discard(self.emu.bot.id)
        message.bot_reactions.discard(emoji)
        self.emu.notify()
        return no_content()

    # -- guilds -------------------------------------------------------------------------------

    async def get_guild(self, req: ApiRequest) -> web.Response:
        guild = self._guild(req)
        data = self.emu.guild_create_payload(guild)
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key, None)
        data["approximate_member_count"] = len(guild.members)
        return json_response(data)

    async def get_guild_channels(self, req: ApiRequest) -> web.Response:
        return json_response([c.payload() for c in self._guild(req).channels])

    async def get_roles(self, req: ApiRequest) -> web.Response:
        return json_response([r.payload() for r in self._guild(req).roles])

    async def list_members(self, req: ApiRequest) -> web.Response:
        guild = self._guild(req)
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        members = sorted((u for u in guild.members.values() if u.id > after), key=lambda u: u.id)
        return json_response([guild.member_payload(u) for u in members[:limit]])

    async def get_member(self, req: ApiRequest) -> web.Response:
        guild = self._guild(req)
        user = guild.members.get(req.int_param("user_id"))
        if user is None:
            raise ApiError(404, UNKNOWN_MEMBER, "Unknown Member")
        return json_response(guild.member_payload(user))

    # -- interactions -------------------------------------------------------------------------

    async def callback(self, req: ApiRequest) -> web.Response:
        """The initial response: exactly one, within the deadline."""
        emu = self.emu
        rec = emu.interactions.get(req.int_param("interaction_id"))
        if rec is None or rec.token != req.params["token"]:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        req.interaction = rec
        if rec.responded:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if rec.window_closed or emu_now() > rec.deadline:
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body = req.json()
        rtype = body.get("type")
        data = body.get("data") or {}
        kind = rec.kind
        bot = emu.bot
        msg_type = 20 if kind == APPLICATION_COMMAND else 0
        if kind == AUTOCOMPLETE:
            if rtype != APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
                raise _bad_response_type(rtype, kind)
            validate_choices(data)
            rec.choices = list(data["choices"])
        elif rtype == CHANNEL_MESSAGE_WITH_SOURCE:
            ephemeral = int(data.get("flags") or 0) & FLAG_EPHEMERAL
            rec.message = emu.create_message(
                rec.channel,
                bot,
                data,
                files=req.files,
                interaction=rec,
                extra_flags=ephemeral,
                msg_type=msg_type,
            )
        elif rtype == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            ephemeral = int(data.get("flags") or 0) & FLAG_EPHEMERAL
            rec.message = emu.create_message(
                rec.channel,
                bot,
                {},
                interaction=rec,
                extra_flags=ephemeral | FLAG_LOADING,
                msg_type=msg_type,
                validate=False,
            )
        elif rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = rec.source_message
            if kind not in (MESSAGE_COMPONENT, MODAL_SUBMIT) or source is None:
                raise _bad_response_type(rtype, kind)
            if rtype == UPDATE_MESSAGE:
                emu.edit_message(source, data, files=req.files)
            rec.message = source
        elif rtype == MODAL:
            if kind == MODAL_SUBMIT:
                raise _bad_response_type(rtype, kind)
            validate_modal(data)
            rec.modal = data
        else:
            raise _bad_response_type(rtype, kind)
        rec.type = rtype
        rec.response_payload = body
        rec._mark_answered()
        emu.notify()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        interaction: dict[str, Any] = {"id": str(rec.id), "type": kind}
        resource: dict[str, Any] = {"type": rtype}
        if rec.message is not None:
            interaction |= {
                "response_message_id": str(rec.message.id),
                "response_message_loading": rec.message.loading,
                "response_message_ephemeral": rec.message.ephemeral,
            }
            if rtype in (
                CHANNEL_MESSAGE_WITH_SOURCE,
                DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
                UPDATE_MESSAGE,
            ):
                resource["message"] = rec.message.payload()
        return json_response({"interaction": interaction, "resource": resource})

    def _token(self, req: ApiRequest) -> InteractionResult:
        """The interaction behind a webhook token: known, acknowledged and not expired."""
        if req.int_param("app_id") != self.emu.application_id:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        rec = self.emu.tokens.get(req.params["token"])
        if rec is None:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        req.interaction = rec
        if emu_now() > rec.expires_at:
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if not rec.responded or rec.type in (APPLICATION_COMMAND_AUTOCOMPLETE_RESULT, MODAL):
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return rec

    def _token_message(self, req: ApiRequest, rec: InteractionResult) -> EmuMessage:
        ref = req.params["message_id"]
        if ref == "@original":
            message = rec.original
        else:
            try:
                message = self.emu.messages.get(int(ref))
            except ValueError:
                message = None
        if message is None or message.deleted or not rec.owns(message):
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def followup(self, req: ApiRequest) -> web.Response:
        rec = self._token(req)
        body = req.json()
        original = rec.original
        if (
            rec.type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
        ):
            # Discord: a follow-up sent while the deferred response still loads resolves it
            # (and keeps the deferral's ephemeral choice; `edit_message` ignores that bit).
            message = self.emu.edit_message(original, body, files=req.files)
        else:
            ephemeral = int(body.get("flags") or 0) & FLAG_EPHEMERAL
            message = self.emu.create_message(
                rec.channel,
                self.emu.bot,
                body,
                files=req.files,
                interaction=rec,
                extra_flags=ephemeral,
            )
            rec.followups.append(message)
            self.emu.notify()
        if req.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload())
        return no_content()

    async def get_webhook_message(self, req: ApiRequest) -> web.Response:
        rec = self._token(req)
        return json_response(self._token_message(req, rec).payload())

    async def edit_webhook_message(self, req: ApiRequest) -> web.Response:
        rec = self._token(req)
        message = self._token_message(req, rec)
        self.emu.edit_message(message, req.json(), files=req.files)
        return json_response(message.payload())

    async def delete_webhook_message(self, req: ApiRequest) -> web.Response:
        rec = self._token(req)
        message = self._token_message(req, rec)
        self.emu.delete_message(message)
        return no_content()


def emu_now() -> float:
    """The emulator's clock (the event loop's monotonic time)."""
    return asyncio.get_running_loop().time()
