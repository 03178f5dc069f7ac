"""What the playground's page shows each user, in a real browser: private replies and DMs only
to their user, Discord's markdown and never raw HTML, live updates, the command forms, each
user's language, light and dark, and a phone's width."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image
from playwright.async_api import Page, expect

from bot.context import jump_url
from bot.i18n import t
from bot.playground.emulator import EmuUser
from bot.playground.emulator.models import FLAG_COMPONENTS_V2
from bot.playground.playground import Playground
from games.registry import GAME_IDS
from tests.botkit import session_in, start_game, table_message
from tests.browser import (
    chromium,
    control,
    latest_with,
    open_channel,
    open_page,
    page_errors,
    page_text,
    pick,
    playground,
    run_command,
)
from tests.screenshots import WIDTH, shoot


def user(pg: Playground, name: str) -> EmuUser:
    return next(u for u in pg.emu.users.values() if u.name == name)


async def a_game_of_the_game(pg: Playground) -> None:
    """alice hosts The Game with bob, started by the emulator's users (not the page)."""
    await start_game(pg.emu, pg.bot, user(pg, "alice"), joiners=(user(pg, "bob"),), first="0")


def no_page_errors(*pages: Page) -> None:
    for page in pages:
        assert page_errors(page) == []


async def test_a_hand_is_shown_to_its_user_only_and_marked_so(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        await a_game_of_the_game(pg)
        alice = await open_page(browser, pg, "alice")
        bob = await open_page(browser, pg, "bob")
        assert await bob.input_value("#user-select") == "bob"
        await control(latest_with(alice, ":hand", ephemeral=False), ":hand").click()
        hand = latest_with(alice, ":x.pick", ephemeral=True)
        await expect(hand).to_contain_text(t("en", "playground.only_you"))
        hand_id = await hand.get_attribute("data-id")
        hand_text = await hand.locator(".components").inner_text()
        # bob's tab shows the same table, but nothing of alice's private reply.
        await expect(latest_with(bob, ":hand", ephemeral=False)).to_be_visible()
        assert await bob.locator(f"li[data-id='{hand_id}']").count() == 0
        assert await bob.locator("li.message.ephemeral").count() == 0
        assert hand_text not in await page_text(bob)
        no_page_errors(alice, bob)


async def test_a_hand_kept_in_dms_is_in_its_users_dm_pane_only(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        await a_game_of_the_game(pg)
        bob = await open_page(browser, pg, "bob")
        alice = await open_page(browser, pg, "alice")
        await control(latest_with(bob, ":dm", ephemeral=False), ":dm").click()
        dm_tab = bob.locator("#channels [data-channel='dm']")
        await expect(dm_tab.locator(".unread")).to_be_visible()
        await open_channel(bob, "dm")
        await expect(bob.locator("#messages > li.message")).not_to_have_count(0)
        assert await bob.locator("#messages > li.message .container").count() >= 1
        await open_channel(alice, "dm")
        await expect(alice.locator("#messages > li.empty")).to_be_visible()
        no_page_errors(alice, bob)


MARKDOWN = "\n".join(
    [
        "# Big",
        "## Middle",
        "### Small",
        "**bold** *italic* __underline__ ~~struck~~ `inline code` ||secret||",
        "- first",
        "  - nested",
        "1. one",
        "> quoted",
        "-# small print",
        "a [masked link](https://example.org/rules) and <@{bob}> at <t:{when}:R> :) 🎲 <:blob:42>",
        "```py",
        "print('**not bold**')",
        "```",
    ]
)


async def test_discords_markdown_is_drawn_as_discord_draws_it(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        page = await open_page(browser, pg, "alice")
        text = MARKDOWN.format(bob=user(pg, "bob").id, when=2_000_000_000)
        await user(pg, "carol").send(pg.emu.general, text)
        message = page.locator("#messages > li.message[data-author='carol']")
        body = message.locator(".message-content")
        await expect(body.locator("h1")).to_have_text("Big")
        await expect(body.locator("h2")).to_have_text("Middle")
        await expect(body.locator("h3")).to_have_text("Small")
        await expect(body.locator("strong")).to_have_text("bold")
        await expect(body.locator("em")).to_have_text("italic")
        await expect(body.locator("u")).to_have_text("underline")
        await expect(body.locator("s")).to_have_text("struck")
        await expect(body.locator("code.md-code")).to_have_text("inline code")
        await expect(body.locator(".md-spoiler")).to_have_text("secret")
        await expect(body.locator("ul > li").first).to_contain_text("first")
        await expect(body.locator("ul ul > li")).to_have_text("nested")
        await expect(body.locator("ol > li")).to_have_text("one")
        await expect(body.locator("blockquote")).to_have_text("quoted")
        await expect(body.locator("small.md-subtext")).to_have_text("small print")
        link = body.locator("a.md-link")
        await expect(link).to_have_text("masked link")
        await expect(link).to_have_attribute("href", "https://example.org/rules")
        await expect(body.locator(".md-user")).to_have_text("@bob")
        await expect(body.locator("time.md-time")).to_have_attribute("data-relative", "2000000000")
        await expect(body.locator(".md-emoji")).to_have_text(":blob:")
        await expect(body.locator("pre code")).to_have_text("print('**not bold**')")
        assert await body.locator("pre strong").count() == 0
        no_page_errors(page)


async def test_text_is_never_drawn_as_html(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        page = await open_page(browser, pg, "alice")
        hostile = (
            '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
            "<b>**not html**</b> [x](javascript:window.pwned=3)"
        )
        await user(pg, "eve").send(pg.emu.general, hostile)
        body = page.locator("#messages > li.message[data-author='eve'] .message-content")
        await expect(body).to_contain_text('<img src=x onerror="window.pwned=1">')
        assert await body.locator("img, script, b, a").count() == 0
        await expect(body.locator("strong")).to_have_text("not html")
        assert await page.evaluate("window.pwned") is None
        no_page_errors(page)


async def test_the_page_follows_the_bot_live_without_reloading(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        page = await open_page(browser, pg, "alice")
        await page.evaluate("window.sameDocument = true")
        await user(pg, "bob").slash(pg.emu.general, "thegame new")
        lobby = latest_with(page, ":join", ephemeral=False)
        await expect(lobby).to_contain_text("bob")
        await control(lobby, ":join").click()
        await expect(lobby).to_contain_text("alice")
        session = await session_in(pg.bot, pg.emu)
        assert len(session.record.seats) == 2
        assert await page.evaluate("window.sameDocument") is True
        no_page_errors(page)


async def test_the_command_form_follows_the_registered_options(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        page = await open_page(browser, pg, "alice")
        await page.click("#slash-open")
        await page.click("#slash-panel button.command[data-command='rummy new']")
        seconds = page.locator("[data-option='claim_seconds'] input")
        await expect(seconds).to_have_attribute("type", "number")
        await expect(seconds).to_have_attribute("min", "5")
        await expect(seconds).to_have_attribute("max", "300")
        timer = page.locator("[data-option='turn_timer'] select option")
        await expect(timer).to_have_count(7)  # six choices, and "(not set)"
        await expect(page.locator("[data-option='advanced'] select option")).to_have_text(
            [t("en", "playground.not_set"), t("en", "playground.yes"), t("en", "playground.no")]
        )
        await page.keyboard.press("Escape")
        await page.click("#slash-open")
        await page.click("#slash-panel button.command[data-command='replay']")
        await expect(page.locator("[data-option='id'] input")).to_have_attribute("required", "")
        await expect(page.locator("[data-option='id']")).to_contain_text(
            t("en", "playground.required")
        )
        no_page_errors(page)


async def test_only_the_commands_a_user_may_run_are_offered(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        alice = await open_page(browser, pg, "alice")
        bob = await open_page(browser, pg, "bob")
        for page in (alice, bob):
            await page.click("#slash-open")
            await page.locator("#slash-panel button.command").first.wait_for()
        settings = "#slash-panel button.command[data-command='settings']"
        assert await alice.locator(settings).count() == 1  # alice manages the server
        assert await bob.locator(settings).count() == 0
        await bob.keyboard.press("Escape")
        await open_channel(bob, "dm")
        await bob.click("#slash-open")
        await bob.locator("#slash-panel button.command[data-command='hand']").wait_for()
        assert await bob.locator("#slash-panel button.command[data-command='games']").count() == 0
        no_page_errors(alice, bob)


async def test_a_japanese_user_sees_the_page_and_the_bot_in_japanese(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        page = await open_page(browser, pg, "alice")
        await page.select_option("#user-locale", "ja")
        await page.wait_for_selector("body[data-lang='ja']")
        await expect(page.locator("#people")).to_contain_text(t("ja", "playground.play_as"))
        assert user(pg, "alice").locale == "ja"
        await page.click("#slash-open")
        command = page.locator("#slash-panel button.command[data-command='thegame new']")
        await expect(command.locator(".command-name")).to_have_text(
            "/" + t("ja", "cmd.thegame.name") + " " + t("ja", "cmd.new.name")
        )
        await page.keyboard.press("Escape")
        await run_command(page, "thegame new")
        session = await session_in(pg.bot, pg.emu)
        reply = page.locator("#messages > li.message.ephemeral").last
        shown = re.sub(r"\[([^\]]*)\]\(\0\)", "\\1\0", t("ja", "lobby.opened", link="\0"))
        for words in shown.split("\0"):
            await expect(reply).to_contain_text(words.strip())
        await expect(reply).to_contain_text(t("ja", "playground.only_you"))
        # The link to the table is a jump within the page, as in Discord's client.
        jump = reply.locator("a.md-jump")
        assert jump_url(session).endswith("/" + str(await jump.get_attribute("data-message")))
        # The server's language is sent with every interaction as its guild_locale.
        await page.select_option("#guild-locale", "ja")
        await pg.emu.wait_for(lambda: pg.emu.guild.locale == "ja")
        bob = await open_page(browser, pg, "bob")
        assert await bob.input_value("#guild-locale") == "ja"
        assert await bob.evaluate("document.body.dataset.lang") == "en"
        no_page_errors(page, bob)


async def test_light_and_dark_follow_the_system_and_the_toggle(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        dark = await open_page(browser, pg, "alice", color_scheme="dark")
        light = await open_page(browser, pg, "bob", color_scheme="light")
        assert await dark.evaluate("document.documentElement.dataset.theme") == "dark"
        assert await light.evaluate("document.documentElement.dataset.theme") == "light"
        background = "getComputedStyle(document.body).backgroundColor"
        assert await dark.evaluate(background) != await light.evaluate(background)
        await dark.click("#theme-toggle")
        assert await dark.evaluate("document.documentElement.dataset.theme") == "light"
        assert await dark.evaluate(background) == await light.evaluate(background)
        await dark.reload()
        await dark.wait_for_selector("body[data-connected='true']")
        assert await dark.evaluate("document.documentElement.dataset.theme") == "light"
        no_page_errors(dark, light)


async def test_a_table_with_its_picture_fits_a_phone(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, chromium() as browser:
        await a_game_of_the_game(pg)
        session = await session_in(pg.bot, pg.emu)
        await pg.emu.wait_for(lambda: table_message(pg.emu, session).attachments, timeout=60)
        page = await open_page(
            browser, pg, "alice", viewport={"width": 360, "height": 740}, is_mobile=True
        )
        await control(latest_with(page, ":hand", ephemeral=False), ":hand").click()
        await latest_with(page, ":x.pick", ephemeral=True).wait_for()
        picture = page.locator("#messages .gallery img").last
        await picture.scroll_into_view_if_needed()
        await expect(picture).to_have_attribute("src", re.compile(r"^/attachments/\d+/"))
        await page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=await picture.element_handle()
        )
        box = await picture.bounding_box()
        assert box is not None and box["width"] <= 360
        widths = await page.evaluate(
            """() => {
                const list = document.querySelector("#messages");
                return [document.documentElement.scrollWidth, window.innerWidth,
                        list.scrollWidth, list.clientWidth];
            }"""
        )
        page_width, viewport, list_width, list_box = widths
        assert page_width <= viewport and list_width <= list_box, widths
        no_page_errors(page)


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_games_table_and_hand_are_drawn_with_their_pictures(
    tmp_path: Path, game_id: str
) -> None:
    """The README's screenshots, made here into a temporary folder: the table and alice's hand
    of each game, every picture loaded."""
    async with chromium() as browser:
        path = await shoot(browser, game_id, tmp_path / "shots")
    with Image.open(path) as picture:
        assert picture.width == WIDTH and picture.height > 600


def png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(out, format="PNG")
    return out.getvalue()


EVERY_COMPONENT = {
    "flags": FLAG_COMPONENTS_V2,
    "components": [
        {
            "type": 17,
            "accent_color": 0xE67E22,
            "components": [
                {"type": 10, "content": "### Every part"},
                {
                    "type": 9,
                    "components": [{"type": 10, "content": "A section with a button"}],
                    "accessory": {"type": 2, "style": 3, "label": "Go", "custom_id": "t:go"},
                },
                {
                    "type": 9,
                    "components": [{"type": 10, "content": "A section with a thumbnail"}],
                    "accessory": {
                        "type": 11,
                        "media": {"url": "attachment://thumb.png"},
                        "description": "a red square",
                    },
                },
                {"type": 14, "divider": True, "spacing": 2},
                {
                    "type": 12,
                    "items": [
                        {"media": {"url": "attachment://one.png"}, "description": "blue"},
                        {"media": {"url": "attachment://two.png"}, "description": "green"},
                    ],
                },
                {"type": 14, "divider": False, "spacing": 1},
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Primary", "custom_id": "t:1"},
                        {
                            "type": 2,
                            "style": 2,
                            "label": "Grey",
                            "custom_id": "t:2",
                            "emoji": {"name": "🎲"},
                        },
                        {
                            "type": 2,
                            "style": 4,
                            "label": "Danger",
                            "custom_id": "t:4",
                            "disabled": True,
                        },
                        {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/"},
                    ],
                },
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "t:pick",
                            "placeholder": "Pick two",
                            "min_values": 2,
                            "max_values": 2,
                            "options": [
                                {"label": "Red", "value": "r", "description": "warm"},
                                {"label": "Blue", "value": "b", "emoji": {"name": "💧"}},
                                {"label": "Green", "value": "g"},
                            ],
                        }
                    ],
                },
            ],
        }
    ],
}


async def test_every_kind_of_component_is_drawn_and_a_pick_of_two_is_sent(
    tmp_path: Path,
) -> None:
    """A message of every Components V2 part the bot may send, posted through the emulator;
    the page draws each, and picks two options in one interaction. The bot has no control of
    that name, so it never answers, and the page says the interaction failed, as Discord does."""
    async with playground(tmp_path) as pg, chromium() as browser:
        files = [
            {"filename": name, "data": png(colour), "content_type": "image/png", "index": i}
            for i, (name, colour) in enumerate(
                [("thumb.png", "red"), ("one.png", "blue"), ("two.png", "green")]
            )
        ]
        pg.emu.create_message(pg.emu.general, pg.emu.bot, EVERY_COMPONENT, files=files)
        page = await open_page(browser, pg, "bob")
        box = page.locator("#messages .container").last
        await expect(box).to_have_css("border-left-color", "rgb(230, 126, 34)")
        await expect(box.locator("h3")).to_have_text("Every part")
        sections = box.locator(".section")
        await expect(sections.nth(0).locator(".section-accessory .btn-success")).to_have_text("Go")
        thumbnail = sections.nth(1).locator(".section-accessory img.thumbnail")
        await expect(thumbnail).to_have_attribute("alt", "a red square")
        await expect(box.locator(".separator hr")).to_have_count(1)
        await expect(box.locator(".separator")).to_have_count(2)
        await expect(box.locator(".gallery img")).to_have_count(2)
        await page.wait_for_function(
            "[...document.images].every(img => img.complete && img.naturalWidth > 0)"
        )
        await expect(box.locator(".btn-primary")).to_have_text("Primary")
        await expect(box.locator(".btn-secondary")).to_contain_text("🎲")
        await expect(box.locator(".btn-danger")).to_be_disabled()
        link = box.locator("a.btn-link")
        await expect(link).to_have_attribute("href", "https://example.org/")
        await expect(box.locator(".select-face")).to_have_text(re.compile("Pick two"))
        await pick(box, "t:pick", "r", "g")
        await expect(page.locator("#notice")).to_have_text(t("en", "playground.failed"))
        sent = [r for r in pg.emu.interactions.values() if r.data.get("custom_id") == "t:pick"]
        assert [r.data["values"] for r in sent] == [["r", "g"]]
        assert sent[0].user.name == "bob"
        no_page_errors(page)
