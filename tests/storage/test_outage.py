"""A PostgreSQL outage in the middle of play: the server stopped under moves in flight, then
started again. Moves meanwhile are refused with StoreUnavailable (nothing else), nothing
acknowledged is lost, and play (players' moves, AI seats) resumes by itself.

The server is a throwaway one of its own (`stoppable_cluster`): stopping it disturbs no other
test.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from toygame import AIS, GAMES

from games.engine import Session, Status
from runtime import SessionService
from storage import Storage, open_storage
from storage.session_store import StoreUnavailable
from tests.pgserver import Cluster

GAMES_IN_PLAY = 4
CEILING = 120.0
"""Seconds any wait here may take at most (a loaded machine is slow, never this slow)."""


async def started(service: SessionService, channel: int) -> Session:
    """A dice race of a player (user `channel`) against an AI seat."""
    session = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=channel,
        host_id=channel,
        host_name="player",
        locale="en",
        options={"target": 10_000},
    )
    await service.add_ai(session.id, channel)
    await service.start(session.id, channel, 0)
    return session


async def move(service: SessionService, session_id: str) -> int | None:
    """The player's move when it is their turn: the version it stored, or None (not their
    turn yet: the AI seat is to move)."""
    session = await service.get(session_id)
    if 0 not in session.waiting.seats:
        return None
    action = session.rules.legal_actions(session.state, 0)[-1]
    change = await service.submit(
        session_id, session.record.host_id, action, session.record.version
    )
    return change.session.record.version


class Player:
    """Moves in one game as fast as it can, counting what was acknowledged and refused."""

    def __init__(self, service: SessionService, session_id: str) -> None:
        self.service, self.session_id = service, session_id
        self.acknowledged = 0
        """The latest version a move of ours was acknowledged at."""
        self.moves = 0
        self.refused = 0
        self.stop = False

    async def play(self) -> None:
        while not self.stop:
            try:
                version = await move(self.service, self.session_id)
            except StoreUnavailable:
                self.refused += 1
                await asyncio.sleep(0.01)
                continue
            if version is None:
                await asyncio.sleep(0.005)  # the AI seat moves by itself
                continue
            self.acknowledged, self.moves = version, self.moves + 1


async def until(condition: object, what: str) -> None:
    """Wait (polling, the store has no event to wait on) until `condition()` holds."""

    async def wait() -> None:
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(wait(), CEILING)
    except TimeoutError:
        raise AssertionError(f"still waiting after {CEILING} s: {what}") from None


async def test_an_outage_loses_nothing_acknowledged_and_play_resumes_by_itself(
    stoppable_cluster: Cluster, stoppable_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    storage = await open_storage(stoppable_url)
    service = SessionService(storage.sessions, GAMES, AIS, ai_delay=0.01)
    sessions = [await started(service, channel) for channel in range(10, 10 + GAMES_IN_PLAY)]
    players = [Player(service, session.id) for session in sessions]
    tasks = [asyncio.create_task(player.play()) for player in players]
    try:
        await until(lambda: all(p.moves >= 5 for p in players), "moves before the outage")
        await asyncio.to_thread(stoppable_cluster.stop_server)
        await until(lambda: all(p.refused >= 3 for p in players), "moves refused in the outage")
        during = [p.moves for p in players]
        await asyncio.to_thread(stoppable_cluster.start_server)
        await until(
            lambda: all(p.moves >= m + 5 for p, m in zip(players, during, strict=True)),
            "moves after the server came back",
        )
    finally:
        for player in players:
            player.stop = True
        await asyncio.gather(*tasks)
    await service.settle()
    live = {s.id: (await service.get(s.id)).record for s in sessions}
    await service.close()
    await storage.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    reopened = await open_storage(stoppable_url)
    try:
        fresh = SessionService(reopened.sessions, GAMES, AIS)
        for player, session in zip(players, sessions, strict=True):
            stored = await fresh.get(session.id)
            assert stored.record.version >= player.acknowledged  # nothing acknowledged lost
            assert stored.record == live[session.id]  # memory and store agree
            assert len(await reopened.sessions.log(session.id)) == stored.record.version
            assert stored.record.status is Status.ACTIVE
        await fresh.close()
    finally:
        await reopened.close()


async def test_a_move_in_an_outage_changes_nothing_and_the_next_one_after_it_plays(
    stoppable_cluster: Cluster, stoppable_url: str
) -> None:
    storage: Storage = await open_storage(stoppable_url)
    service = SessionService(storage.sessions, GAMES, AIS, ai_delay=0)
    try:
        session = await started(service, 10)
        await until(lambda: 0 in session.waiting.seats, "the player's turn")
        before = session.record
        await asyncio.to_thread(stoppable_cluster.stop_server)
        try:
            with pytest.raises(StoreUnavailable):
                await move(service, session.id)
            with pytest.raises(StoreUnavailable):
                await service.get(session.id)  # not cached: the refused move dropped it
        finally:
            await asyncio.to_thread(stoppable_cluster.start_server)
        reloaded = await service.get(session.id)
        assert reloaded.record == before  # nothing was changed
        assert await move(service, session.id) == before.version + 2  # the move and its roll
    finally:
        await service.close()
        await storage.close()
