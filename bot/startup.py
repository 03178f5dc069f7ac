"""What the bot tells its admin when it starts: once ready, who it is, on how many servers,
which shards this process runs and which store it uses; then where its slash commands were
synced (one server shows them at once, globally Discord may take up to an hour) and the link
that invites it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

from bot.invite import invite_url
from bot.settings import Settings
from bot.store import describe_store

log = logging.getLogger(__name__)


def quiet_voice() -> None:
    """The bot never joins a voice channel, so discord.py's start-up warnings that the voice
    libraries (PyNaCl, davey) are missing are noise; any other warning still shows."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


@dataclass(frozen=True, slots=True)
class Synced:
    """Where the slash commands went at start, and how many."""

    commands: int
    guild_id: int | None
    """The one server of `DEV_GUILD_ID`, or None: globally."""

    def line(self) -> str:
        if self.guild_id is not None:
            return (
                f"{self.commands} slash commands synced to server {self.guild_id} "
                "(DEV_GUILD_ID): they show there at once"
            )
        return (
            f"{self.commands} slash commands synced globally: new or changed ones may take up "
            "to an hour to show in every server"
        )


def shards_text(settings: Settings) -> str:
    shards = settings.shards
    if shards is None:
        return "unsharded"
    ids = ", ".join(map(str, sorted(shards.ids)))
    return f"shard{'s' if len(shards.ids) > 1 else ''} {ids} of {shards.count}"


def ready_line(user: discord.ClientUser, servers: int, settings: Settings) -> str:
    plural = "" if servers == 1 else "s"
    return (
        f"Ready: logged in as {user} (id {user.id}) on {servers} server{plural}; "
        f"{shards_text(settings)}; store: {describe_store(settings)}"
    )


def report_ready(
    user: discord.ClientUser,
    application_id: int,
    servers: int,
    settings: Settings,
    synced: Synced | None,
) -> None:
    log.info("%s", ready_line(user, servers, settings))
    if synced is not None:
        log.info("%s", synced.line())
    log.info("Invite the bot to a server: %s", invite_url(application_id))
