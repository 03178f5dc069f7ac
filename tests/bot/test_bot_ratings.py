"""Ratings through the real discord.py client and the emulator: a finished game of each rated
game moves its players' and AIs' ratings and its end table shows each seat's change; a
cooperative game and a seat an AI held are not rated; `/leaderboard` and `/stats` show the
ratings in each reader's language."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.client import TableBot
from bot.game_ui import places_by_points
from bot.i18n import t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from games.engine import GameError, Session, Status
from games.registry import AIS
from runtime import ManualClock
from storage import Entrant, SeatRow, Storage
from tests.bot.test_bot_stats import FAST, START, finish_a_game
from tests.botkit import running_bot, start_game

RATED = [
    pytest.param("exhaust", 1, {}, id="exhaust-2"),
    pytest.param("exhaust", 2, {}, id="exhaust-3"),
    pytest.param("exhaust", 0, {}, id="exhaust-solo"),
    pytest.param("hellqueue", 2, {}, id="hellqueue"),
    pytest.param("rummy", 1, {}, id="rummy"),
]


async def play_out(
    emu: Emulator, bot: TableBot, session: Session, user: EmuUser, table: EmuMessage
) -> None:
    """`user` plays their own seat to the game's end (each move the normal AI would choose
    from their view, submitted as their own), the AI seats theirs."""
    seat = session.seat_of(user.id)
    assert seat is not None
    rng = random.Random(7)

    def ready() -> bool:
        return session.record.status is not Status.ACTIVE or seat in session.waiting.seats

    while True:
        await emu.wait_for(ready, timeout=120)
        if session.record.status is not Status.ACTIVE:
            break
        view = session.rules.view(session.state, seat)
        action = AIS[session.record.game_id].normal(view, rng)
        try:
            await bot.service.submit(session.id, user.id, action, session.record.version)
        except GameError:
            await asyncio.sleep(0.01)  # the table moved on meanwhile (an AI): look again
    await emu.wait_for(lambda: session.record.status is Status.FINISHED, timeout=60)
    await bot.service.settle()  # the record (and its ratings) is written by a listener


@pytest.mark.parametrize(("game_id", "ai", "options"), RATED)
async def test_a_finished_game_moves_the_ratings_and_its_table_shows_each_change(
    tmp_path: Path, game_id: str, ai: int, options: dict[str, Any]
) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(
                emu, bot, alice, ai=ai, command=f"{game_id} new", first="0", **options
            )
            await play_out(emu, bot, session, alice, table)
            guild = emu.guild.id
            [rating] = await bot.storage.ratings.player(guild, alice.id)
            assert (rating.game_id, rating.games) == (game_id, 1)
            changes = await bot.storage.ratings.changes(session.id)
            assert len(changes) == len(session.record.seats) + (1 if ai == 0 else 0)
            assert all(c.rated and c.before == 1000 for c in changes)
            ais = await bot.storage.ratings.ais(guild, game_id)
            assert ais and all(r.games == 1 for r in ais)
            [mine] = [c for c in changes if c.user_id == alice.id]
            assert mine.after == rating.shown
            await emu.wait_for(lambda: f"{rating.shown} ({mine.delta:+d})" in table.text)
            assert t("en", "ratings.changes", changes="").strip() in table.text


async def test_a_finished_game_is_rated_on_either_database(
    tmp_path: Path, database: Path | str
) -> None:
    on_postgres = isinstance(database, str)
    overrides: dict[str, Any] = {"database_url": database} if on_postgres else {}
    path = tmp_path / "unused.sqlite3" if on_postgres else Path(database)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, path, **FAST, **overrides) as bot:
            assert bot.storage.backend == ("postgresql" if on_postgres else "sqlite")
            session, table = await start_game(emu, bot, alice, ai=1, command="exhaust new")
            await play_out(emu, bot, session, alice, table)
            [rating] = await bot.storage.ratings.player(emu.guild.id, alice.id)
            [normal] = await bot.storage.ratings.ais(emu.guild.id, "exhaust")
            assert rating.games == normal.games == 1
            assert (rating.shown > 1000) == (session.seat_of(alice.id) in session_winners(session))
            await emu.wait_for(lambda: f"{rating.shown} (" in table.text)
            assert await bot.storage.ratings.rebuild() == 1  # replayed, the same ratings
            assert await bot.storage.ratings.player(emu.guild.id, alice.id) == [rating]
            assert await bot.storage.ratings.ais(emu.guild.id, "exhaust") == [normal]


def session_winners(session: Session) -> tuple[int, ...]:
    outcome = session.rules.outcome(session.state)
    assert outcome is not None
    return outcome.winners


@pytest.mark.parametrize(
    ("points", "winners", "places"),
    [
        ((10, 5, 5, 2), (0,), (1, 2, 2, 4)),
        ((10, 10, 5, 2), (0, 1), (1, 1, 3, 4)),
        ((7, 9, 9), (2,), (3, 2, 1)),  # the rules' tie-break named seat 2 the winner
        ((3, 3, 1), (), (1, 1, 3)),
    ],
)
def test_places_from_points_put_the_winners_first_and_share_equal_points(
    points: tuple[int, ...], winners: tuple[int, ...], places: tuple[int, ...]
) -> None:
    assert places_by_points(points, winners) == places


async def test_a_cooperative_game_is_not_rated(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, command="thegame new")
            await play_out(emu, bot, session, alice, table)
            assert await bot.storage.ratings.player(emu.guild.id, alice.id) == []
            assert await bot.storage.ratings.changes(session.id) == []
            assert t("en", "ratings.changes", changes="").strip() not in table.text
            res = await alice.slash(emu.general, "leaderboard")
            assert t("en", "ratings.board.none") in res.text


async def test_an_abandoned_game_is_not_rated(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, _ = await start_game(emu, bot, alice, ai=2, command="hellqueue new")
            await alice.slash(emu.general, "abandon")
            await emu.wait_for(lambda: session.record.status is Status.ABANDONED)
            await bot.service.settle()
            assert await bot.storage.ratings.ais(emu.guild.id, "hellqueue") == []
            assert await bot.storage.ratings.changes(session.id) == []


async def test_a_seat_an_ai_held_for_most_of_its_moves_is_not_rated_for_its_player(
    tmp_path: Path,
) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            session, _ = await finish_a_game(emu, bot, clock, alice, "hellqueue")
            assert session.record.seats[0].user_id == alice.id  # still her seat
            assert await bot.storage.ratings.player(emu.guild.id, alice.id) == []
            changes = await bot.storage.ratings.changes(session.id)
            assert [c.rated for c in changes] == [False, True, True]
            [normal] = await bot.storage.ratings.ais(emu.guild.id, "hellqueue")
            assert normal.ai == "normal" and normal.games == 1


async def seed_games(storage: Storage, guild: int, people: list[int], games: int) -> None:
    """`games` finished rummy matches in which `people` and a strong AI always end in that
    order (the first person wins every time)."""
    for n in range(games):
        entrants = [Entrant(i, i + 1, user) for i, user in enumerate(people)]
        entrants.append(Entrant(len(people), len(people) + 1, None, "strong"))
        await storage.records.add(
            guild_id=guild,
            channel_id=1,
            game_id="rummy",
            session_id=f"seed{n:04d}",
            result="win",
            score=-10,
            players=len(entrants),
            won=True,
            finished_at=1000.0 + n,
            seats=[SeatRow(seat=e.seat, user_id=e.user_id, won=e.place == 1) for e in entrants],
            entrants=entrants,
        )


async def test_the_leaderboard_lists_players_after_five_rated_games_in_each_language(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        alice, hana, carol = (
            emu.add_user("alice"),
            emu.add_user("hana", locale="ja"),
            emu.add_user("carol"),
        )
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            guild = emu.guild.id
            await seed_games(bot.storage, guild, [alice.id, hana.id], 5)
            await seed_games(bot.storage, guild, [carol.id], 0)
            board = await bot.storage.ratings.board(guild, "rummy")
            [strong] = await bot.storage.ratings.ais(guild, "rummy")
            first, second = board
            lines = {
                lang: [
                    t(
                        lang,
                        "ratings.board.line",
                        rank=rank,
                        user=f"<@{r.user_id}>",
                        rating=r.shown,
                        count=5,
                    )
                    for rank, r in zip(("🥇", "🥈"), board, strict=True)
                ]
                for lang in ("en", "ja")
            }
            ai = {
                lang: t(
                    lang,
                    "ratings.board.ai_one",
                    name=t(lang, "ratings.ai", level=t(lang, "ai.level.strong")),
                    rating=strong.shown,
                )
                for lang in ("en", "ja")
            }
            res = await alice.slash(emu.general, "leaderboard")
            assert res.ephemeral and t("en", "ratings.board.title") in res.text
            assert t("en", "rummy.name") in res.text
            assert res.text.index(lines["en"][0]) < res.text.index(lines["en"][1])
            assert ai["en"] in res.text
            res = await hana.slash(emu.general, "leaderboard", game="rummy")
            assert t("ja", "ratings.board.title") in res.text
            assert all(line in res.text for line in lines["ja"]) and ai["ja"] in res.text
            assert first.user_id == alice.id and second.user_id == hana.id
            res = await alice.slash(emu.general, "leaderboard", game="exhaust")
            assert t("en", "ratings.board.none") in res.text


async def test_stats_show_a_players_rating_and_rank_in_each_language(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, hana = emu.add_user("alice"), emu.add_user("hana", locale="ja")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            guild = emu.guild.id
            await seed_games(bot.storage, guild, [alice.id, hana.id], 5)
            [mine] = await bot.storage.ratings.player(guild, hana.id)
            ranked = {
                lang: t(lang, "ratings.ranked", rating=mine.shown, rank=2, count=5)
                for lang in ("en", "ja")
            }
            res = await hana.slash(emu.general, "stats", user=hana)
            assert ranked["ja"] in res.text
            res = await alice.slash(emu.general, "stats", user=hana, game="rummy")
            assert ranked["en"] in res.text


async def test_stats_call_a_rating_provisional_before_five_games(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            await seed_games(bot.storage, emu.guild.id, [alice.id], 2)
            [mine] = await bot.storage.ratings.player(emu.guild.id, alice.id)
            res = await alice.slash(emu.general, "stats", user=alice)
            assert t("en", "ratings.provisional", rating=mine.shown, count=2, need=5) in res.text
            res = await alice.slash(emu.general, "leaderboard")
            assert t("en", "ratings.board.nobody", need=5) in res.text
