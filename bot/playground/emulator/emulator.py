"""The `Emulator`: a local Discord (REST + gateway) that an unmodified discord.py client uses.

Typical use::

    async with Emulator.running() as emu:          # also points discord.py at it
        alice = emu.add_user("alice")
        async with emu.run_bot(make_bot()) as bot:  # starts the client, waits for on_ready
            res = await alice.slash(emu.general, "cards new", players=3)
            assert res.ephemeral and alice.can_see(res.message)

Everything runs on the test's event loop; there are no threads.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import logging
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import Any, TypeVar

import discord
import yarl
from aiohttp import web

from .attachments import attachment_payload, descriptions, resolve_media
from .commands import build_command_data
from .errors import (
    WAIT_CEILING,
    EmulatorError,
    EmulatorTimeout,
    InteractionFailed,
    InvalidInteraction,
)
from .gateway import (
    INTENT_DM_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MEMBERS,
    INTENT_MESSAGE_CONTENT,
    INTENT_PRESENCES,
    Gateway,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    ApiCall,
    InteractionResult,
)
from .models import (
    BOT_PERMISSIONS,
    DM,
    DM_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MANAGE_GUILD,
    EmuChannel,
    EmuGuild,
    EmuMessage,
    EmuRole,
    EmuUser,
    Snowflakes,
    iso_now,
    walk_components,
)
from .ratelimits import DISCORD_GLOBAL, DISCORD_MESSAGES, RateLimit, RateLimitHit, RateLimits
from .rest import RestApi
from .validation import SELECT_TYPES, validate_flags_edit, validate_message

log = logging.getLogger("bot.playground.emulator")

ClientT = TypeVar("ClientT", bound=discord.Client)

CREATE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2


class BotErrors(logging.Handler):
    """Collects exceptions discord.py only logs (command, view and event errors)."""

    def __init__(self, records: list[logging.LogRecord] | None = None) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = records if records is not None else []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("Attempting a reconnect"):
            return
        self.records.append(record)

    def format_all(self) -> str:
        fmt = logging.Formatter("%(name)s: %(message)s")
        return "\n\n".join(fmt.format(rec) for rec in self.records)


class Emulator:
    """A local Discord: one guild (more with `add_guild`), users, channels, and the bot's view.

    Knobs a test may change at any time:
    - `interaction_deadline` (3.0 s): window for the initial interaction response.
    - `token_lifetime` (900 s): how long an interaction token works for follow-ups/edits.
    - `rate_limit` (`RateLimit(5, 5.0)` or None): per-channel create/edit limit;
      `route_limits` ({"METHOD /template": RateLimit}): limits of other routes (or these);
      `global_limit` (`RateLimit(50, 1.0)` or None): every bot-token request, per bot;
      `rate_limit_headers` (True): announce each bucket on success so discord.py waits
      before it is refused (False: enforced unannounced, like Discord's shared limits);
      `rate_limit_hits` records every 429 answered (see `ratelimits`).
    """

    def __init__(
        self,
        *,
        guild_name: str = "Test Guild",
        guild_locale: str = "en-US",
        bot_name: str = "TableBot",
        channels: tuple[str, ...] = ("general",),
        interaction_deadline: float = 3.0,
        token_lifetime: float = 900.0,
        rate_limit: RateLimit | None = DISCORD_MESSAGES,
        route_limits: Mapping[str, RateLimit] | None = None,
        global_limit: RateLimit | None = DISCORD_GLOBAL,
        rate_limit_headers: bool = True,
        host: str = "127.0.0.1",
    ) -> None:
        self.ids = Snowflakes()
        self.host = host
        self.port = 0
        self.bot_token = "emulator." + secrets.token_urlsafe(24)
        self.application_id = self.ids()
        self.bot = EmuUser(id=self.application_id, name=bot_name, bot=True)
        self.owner = EmuUser(id=self.ids(), name="owner", admin=True)
        self.owner._emu = self
        self.guilds: list[EmuGuild] = []
        self.users: dict[int, EmuUser] = {self.owner.id: self.owner}
        self.channels: dict[int, EmuChannel] = {}
        self.dm_channels: dict[int, EmuChannel] = {}
        self.messages: dict[int, EmuMessage] = {}
        self.attachment_data: dict[int, bytes] = {}
        """Every uploaded file's bytes, by attachment id."""
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[int, InteractionResult] = {}
        self.tokens: dict[str, InteractionResult] = {}
        self.calls: list[ApiCall] = []
        self.errors: list[ApiCall] = []
        self.unknown_routes: list[ApiCall] = []
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.rate_limit = rate_limit
        self.route_limits: dict[str, RateLimit] = dict(route_limits or {})
        self.global_limit = global_limit
        self.rate_limit_headers = rate_limit_headers
        self.rate_limit_hits: list[RateLimitHit] = []
        self.limits = RateLimits(self)
        self.recommended_shards = 1
        self._watchers: collections.Counter[str] = collections.Counter()
        """The shard count `GET /gateway/bot` recommends (to a bot that sets none)."""
        self.bot_errors = BotErrors()
        self.message_listeners: list[Callable[[EmuMessage], None]] = []
        """Called with every message just created, edited or deleted (the playground's page
        follows the bot through them)."""
        self.stopping = False
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.add_guild(guild_name, locale=guild_locale, channels=channels)

    # -- lifecycle ----------------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls, *, patch_discord: bool = True, **kwargs: Any) -> AsyncIterator[Emulator]:
        """Start an emulator on a free port (and point discord.py at it); stop it on exit."""
        emu = cls(**kwargs)
        await emu.start()
        try:
            if patch_discord:
                with emu.patch_discord():
                    yield emu
            else:
                yield emu
        finally:
            await emu.stop()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        app.router.add_route("*", "/{tail:.*}", self.rest.handle_outside_api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((self.host, 0))
        self.port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()

    async def stop(self) -> None:
        self.stopping = True
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's REST base and gateway URL at this emulator; restore on exit."""
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    @contextlib.asynccontextmanager
    async def run_bot(
        self,
        client: ClientT,
        *,
        ready_timeout: float = WAIT_CEILING,
        fail_on_errors: bool = True,
        fast_ready: bool = True,
        watch: tuple[str, ...] = ("discord",),
    ) -> AsyncIterator[ClientT]:
        """Run `client.start(token)` in the background until the block ends.

        Waits for `on_ready` before yielding and closes the client afterwards (like a process
        exit). With `fail_on_errors`, exceptions discord.py only logs (errors in commands,
        views, events) fail the block with their tracebacks. `fast_ready` shrinks the client's
        `guild_ready_timeout` (2 s by default) since the emulator sends every guild at once,
        and drops the 5 s a sharded client waits before identifying each shard after the
        first (Discord's identify rate limit, which the emulator does not enforce). `watch`
        names the loggers whose errors count (the bot's own loggers may be added). Several
        clients (shard processes) may run at once, each in its own block.
        """
        if fast_ready:
            client._connection.guild_ready_timeout = min(
                client._connection.guild_ready_timeout, 0.05
            )

            async def identify_now(shard_id: int | None, *, initial: bool = False) -> None:
                return None

            # Replaced on this client only: discord.py declares the hook as a method.
            client.before_identify_hook = identify_now  # type: ignore[method-assign]
        watched = [logging.getLogger(name) for name in watch]
        for logger in watched:
            self._watchers[logger.name] += 1
            logger.addHandler(self.bot_errors)
        first_error = len(self.bot_errors.records)
        task = asyncio.create_task(client.start(self.bot_token), name="emulated-bot")
        try:
            await self.wait_for(lambda: task.done() or client.is_ready(), timeout=ready_timeout)
            if task.done():
                task.result()
                raise RuntimeError("the bot stopped before it was ready")
            yield client
            if task.done():
                task.result()
        except BaseException as exc:
            logged = self.bot_errors.records[first_error:]
            if logged and not isinstance(exc, EmulatorError):  # those list them already
                exc.add_note("the bot logged errors:\n" + BotErrors(logged).format_all())
            raise
        finally:
            await client.close()
            done, _ = await asyncio.wait({task}, timeout=WAIT_CEILING)
            if not done:
                task.cancel()
            for logger in watched:
                self._watchers[logger.name] -= 1
                if not self._watchers[logger.name]:  # no other client still running
                    logger.removeHandler(self.bot_errors)
        if task.done() and not task.cancelled() and (error := task.exception()) is not None:
            raise error
        new_errors = self.bot_errors.records[first_error:]
        if fail_on_errors and new_errors:
            shown = BotErrors(records=new_errors)
            raise AssertionError(f"the bot logged errors:\n{shown.format_all()}")

    # -- world building -----------------------------------------------------------------------

    @property
    def guild(self) -> EmuGuild:
        """The default guild."""
        return self.guilds[0]

    @property
    def general(self) -> EmuChannel:
        """The default guild's first text channel."""
        return self.guild.channels[0]

    def add_guild(
        self,
        name: str,
        *,
        locale: str = "en-US",
        channels: tuple[str, ...] = ("general",),
        shard: tuple[int, int] | None = None,
    ) -> EmuGuild:
        """A guild with the bot and every user in it; `shard=(id, count)` picks an id that
        Discord routes to that shard of a bot sharded `count` ways."""
        gid = self.ids() if shard is None else self.ids.on_shard(*shard)
        guild = EmuGuild(id=gid, name=name, locale=locale, owner_id=self.owner.id)
        guild.roles.append(EmuRole(id=gid, name="@everyone", permissions=EVERYONE_PERMISSIONS))
        guild.roles.append(
            EmuRole(id=self.ids(), name="Admin", permissions=MANAGE_GUILD, position=1)
        )
        guild.roles.append(
            EmuRole(
                id=self.ids(),
                name=self.bot.name,
                permissions=BOT_PERMISSIONS,
                position=2,
                managed=True,
            )
        )
        self.guilds.append(guild)
        self._join(guild, self.bot, [guild.roles[2].id])
        for user in self.users.values():
            self._join(guild, user, [guild.roles[1].id] if user.admin else [])
        for channel in channels:
            self.add_channel(channel, guild=guild)
        session = self.gateway.session_for(gid)
        if session is not None and self.gateway.connected_for(gid):  # the bot "joins" it
            payload = self.guild_create_payload(guild, session.intents)
            self.gateway.dispatch("GUILD_CREATE", payload, guild_id=gid)
        return guild

    def _join(self, guild: EmuGuild, user: EmuUser, roles: list[int]) -> None:
        guild.members[user.id] = user
        guild.member_roles[user.id] = roles
        guild.joined_at[user.id] = iso_now()

    def set_guild_locale(self, guild: EmuGuild, locale: str) -> None:
        """Change a guild's language (its `preferred_locale`, and every interaction's
        `guild_locale` from now on), telling the bot with GUILD_UPDATE as Discord does."""
        guild.locale = locale
        if self.gateway.connected_for(guild.id):
            payload = self.guild_create_payload(guild, 0)
            self.gateway.dispatch("GUILD_UPDATE", payload, guild_id=guild.id)
        self.notify()

    def add_channel(self, name: str, *, guild: EmuGuild | None = None) -> EmuChannel:
        guild = guild or self.guild
        channel = EmuChannel(id=self.ids(), name=name, guild=guild, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if self.gateway.connected_for(guild.id) and guild in self.guilds:
            self.gateway.dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        admin: bool = False,
        dms_open: bool = True,
    ) -> EmuUser:
        """A user who is a member of every guild; `admin` gives the Admin role (Manage Guild)."""
        user = EmuUser(id=self.ids(), name=name, locale=locale, admin=admin, dms_open=dms_open)
        user._emu = self
        self.users[user.id] = user
        for guild in self.guilds:
            self._join(guild, user, [guild.role("Admin").id] if admin else [])
            if self.gateway.connected_for(guild.id):
                payload = guild.member_payload(user) | {"guild_id": str(guild.id)}
                self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=INTENT_MEMBERS)
        return user

    def channel(self, name: str, guild: EmuGuild | None = None) -> EmuChannel:
        return (guild or self.guild).channel(name)

    def dm_channel(self, user: EmuUser) -> EmuChannel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = EmuChannel(id=self.ids(), name=f"dm-{user.name}", type=DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def user_by_id(self, user_id: int) -> EmuUser | None:
        if user_id == self.bot.id:
            return self.bot
        return self.users.get(user_id)

    def guild_by_id(self, guild_id: int) -> EmuGuild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def guild_create_payload(self, guild: EmuGuild, intents: int = 0) -> dict[str, Any]:
        """GUILD_CREATE for `guild`. Like Discord, members are listed in full only with the
        presences intent; otherwise only the bot itself (a members-intent bot then chunks)."""
        members = list(guild.members.values()) if intents & INTENT_PRESENCES else [self.bot]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": str(guild.channels[0].id) if guild.channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "preferred_locale": guild.locale,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "nsfw_level": 0,
            "joined_at": guild.joined_at.get(self.bot.id, iso_now()),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [guild.member_payload(u) for u in members],
            "channels": [c.payload() for c in guild.channels],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "max_members": 500000,
        }

    # -- change notification and waiting ------------------------------------------------------

    def notify(self) -> None:
        """Wake everything waiting in `wait_for` (called after any state change)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self,
        predicate: Callable[[], Any | Awaitable[Any]],
        timeout: float = WAIT_CEILING,
        *,
        message: str | None = None,
    ) -> Any:
        """Wait until `predicate()` (sync or async) is truthy and return its value.

        Re-checked after every emulator state change, and at least every 50 ms for conditions
        that depend on the bot's own state.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            changed = self._changed
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = end - loop.time()
            if remaining <= 0:
                raise EmulatorTimeout(message or f"condition not met within {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 0.05))

    async def wait_until_connected(self, timeout: float = WAIT_CEILING) -> None:
        """Wait until a bot is identified on the gateway."""
        await self.wait_for(lambda: self.gateway.connected, timeout, message="no bot connected")

    async def request_reconnect(self) -> None:
        """Ask the bot to reconnect (gateway op 7); discord.py RESUMEs its session."""
        await self.gateway.request_reconnect()

    @contextlib.asynccontextmanager
    async def gateway_outage(self) -> AsyncIterator[None]:
        """The gateway is gone for the block: every bot's socket drops (resumable) and new
        connections are refused; after it, the bots reconnect and RESUME by themselves."""
        self.gateway.down = True
        try:
            await self.gateway.drop_all()
            self.notify()
            yield
        finally:
            self.gateway.down = False
            self.notify()

    # -- queries ------------------------------------------------------------------------------

    def can_see(self, user: EmuUser, message: EmuMessage) -> bool:
        if message.deleted:
            return False
        if message.ephemeral:
            return message.ephemeral_to is user
        channel = message.channel
        if channel.type == DM:
            return channel.recipient is user
        return channel.guild is not None and user.id in channel.guild.members

    def visible_messages(
        self, user: EmuUser, channel: EmuChannel | None = None
    ) -> list[EmuMessage]:
        channels = [channel] if channel is not None else list(self.channels.values())
        out = [m for ch in channels for m in ch.messages if self.can_see(user, m)]
        return sorted(out, key=lambda m: m.id)

    def ephemerals_of(self, user: EmuUser) -> list[EmuMessage]:
        return sorted(
            (m for m in self.messages.values() if m.ephemeral_to is user and not m.deleted),
            key=lambda m: m.id,
        )

    def channel_messages(self, channel: EmuChannel) -> list[EmuMessage]:
        """Public messages of a channel (no ephemerals), oldest first."""
        return [m for m in channel.messages if not m.deleted and not m.ephemeral]

    def last_message(self, channel: EmuChannel) -> EmuMessage | None:
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def commands(self, guild: EmuGuild | None = None) -> list[dict[str, Any]]:
        """Commands the bot registered (global, or for `guild`)."""
        if guild is None:
            return list(self.global_commands)
        return list(self.guild_commands.get(guild.id, []))

    def expire_token(self, result: InteractionResult) -> None:
        """Make an interaction token expire now (follow-ups/edits then fail with 50027)."""
        result.expires_at = asyncio.get_running_loop().time() - 1

    def clear_records(self) -> None:
        """Forget recorded calls, errors and 429s (e.g. after a noisy setup)."""
        self.calls.clear()
        self.errors.clear()
        self.unknown_routes.clear()
        self.rate_limit_hits.clear()

    # -- messages (used by the REST handlers and test users) ----------------------------------

    def _assign_component_ids(self, components: list[dict[str, Any]]) -> None:
        used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
        next_id = 1
        for comp in walk_components(components):
            if comp.get("id") is None:
                while next_id in used:
                    next_id += 1
                comp["id"] = next_id
                used.add(next_id)

    def create_message(
        self,
        channel: EmuChannel,
        author: EmuUser,
        body: Mapping[str, Any],
        *,
        files: list[dict[str, Any]] | None = None,
        interaction: InteractionResult | None = None,
        extra_flags: int = 0,
        msg_type: int = 0,
        validate: bool = True,
    ) -> EmuMessage:
        """Validate and store a new message, then dispatch MESSAGE_CREATE unless ephemeral."""
        flags = (int(body.get("flags") or 0) & CREATE_FLAGS) | extra_flags
        result: dict[str, Any] = {
            "content": body.get("content") or "",
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "flags": flags,
        }
        attachments = self._attachments(body, files or [])
        if validate:
            validate_message(
                result,
                attachments=len(attachments),
                uploads={a["filename"] for a in attachments},
            )
        resolve_media(result["components"], attachments)
        self._assign_component_ids(result["components"])
        message = EmuMessage(
            id=self.ids(),
            channel=channel,
            author=author,
            content=result["content"],
            embeds=result["embeds"],
            components=result["components"],
            flags=flags,
            attachments=attachments,
            attachment_data={a["id"]: self.attachment_data[int(a["id"])] for a in attachments},
            type=msg_type,
            interaction=interaction,
            message_reference=body.get("message_reference"),
        )
        if interaction is not None:
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            if flags & FLAG_EPHEMERAL:
                message.ephemeral_to = interaction.user
        self.messages[message.id] = message
        channel.messages.append(message)
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_CREATE", message)
        self._message_changed(message)
        return message

    def _attachments(
        self, body: Mapping[str, Any], files: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Store the uploaded files (bytes served at their `url`); their attachment payloads."""
        alt = descriptions(dict(body))
        out = []
        for upload in files:
            aid = self.ids()
            self.attachment_data[aid] = upload.get("data", b"")
            base = f"http://{self.host}:{self.port}"
            out.append(attachment_payload(aid, upload, base, alt.get(upload.get("index", -1))))
        return out

    def edit_message(
        self,
        message: EmuMessage,
        body: Mapping[str, Any],
        *,
        files: list[dict[str, Any]] | None = None,
    ) -> EmuMessage:
        """Merge an edit into `message` (validated as a whole) and dispatch MESSAGE_UPDATE."""
        validate_flags_edit(message.flags, dict(body))
        before = message.snapshot()
        result: dict[str, Any] = {
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "flags": message.flags,
        }
        if "content" in body:
            result["content"] = body["content"] or ""
        if "embeds" in body:
            result["embeds"] = list(body["embeds"] or [])
        if "components" in body:
            result["components"] = list(body["components"] or [])
        if body.get("flags") is not None:
            given = int(body["flags"])
            keep = message.flags & ~FLAG_SUPPRESS_EMBEDS
            result["flags"] = keep | (given & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
        result["flags"] &= ~FLAG_LOADING
        attachments = list(message.attachments)
        if "attachments" in body and body["attachments"] is not None:
            kept = {str(a.get("id")) for a in body["attachments"]}
            attachments = [a for a in attachments if a["id"] in kept]
        uploaded = self._attachments(body, files or [])
        attachments += uploaded
        validate_message(
            result, attachments=len(attachments), uploads={a["filename"] for a in uploaded}
        )
        resolve_media(result["components"], uploaded)
        self._assign_component_ids(result["components"])
        message.history.append(before)
        message.content = result["content"]
        message.embeds = result["embeds"]
        message.components = result["components"]
        message.flags = result["flags"]
        message.attachments = attachments
        message.attachment_data = {a["id"]: self.attachment_data[int(a["id"])] for a in attachments}
        message.edited_timestamp = iso_now()
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", message)
        self._message_changed(message)
        return message

    def delete_message(self, message: EmuMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", data, intent=self._message_intent(message))
        self._message_changed(message)

    def _message_changed(self, message: EmuMessage) -> None:
        for listener in self.message_listeners:
            listener(message)
        self.notify()

    def _message_intent(self, message: EmuMessage) -> int:
        return INTENT_DM_MESSAGES if message.channel.type == DM else INTENT_GUILD_MESSAGES

    def _dispatch_message(self, event: str, message: EmuMessage) -> None:
        payload = message.payload()
        session = self.gateway.session_for(message.guild_id)
        if (
            session is not None
            and not session.wants(INTENT_MESSAGE_CONTENT)
            and message.channel.type != DM
            and message.author.id != self.bot.id
            and self.bot.mention not in message.content
        ):
            # Without the privileged intent Discord blanks other people's guild messages.
            payload.update(content="", embeds=[], components=[], attachments=[])
        self.gateway.dispatch(event, payload, intent=self._message_intent(message))

    # -- interactions (test side) -------------------------------------------------------------

    def _check_in_channel(self, user: EmuUser, channel: EmuChannel) -> None:
        if channel.type == DM:
            if channel.recipient is not user:
                raise InvalidInteraction(f"{user.name} cannot use another user's DM channel")
        elif channel.guild is None or user.id not in channel.guild.members:
            raise InvalidInteraction(f"{user.name} is not a member of {channel.name}'s guild")

    def _interaction_payload(self, rec: InteractionResult) -> dict[str, Any]:
        channel, user = rec.channel, rec.user
        guild = channel.guild
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": rec.kind,
            "data": rec.data,
            "token": rec.token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
        }
        if guild is not None:
            perms = guild.permissions_of(user)
            member = guild.member_payload(user)
            member["permissions"] = str(perms)
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.locale,
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                member=member,
                channel=channel.payload(permissions=perms),
                app_permissions=str(guild.permissions_of(self.bot)),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(
                user=user.payload(),
                channel=channel.payload(),
                app_permissions=str(DM_PERMISSIONS),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        if rec.source_message is not None:
            payload["message"] = rec.source_message.payload()
        return payload

    def _start_interaction(
        self,
        user: EmuUser,
        channel: EmuChannel,
        kind: int,
        data: dict[str, Any],
        *,
        source_message: EmuMessage | None = None,
        parent: InteractionResult | None = None,
        command_name: str | None = None,
    ) -> InteractionResult:
        if not self.gateway.connected_for(None if channel.guild is None else channel.guild.id):
            raise InteractionFailed(
                "no bot is connected to the gateway ('This interaction failed')"
            )
        loop = asyncio.get_running_loop()
        now = loop.time()
        rec = InteractionResult(
            id=self.ids(),
            token="aW50ZXJhY3Rpb24." + secrets.token_urlsafe(48),
            kind=kind,
            user=user,
            channel=channel,
            data=data,
            created_at=now,
            deadline=now + self.interaction_deadline,
            expires_at=now + self.token_lifetime,
            source_message=source_message,
            parent=parent,
            command_name=command_name,
            _emu=self,
        )
        self.interactions[rec.id] = rec
        self.tokens[rec.token] = rec
        loop.call_at(rec.deadline, rec._close_window)
        self.gateway.dispatch("INTERACTION_CREATE", self._interaction_payload(rec))
        self.notify()
        return rec

    async def run_slash(
        self, user: EmuUser, channel: EmuChannel, command: str, options: Mapping[str, Any]
    ) -> InteractionResult:
        self._check_in_channel(user, channel)
        data, name = build_command_data(self, user, channel, command, options)
        rec = self._start_interaction(user, channel, APPLICATION_COMMAND, data, command_name=name)
        return await rec.wait()

    async def run_autocomplete(
        self,
        user: EmuUser,
        channel: EmuChannel,
        command: str,
        focused: str,
        value: str,
        options: Mapping[str, Any],
    ) -> list[dict[str, Any]]:
        self._check_in_channel(user, channel)
        data, name = build_command_data(
            self, user, channel, command, {**options, focused: value}, focused=focused
        )
        rec = self._start_interaction(user, channel, AUTOCOMPLETE, data, command_name=name)
        await rec.wait()
        return list(rec.choices or [])

    def _live_visible(self, user: EmuUser, message: EmuMessage) -> EmuMessage:
        live = self.messages.get(message.id)
        if live is None or live.deleted:
            raise InvalidInteraction(f"message {message.id} does not exist (deleted?)")
        if not self.can_see(user, live):
            raise InvalidInteraction(f"{user.name} cannot see message {live.id}")
        return live

    def _component(self, message: EmuMessage, custom_id: str) -> dict[str, Any]:
        comp = message.component(custom_id)
        if comp is None:
            have = message.custom_ids()
            raise InvalidInteraction(f"message {message.id} has no component {custom_id!r}: {have}")
        if comp.get("disabled"):
            raise InvalidInteraction(f"component {custom_id!r} is disabled")
        return comp

    async def run_click(
        self, user: EmuUser, message: EmuMessage, custom_id: str
    ) -> InteractionResult:
        live = self._live_visible(user, message)
        comp = self._component(live, custom_id)
        if comp.get("type") != 2:
            raise InvalidInteraction(f"{custom_id!r} is not a button (type {comp.get('type')})")
        if comp.get("style") in (5, 6):
            raise InvalidInteraction(f"{custom_id!r} is a link/premium button: no interaction")
        data = {"custom_id": custom_id, "component_type": 2, "id": comp.get("id")}
        rec = self._start_interaction(
            user, live.channel, MESSAGE_COMPONENT, data, source_message=live
        )
        return await rec.wait()

    async def run_select(
        self, user: EmuUser, message: EmuMessage, custom_id: str, values: list[Any]
    ) -> InteractionResult:
        live = self._live_visible(user, message)
        comp = self._component(live, custom_id)
        ctype = comp.get("type")
        if ctype not in SELECT_TYPES:
            raise InvalidInteraction(f"{custom_id!r} is not a select menu (type {ctype})")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise InvalidInteraction(
                f"{custom_id!r} takes between {lo} and {hi} values, got {len(values)}"
            )
        if len(set(map(str, values))) != len(values):
            raise InvalidInteraction(f"{custom_id!r}: duplicate values {values}")
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ctype,
            "id": comp.get("id"),
        }
        data["values"], resolved = self._select_values(live.channel, comp, values)
        if resolved:
            data["resolved"] = resolved
        rec = self._start_interaction(
            user, live.channel, MESSAGE_COMPONENT, data, source_message=live
        )
        return await rec.wait()

    def _select_values(
        self, channel: EmuChannel, comp: dict[str, Any], values: list[Any]
    ) -> tuple[list[str], dict[str, Any]]:
        ctype = comp["type"]
        resolved: dict[str, dict[str, Any]] = {}
        out: list[str] = []
        guild = channel.guild
        if ctype == 3:
            offered = [o["value"] for o in comp.get("options") or []]
            for value in values:
                if value not in offered:
                    raise InvalidInteraction(
                        f"{value!r} is not an option of {comp['custom_id']!r}: {offered}"
                    )
                out.append(value)
            return out, resolved
        for value in values:
            if isinstance(value, EmuUser) and ctype in (5, 7):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if guild is not None and value.id in guild.members:
                    member = guild.member_payload(value, with_user=False)
                    member["permissions"] = str(guild.permissions_of(value))
                    resolved.setdefault("members", {})[str(value.id)] = member
            elif isinstance(value, EmuRole) and ctype in (6, 7):
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            elif isinstance(value, EmuChannel) and ctype == 8:
                resolved.setdefault("channels", {})[str(value.id)] = value.payload(permissions=0)
            else:
                raise InvalidInteraction(f"{value!r} cannot be picked in a select of type {ctype}")
            out.append(str(value.id))
        return out, resolved

    async def run_modal_submit(
        self, user: EmuUser, result: InteractionResult, values: Mapping[str, Any]
    ) -> InteractionResult:
        if result.type != MODAL or result.modal is None:
            raise InvalidInteraction("the bot did not answer this interaction with a modal")
        if result.user is not user:
            raise InvalidInteraction(f"the modal was shown to {result.user.name}, not {user.name}")
        modal = result.modal
        remaining = dict(values)
        components = [self._modal_component(c, remaining) for c in modal.get("components") or []]
        if remaining:
            raise InvalidInteraction(f"the modal has no field(s) {list(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": [c for c in components if c]}
        rec = self._start_interaction(
            user,
            result.channel,
            MODAL_SUBMIT,
            data,
            source_message=result.source_message,
            parent=result,
        )
        return await rec.wait()

    def _modal_component(
        self, comp: dict[str, Any], values: dict[str, Any], label: str | None = None
    ) -> dict[str, Any] | None:
        """Mirror a modal component as submitted; fields are keyed by custom_id or label."""
        ctype = comp.get("type")
        if ctype == 1:
            inner = [self._modal_component(c, values) for c in comp["components"]]
            return {"type": 1, "components": [c for c in inner if c]}
        if ctype == 18:
            inner_comp = self._modal_component(comp["component"], values, comp.get("label"))
            return {"type": 18, "id": comp.get("id"), "component": inner_comp}
        custom_id = comp.get("custom_id")
        label = label or comp.get("label")
        key = custom_id if custom_id in values else label if label in values else None
        if ctype == 4:
            value = values.pop(key) if key is not None else comp.get("value") or ""
            name = f"text input {label or custom_id!r}"
            if not isinstance(value, str):
                raise InvalidInteraction(f"{name} takes a str")
            if comp.get("required", True) and not value:
                raise InvalidInteraction(f"{name} is required")
            lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
            if value and not lo <= len(value) <= hi:
                raise InvalidInteraction(f"{name} takes {lo}..{hi} characters, got {len(value)}")
            return {"type": 4, "custom_id": custom_id, "value": value, "id": comp.get("id")}
        if ctype in SELECT_TYPES:
            picked = values.pop(key) if key is not None else []
            offered = [o["value"] for o in comp.get("options") or []]
            if ctype == 3 and any(v not in offered for v in picked):
                raise InvalidInteraction(f"{picked} are not all options of {label or custom_id!r}")
            return {"type": ctype, "custom_id": custom_id, "values": [str(v) for v in picked]}
        return None

    async def user_send(self, user: EmuUser, channel: EmuChannel, content: str) -> EmuMessage:
        self._check_in_channel(user, channel)
        return self.create_message(channel, user, {"content": content})
