"""A rematch stores its lobby and its start in one write (`SessionStore.create`'s `first`):
one commit, not two in a row; refused, it leaves nothing held or stored, and a taken id still
costs no one their new game. On each backend's store (the `storage` fixture)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from toygame import AIS, GAMES

from games.engine import GameError, Reason, Status
from runtime import ManualClock, SessionService
from storage import Storage, open_storage
from storage.sqlite import SqliteDatabase
from tests.runtime.test_service import BOB, CHANNEL, HOST, ids_from, new_game, play


def service_of(storage: Storage, *ids: str) -> SessionService:
    seeds = itertools.count(1000)
    return SessionService(
        storage.sessions,
        GAMES,
        AIS,
        seed_source=lambda: next(seeds),
        clock=ManualClock(),
        id_source=ids_from(*ids),
    )


async def test_a_rematch_on_sqlite_is_one_statement(tmp_path: Path) -> None:
    storage = await open_storage(tmp_path / "bot.db")
    service = service_of(storage)
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        assert session.record.status is Status.FINISHED
        assert isinstance(storage.db, SqliteDatabase)
        statements: list[str] = []
        await storage.db.trace(statements.append)
        change = await service.rematch(session.id, HOST)
        await storage.db.trace(None)
        # A read may reload the finished game; the trace names the write again for each
        # statement its triggers run: no BEGIN, no COMMIT, no batch of moves of its own.
        [write] = {s for s in statements if not s.startswith("SELECT")}
        assert write.startswith("INSERT INTO move_batch")
        loaded = await storage.sessions.load(change.session.id)
        assert loaded is not None and loaded.record == change.session.record
        assert loaded.record.status is Status.ACTIVE
    finally:
        await service.close()
        await storage.close()


async def test_a_refused_rematch_leaves_no_lobby_held_or_stored(storage: Storage) -> None:
    service = service_of(storage, "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc")
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        busy = await service.create(
            "dicerace",
            guild_id=1,
            channel_id=CHANNEL,
            host_id=BOB,
            host_name="bob",
            locale="en",
            options={},
        )
        with pytest.raises(GameError) as refused:
            await service.rematch(session.id, HOST)
        assert refused.value.reason is Reason.CHANNEL_BUSY
        assert await storage.sessions.load("cccccccccccccccc") is None
        with pytest.raises(GameError) as unknown:
            await service.get("cccccccccccccccc")
        assert unknown.value.reason is Reason.UNKNOWN_SESSION
        live = await service.live_in_channel(CHANNEL)
        assert live is not None and live.id == busy.id
    finally:
        await service.close()


async def test_a_rematch_under_a_taken_id_starts_under_another(storage: Storage) -> None:
    taken = "00112233aabbccdd"
    await storage.records.add(
        guild_id=1,
        channel_id=CHANNEL + 1,
        game_id="dicerace",
        session_id=taken,
        result="win",
        score=1,
        players=1,
        won=True,
    )
    service = service_of(storage, "aaaaaaaaaaaaaaaa", taken)
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        change = await service.rematch(session.id, HOST)
        assert change.session.id != taken and change.session.record.status is Status.ACTIVE
        assert await storage.sessions.version(taken) is None
        live = await service.live_in_channel(CHANNEL)
        assert live is not None and live.id == change.session.id
    finally:
        await service.close()
