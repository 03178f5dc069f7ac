"""Turning `user.slash(channel, "cards new", players=3)` into Discord's interaction data.

The command is looked up in what the bot registered (guild commands, then global ones), and the
options are checked against the registered schema the way Discord's client enforces it: the
command must be usable here (contexts, default member permissions), a subcommand must be
chosen when the command has some, unknown options / wrong types / missing required options /
values outside choices, ranges or lengths are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import InvalidInteraction
from .models import ADMINISTRATOR, EmuChannel, EmuRole, EmuUser

if TYPE_CHECKING:
    from .emulator import Emulator

OPTION_TYPE_NAMES = {
    1: "SUB_COMMAND",
    2: "SUB_COMMAND_GROUP",
    3: "STRING",
    4: "INTEGER",
    5: "BOOLEAN",
    6: "USER",
    7: "CHANNEL",
    8: "ROLE",
    9: "MENTIONABLE",
    10: "NUMBER",
    11: "ATTACHMENT",
}
MAX_SAFE_INT = 2**53


def _localized(node: Mapping[str, Any], name: str, locale: str) -> bool:
    if node.get("name") == name:
        return True
    locs = node.get("name_localizations") or {}
    return locs.get(locale) == name


def find_command(emu: Emulator, user: EmuUser, channel: EmuChannel, name: str) -> dict[str, Any]:
    """The registered chat-input command the user would see under `name` in `channel`."""
    pools: list[list[dict[str, Any]]] = []
    if channel.guild is not None:
        pools.append(emu.guild_commands.get(channel.guild.id, []))
    pools.append(emu.global_commands)
    for pool in pools:
        for cmd in pool:
            if cmd.get("type", 1) == 1 and _localized(cmd, name, user.locale):
                _check_available(emu, user, channel, cmd)
                return cmd
    known = sorted({c["name"] for pool in pools for c in pool if c.get("type", 1) == 1})
    raise InvalidInteraction(f"unknown slash command /{name}; the bot registered {known}")


def usable(emu: Emulator, user: EmuUser, channel: EmuChannel, cmd: dict[str, Any]) -> bool:
    """Whether Discord's client would offer `cmd` to `user` in `channel`."""
    try:
        _check_available(emu, user, channel, cmd)
    except InvalidInteraction:
        return False
    return True


def _check_available(
    emu: Emulator, user: EmuUser, channel: EmuChannel, cmd: dict[str, Any]
) -> None:
    contexts = cmd.get("contexts")
    if channel.guild is None:
        if cmd.get("guild_id") is not None:
            raise InvalidInteraction(f"/{cmd['name']} is a guild command; not available in DMs")
        if contexts is not None and 1 not in contexts:
            raise InvalidInteraction(
                f"/{cmd['name']} is not available in DMs (contexts={contexts})"
            )
        if contexts is None and cmd.get("dm_permission") is False:
            raise InvalidInteraction(
                f"/{cmd['name']} is not available in DMs (dm_permission=false)"
            )
        return
    if contexts is not None and 0 not in contexts:
        raise InvalidInteraction(f"/{cmd['name']} is not available in guilds (contexts={contexts})")
    required = cmd.get("default_member_permissions")
    if required is None:
        return
    bits = int(required)
    perms = channel.guild.permissions_of(user)
    if perms & ADMINISTRATOR:
        return
    if bits == 0 or perms & bits != bits:
        raise InvalidInteraction(
            f"{user.name} cannot see /{cmd['name']}: needs permissions {bits:#x}, has {perms:#x}"
        )


def build_command_data(
    emu: Emulator,
    user: EmuUser,
    channel: EmuChannel,
    command: str,
    options: Mapping[str, Any],
    *,
    focused: str | None = None,
) -> tuple[dict[str, Any], str]:
    """Interaction `data` for a slash command (or autocomplete when `focused` is set).

    Returns the data and the full command name ("cards new").
    """
    tokens = command.strip().lstrip("/").split()
    if not tokens:
        raise InvalidInteraction("empty command")
    cmd = find_command(emu, user, channel, tokens[0])
    path = [cmd["name"]]
    chain: list[dict[str, Any]] = []
    node: dict[str, Any] = cmd
    for token in tokens[1:]:
        subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
        match = next((o for o in subs if _localized(o, token, user.locale)), None)
        if match is None:
            names = [o["name"] for o in subs]
            raise InvalidInteraction(
                f"/{' '.join(path)} has no subcommand {token!r}; choose one of {names}"
            )
        chain.append(match)
        path.append(match["name"])
        node = match
    subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
    if subs:
        raise InvalidInteraction(
            f"/{' '.join(path)} needs a subcommand: one of {[o['name'] for o in subs]}"
        )
    resolved: dict[str, dict[str, Any]] = {}
    leaf = _leaf_options(emu, user, channel, node, options, resolved, focused, " ".join(path))
    for sub in reversed(chain):
        leaf = [{"name": sub["name"], "type": sub["type"], "options": leaf}]
    data: dict[str, Any] = {
        "id": str(cmd["id"]),
        "name": cmd["name"],
        "type": 1,
        "options": leaf,
    }
    if cmd.get("guild_id") is not None:
        data["guild_id"] = str(cmd["guild_id"])
    if resolved:
        data["resolved"] = resolved
    return data, " ".join(path)


def _leaf_options(
    emu: Emulator,
    user: EmuUser,
    channel: EmuChannel,
    node: dict[str, Any],
    given: Mapping[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: str | None,
    label: str,
) -> list[dict[str, Any]]:
    schema = {o["name"]: o for o in node.get("options") or []}
    unknown = [k for k in given if k not in schema]
    if unknown:
        raise InvalidInteraction(
            f"/{label} has no option {unknown[0]!r}; options are {list(schema)}"
        )
    out: list[dict[str, Any]] = []
    for name, opt in schema.items():
        if name not in given:
            if opt.get("required") and name != focused:
                raise InvalidInteraction(f"/{label}: required option {name!r} is missing")
            continue
        value = given[name]
        if name == focused:
            if not opt.get("autocomplete"):
                raise InvalidInteraction(f"/{label}: option {name!r} has no autocomplete")
            out.append({"name": name, "type": opt["type"], "value": str(value), "focused": True})
            continue
        out.append(
            {
                "name": name,
                "type": opt["type"],
                "value": _convert(emu, user, channel, opt, value, resolved, label),
            }
        )
    return out


def _convert(
    emu: Emulator,
    user: EmuUser,
    channel: EmuChannel,
    opt: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
    label: str,
) -> Any:
    otype = opt["type"]
    where = f"/{label} option {opt['name']!r} ({OPTION_TYPE_NAMES.get(otype)})"

    def bad(why: str) -> InvalidInteraction:
        return InvalidInteraction(f"{where}: {why} (got {value!r})")

    if otype == 3:
        if not isinstance(value, str):
            raise bad("expects a str")
        lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
        if not lo <= len(value) <= hi:
            raise bad(f"length must be within [{lo}, {hi}]")
    elif otype in (4, 10):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad("expects a number")
        if otype == 4 and not isinstance(value, int):
            raise bad("expects an int")
        if not -MAX_SAFE_INT < value < MAX_SAFE_INT:
            raise bad("out of range")
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise bad(f"must be within [{lo}, {hi}]")
    elif otype == 5:
        if not isinstance(value, bool):
            raise bad("expects a bool")
    elif otype in (6, 9) and isinstance(value, EmuUser | int) and not isinstance(value, bool):
        target = value if isinstance(value, EmuUser) else emu.user_by_id(value)
        if target is None:
            raise bad("unknown user")
        resolved.setdefault("users", {})[str(target.id)] = target.payload()
        if channel.guild is not None and target.id in channel.guild.members:
            member = channel.guild.member_payload(target, with_user=False)
            member["permissions"] = str(channel.guild.permissions_of(target))
            resolved.setdefault("members", {})[str(target.id)] = member
        return str(target.id)
    elif otype in (8, 9) and isinstance(value, EmuRole):
        if channel.guild is None or value not in channel.guild.roles:
            raise bad("role is not in this guild")
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    elif otype == 7 and isinstance(value, EmuChannel):
        types = opt.get("channel_types")
        if types is not None and value.type not in types:
            raise bad(f"channel type must be one of {types}")
        if channel.guild is None or value.guild is not channel.guild:
            raise bad("channel is not in this guild")
        perms = channel.guild.permissions_of(user)
        resolved.setdefault("channels", {})[str(value.id)] = value.payload(permissions=perms)
        return str(value.id)
    elif otype == 11:
        raise bad("attachments are not supported by the emulator")
    else:
        raise bad("wrong type")
    choices = opt.get("choices")
    if choices and not opt.get("autocomplete"):
        allowed = [c["value"] for c in choices]
        if value not in allowed:
            raise bad(f"must be one of the choices {allowed}")
    return value
