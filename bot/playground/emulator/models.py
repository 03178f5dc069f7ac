"""The emulated Discord world: guilds, roles, channels, users and messages.

Objects are *live*: an `EmuMessage` is mutated in place when the bot edits it, so a test holding a
message always sees its current state (and `edits` / `history` tell what happened before).
Each class knows how to render itself as the JSON payload Discord would send.
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .emulator import Emulator
    from .interactions import InteractionResult

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADD_REACTIONS = 1 << 6
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES
DM_PERMISSIONS = EVERYONE_PERMISSIONS  # what Discord reports for a bot / a user inside a DM

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
DM = 1


class Snowflakes:
    """Increasing snowflakes with real timestamps, so `created_at` looks right to discord.py."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last

    def on_shard(self, shard: int, count: int) -> int:
        """The next snowflake whose guild Discord would route to `shard` of `count`: its
        millisecond part moved on to the next one with `(id >> 22) % count == shard`."""
        ms = self() >> 22
        self._last = (ms + (shard - ms) % count) << 22
        return self._last


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(eq=False)
class EmuRole:
    """A guild role; `id == guild.id` is @everyone."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class EmuUser:
    """A Discord account. Test users (not the bot) can act through the gateway like a real client.

    Create them with `Emulator.add_user`. `dms_open=False` makes the bot's DMs fail with 50007;
    it can be flipped at any time.
    """

    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False
    dms_open: bool = True
    bot: bool = False
    _emu: Emulator | None = field(default=None, repr=False)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    # -- test-side actions (see Emulator for the implementation) --------------------------------

    def _need_emu(self) -> Emulator:
        if self._emu is None:
            raise RuntimeError(f"{self.name} is not a test user")
        return self._emu

    @property
    def dm(self) -> EmuChannel:
        """This user's DM channel with the bot (created on first use, like Discord)."""
        return self._need_emu().dm_channel(self)

    async def slash(
        self, channel: EmuChannel, command: str, /, **options: Any
    ) -> InteractionResult:
        """Run `/command [group] [subcommand]` with `options`; waits for the initial response.

        Option names that are not identifiers can be passed as `**{"max-players": 3}`.
        Raises `InvalidInteraction` when Discord's client would refuse the command, and
        `InteractionFailed` when the bot does not acknowledge it in time.
        """
        return await self._need_emu().run_slash(self, channel, command, options)

    async def autocomplete(
        self, channel: EmuChannel, command: str, focused: str, value: str, /, **options: Any
    ) -> list[dict[str, Any]]:
        """Type `value` into option `focused` and return the choices the bot suggests."""
        return await self._need_emu().run_autocomplete(
            self, channel, command, focused, value, options
        )

    async def click(self, message: EmuMessage, custom_id: str) -> InteractionResult:
        """Click the button `custom_id` on `message` (which this user must be able to see)."""
        return await self._need_emu().run_click(self, message, custom_id)

    async def select(
        self, message: EmuMessage, custom_id: str, values: list[Any]
    ) -> InteractionResult:
        """Pick `values` in the select menu `custom_id` of `message`."""
        return await self._need_emu().run_select(self, message, custom_id, values)

    async def submit_modal(
        self, result: InteractionResult, values: dict[str, Any]
    ) -> InteractionResult:
        """Fill and submit the modal the bot opened in answer to `result`."""
        return await self._need_emu().run_modal_submit(self, result, values)

    async def send(self, channel: EmuChannel, content: str) -> EmuMessage:
        """Post a plain message as this user (dispatched to the bot as MESSAGE_CREATE)."""
        return await self._need_emu().user_send(self, channel, content)

    def can_see(self, message: EmuMessage) -> bool:
        """Whether this user's Discord client would show `message`."""
        return self._need_emu().can_see(self, message)

    def visible_messages(self, channel: EmuChannel | None = None) -> list[EmuMessage]:
        """Everything this user can see (in `channel`, or everywhere), oldest first."""
        return self._need_emu().visible_messages(self, channel)

    def ephemerals(self) -> list[EmuMessage]:
        """Ephemeral messages (replies and follow-ups) shown only to this user."""
        return self._need_emu().ephemerals_of(self)

    def dms(self) -> list[EmuMessage]:
        """Messages in this user's DM with the bot, both directions."""
        return [m for m in self.dm.messages if not m.deleted]


@dataclass(eq=False)
class EmuChannel:
    """A guild text channel or a DM channel between the bot and one user."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild: EmuGuild | None = None
    recipient: EmuUser | None = None
    position: int = 0
    messages: list[EmuMessage] = field(default_factory=list, repr=False)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": str(self.messages[-1].id) if self.messages else None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        assert self.guild is not None
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.messages[-1].id) if self.messages else None,
            "flags": 0,
        }
        if permissions is not None:
            out["permissions"] = str(permissions)
        return out


@dataclass(eq=False)
class EmuGuild:
    """A guild: roles (@everyone first), channels, members and their roles."""

    id: int
    name: str
    locale: str
    owner_id: int
    roles: list[EmuRole] = field(default_factory=list)
    channels: list[EmuChannel] = field(default_factory=list)
    members: dict[int, EmuUser] = field(default_factory=dict, repr=False)
    member_roles: dict[int, list[int]] = field(default_factory=dict, repr=False)
    joined_at: dict[int, str] = field(default_factory=dict, repr=False)

    @property
    def everyone(self) -> EmuRole:
        return self.roles[0]

    def role(self, name: str) -> EmuRole:
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(f"no role {name!r} in {self.name}")

    def channel(self, name: str) -> EmuChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"no channel {name!r} in {self.name}")

    def permissions_of(self, user: EmuUser) -> int:
        """Guild-level permissions (no channel overwrites are modelled)."""
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        role_ids = set(self.member_roles.get(user.id, []))
        for role in self.roles:
            if role.id in role_ids:
                perms |= role.permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def member_payload(self, user: EmuUser, *, with_user: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "roles": [str(r) for r in self.member_roles.get(user.id, [])],
            "joined_at": self.joined_at.get(user.id, iso_now()),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if with_user:
            out["user"] = user.payload()
        return out


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, including action rows, containers and section accessories."""
    for comp in components:
        yield comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from walk_components([accessory])
        inner = comp.get("component")
        if isinstance(inner, dict):
            yield from walk_components([inner])


@dataclass(eq=False)
class EmuMessage:
    """A message as Discord stores it. Live: edits update it in place and push to `history`."""

    id: int
    channel: EmuChannel
    author: EmuUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[dict[str, Any]] = field(default_factory=list)
    attachment_data: dict[str, bytes] = field(default_factory=dict, repr=False)
    """The bytes of each attachment, by attachment id (see `file`)."""
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    ephemeral_to: EmuUser | None = None
    interaction: InteractionResult | None = field(default=None, repr=False)
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: dict[str, Any] | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict, repr=False)
    bot_reactions: set[str] = field(default_factory=set, repr=False)
    history: list[dict[str, Any]] = field(default_factory=list, repr=False)
    deleted: bool = False

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild.id if self.channel.guild else None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "Bot is thinking..." message that has not been filled yet."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & FLAG_COMPONENTS_V2)

    @property
    def edits(self) -> int:
        """How many times the message was edited after creation."""
        return len(self.history)

    @property
    def text(self) -> str:
        """All user-visible text, see `text_of`."""
        return text_of(self)

    def snapshot(self) -> dict[str, Any]:
        return _copy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "flags": self.flags,
                "attachments": self.attachments,
            }
        )

    def file(self, filename: str) -> bytes:
        """The bytes of the attachment called `filename` (the last one, if several are)."""
        for attachment in reversed(self.attachments):
            if attachment["filename"] == filename:
                return self.attachment_data[attachment["id"]]
        raise KeyError(f"no attachment {filename!r} on message {self.id}")

    def all_components(self) -> list[dict[str, Any]]:
        return list(walk_components(self.components))

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The interactive component with this `custom_id`, or None."""
        for comp in walk_components(self.components):
            if comp.get("custom_id") == custom_id and comp.get("type") != 1:
                return comp
        return None

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": _copy(self.attachments),
            "embeds": _copy(self.embeds),
            "components": _copy(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        guild = self.channel.guild
        if guild is not None:
            out["guild_id"] = str(guild.id)
            if not self.author.bot and self.author.id in guild.members:
                out["member"] = guild.member_payload(self.author, with_user=False)
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            out["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            out["message_reference"] = self.message_reference
        if self.interaction is not None:
            out["interaction_metadata"] = self.interaction.metadata_for(self)
        if self.reactions:
            out["reactions"] = [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "me": name in self.bot_reactions,
                    "count_details": {"burst": 0, "normal": len(users)},
                    "burst_colors": [],
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for name, users in self.reactions.items()
                if users
            ]
        return out


def text_of(message: EmuMessage | dict[str, Any]) -> str:
    """All text a user could read on a message, flattened to one string.

    Content, embeds (author, title, description, fields, footer), and components: button labels,
    select placeholders, option labels and descriptions, Components V2 text displays, media
    descriptions. Meant for assertions such as "nothing Bob can see contains Alice's hand".
    """
    data = message.payload() if isinstance(message, EmuMessage) else message
    parts: list[str] = []
    if data.get("content"):
        parts.append(data["content"])
    for embed in data.get("embeds") or []:
        author = embed.get("author") or {}
        parts.extend(
            str(x) for x in (author.get("name"), embed.get("title"), embed.get("description")) if x
        )
        for fld in embed.get("fields") or []:
            parts.extend(str(x) for x in (fld.get("name"), fld.get("value")) if x)
        footer = embed.get("footer") or {}
        if footer.get("text"):
            parts.append(str(footer["text"]))
    for comp in walk_components(data.get("components") or []):
        for key in ("label", "placeholder", "content", "description"):
            if comp.get(key):
                parts.append(str(comp[key]))
        for opt in comp.get("options") or []:
            parts.extend(str(x) for x in (opt.get("label"), opt.get("description")) if x)
        for item in comp.get("items") or []:
            if item.get("description"):
                parts.append(str(item["description"]))
    return "\n".join(parts)


def _copy(data: Any) -> Any:
    """A deep copy of JSON data (twice as fast as `copy.deepcopy`, which the bench feels)."""
    return json.loads(json.dumps(data))
