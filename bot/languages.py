"""Which language to speak: a server's tables in its language, each person's replies in the
language of their Discord client (remembered for messages sent to them later).

A server's table language is the one chosen with /settings, else the server's own Discord
language (it comes with every interaction from the server, and is stored when first seen, so
what runs with no interaction at hand reads it too), else the bot's `DEFAULT_LOCALE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.i18n import lang_of
from storage import PrefTable

GUILD_LOCALE = "locale"
"""Guild pref: the language of the server's public tables, as chosen with /settings."""
GUILD_DISCORD_LOCALE = "discord_locale"
"""Guild pref: the server's own Discord language, as its interactions last told it."""
LANGUAGES = ("ja", "en")

Source = Literal["settings", "server", "default"]


@dataclass(frozen=True)
class TableLanguage:
    lang: str
    source: Source
    """Where it comes from: /settings, the server's Discord language, or the bot's default."""


class Languages:
    def __init__(self, guild_prefs: PrefTable, default: str) -> None:
        self._guild_prefs = guild_prefs
        self.default = default
        self._users: dict[int, str] = {}
        self._servers: dict[int, str] = {}
        """The Discord language each server was last seen with (stored as well)."""

    async def guild(self, guild_id: int | None) -> str:
        """The language of the server's tables."""
        return (await self.table_language(guild_id)).lang

    async def table_language(self, guild_id: int | None) -> TableLanguage:
        if guild_id is not None:
            chosen = await self._guild_prefs.get(guild_id, GUILD_LOCALE)
            if chosen in LANGUAGES:
                return TableLanguage(str(chosen), "settings")
            seen = self._servers.get(guild_id)
            if seen is None:
                seen = await self._guild_prefs.get(guild_id, GUILD_DISCORD_LOCALE)
            if seen in LANGUAGES:
                return TableLanguage(str(seen), "server")
        return TableLanguage(self.default, "default")

    async def server_of(self, interaction: discord.Interaction[Any]) -> str:
        """The table language of the interaction's server, after noting the server's own
        Discord language that the interaction carries."""
        guild_id, locale = interaction.guild_id, interaction.guild_locale
        if guild_id is not None and locale is not None:
            lang = lang_of(locale)
            if self._servers.get(guild_id) != lang:
                if await self._guild_prefs.get(guild_id, GUILD_DISCORD_LOCALE) != lang:
                    await self._guild_prefs.set(guild_id, GUILD_DISCORD_LOCALE, lang)
                self._servers[guild_id] = lang
        return await self.guild(guild_id)

    def user(self, user_id: int, fallback: str) -> str:
        """The language of the user's last interaction, else `fallback`."""
        return self._users.get(user_id, fallback)

    def of(self, interaction: discord.Interaction[Any]) -> str:
        lang = lang_of(interaction.locale)
        self._users[interaction.user.id] = lang
        return lang
