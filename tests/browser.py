"""Helpers for tests that play in the playground's page through a real browser: Debian's
Chromium driven by Playwright (the browser builds Playwright downloads itself are not used)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from playwright.async_api import Browser, Locator, Page, async_playwright, expect

from bot.playground.emulator import RateLimit
from bot.playground.playground import Playground

CHROMIUM = "/usr/bin/chromium"
"""Debian's `chromium` package (`.ci/run` installs it)."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
CEILING_MS = 60_000
"""How long any wait in the page may take on a loaded machine before the test fails."""
expect.set_options(timeout=CEILING_MS)
FAST = {
    "ai_delay": 0.02,
    "table_edit_interval": 0.2,
    "emulator": {"rate_limit": RateLimit(5, 0.2)},
}


@asynccontextmanager
async def playground(tmp_path: Path, **overrides: Any) -> AsyncIterator[Playground]:
    """The playground on any free port, quick AI and edits; an error the bot logs fails."""
    options = {**FAST, **overrides}
    async with Playground.running(
        port=0, database=tmp_path / "playground.sqlite3", fail_on_errors=True, **options
    ) as running:
        yield running


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


_ERRORS: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()


def page_errors(page: Page) -> list[str]:
    """The uncaught errors of the page's own scripts so far."""
    return _ERRORS[page]


async def open_page(browser: Browser, pg: Playground, user: str = "alice", **context: Any) -> Page:
    """A new tab showing `user`'s view, once its live feed has said hello."""
    page = await browser.new_page(**context)
    page.set_default_timeout(CEILING_MS)
    errors = _ERRORS.setdefault(page, [])
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"{pg.url}?user={user}")
    await connected(page, user)
    return page


async def connected(page: Page, user: str) -> None:
    await page.wait_for_selector(f"body[data-connected='true'][data-user='{user}']")


async def switch_user(page: Page, user: str) -> None:
    await page.select_option("#user-select", user)
    await connected(page, user)


async def open_channel(page: Page, name: str) -> None:
    """A guild channel by name, or "dm" for the user's DM with the bot."""
    await page.click(f"#channels [data-channel='{name}']")
    await page.wait_for_selector(f"#channels [data-channel='{name}'][aria-current='page']")


async def run_command(page: Page, command: str, **options: Any) -> None:
    """Run a slash command through the page's form: pick it, fill its options, send."""
    await page.click("#slash-open")
    await page.click(f"#slash-panel button.command[data-command='{command}']")
    form = page.locator(f"#slash-panel form[data-command='{command}']")
    for name, value in options.items():
        field = form.locator(f"[data-option='{name}'] [name='{name}']")
        if await field.evaluate("node => node.tagName") == "SELECT":
            await field.select_option(label=str(value))
        else:
            await field.fill(str(value))
    await form.locator("button[type='submit']").click()
    await page.wait_for_selector("#slash-panel", state="hidden")


def control(scope: Page | Locator, suffix: str) -> Locator:
    """The controls whose custom_id ends with `suffix` (an action such as ":hand")."""
    return scope.locator(f"[data-custom-id$='{suffix}']")


def controls_with(scope: Page | Locator, part: str) -> Locator:
    """The controls whose custom_id contains `part` (":x.play.", say)."""
    return scope.locator(f"[data-custom-id*='{part}']")


def messages(page: Page) -> Locator:
    return page.locator("#messages > li.message")


def latest_with(page: Page, part: str, *, ephemeral: bool | None = None) -> Locator:
    """The newest message (public, ephemeral or either) holding a control whose custom_id
    contains `part`."""
    kind = {None: "", True: ".ephemeral", False: ":not(.ephemeral)"}[ephemeral]
    found = page.locator(f"#messages > li.message{kind}")
    return found.filter(has=controls_with(page, part)).last


async def pick(scope: Locator, suffix: str, *values: str) -> None:
    """Pick `values` in the select whose custom_id ends with `suffix`, as a person does: open
    it, click each option (then Done, for a menu that takes several)."""
    box = scope.locator(f".select[data-custom-id$='{suffix}']")
    await box.locator(".select-face").click()
    for value in values:
        await box.locator(f".select-option[data-value='{value}']").click()
    if await box.locator(".select-done").count():
        await box.locator(".select-done").click()


async def page_text(page: Page) -> str:
    return await page.locator("#messages").inner_text()
