"""The playground as a program and a server: `python -m bot.playground` starts with nothing
set up, listens on loopback only, refuses what its page never sends, and gives each user only
what that user can see."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import aiohttp
import pytest

from bot.playground.__main__ import parse
from bot.playground.playground import USERS, Playground
from bot.playground.web import STATIC, bind
from tests.botkit import open_hand, start_game
from tests.browser import playground

ROOT = Path(__file__).resolve().parents[3]
CEILING = 120.0


async def test_python_m_bot_playground_starts_with_nothing_set_up(tmp_path: Path) -> None:
    """No token, no settings: a token and a database URL in the environment are ignored, and
    the games go to the file named with --database; Ctrl-C stops it cleanly."""
    database = tmp_path / "games.sqlite3"
    env = os.environ | {
        "DISCORD_TOKEN": "a-real-token-must-never-be-used",
        "DATABASE_URL": "postgresql://nowhere.invalid/none",
        "SHARD_COUNT": "4",
    }
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot.playground", "--port", "0", "--database", str(database)),
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        first = (await asyncio.wait_for(process.stdout.readline(), CEILING)).decode()
        if not first.startswith("Playground: http://127.0.0.1:"):
            raise AssertionError(first + (await process.stderr.read()).decode())
        url = first.split(": ", 1)[1].strip()
        async with aiohttp.ClientSession() as http, http.get(url) as page:
            assert page.status == 200 and "/static/app.js" in await page.text()
        assert database.exists()
        process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(process.wait(), CEILING) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.7", "::", "example.org"])
def test_the_playground_will_not_listen_beyond_loopback(host: str) -> None:
    with pytest.raises(SystemExit) as refused:
        parse(["--host", host])
    assert refused.value.code == 2
    with pytest.raises(ValueError, match="loopback"):
        bind(host, 0)


async def test_the_playground_refuses_a_host_that_is_not_loopback(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="loopback"):
        async with Playground.running(host="0.0.0.0", port=0, database=tmp_path / "x.db"):
            raise AssertionError("the playground started on every interface")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_a_loopback_host_is_taken(host: str) -> None:
    sock = bind(host, 0)
    try:
        assert sock.getsockname()[0] in ("127.0.0.1", "::1")
    finally:
        sock.close()


async def test_requests_not_addressed_to_loopback_or_not_json_are_refused(
    tmp_path: Path,
) -> None:
    async with playground(tmp_path) as pg, aiohttp.ClientSession() as http:
        # A page elsewhere reaching 127.0.0.1 through a name of its own (DNS rebinding).
        async with http.get(pg.url, headers={"Host": "games.example.org"}) as response:
            assert response.status == 421
        # A plain form posted by another site (no CORS preflight for it).
        action = pg.url + "api/click"
        async with http.post(action, data={"user": "alice", "custom_id": "x"}) as response:
            assert response.status == 415
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(
                pg.url + "ws?user=alice", headers={"Origin": "https://games.example.org"}
            )
        assert refused.value.status == 403


async def test_each_user_is_sent_only_what_they_can_see(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, aiohttp.ClientSession() as http:
        alice, bob = (next(u for u in pg.emu.users.values() if u.name == n) for n in USERS[:2])
        _, table = await start_game(pg.emu, pg.bot, alice, joiners=(bob,))
        hand = await open_hand(alice, table)
        seen = {}
        for name in ("alice", "bob"):
            async with http.get(pg.url + "api/state", params={"user": name}) as response:
                seen[name] = {m["id"] for m in (await response.json())["messages"]}
        assert str(hand.id) in seen["alice"] and str(hand.id) not in seen["bob"]
        assert str(table.id) in seen["alice"] & seen["bob"]
        async with http.get(pg.url + "api/state", params={"user": "owner"}) as response:
            assert response.status == 400  # the server's owner is no one to play as


def test_every_static_file_is_package_data() -> None:
    """The page's files are installed with the package (pyproject's package-data)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot.playground"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    assert [f for f in files if not any(fnmatch(f, pattern) for pattern in patterns)] == []
