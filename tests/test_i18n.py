"""The translation catalog is complete in both languages and fits Discord's limits."""

import re
import string

import pytest

from bot.i18n import CATALOGS, EN, JA, lang_of, t

NAME = re.compile(r"^[-_\w]{1,32}$")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys() -> None:
    assert set(EN) == set(JA)


@pytest.mark.parametrize("key", sorted(EN))
def test_both_languages_use_the_same_placeholders(key: str) -> None:
    assert _fields(EN[key]) == _fields(JA[key])


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_command_names_are_valid_discord_names(lang: str) -> None:
    for key, text in CATALOGS[lang].items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert NAME.match(text) and text == text.lower(), (lang, key, text)


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_command_descriptions_fit_discord_limit(lang: str) -> None:
    for key, text in CATALOGS[lang].items():
        if key.startswith("cmd.") and not key.endswith(".name"):
            assert 1 <= len(text) <= 100, (lang, key)


def test_japanese_clients_get_japanese_and_others_english() -> None:
    assert lang_of("ja") == "ja"
    assert lang_of("en-US") == "en"
    assert lang_of("fr") == "en"
    assert t("ja", "error.not_your_turn") != t("en", "error.not_your_turn")
