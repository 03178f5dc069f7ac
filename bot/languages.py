"""Which language to speak: a server's tables in its chosen language, each person's replies
in the language of their Discord client (remembered for messages sent to them later)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import lang_of
from storage import PrefTable

GUILD_LOCALE = "locale"
"""Guild pref: the language of the server's public tables."""


class Languages:
    def __init__(self, guild_prefs: PrefTable, default: str) -> None:
        self._guild_prefs = guild_prefs
        self.default = default
        self._users: dict[int, str] = {}

    async def guild(self, guild_id: int | None) -> str:
        if guild_id is not None:
            stored = await self._guild_prefs.get(guild_id, GUILD_LOCALE)
            if stored in ("ja", "en"):
                return str(stored)
        return self.default

    def user(self, user_id: int, fallback: str) -> str:
        """The language of the user's last interaction, else `fallback`."""
        return self._users.get(user_id, fallback)

    def of(self, interaction: discord.Interaction[Any]) -> str:
        lang = lang_of(interaction.locale)
        self._users[interaction.user.id] = lang
        return lang
