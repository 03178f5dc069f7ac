"""The bot's invite link: the permissions it asks a server for, defined once (the README's
"Create the application" list says the same, and a test holds them together)."""

from __future__ import annotations

import discord

PERMISSION_NAMES = {
    "View Channels": "view_channel",
    "Send Messages": "send_messages",
    "Send Messages in Threads": "send_messages_in_threads",
    "Embed Links": "embed_links",
    "Attach Files": "attach_files",
    "Read Message History": "read_message_history",
}
"""Discord's name of each permission the bot needs (as the Developer Portal's URL generator
shows it) → discord.py's flag."""

PERMISSIONS = discord.Permissions(**dict.fromkeys(PERMISSION_NAMES.values(), True))

SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with exactly `PERMISSIONS`."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)
