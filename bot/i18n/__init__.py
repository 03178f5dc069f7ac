"""The translation catalog: every user-facing string, in English and Japanese.

The shared strings live in `en.py`/`ja.py` here; each game's own in `bot/games/<id>/en.py` and
`ja.py`, merged in for every game of the registry; the playground page's in `bot/playground/`.
"""

from __future__ import annotations

import logging
from importlib import import_module
from typing import Any

import discord
from discord import app_commands

from bot.i18n import en, ja
from games.registry import GAME_IDS

log = logging.getLogger(__name__)

EN: dict[str, str] = dict(en.CATALOG)
JA: dict[str, str] = dict(ja.CATALOG)
for _part in (*(f"bot.games.{game_id}" for game_id in GAME_IDS), "bot.playground"):
    EN.update(import_module(f"{_part}.en").CATALOG)
    JA.update(import_module(f"{_part}.ja").CATALOG)
CATALOGS: dict[str, dict[str, str]] = {"en": EN, "ja": JA}


def lang_of(locale: discord.Locale | str | None) -> str:
    """Japanese for Japanese clients, English for every other locale."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return "ja" if value.startswith("ja") else "en"


def t(lang: str, key: str, **params: Any) -> str:
    catalog = CATALOGS.get(lang, EN)
    text = catalog.get(key) or EN.get(key)
    if text is None:
        log.error("missing catalog key %s", key)
        return key
    return text.format(**params) if params else text


def has(key: str) -> bool:
    return key in EN


class CatalogTranslator(app_commands.Translator):
    """Localizes command names, descriptions, options and choices from the catalog.

    Each `locale_str` carries its catalog key as `key=`; English is the default text.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or lang_of(locale) != "ja":
            return None
        return JA.get(key)


def cmd(key: str) -> app_commands.locale_str:
    """A command-facing string: English default text, Japanese through the translator."""
    return app_commands.locale_str(EN[key], key=key)
