"""`/<game> rules`: a short first page and a select of the others, in both languages, with
every ruling of /work/shared/RULINGS.md marked the same way and gathered on one page."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest

from bot.game_ui import GameUI
from bot.i18n import CATALOGS, t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from bot.rules import FIRST, rules_layout
from bot.ui.v2 import MAX_COMPONENTS, MAX_TEXT, build
from games.registry import GAME_IDS
from tests.botkit import custom_ids, running_bot, select_options

RULINGS = Path("/work/shared/RULINGS.md")
FIRST_PAGE_MOST = 1_200
"""A first page a phone shows without much scrolling (characters, title and all)."""
LANGS = sorted(CATALOGS)
RULING = re.compile(r"\(R\)|\*\*R\*\*|\(R:")
"""How RULINGS.md marks a ruling: **(R)**, (R), (**R** …) or (R: …)."""
OTHER_MARKS = ("(bot)", "bot:", "(R:", "R:", "**R**")


def game_ui(game_id: str) -> GameUI:
    """The game's `GameUI`, as its extension registers it."""
    module = import_module(f"bot.games.{game_id}.ui")
    kinds = [kind for kind in vars(module).values() if isinstance(kind, type)]
    [found] = [k for k in kinds if issubclass(k, GameUI) and k.__module__ == module.__name__]
    return found()


UIS = {game_id: game_ui(game_id) for game_id in GAME_IDS}


def rulings_in_file(game_id: str) -> int:
    """The rulings RULINGS.md marks for a game: in its section and in its row of the games
    table (each marker once, however many lines its item takes)."""
    text = RULINGS.read_text()
    [section] = [s for s in re.split(r"^## ", text, flags=re.M) if f"(`{game_id}`" in s[:200]]
    row = "\n".join(line for line in text.splitlines() if line.startswith(f"| `{game_id}` |"))
    return len(RULING.findall(section)) + len(RULING.findall(row))


def page_text(game_id: str, lang: str, page: str) -> str:
    return t(lang, f"{game_id}.rules.{page}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_first_page_is_short_enough_for_a_phone(game_id: str, lang: str) -> None:
    ui = UIS[game_id]
    assert ui.rules_pages[0] == FIRST
    message = build(rules_layout(ui, lang, FIRST))
    assert message.size[1] <= FIRST_PAGE_MOST, message.size


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_page_fits_discord_whole(game_id: str, lang: str) -> None:
    ui = UIS[game_id]
    assert {"setup", "turn", "rulings"} <= set(ui.rules_pages)
    for page in ui.rules_pages:
        message = build(rules_layout(ui, lang, page))
        components, characters = message.size
        assert components <= MAX_COMPONENTS and characters <= MAX_TEXT, (page, message.size)
        assert message.notes == (), (page, message.notes)  # nothing cut or dropped


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_rulings_page_has_one_entry_per_ruling_of_the_rulings_file(
    game_id: str, lang: str
) -> None:
    marker = t(lang, "rules.marker")
    lines = page_text(game_id, lang, "rulings").split("\n")
    assert all(line.startswith(marker) for line in lines), lines  # entries only
    assert len(lines) == rulings_in_file(game_id) > 0


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_marks_its_rulings_with_the_one_marker(game_id: str, lang: str) -> None:
    marker = t(lang, "rules.marker")
    note = t(lang, "rules.marker_note")
    assert note.startswith(marker) and t(lang, "rules.page.rulings") in note
    others = [m for m in (*OTHER_MARKS, *(t(o, "rules.marker") for o in LANGS)) if m != marker]
    for page in UIS[game_id].rules_pages:
        text = page_text(game_id, lang, page)
        assert not [m for m in others if m in text], (page, text)
        assert note not in text  # explained once, by the first page's note


# Through the emulator ------------------------------------------------------------------------


def page_select(message: EmuMessage) -> str:
    [custom_id] = custom_ids(message, r"^s:-:L:rules\.\w+$")
    return custom_id


async def read_page(user: EmuUser, message: EmuMessage, page: str) -> None:
    res = await user.select(message, page_select(message), [page])
    assert res.message is message  # the same private message, edited


async def test_the_rules_open_on_a_short_page_and_the_select_turns_the_pages(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        bob, hana = emu.add_user("bob"), emu.add_user("hana", locale="ja")
        async with running_bot(emu, tmp_path / "db.sqlite3"):
            for game_id in GAME_IDS:
                res = await bob.slash(emu.general, f"{game_id} rules")
                rules = res.message
                assert res.ephemeral and rules.components_v2
                assert page_text(game_id, "en", FIRST) in rules.text
                assert t("en", "rules.marker_note") in rules.text
                pages = UIS[game_id].rules_pages
                assert select_options(rules, page_select(rules)) == list(pages)
                for page in pages[1:]:
                    await read_page(bob, rules, page)
                    assert page_text(game_id, "en", page) in rules.text
                    assert t("en", "rules.page." + page) in rules.text  # in the title
                    assert t("en", "rules.marker_note") not in rules.text
                assert not hana.can_see(rules)  # bob's alone
                await read_page(bob, rules, FIRST)
                assert page_text(game_id, "en", FIRST) in rules.text

            res = await hana.slash(emu.general, "rummy rules")
            assert page_text("rummy", "ja", FIRST) in res.text
            assert t("ja", "rules.marker_note") in res.text
            await read_page(hana, res.message, "rulings")
            assert page_text("rummy", "ja", "rulings") in res.message.text
            title = t("ja", "rules.title_page", game=t("ja", "rummy.name"), page="")
            assert title + t("ja", "rules.page.rulings") in res.message.text


async def test_the_page_select_works_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with Emulator.running() as emu:
        bob = emu.add_user("bob")
        async with running_bot(emu, db):
            rules = (await bob.slash(emu.general, "hellqueue rules")).message
        async with running_bot(emu, db):
            await read_page(bob, rules, "rulings")
            assert page_text("hellqueue", "en", "rulings") in rules.text


async def test_a_tampered_page_select_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        bob = emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3"):
            rules = (await bob.slash(emu.general, "exhaust rules")).message
            component = rules.component(page_select(rules))
            assert component is not None
            component["options"].append({"label": "?", "value": "scoring"})  # not Exhaust's
            shown = rules.text
            res = await bob.select(rules, page_select(rules), ["scoring"])
            assert res.ephemeral and res.text == t("en", "error.bad_option.control")
            component["custom_id"] = "s:-:L:rules.chess"
            res = await bob.select(rules, "s:-:L:rules.chess", ["setup"])
            assert res.text == t("en", "error.bad_option.control")
            assert rules.text == shown
