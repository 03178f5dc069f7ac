"""The emulator's rate limits answer as Discord's do: per route (a bucket per channel, or per
webhook and token) and global (per bot, interaction routes exempt), with `retry_after` in the
body and the X-RateLimit-* headers; and its gateway can go away and come back.

Raw requests show the answers byte for byte; the tiny bot of `test_emulator` shows that
discord.py waits them out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.playground.emulator import Emulator, RateLimit
from tests.bot.playground.test_emulator import Seen, TinyBot

LONG = 60.0
"""A window no test outlives: its limit stays spent for the whole test."""


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def call(
    http: aiohttp.ClientSession, emu: Emulator, method: str, path: str, body: Any = None
) -> tuple[int, dict[str, str], Any]:
    """A request with the bot's token: status, headers and JSON body."""
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with http.request(method, emu.api_base + path, json=body, headers=headers) as response:
        return response.status, dict(response.headers), await response.json()


async def post(http: aiohttp.ClientSession, emu: Emulator, channel_id: int) -> int:
    return (await call(http, emu, "POST", f"/channels/{channel_id}/messages", {"content": "x"}))[0]


async def test_a_route_past_its_limit_answers_429_with_discords_body_and_headers(
    http: aiohttp.ClientSession,
) -> None:
    async with Emulator.running(rate_limit=RateLimit(2, LONG)) as emu:
        path = f"/channels/{emu.general.id}/messages"
        assert [await post(http, emu, emu.general.id) for _ in range(2)] == [200, 200]

        status, headers, body = await call(http, emu, "POST", path, {"content": "third"})

        assert status == 429
        assert body["message"] == "You are being rate limited." and body["global"] is False
        assert 0 < body["retry_after"] <= LONG
        assert headers["X-RateLimit-Limit"] == "2" and headers["X-RateLimit-Remaining"] == "0"
        assert float(headers["X-RateLimit-Reset-After"]) == body["retry_after"]
        assert float(headers["X-RateLimit-Reset"]) > 0
        assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Scope"] == "user"
        assert int(headers["Retry-After"]) >= body["retry_after"]
        assert "X-RateLimit-Global" not in headers
        assert "third" not in [m.content for m in emu.channel_messages(emu.general)]
        [hit] = emu.rate_limit_hits
        assert (hit.scope, hit.channel_id, hit.method) == ("user", emu.general.id, "POST")


async def test_a_success_announces_where_its_bucket_stands(http: aiohttp.ClientSession) -> None:
    async with Emulator.running(rate_limit=RateLimit(3, LONG)) as emu:
        path = f"/channels/{emu.general.id}/messages"
        _, first, _ = await call(http, emu, "POST", path, {"content": "a"})
        _, second, _ = await call(http, emu, "POST", path, {"content": "b"})

        assert (first["X-RateLimit-Remaining"], second["X-RateLimit-Remaining"]) == ("2", "1")
        assert first["X-RateLimit-Bucket"] == second["X-RateLimit-Bucket"]
        assert "X-RateLimit-Scope" not in first


async def test_each_channel_has_a_bucket_of_its_own(http: aiohttp.ClientSession) -> None:
    async with Emulator.running(rate_limit=RateLimit(1, LONG)) as emu:
        other = emu.add_channel("other")

        assert [await post(http, emu, emu.general.id) for _ in range(2)] == [200, 429]
        assert await post(http, emu, other.id) == 200


async def test_past_the_global_limit_every_bot_route_answers_a_global_429(
    http: aiohttp.ClientSession,
) -> None:
    async with Emulator.running(rate_limit=None, global_limit=RateLimit(2, LONG)) as emu:
        other = emu.add_channel("other")
        assert [await post(http, emu, emu.general.id) for _ in range(2)] == [200, 200]

        status, headers, body = await call(http, emu, "GET", f"/channels/{other.id}")

        assert status == 429 and body["global"] is True and body["retry_after"] > 0
        assert headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        assert [hit.scope for hit in emu.rate_limit_hits] == ["global"]


async def test_interaction_responses_are_not_bound_by_the_global_limit(
    http: aiohttp.ClientSession,
) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with emu.run_bot(TinyBot("first", Seen())):
            emu.global_limit = RateLimit(1, LONG)
            while await post(http, emu, emu.general.id) != 429:
                pass  # the bot's start-up may have spent the window already

            res = await alice.slash(emu.general, "thegame table")

            assert res.message is not None and res.message.content == "Table (0)"


async def test_any_route_can_be_limited_here_an_interactions_follow_ups() -> None:
    route = "POST /webhooks/{app_id}/{token}"
    limits = {route: RateLimit(1, 0.5)}
    # Unannounced (like Discord's shared limits), so discord.py cannot wait before it is told.
    async with Emulator.running(route_limits=limits, rate_limit_headers=False) as emu:
        alice = emu.add_user("alice")
        async with emu.run_bot(TinyBot("first", Seen())):
            res = await alice.slash(emu.general, "thegame slow")  # two follow-ups, one token

            [extra] = await res.wait_for_followups(1)
            assert extra.content == "One more thing"
            [hit] = emu.rate_limit_hits
            assert hit.scope == "user" and hit.path.startswith("/webhooks/")
            assert emu.errors == []


async def test_discord_py_waits_out_global_429s_and_loses_no_edit() -> None:
    async with Emulator.running(rate_limit=None, global_limit=RateLimit(2, 0.2)) as emu:
        alice = emu.add_user("alice")
        async with emu.run_bot(TinyBot("first", Seen())):
            res = await alice.slash(emu.general, "thegame spam", count=6)

            await res.wait_until_loaded()
            message = emu.last_message(emu.general)
            assert message is not None and message.content == "5" and message.edits == 5
            assert "global" in {hit.scope for hit in emu.rate_limit_hits}
            assert emu.errors == []


async def test_a_bot_cut_off_by_a_gateway_outage_resumes_after_it() -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with emu.run_bot(TinyBot("first", Seen())) as bot:
            async with emu.gateway_outage():
                await emu.wait_for(lambda: not emu.gateway.connected and not bot.ws.open)
                assert emu.gateway.down

            await emu.wait_for(lambda: emu.gateway.connected)
            res = await alice.slash(emu.general, "thegame table")
            assert res.message is not None and res.message.content == "Table (0)"
            assert (emu.gateway.resumes, emu.gateway.connections) == (1, 1)
