"""`python -m storage.migrate`: a bot's SQLite database copied to PostgreSQL, checked, and its
games played on there."""

from __future__ import annotations

import itertools
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from toygame import AIS, GAMES

from games.engine import Session, Status
from games.registry import AIS as REGISTERED_AIS
from games.registry import GAMES as REGISTERED
from runtime import ManualClock, SessionService
from storage import SeatRow, Storage, open_storage
from storage.migrate import TABLES, Refusal, migrate_to_postgres
from tests.stores import scalar

ROOT = Path(__file__).resolve().parents[2]
HOST, BOB = 1, 2
GUILD = 1 << 22
TIMER = 60


def make_service(
    storage: Storage,
    clock: ManualClock,
    *,
    ai_delay: float = 0,
    games: Any = GAMES,
    ais: Any = AIS,
) -> SessionService:
    seeds = itertools.count(1000)
    return SessionService(
        storage.sessions,
        games,
        ais,
        ai_delay=ai_delay,
        seed_source=lambda: next(seeds),
        clock=clock,
    )


async def lobby(service: SessionService, channel: int, turn_timer: int | None = None) -> Session:
    return await service.create(
        "dicerace",
        guild_id=GUILD,
        channel_id=channel,
        host_id=HOST,
        host_name="host",
        locale="en",
        options={"target": 12},
        turn_timer=turn_timer,
    )


async def play(service: SessionService, session_id: str) -> Session:
    """Move for the lowest human seat to move until the game ends (AI seats move alone)."""
    for _ in range(1000):
        await service.settle()
        session = await service.get(session_id)
        if session.record.status is not Status.ACTIVE:
            return session
        seat = min(s for s in session.rules.to_move(session.state).seats)
        user = session.record.seats[seat].user_id
        assert user is not None, "an AI seat was left to move"
        action = session.rules.legal_actions(session.state, seat)[-1]
        await service.submit(session_id, user, action, session.record.version)
    raise AssertionError("the game did not end")


async def fill(storage: Storage, clock: ManualClock) -> dict[str, Session]:
    """What a running bot holds: a finished game with its record, a game whose AI is to move,
    one whose player's turn timer runs, a lobby, preferences and a DM hand."""
    service = make_service(storage, clock, ai_delay=3600)  # its AI never gets to move
    finished = await lobby(service, 10)
    await service.join(finished.id, BOB, "bob")
    await service.start(finished.id, HOST, 0)
    await play(service, finished.id)
    await storage.records.add(
        guild_id=GUILD,
        channel_id=10,
        game_id="dicerace",
        session_id=finished.id,
        result="win",
        score=3,
        players=2,
        won=True,
        seats=[
            SeatRow(0, HOST, True, 3, name="host", hints=2),
            SeatRow(1, BOB, False, 9, name="bob"),
        ],
        hints=2,
    )
    ai_turn = await lobby(service, 11)
    await service.add_ai(ai_turn.id, HOST)
    await service.start(ai_turn.id, HOST, 1)
    timed = await lobby(service, 12, turn_timer=TIMER)
    await service.add_ai(timed.id, HOST)
    await service.start(timed.id, HOST, 0)
    await service.hint(timed.id, HOST)
    waiting = await lobby(service, 13)
    await service.join(waiting.id, BOB, "bob")
    await storage.prefs.user.set(HOST, "locale", "ja")
    await storage.prefs.guild.set(GUILD, "locale", "en")
    await storage.hand_messages.upsert(timed.id, HOST, 500, 600)
    await service.close()
    return {"finished": finished, "ai_turn": ai_turn, "timed": timed, "lobby": waiting}


async def test_a_running_bots_database_moves_to_postgresql_and_its_games_play_on(
    tmp_path: Path, pg_url: str
) -> None:
    path, clock = tmp_path / "bot.db", ManualClock()
    async with await open_storage(path, exclusive=True) as sqlite:  # as the bot holds it
        games = await fill(sqlite, clock)
        counts = {t: await scalar(sqlite, f"SELECT COUNT(*) FROM {t}") for t in TABLES}
        stats = await sqlite.records.stats(GUILD, "dicerace")
        report = await migrate_to_postgres(path, pg_url, GAMES)
    assert report.problems == []
    assert report.copied == counts and counts["actions"] > 0 and counts["seat_results"] == 2
    assert report.sessions == {"active": 2, "finished": 1, "lobby": 1}
    assert report.lines()[1] == "replayed 4 sessions (active=2 finished=1 lobby=1): ok"
    async with await open_storage(pg_url) as postgres:
        assert await postgres.records.stats(GUILD, "dicerace") == stats
        assert await postgres.prefs.user.get(HOST, "locale") == "ja"
        assert await postgres.hand_messages.get(games["timed"].id, HOST) is not None
        service = make_service(postgres, clock)
        await service.resume()
        await service.settle()
        ai_turn = await service.get(games["ai_turn"].id)
        assert ai_turn.record.version > games["ai_turn"].record.version  # its AI moved
        timed = await service.get(games["timed"].id)
        assert [s.hints for s in timed.record.seats] == [1, 0]  # hints are copied
        [record] = await postgres.records.history(GUILD)
        assert (record.record.hints, [s.hints for s in record.seats]) == (2, [2, 0])
        assert timed.due("turn", 0) == games["timed"].due("turn", 0)  # the stored deadline
        clock.set(timed.due("turn", 0) or 0)
        await service.settle()
        assert timed.record.seats[0].missed == 1  # the timer ran out: the AI played the turn
        await service.start(games["lobby"].id, HOST, 0)
        for name in ("ai_turn", "timed", "lobby"):
            assert (await play(service, games[name].id)).record.status is Status.FINISHED
        added = await postgres.records.add(
            guild_id=GUILD,
            channel_id=11,
            game_id="dicerace",
            session_id=games["ai_turn"].id,
            result="loss",
            score=20,
            players=2,
            won=False,
        )
        assert added  # new records get ids after the copied ones
        assert (await postgres.records.stats(GUILD, "dicerace")).games == 2
        await service.close()


async def test_the_copy_refuses_a_database_that_holds_data(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "bot.db"
    async with await open_storage(path) as sqlite:
        await sqlite.prefs.user.set(HOST, "locale", "ja")
    async with await open_storage(pg_url) as postgres:
        await postgres.prefs.guild.set(GUILD, "locale", "en")
    with pytest.raises(Refusal, match="not empty"):
        await migrate_to_postgres(path, pg_url, GAMES)
    async with await open_storage(pg_url) as postgres:
        assert await postgres.prefs.user.get(HOST, "locale") is None  # nothing was copied


async def test_the_command_copies_and_checks_a_real_games_database(
    tmp_path: Path, pg_url: str
) -> None:
    path, clock = tmp_path / "bot.db", ManualClock()
    async with await open_storage(path) as sqlite:
        service = make_service(sqlite, clock, games=REGISTERED, ais=REGISTERED_AIS, ai_delay=3600)
        game = await service.create(
            "thegame",
            guild_id=GUILD,
            channel_id=10,
            host_id=HOST,
            host_name="host",
            locale="en",
            options={},
        )
        await service.join(game.id, BOB, "bob")
        await service.start(game.id, HOST, 0)
        rng = random.Random(0)
        for _ in range(30):  # past a snapshot, so the check replays both ways
            session = await service.get(game.id)
            seat = min(session.rules.to_move(session.state).seats)
            user = session.record.seats[seat].user_id
            action = REGISTERED_AIS["thegame"].normal(session.rules.view(session.state, seat), rng)
            await service.submit(game.id, user, action, session.record.version)  # type: ignore[arg-type]
        version, state = session.record.version, session.state
        await service.close()
    command = [sys.executable, "-m", "storage.migrate", "--from", f"sqlite:{path}", "--to", pg_url]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "replayed 1 sessions (active=1): ok" in done.stdout
    async with await open_storage(pg_url) as postgres:
        service = make_service(postgres, clock, games=REGISTERED, ais=REGISTERED_AIS)
        moved = await service.get(game.id)
        assert (moved.record.version, moved.state) == (version, state)
        seat = min(moved.rules.to_move(moved.state).seats)
        action = REGISTERED_AIS["thegame"].normal(moved.rules.view(moved.state, seat), rng)
        user = moved.record.seats[seat].user_id
        await service.submit(game.id, user, action, moved.record.version)  # type: ignore[arg-type]
        assert moved.record.version > version  # and it plays on
        await service.close()
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert again.returncode != 0 and "not empty" in again.stderr


def folder(path: Path) -> dict[str, bytes]:
    """Every file in `path`'s folder with its bytes: what a command must leave as it was."""
    return {entry.name: entry.read_bytes() for entry in sorted(path.parent.iterdir())}


async def tables_in(url: str) -> int:
    """The tables of the database at `url` (read without migrating it)."""
    conn = await asyncpg.connect(url)
    try:
        return int(
            await conn.fetchval(
                "SELECT COUNT(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
        )
    finally:
        await conn.close()


def run_migrate(source: Path, target: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "storage.migrate", "--from", f"sqlite:{source}"]
    return subprocess.run(
        [*command, "--to", target], cwd=ROOT, capture_output=True, text=True, check=False
    )


async def bot_database(path: Path) -> None:
    """A bot's database with a game in it, closed as a stopped bot leaves it."""
    async with await open_storage(path) as sqlite:
        service = make_service(sqlite, ManualClock())
        await lobby(service, 10)
        await service.close()


def empty_file(path: Path) -> None:
    path.write_bytes(b"")


def not_sqlite(path: Path) -> None:
    path.write_bytes(b"these are no SQLite pages\n" * 200)


async def damaged(path: Path) -> None:
    """A bot's database whose pages after the first were overwritten."""
    await bot_database(path)
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xa5" * (len(data) - 4096)
    path.write_bytes(bytes(data))


async def newer(path: Path) -> None:
    """A database a newer bot wrote: its schema version is past this code's."""
    await bot_database(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()


def foreign(path: Path) -> None:
    """A SQLite file of something else: tables, but no schema version of the bot's."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()


SOURCES: dict[str, tuple[Any, str]] = {
    "missing": (None, "no SQLite database at"),
    "empty": (empty_file, "is empty"),
    "not-sqlite": (not_sqlite, "not a readable SQLite database"),
    "damaged": (damaged, "not a readable SQLite database"),
    "newer-schema": (newer, "newer than this code"),
    "not-a-bot-database": (foreign, "holds no bot database"),
}


@pytest.mark.parametrize("case", list(SOURCES))
async def test_a_source_it_cannot_take_is_refused_in_one_line_and_nothing_is_written(
    tmp_path: Path, pg_url: str, case: str
) -> None:
    make, says = SOURCES[case]
    source = tmp_path / "data" / "bot.sqlite3"
    source.parent.mkdir()
    if make is not None:
        made = make(source)
        if made is not None:
            await made
    before = folder(source)
    done = run_migrate(source, pg_url)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("python -m storage.migrate: ") and says in line
    assert done.stdout == ""
    assert folder(source) == before  # no byte changed, no -wal or -shm beside it
    assert await tables_in(pg_url) == 0  # the target was not touched


async def test_a_stopped_bots_file_is_copied_without_a_byte_or_a_file_beside_it_changed(
    tmp_path: Path, pg_url: str
) -> None:
    source = tmp_path / "bot.sqlite3"
    await bot_database(source)
    before = folder(source)
    assert list(before) == ["bot.sqlite3"]
    done = run_migrate(source, pg_url)
    assert done.returncode == 0, done.stderr
    assert "replayed 1 sessions (lobby=1): ok" in done.stdout
    assert folder(source) == before


async def test_a_running_bots_file_is_copied_without_changing_it(
    tmp_path: Path, pg_url: str
) -> None:
    source = tmp_path / "bot.sqlite3"
    async with await open_storage(source, exclusive=True) as sqlite:  # as the bot holds it
        service = make_service(sqlite, ManualClock())
        await lobby(service, 10)
        before = {name: data for name, data in folder(source).items() if name != "bot.sqlite3-shm"}
        done = run_migrate(source, pg_url)
        after = {name: data for name, data in folder(source).items() if name != "bot.sqlite3-shm"}
        await service.close()
    assert done.returncode == 0, done.stderr
    assert "replayed 1 sessions (lobby=1): ok" in done.stdout
    assert after == before  # the file and its WAL as the bot left them (-shm is shared memory)


async def test_an_unreachable_target_is_refused_in_one_line(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    await bot_database(source)
    before = folder(source)
    done = run_migrate(source, f"postgresql://postgres@/none?host={tmp_path / 'no-server'}")
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert "cannot connect to the target database" in line
    assert folder(source) == before
