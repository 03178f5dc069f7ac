"""Pictures of every game's table in the playground's page, at a fixed seed, for the README.

    python tests/screenshots.py [--out docs/screenshots] [--theme dark]

Each game gets a fresh playground: alice opens it with the fewest AI seats it takes, plays
first, and shows her hand; the picture is her page. Emoji and Japanese need fonts the browser
can use (Debian: fonts-noto-color-emoji, fonts-noto-cjk).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from playwright.async_api import Browser, expect

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.registry import GAME_IDS, GAMES  # noqa: E402
from tests.botkit import start_game  # noqa: E402
from tests.browser import (  # noqa: E402
    chromium,
    control,
    latest_with,
    open_page,
    page_errors,
    playground,
)

SEED = 24
WIDTH = 900
MAX_HEIGHT = 2400


async def shoot(browser: Browser, game_id: str, out: Path, theme: str = "dark") -> Path:
    """Write `out/<game_id>.png`: alice's page with the table and her hand, once every
    picture in it has loaded."""
    with tempfile.TemporaryDirectory(prefix="screenshots-") as folder:
        async with playground(Path(folder)) as pg:
            pg.bot.service._seed_source = lambda: SEED
            alice = next(u for u in pg.emu.users.values() if u.name == "alice")
            ai = max(1, GAMES[game_id].min_players - 1)
            await start_game(pg.emu, pg.bot, alice, ai=ai, first="0", command=f"{game_id} new")
            await pg.bot.refresher.idle()
            viewport = {"width": WIDTH, "height": 900}
            page = await open_page(browser, pg, "alice", color_scheme=theme, viewport=viewport)
            hands = page.locator("#messages > li.message.ephemeral")
            before = await hands.count()
            await control(latest_with(page, ":hand", ephemeral=False), ":hand").click()
            await expect(hands).to_have_count(before + 1)
            # The replies that set the game up are dismissed, as a person would: the table and
            # the hand are left, and the window grows to show them whole.
            for _ in range(before):
                await hands.first.locator(".dismiss").click()
            await expect(hands).to_have_count(1)
            await page.wait_for_function(
                "[...document.images].every(img => img.complete && img.naturalWidth > 0)"
            )
            height = await page.evaluate(
                """() => document.body.scrollHeight - document.querySelector("#messages")
                    .clientHeight + document.querySelector("#messages").scrollHeight"""
            )
            await page.set_viewport_size({"width": WIDTH, "height": min(height, MAX_HEIGHT)})
            await page.locator("#messages").evaluate("list => { list.scrollTop = 1e9; }")
            await page.mouse.move(0, 0)  # no message drawn as hovered
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"{game_id}.png"
            await page.screenshot(path=path)
            assert page_errors(page) == []
            return path


async def main(out: Path, theme: str) -> None:
    async with chromium() as browser:
        for game_id in GAME_IDS:
            print(await shoot(browser, game_id, out, theme))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--theme", choices=("dark", "light"), default="dark")
    args = parser.parse_args()
    asyncio.run(main(args.out, args.theme))
