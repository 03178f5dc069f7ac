"""What the page is sent: the world as one user sees it, their messages, the commands they may
run. Only what that user's Discord client would show leaves the server: another user's
ephemeral replies and DMs never reach their page."""

from __future__ import annotations

from typing import Any

from bot.i18n import CATALOGS, lang_of
from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from bot.playground.emulator.commands import usable
from bot.playground.emulator.models import EmuChannel

HISTORY = 200
"""The latest messages of each channel a page is sent when it opens."""

PAGE_KEYS = "playground."
"""The catalog keys of the page's own words."""


def local(emu: Emulator, data: Any) -> Any:
    """`data` with the emulator's attachment URLs made relative, so the page loads them from
    the playground (which serves them) rather than from the emulator's own port."""
    origin = f"http://{emu.host}:{emu.port}"
    if isinstance(data, str):
        return data.removeprefix(origin) if data.startswith(origin + "/attachments/") else data
    if isinstance(data, list):
        return [local(emu, item) for item in data]
    if isinstance(data, dict):
        return {key: local(emu, value) for key, value in data.items()}
    return data


def message_json(emu: Emulator, message: EmuMessage) -> dict[str, Any]:
    interaction = message.interaction
    used = None
    if interaction is not None and interaction.command_name and message is interaction.message:
        used = {"user_id": str(interaction.user.id), "command": interaction.command_name}
    return {
        "id": str(message.id),
        "channel_id": str(message.channel.id),
        "author": {
            "id": str(message.author.id),
            "name": message.author.name,
            "bot": message.author.bot,
        },
        "timestamp": message.timestamp,
        "edited": message.edited_timestamp is not None,
        "content": message.content,
        "embeds": local(emu, message.embeds),
        "components": local(emu, message.components),
        "attachments": local(emu, message.attachments),
        "v2": message.components_v2,
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "used": used,
    }


def visible(emu: Emulator, user: EmuUser) -> list[EmuMessage]:
    """The latest messages of every channel `user` sees, oldest first."""
    seen: dict[int, list[EmuMessage]] = {}
    for message in emu.visible_messages(user):
        seen.setdefault(message.channel.id, []).append(message)
    return sorted((m for msgs in seen.values() for m in msgs[-HISTORY:]), key=lambda m: m.id)


def channels_of(emu: Emulator, user: EmuUser) -> list[EmuChannel]:
    """The guild's text channels, then the user's DM with the bot."""
    return [*emu.guild.channels, user.dm]


def players(emu: Emulator) -> list[EmuUser]:
    """The people one can play as: every user but the guild's owner, who only owns it."""
    return [u for u in emu.users.values() if u is not emu.owner]


def world_json(emu: Emulator, user: EmuUser) -> dict[str, Any]:
    guild = emu.guild
    lang = lang_of(user.locale)
    return {
        "me": str(user.id),
        "lang": lang,
        "strings": {k: v for k, v in CATALOGS[lang].items() if k.startswith(PAGE_KEYS)},
        "guild": {"id": str(guild.id), "name": guild.name, "locale": guild.locale},
        "bot": {"id": str(emu.bot.id), "name": emu.bot.name},
        "users": [
            {"id": str(u.id), "name": u.name, "locale": u.locale, "admin": u.admin}
            for u in players(emu)
        ],
        "names": {str(u.id): u.name for u in (*emu.users.values(), emu.bot)},
        "channels": [
            {"id": str(c.id), "name": c.name, "dm": c.is_dm} for c in channels_of(emu, user)
        ],
        "roles": [{"id": str(r.id), "name": r.name} for r in guild.roles],
    }


def commands_json(emu: Emulator, user: EmuUser, channel: EmuChannel) -> list[dict[str, Any]]:
    """The chat commands the bot registered that `user` may run in `channel`, as registered
    (names, descriptions, options, choices and their localizations)."""
    pools = [] if channel.guild is None else emu.commands(channel.guild)
    found = [
        cmd
        for cmd in (*pools, *emu.commands())
        if cmd.get("type", 1) == 1 and usable(emu, user, channel, cmd)
    ]
    return sorted(found, key=lambda cmd: cmd["name"])
