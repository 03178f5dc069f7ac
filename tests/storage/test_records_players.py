"""Per-player results and history in storage: seats written with their record, totals per
player and player count, streaks in order, a loss never above a win, and every query of
`/stats` and `/history` served by an index (EXPLAIN QUERY PLAN)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from storage import PlayerStore, SeatRow, Storage
from storage.players import ALL_COUNTS

GUILD = 1
ALICE, BOB = 100, 200


async def add(
    storage: Storage,
    session_id: str,
    seats: list[SeatRow],
    *,
    game_id: str = "coop",
    won: bool = True,
    score: int | None = 5,
    result: str | None = None,
    at: float | None = None,
    guild_id: int | None = GUILD,
    channel_id: int = 10,
) -> bool:
    return await storage.records.add(
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        session_id=session_id,
        result=result or ("win" if won else "loss"),
        score=score,
        players=len(seats),
        won=won,
        finished_at=at if at is not None else float(int(session_id[1:])),
        seats=seats,
    )


def duo(won: bool, score: int | None = 5, ai: bool = False) -> list[SeatRow]:
    return [
        SeatRow(seat=0, user_id=ALICE, won=won, score=score, name="alice"),
        SeatRow(seat=1, user_id=None if ai else BOB, won=won, score=score, name=""),
    ]


async def test_the_storage_offers_the_player_store(storage: Storage) -> None:
    assert isinstance(storage.players, PlayerStore)


async def test_a_records_seats_and_totals_are_written_with_it_and_only_once(
    storage: Storage,
) -> None:
    assert await add(storage, "s1", duo(True, 4))
    assert not await add(storage, "s1", duo(False, 40))  # the same session again: nothing
    history = await storage.records.history(GUILD)
    assert [(s.seat, s.user_id, s.won, s.score) for s in history[0].seats] == [
        (0, ALICE, True, 4),
        (1, BOB, True, 4),
    ]
    [both, pairs] = await storage.players.totals(GUILD, ALICE)
    assert (both.players, pairs.players) == (ALL_COUNTS, 2)
    assert (both.games, both.wins, both.best_win, both.best_loss) == (1, 1, 4, None)
    assert pairs.results == {"win": 1}


async def test_a_game_played_with_hints_is_marked_with_each_seats_count(
    storage: Storage,
) -> None:
    seats = duo(True)
    await storage.records.add(
        guild_id=GUILD,
        channel_id=10,
        game_id="coop",
        session_id="s2",
        result="win",
        score=5,
        players=2,
        won=True,
        finished_at=2.0,
        seats=[seats[0], replace(seats[1], hints=3)],
        hints=3,
    )
    await add(storage, "s1", duo(True))  # no hints
    hinted, plain = await storage.records.history(GUILD)
    assert (hinted.record.hints, [s.hints for s in hinted.seats]) == (3, [0, 3])
    assert (plain.record.hints, [s.hints for s in plain.seats]) == (0, [0, 0])


async def test_ai_seats_and_games_outside_a_server_keep_no_totals(storage: Storage) -> None:
    await add(storage, "s1", duo(True, ai=True))
    await add(storage, "s2", duo(True), guild_id=None)
    assert await storage.players.totals(GUILD, BOB) == []
    assert len(await storage.players.totals(GUILD, ALICE)) == 2
    dm = await storage.records.history(None)
    assert [e.record.session_id for e in dm] == ["s2"] and len(dm[0].seats) == 2


async def test_totals_count_each_player_count_and_all_together(storage: Storage) -> None:
    await add(storage, "s1", duo(True, 3))
    await add(storage, "s2", duo(False, 30), won=False)
    solo = [SeatRow(seat=0, user_id=ALICE, won=False, score=12)]
    await add(storage, "s3", solo, won=False, score=12, result="burned")
    tallies = {t.players: t for t in await storage.players.totals(GUILD, ALICE, "coop")}
    assert (tallies[0].games, tallies[0].wins, tallies[0].losses) == (3, 1, 2)
    assert (tallies[1].games, tallies[1].wins, tallies[2].games, tallies[2].wins) == (1, 0, 2, 1)
    assert tallies[0].results == {"win": 1, "loss": 1, "burned": 1}
    assert tallies[1].best == (12, False)
    assert await storage.players.totals(GUILD, ALICE, "other") == []


async def test_a_players_loss_never_ranks_above_a_win(storage: Storage) -> None:
    await add(storage, "s1", duo(False, 1), won=False, score=1)
    [tally, _] = await storage.players.totals(GUILD, ALICE)
    assert tally.best == (1, False)  # only losses so far: the best of them
    await add(storage, "s2", duo(True, 9), score=9)
    await add(storage, "s3", duo(False, 0), won=False, score=0)
    [tally, _] = await storage.players.totals(GUILD, ALICE)
    assert tally.best == (9, True)
    assert (tally.best_win, tally.best_loss) == (9, 0)


async def test_the_servers_best_results_put_every_win_before_any_loss(storage: Storage) -> None:
    await add(storage, "s1", duo(False, 0), won=False, score=0)
    await add(storage, "s2", duo(True, 20), score=20)
    await add(storage, "s3", duo(True, 7), score=7)
    await add(storage, "s4", duo(True, 7), score=7, channel_id=11)
    best = await storage.records.best(GUILD, "coop", limit=5)
    assert [r.session_id for r in best] == ["s3", "s4", "s2"]  # ties: the earlier first
    channel = await storage.records.best(GUILD, "coop", channel_id=10, limit=5)
    assert [r.session_id for r in channel] == ["s3", "s2"]
    stats = await storage.records.stats(GUILD, "coop")
    assert stats.best is not None and stats.best.session_id == "s3"
    assert (stats.games, stats.wins, stats.results) == (4, 3, {"win": 3, "loss": 1})


async def test_the_top_players_rank_by_wins_then_fewer_games(storage: Storage) -> None:
    carol = 300
    await add(storage, "s1", duo(True))
    await add(storage, "s2", duo(False), won=False)
    await add(storage, "s3", [SeatRow(seat=0, user_id=carol, won=True)])
    await add(storage, "s4", [SeatRow(seat=0, user_id=BOB, won=False)], won=False)
    top = await storage.players.top(GUILD, "coop")
    assert [(t.user_id, t.wins, t.games) for t in top] == [
        (carol, 1, 1),
        (ALICE, 1, 2),
        (BOB, 1, 3),
    ]
    assert [t.user_id for t in await storage.players.top(GUILD, "coop", limit=1)] == [carol]


@pytest.mark.parametrize(
    ("games", "current", "best"),
    [
        ("", 0, 0),
        ("L", 0, 0),
        ("WW", 2, 2),
        ("WWLWWWLW", 1, 3),
        ("WWWLL", 0, 3),
        ("LWWLWW", 2, 2),
    ],
)
async def test_streaks_are_the_wins_in_a_row(
    storage: Storage, games: str, current: int, best: int
) -> None:
    for n, outcome in enumerate(games, start=1):
        await add(storage, f"s{n}", duo(outcome == "W"), won=outcome == "W")
    streaks = await storage.players.streaks(GUILD, ALICE, "coop")
    assert (streaks.current, streaks.best) == (current, best)


async def test_streaks_follow_when_games_ended_not_when_they_were_stored(
    storage: Storage,
) -> None:
    for n, (outcome, at) in enumerate([("W", 5.0), ("L", 1.0), ("W", 6.0), ("W", 2.0)], 1):
        await add(storage, f"s{n}", duo(outcome == "W"), won=outcome == "W", at=at)
    # In time order: W(2) L(1)... that is L@1, W@2, W@5, W@6: three in a row, still going.
    streaks = await storage.players.streaks(GUILD, ALICE, "coop")
    assert (streaks.current, streaks.best) == (3, 3)
    other = await storage.players.streaks(GUILD, ALICE, "another game")
    assert (other.current, other.best) == (0, 0)


async def test_history_lists_the_latest_games_with_their_table_message(
    storage: Storage,
) -> None:
    for n in range(1, 14):
        await add(storage, f"s{n}", duo(True), game_id="coop" if n % 2 else "race")
    latest = await storage.records.history(GUILD, limit=10)
    assert [e.record.session_id for e in latest] == [f"s{n}" for n in range(13, 3, -1)]
    assert all(e.table_message_id is None for e in latest)  # no session kept for these
    race = await storage.records.history(GUILD, "race", limit=3)
    assert [e.record.session_id for e in race] == ["s12", "s10", "s8"]
    assert await storage.records.history(2) == []


# Every read of /stats and /history, with the index that must serve it.
READS: list[tuple[str, Callable[[Storage], Awaitable[object]], set[str]]] = [
    ("server figures", lambda st: st.records.stats(GUILD, "coop"), {"records_guild_game_best"}),
    (
        "channel figures",
        lambda st: st.records.stats(GUILD, "coop", 10),
        {"records_guild_game_channel_best"},
    ),
    ("best results", lambda st: st.records.best(GUILD, "coop"), {"records_guild_game_best"}),
    (
        "history",
        lambda st: st.records.history(GUILD),
        {"records_guild_finished", "sqlite_autoindex_sessions_1"},
    ),
    (
        "history of a game",
        lambda st: st.records.history(GUILD, "coop"),
        {"records_guild_game_finished"},
    ),
    ("player totals", lambda st: st.players.totals(GUILD, ALICE), {"PRIMARY KEY"}),
    ("player totals of a game", lambda st: st.players.totals(GUILD, ALICE, "coop"), set()),
    ("board", lambda st: st.players.top(GUILD, "coop"), {"player_totals_board"}),
    ("streaks", lambda st: st.players.streaks(GUILD, ALICE, "coop"), {"seat_results_player"}),
]
TABLES = ("records", "seat_results", "player_totals", "record_totals", "sessions")


@pytest.mark.parametrize(("name", "read", "indexes"), READS, ids=[r[0] for r in READS])
async def test_stats_and_history_reads_search_indexes_and_scan_no_table(
    sqlite_storage: Storage,
    name: str,
    read: Callable[[Storage], Awaitable[object]],
    indexes: set[str],
) -> None:
    storage = sqlite_storage
    for n in range(1, 30):  # a used server: several games, channels and results
        await add(storage, f"s{n}", duo(n % 3 != 0), won=n % 3 != 0, channel_id=10 + n % 2)
    statements: list[str] = []
    await storage.db.trace(statements.append)  # the SQL as run, parameters bound
    await read(storage)
    await storage.db.trace(None)
    selects = [sql for sql in statements if sql.lstrip().upper().startswith(("SELECT", "WITH"))]
    assert selects, statements

    plan = [
        row[3] for sql in selects for row in await storage.db.fetch("EXPLAIN QUERY PLAN " + sql)
    ]
    text = "\n".join(plan)
    for table in TABLES:
        assert not re.search(rf"\bSCAN {table}\b", text), text  # no table is read through
    for index in indexes:
        assert index in text, text
    if name.startswith("history") or name == "board":
        assert "TEMP B-TREE" not in text, text  # the rows come in index order
