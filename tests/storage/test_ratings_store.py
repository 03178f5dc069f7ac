"""Ratings in storage, on SQLite and PostgreSQL: written with the finished game's record, equal
to OpenSkill computed directly on hand-built games (ties as shared places), AI keys rated like
people, the board and its ranks, and a rebuild that gives what the live updates gave."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from openskill.models import PlackettLuce

from storage import Entrant, SeatRow, Storage, open_storage
from storage.ratings import AHEAD, BASE, BOARD, SCALE

GUILD = 1
ALICE, BOB, CAROL = 100, 200, 300
ROOT = Path(__file__).resolve().parents[2]


async def finish(
    storage: Storage,
    session_id: str,
    entrants: list[Entrant],
    *,
    at: float,
    game_id: str = "duel",
    guild_id: int | None = GUILD,
) -> bool:
    seats = [
        SeatRow(seat=e.seat, user_id=e.user_id, won=e.place == 1) for e in entrants if e.seat >= 0
    ]
    return await storage.records.add(
        guild_id=guild_id,
        channel_id=10,
        game_id=game_id,
        session_id=session_id,
        result="done",
        score=None,
        players=len(seats),
        won=True,
        finished_at=at,
        seats=seats,
        entrants=entrants,
    )


def people(*places: int) -> list[Entrant]:
    """Alice, Bob and Carol (as many as places given) in seats 0, 1, 2."""
    return [
        Entrant(i, p, u) for i, (p, u) in enumerate(zip(places, (ALICE, BOB, CAROL), strict=False))
    ]


def shown(rating: object) -> int:
    return round(rating.ordinal(3.0, SCALE, BASE))  # type: ignore[attr-defined]


async def test_a_three_player_game_with_a_tie_matches_openskill_computed_directly(
    storage: Storage,
) -> None:
    await finish(storage, "s1", people(1, 1, 3), at=1.0)  # Alice and Bob share first place
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a], [b], [c]] = model.rate([[a], [b], [c]], ranks=[1, 1, 3])
    found = {r.user_id: r for r in await storage.ratings.player(GUILD, ALICE)}
    mine = found[ALICE]
    assert (mine.skill.mu, mine.skill.sigma) == pytest.approx((a.mu, a.sigma))
    [carol] = await storage.ratings.player(GUILD, CAROL)
    assert (carol.skill.mu, carol.skill.sigma) == pytest.approx((c.mu, c.sigma))
    assert carol.shown == shown(c) < mine.shown == shown(a)


async def test_a_series_of_games_matches_openskill_played_in_the_same_order(
    storage: Storage,
) -> None:
    games = [(1, 2, 3), (3, 1, 2), (2, 2, 1), (1, 3, 2)]
    model = PlackettLuce()
    expected = [model.rating() for _ in range(3)]
    for n, places in enumerate(games, 1):
        await finish(storage, f"s{n}", people(*places), at=float(n))
        teams = model.rate([[r] for r in expected], ranks=list(places))
        expected = [team[0] for team in teams]
    for user, want in zip((ALICE, BOB, CAROL), expected, strict=True):
        [got] = await storage.ratings.player(GUILD, user)
        assert (got.skill.mu, got.skill.sigma) == pytest.approx((want.mu, want.sigma))
        assert got.games == len(games)


async def test_an_ai_level_is_rated_like_a_player_and_a_held_seat_keeps_its_rating(
    storage: Storage,
) -> None:
    entrants = [
        Entrant(0, 1, ALICE),
        Entrant(1, 2, None, "strong"),
        Entrant(2, 3, None, "normal", rated=False),  # a seat an AI held for Bob
    ]
    await finish(storage, "s1", entrants, at=1.0)
    [strong] = await storage.ratings.ais(GUILD, "duel")
    assert (strong.user_id, strong.ai, strong.games) == (None, "strong", 1)
    assert await storage.ratings.player(GUILD, BOB) == []
    changes = await storage.ratings.changes("s1")
    assert [(c.seat, c.rated) for c in changes] == [(0, True), (1, True), (2, False)]
    assert changes[0].delta > 0 and changes[2].delta == 0


async def test_an_opponent_outside_the_seats_is_rated_by_its_key(storage: Storage) -> None:
    await finish(storage, "s1", [Entrant(0, 2, ALICE), Entrant(-1, 1, None, "npc-15")], at=1.0)
    [npc] = await storage.ratings.ais(GUILD, "duel")
    [alice] = await storage.ratings.player(GUILD, ALICE)
    assert npc.ai == "npc-15" and npc.shown > alice.shown
    changes = await storage.ratings.changes("s1")
    assert [c.seat for c in changes] == [0, -1]  # the seats first, as the end table lists them


async def test_a_game_outside_a_server_or_recorded_twice_is_not_rated_again(
    storage: Storage,
) -> None:
    await finish(storage, "s0", people(1, 2), at=0.5, guild_id=None)
    assert await storage.ratings.player(GUILD, ALICE) == []
    assert await finish(storage, "s1", people(1, 2), at=1.0)
    assert not await finish(storage, "s1", people(1, 2), at=1.0)
    [alice] = await storage.ratings.player(GUILD, ALICE)
    assert alice.games == 1


async def test_the_board_lists_players_after_five_games_best_first_with_ranks(
    storage: Storage,
) -> None:
    for n in range(1, 5):
        await finish(storage, f"s{n}", people(1, 2, 3), at=float(n))
    assert await storage.ratings.board(GUILD, "duel") == []
    [alice] = await storage.ratings.player(GUILD, ALICE)
    assert alice.rank is None and alice.games == 4
    await finish(storage, "s5", people(1, 2, 3), at=5.0)
    board = await storage.ratings.board(GUILD, "duel")
    assert [(r.user_id, r.rank) for r in board] == [(ALICE, 1), (BOB, 2), (CAROL, 3)]
    assert board[0].shown > board[1].shown > board[2].shown
    [carol] = await storage.ratings.player(GUILD, CAROL)
    assert carol.rank == 3
    assert await storage.ratings.board(2, "duel") == []


async def test_a_rebuild_gives_the_ratings_the_live_updates_gave(storage: Storage) -> None:
    games = [(1, 2, 3), (3, 1, 1), (2, 1, 3), (1, 1, 1), (3, 2, 1), (1, 2, 3)]
    for n, places in enumerate(games, 1):
        entrants = [*people(*places[:2]), Entrant(2, places[2], None, "normal")]
        await finish(storage, f"s{n}", entrants, at=float(n), game_id="duel" if n % 2 else "race")
    before = {u: await storage.ratings.player(GUILD, u) for u in (ALICE, BOB)}
    ais = {g: await storage.ratings.ais(GUILD, g) for g in ("duel", "race")}
    changes = await storage.ratings.changes("s4")
    assert await storage.ratings.rebuild() == len(games)
    assert {u: await storage.ratings.player(GUILD, u) for u in (ALICE, BOB)} == before
    assert {g: await storage.ratings.ais(GUILD, g) for g in ("duel", "race")} == ais
    assert await storage.ratings.changes("s4") == changes


async def test_two_ais_of_one_level_in_a_game_count_it_once(storage: Storage) -> None:
    entrants = [Entrant(0, 1, ALICE), Entrant(1, 2, None, "normal"), Entrant(2, 3, None, "normal")]
    await finish(storage, "s1", entrants, at=1.0)
    [normal] = await storage.ratings.ais(GUILD, "duel")
    assert normal.games == 1
    assert await storage.ratings.rebuild() == 1
    assert await storage.ratings.ais(GUILD, "duel") == [normal]


async def test_the_board_and_a_players_rank_are_index_searches(sqlite_storage: Storage) -> None:
    storage = sqlite_storage
    for n in range(1, 8):
        await finish(storage, f"s{n}", people(1 + n % 3, 1 + (n + 1) % 3, 3), at=float(n))
    statements: list[str] = []
    await storage.db.trace(statements.append)  # the SQL as run, parameters bound
    await storage.ratings.board(GUILD, "duel")
    await storage.ratings.player(GUILD, ALICE)
    await storage.db.trace(None)
    selects = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
    plan = [
        row[3] for sql in selects for row in await storage.db.fetch("EXPLAIN QUERY PLAN " + sql)
    ]
    text = "\n".join(plan)
    assert not re.search(r"\bSCAN ratings\b", text), text
    assert "ratings_board" in text and "TEMP B-TREE" not in text, text


async def test_the_board_and_a_rank_have_their_index_on_postgresql(pg_url: str) -> None:
    async with await open_storage(pg_url) as storage:
        await finish(storage, "s1", people(1, 2, 3), at=1.0)
        conn = await asyncpg.connect(pg_url)
        try:
            await conn.execute("SET enable_seqscan = off")  # a tiny table: ask for the index
            board = await conn.fetch("EXPLAIN " + BOARD, GUILD, "duel", 10)
            ahead = await conn.fetch("EXPLAIN " + AHEAD, GUILD, "duel", 0.5, ALICE)
        finally:
            await conn.close()
    for plan in (board, ahead):
        text = "\n".join(row[0] for row in plan)
        assert "ratings_board" in text and "Sort" not in text, text


def rebuild_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "storage.ratings", "--rebuild", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_the_rebuild_command_replays_a_database_of_either_kind(
    database: Path | str,
) -> None:
    async with await open_storage(database) as storage:
        for n in range(1, 4):
            await finish(storage, f"s{n}", people(n, 1 + n % 3, 1 + (n + 1) % 3), at=float(n))
        live = await storage.ratings.player(GUILD, ALICE)
    done = rebuild_command("--database", str(database))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "rebuilt the ratings from 3 rated games"
    async with await open_storage(database) as storage:
        assert await storage.ratings.player(GUILD, ALICE) == live


def test_the_rebuild_command_refuses_a_missing_file_in_one_line(tmp_path: Path) -> None:
    done = rebuild_command("--database", str(tmp_path / "none.sqlite3"))
    assert done.returncode == 2 and not (tmp_path / "none.sqlite3").exists()
    [line] = done.stderr.splitlines()
    assert line.startswith("python -m storage.ratings: no bot database at ")


def test_the_rebuild_command_refuses_an_unreachable_postgresql_in_one_line() -> None:
    done = rebuild_command("--database", "postgresql://bot@127.0.0.1:9/bot")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("python -m storage.ratings: cannot reach PostgreSQL"), line
