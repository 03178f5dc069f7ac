"""The translation catalog is complete in both languages and fits Discord's limits."""

import re
import string
from itertools import combinations

import pytest

from bot.errors import error_text
from bot.i18n import CATALOGS, EN, JA, PARTS, lang_of, t
from bot.i18n.plural import Entry, Plural
from games.engine import GameError, Reason
from games.registry import GAME_IDS

NAME = re.compile(r"^[-_\w]{1,32}$")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _forms(entry: Entry) -> tuple[str, ...]:
    return (entry.one, entry.other) if isinstance(entry, Plural) else (entry,)


def test_both_languages_have_the_same_keys() -> None:
    assert set(EN) == set(JA)


@pytest.mark.parametrize("part", sorted(PARTS))
def test_each_catalog_has_the_same_keys_in_both_languages(part: str) -> None:
    assert set(PARTS[part]["en"]) == set(PARTS[part]["ja"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_two_catalogs_define_one_key(lang: str) -> None:
    for first, second in combinations(sorted(PARTS), 2):
        shared = set(PARTS[first][lang]) & set(PARTS[second][lang])
        assert not shared, (first, second, sorted(shared))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_games_keys_are_in_its_own_namespace(game_id: str) -> None:
    for lang in ("en", "ja"):
        for key in PARTS[game_id][lang]:
            assert key.startswith((f"{game_id}.", f"cmd.{game_id}.")), (lang, key)


@pytest.mark.parametrize("key", sorted(EN))
def test_both_languages_use_the_same_placeholders(key: str) -> None:
    """Every form of a counted English text fills what the Japanese one does (the form for 1
    may leave the count out: "a card")."""
    japanese = _fields(str(JA[key]))
    *ones, other = _forms(EN[key])
    assert _fields(other) == japanese
    for one in ones:
        assert _fields(one) | {"count"} >= japanese and _fields(one) <= japanese


def test_only_english_is_counted() -> None:
    assert not [key for key, entry in JA.items() if isinstance(entry, Plural)]


def test_a_counted_text_takes_the_form_of_its_count() -> None:
    counted = sorted(key for key, entry in EN.items() if isinstance(entry, Plural))
    assert "stats.points" in counted
    assert t("en", "stats.points", count=1) == "1 point"
    assert t("en", "stats.points", count=2) == "2 points"
    assert t("en", "stats.points", count=0) == "0 points"
    assert t("ja", "stats.points", count=1) == "1点"
    assert t("ja", "stats.points", count=2) == "2点"


def test_a_games_refusal_reads_its_own_catalog_first_then_the_shared_one() -> None:
    own = GameError(Reason.ILLEGAL_MOVE, "cannot_place", card=12)
    own_text = t("en", "thegame.error.illegal_move.cannot_place", card=12)
    assert error_text("en", own, "thegame") == own_text
    shared = GameError(Reason.ILLEGAL_MOVE, "not_now")
    for game_id in GAME_IDS:
        assert error_text("ja", shared, game_id) == t("ja", "error.illegal_move.not_now")
    # Another game's detail never leaks in: unknown here, it reads as the plain reason.
    assert error_text("en", own, "rummy") == t("en", "error.illegal_move")


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_command_names_are_valid_discord_names(lang: str) -> None:
    for key, text in CATALOGS[lang].items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert isinstance(text, str), (lang, key)
            assert NAME.match(text) and text == text.lower(), (lang, key, text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_games_command_has_a_japanese_name(game_id: str) -> None:
    key = f"cmd.{game_id}.name"
    assert JA[key] != EN[key] and not str(JA[key]).isascii(), JA[key]


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_command_descriptions_fit_discord_limit(lang: str) -> None:
    for key, text in CATALOGS[lang].items():
        if key.startswith("cmd.") and not key.endswith(".name"):
            assert isinstance(text, str) and 1 <= len(text) <= 100, (lang, key)


def test_japanese_clients_get_japanese_and_others_english() -> None:
    assert lang_of("ja") == "ja"
    assert lang_of("en-US") == "en"
    assert lang_of("fr") == "en"
    assert t("ja", "error.not_your_turn") != t("en", "error.not_your_turn")


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_every_link_reads_as_a_short_labelled_link(lang: str) -> None:
    """A link is shown one way everywhere: `[table](…)`, never a bare URL."""
    for key, entry in CATALOGS[lang].items():
        for text in _forms(entry):
            if "{link}" in text:
                assert re.search(r"\[[^\]]+\]\(\{link\}\)", text), (lang, key)
                assert text.count("{link}") == text.count("]({link})"), (lang, key)
