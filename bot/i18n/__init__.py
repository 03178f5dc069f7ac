"""The translation catalog: every user-facing string, in English and Japanese.

The shared strings live in `en.py`/`ja.py` here; each game's own in `bot/games/<id>/en.py` and
`ja.py`, merged in for every game of the registry; the playground page's in `bot/playground/`.
A game's keys are its own: they start with `<id>.` (or `cmd.<id>.` for its commands), so no two
catalogs can define one key (a test checks that too). A counted thing is one key with a count: `t(lang, key, count=n)` (see `plural`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from importlib import import_module

import discord
from discord import app_commands

from bot.i18n import en, ja
from bot.i18n.plural import Entry, Plural
from games.registry import GAME_IDS

log = logging.getLogger(__name__)

PARTS: dict[str, dict[str, Mapping[str, Entry]]] = {
    "shared": {"en": en.CATALOG, "ja": ja.CATALOG},
    **{
        game_id: {
            lang: import_module(f"bot.games.{game_id}.{lang}").CATALOG for lang in ("en", "ja")
        }
        for game_id in GAME_IDS
    },
    "playground": {lang: import_module(f"bot.playground.{lang}").CATALOG for lang in ("en", "ja")},
}
"""Each catalog as written: the shared one, then each game's, by language."""
EN: dict[str, Entry] = {k: v for part in PARTS.values() for k, v in part["en"].items()}
JA: dict[str, Entry] = {k: v for part in PARTS.values() for k, v in part["ja"].items()}
CATALOGS: dict[str, dict[str, Entry]] = {"en": EN, "ja": JA}


def lang_of(locale: discord.Locale | str | None) -> str:
    """Japanese for Japanese clients, English for every other locale."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return "ja" if value.startswith("ja") else "en"


def t(lang: str, key: str, **params: object) -> str:
    """The text of `key` in `lang` filled with `params`; for a counted thing, the int `count`
    picks the form (and fills `{count}` like any other). Params come from errors and events
    as well as from code, so a counted key without an int count is logged, not raised."""
    catalog = CATALOGS.get(lang, EN)
    entry = catalog.get(key) or EN.get(key)
    if entry is None:
        log.error("missing catalog key %s", key)
        return key
    if isinstance(entry, Plural):
        count = params.get("count")
        if not isinstance(count, int):
            log.error("catalog key %s is counted but was given no count", key)
            count = None
        text = entry.form(count)
    else:
        text = entry
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
        text = JA.get(key)
        return text if isinstance(text, str) else None


def cmd(key: str) -> app_commands.locale_str:
    """A command-facing string: English default text, Japanese through the translator."""
    text = EN[key]
    if not isinstance(text, str):
        raise TypeError(f"command text {key} cannot be counted")
    return app_commands.locale_str(text, key=key)
