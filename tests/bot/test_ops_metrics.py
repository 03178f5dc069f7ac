"""/metrics of a bot playing through the emulator, read over real HTTP as Prometheus reads it:
the figures move as games are played, and no label ever carries an id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from bot.playground.emulator import Emulator, RateLimit
from games.engine import Status
from games.registry import AIS, GAME_IDS
from runtime import ManualClock
from tests.bot.test_bot_hints import others
from tests.bot.test_bot_quarantine import corrupt
from tests.bot.test_bot_timers import START, TIMER, run_clock
from tests.botkit import (
    custom_ids,
    open_hand,
    play_a_card,
    running_bot,
    start_game,
)
from tests.botprocess import ROOT
from tests.opskit import figures, figures_once

OPS = {"metrics_port": 0}
EDIT = "/channels/{channel_id}/messages/{message_id}"
REPLIES = "tablebot_interaction_reply_seconds_count"


async def test_a_move_is_counted_with_its_commit_and_its_clicks_replies(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot:
            session, table = await start_game(emu, bot, alice)
            before = await figures(bot)
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)  # three interactions: hand, pick, play

            after = await figures_once(emu, bot, lambda f: f(REPLIES) >= before(REPLIES) + 3)
            moves = "tablebot_moves_total"
            assert after(moves, game="thegame") == before(moves, game="thegame") + 1
            commits = "tablebot_store_commit_seconds_count"
            assert after(commits) > before(commits)
            assert after("tablebot_store_commit_seconds_sum") > before(
                "tablebot_store_commit_seconds_sum"
            )
            assert after("tablebot_interaction_reply_seconds_bucket", le="+Inf") == after(REPLIES)


async def test_ai_decisions_are_counted_per_level_one_a_move(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", ai_delay=0.0, **OPS) as bot:
            session, _ = await start_game(emu, bot, alice, ai=1, first="1")
            await alice.slash(emu.general, "leave")  # an AI plays her seat: every move is AI's
            await bot.service.settle()

            now = await figures(bot)
            decided = now("tablebot_ai_decision_seconds_count", level="normal")
            assert decided == now("tablebot_moves_total", game="thegame") > 0
            assert now("tablebot_ai_decision_seconds_sum", level="normal") > 0
            assert now("tablebot_ai_decision_seconds_count", level="strong") == 0
            assert not session.record.status.live


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_hint_is_counted_with_its_ai_decision_at_the_games_hint_level(
    tmp_path: Path, game_id: str
) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot:
            await start_game(
                emu, bot, alice, joiners=(bob,), ai=others(game_id), first="0",
                command=f"{game_id} new",
            )  # fmt: skip
            before = await figures(bot)

            res = await alice.slash(emu.general, "hint")
            await res.wait_until_loaded()

            after = await figures(bot)
            hints = "tablebot_hints_total"
            assert after(hints, game=game_id) == before(hints, game=game_id) + 1
            decided, level = "tablebot_ai_decision_seconds_count", AIS[game_id].hint_level
            assert after(decided, level=level) == before(decided, level=level) + 1


async def test_live_sessions_are_counted_per_game_and_status(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        other = emu.add_channel("other")
        async with running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot:
            await start_game(emu, bot, alice)
            await alice.slash(other, "exhaust new")

            now = await figures(bot)
            assert now("tablebot_sessions_live", game="thegame", status="active") == 1
            assert now("tablebot_sessions_live", game="exhaust", status="lobby") == 1
            assert now("tablebot_sessions_live", status="lobby") == 1
            assert now("tablebot_sessions_live", status="active") == 1


async def test_turn_timer_expiries_and_seats_taken_over_are_counted(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(
            emu, tmp_path / "db.sqlite3", clock=clock, ai_delay=0.5, **OPS
        ) as bot:
            session, _ = await start_game(emu, bot, alice, ai=1, first="0", turn_timer=TIMER)
            for missed in (1, 2, 3):
                await run_clock(clock, lambda: session.state.turn == 0)
                await run_clock(clock, lambda m=missed: session.record.seats[0].missed == m)
            assert session.record.seats[0].away

            now = await figures(bot)
            assert now("tablebot_turn_timer_expiries_total", game="thegame") == 3
            assert now("tablebot_seats_taken_over_total", game="thegame") == 1


async def test_a_quarantined_session_is_counted(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, db) as bot:
            session, _ = await start_game(emu, bot, alice, ai=1, first="0")
        corrupt(db, session.id)
        async with running_bot(emu, db, fail_on_errors=False, **OPS) as bot:
            quarantined = "tablebot_sessions_quarantined_total"
            now = await figures_once(emu, bot, lambda f: f(quarantined) > 0)
            assert now(quarantined, game="thegame") == 1


async def test_429s_are_counted_by_route_with_the_wait_they_asked_for(tmp_path: Path) -> None:
    # One edit per 2 s per channel, enforced unannounced: any two edits of a table close
    # together meet a 429, however slowly a loaded machine plays the game.
    limits = {"rate_limit": RateLimit(1, 2.0), "rate_limit_headers": False}
    async with Emulator.running(**limits) as emu:
        alice = emu.add_user("alice")
        settings = {"ai_delay": 0.0, "table_edit_interval": 0.2, **OPS}
        async with running_bot(emu, tmp_path / "db.sqlite3", **settings) as bot:
            session, _ = await start_game(emu, bot, alice, ai=3, command="hellqueue new")
            await alice.slash(emu.general, "leave")
            await emu.wait_for(lambda: session.record.status is Status.FINISHED)
            await bot.service.settle()
            await bot.refresher.idle()

            hits = [h for h in emu.rate_limit_hits if h.method == "PATCH"]
            assert hits, "the table's edits never met a 429"
            now = await figures(bot)
            refused = now("tablebot_discord_http_responses_total", route=EDIT, status="429")
            assert refused == len(hits)
            waited = now("tablebot_discord_rate_limit_wait_seconds_total", route=EDIT, scope="user")
            assert waited == pytest.approx(sum(h.retry_after for h in hits))
            assert now("tablebot_discord_http_responses_total", route=EDIT, status="200") > 0


LOOKS_LIKE_AN_ID = re.compile(r"\d{5,}|[0-9a-f]{8,}")
"""A Discord snowflake (17-20 digits), a session id (16 hex digits), or a token's run of
them."""


async def test_no_label_value_looks_like_an_id(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            await bob.click(table, custom_ids(table, ":dm$")[0])  # his hand in his DMs
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)

            now = await figures_once(emu, bot, lambda f: f(REPLIES) >= 4)
            values = now.label_values()
            assert "/channels/{channel_id}/messages/{message_id}" in values
            ids = {str(i) for i in (session.id, alice.id, bob.id, emu.guild.id, emu.general.id)}
            assert not ids & values
            assert [v for v in values if LOOKS_LIKE_AN_ID.search(v)] == []


async def test_each_shard_shows_its_gateway_connected(tmp_path: Path) -> None:
    async with (
        Emulator.running() as emu,
        running_bot(emu, tmp_path / "db.sqlite3", shard_count=2, **OPS) as bot,
    ):
        await emu.wait_for(lambda: emu.gateway.connected)

        now = await figures(bot)
        assert now("tablebot_gateway_connected", shard="0") == 1
        assert now("tablebot_gateway_connected", shard="1") == 1
        assert {"0", "1"} <= now.label_values()


async def test_every_figure_the_example_alerts_read_is_one_the_bot_serves(tmp_path: Path) -> None:
    rules = yaml.safe_load((ROOT / "monitoring" / "alerts.yml").read_text(encoding="utf-8"))
    exprs = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    read = {name for expr in exprs for name in re.findall(r"\btablebot_\w+", expr)}
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **OPS) as bot:
            session, table = await start_game(emu, bot, alice)
            await play_a_card(alice, await open_hand(alice, table), session, 0)

            now = await figures_once(emu, bot, lambda f: f(REPLIES) >= 2)

    assert len(read) >= 5  # every alert but the scrape's own reads a figure
    assert read <= {name for name, _, _ in now.samples}
