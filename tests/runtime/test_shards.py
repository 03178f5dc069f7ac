"""Shards: services in several processes (here, several services on their own connections to
one database) each drive only the sessions of their own guilds, and a process that takes over
a shard resumes its sessions from the database. On both backends (`database`)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest
from toygame import AIS, GAMES

from games.engine import Session, Shards, Status, replay, shard_of
from runtime import Change, ManualClock, SessionService
from storage import Storage, open_storage
from tests.stores import execute

HOST = 1
TIMER = 60


def on_shard(shard: int, count: int = 2, n: int = 1) -> int:
    """A guild id Discord routes to `shard` of `count`."""
    return (n * count + shard) << 22


def make_service(
    storage: Storage,
    shards: Shards | None,
    *,
    ai_delay: float = 0,
    clock: ManualClock | None = None,
    seeds: int = 1000,
) -> SessionService:
    counter = itertools.count(seeds)
    return SessionService(
        storage.sessions,
        GAMES,
        AIS,
        ai_delay=ai_delay,
        seed_source=lambda: next(counter),
        clock=clock or ManualClock(),
        shards=shards,
    )


async def new_game(
    service: SessionService,
    guild: int | None,
    channel: int,
    *,
    first_seat: int | None = None,
    turn_timer: int | None = None,
    **options: Any,
) -> Session:
    """A started session of a player and an AI seat."""
    lobby = await service.create(
        "dicerace",
        guild_id=guild,
        channel_id=channel,
        host_id=HOST,
        host_name="host",
        locale="en",
        options=options,
        turn_timer=turn_timer,
    )
    await service.add_ai(lobby.id, HOST)
    await service.start(lobby.id, HOST, first_seat)
    return lobby


async def play(service: SessionService, session_id: str) -> Session:
    """Move for the player whenever it is their turn, until the game ends."""
    for _ in range(2000):
        await service.settle()
        session = await service.get(session_id)
        if session.record.status is not Status.ACTIVE:
            return session
        seats = session.rules.to_move(session.state).seats
        assert 0 in seats, "the AI seat was left to move"
        action = session.rules.legal_actions(session.state, 0)[-1]
        await service.submit(session_id, HOST, action, session.record.version)
        await asyncio.sleep(0)  # let the other process's games move in between
    raise AssertionError("the game did not end")


def recorder(service: SessionService) -> list[Change]:
    changes: list[Change] = []
    service.observe(changes.append)
    return changes


def test_a_guild_belongs_to_the_shard_discord_routes_it_to() -> None:
    assert shard_of(on_shard(1, 4, n=9), 4) == 1
    assert shard_of(None, 4) == 0  # direct messages: shard 0
    shards = Shards.of(4, (1, 3))
    assert shards.owns_guild(on_shard(3, 4)) and not shards.owns_guild(on_shard(2, 4))
    assert not shards.owns_guild(None) and Shards.of(4, (0,)).owns_guild(None)
    assert Shards.of(3).all and not shards.all
    with pytest.raises(ValueError):
        Shards.of(2, (2,))


async def test_two_processes_with_disjoint_shards_play_at_once_without_conflict(
    database: Path | str,
) -> None:
    async with await open_storage(database) as one, await open_storage(database) as two:
        first = make_service(one, Shards.of(2, (0,)), seeds=1000)
        second = make_service(two, Shards.of(2, (1,)), seeds=2000)
        changes = {first: recorder(first), second: recorder(second)}
        games: dict[SessionService, list[Session]] = {first: [], second: []}
        for n in range(3):
            games[first].append(await new_game(first, on_shard(0, n=n + 1), 100 + n, target=25))
            games[second].append(await new_game(second, on_shard(1, n=n + 1), 200 + n, target=25))
        # Each process also looks at the other's games (say, for /history): looking at a
        # session must not make a process drive it.
        for service, other in ((first, second), (second, first)):
            for session in games[other]:
                await service.get(session.id)
        ended = await asyncio.gather(
            *(play(service, s.id) for service, sessions in games.items() for s in sessions)
        )
        assert all(s.record.status is Status.FINISHED for s in ended)
        for service, owned in games.items():
            ids = {s.id for s in owned}
            assert {c.session.id for c in changes[service]} == ids  # only its own sessions
        for session in ended:
            loaded = await two.sessions.load(session.id)
            assert loaded is not None and loaded.record.version == session.record.version
            log = await one.sessions.log(session.id)
            assert [e.seq for e in log] == list(range(1, session.record.version + 1))
            config = session.rules.config_model.model_validate(loaded.record.config)
            assert replay(session.rules, config, log) == session.state
        await first.close()
        await second.close()


async def test_a_process_does_not_drive_another_shards_session(database: Path | str) -> None:
    async with await open_storage(database) as storage:
        owner = make_service(storage, Shards.of(2, (0,)), ai_delay=3600)
        session = await new_game(owner, on_shard(0), 10, first_seat=1)  # the AI is to move
        version = session.record.version
        await owner.close()
        other = make_service(storage, Shards.of(2, (1,)))
        await other.resume()
        await other.settle()
        looked = await other.get(session.id)
        await other.settle()
        assert looked.record.version == version  # loaded, but its AI never moved here
        assert await storage.sessions.awaiting_ai(other.shards) == []
        await other.close()


async def test_a_shard_handed_to_another_process_resumes_its_sessions(
    database: Path | str,
) -> None:
    clock = ManualClock()
    async with await open_storage(database) as storage:
        # Two processes ran a shard each; their AI never got to move before they stopped.
        zero = make_service(storage, Shards.of(2, (0,)), ai_delay=3600, clock=clock)
        one = make_service(storage, Shards.of(2, (1,)), ai_delay=3600, clock=clock, seeds=9)
        waiting_ai = await new_game(zero, on_shard(0), 10, first_seat=1)
        timed = await new_game(zero, on_shard(0, n=2), 11, first_seat=0, turn_timer=TIMER)
        direct = await new_game(zero, None, 12, first_seat=1)  # a game in DMs: shard 0
        elsewhere = await new_game(one, on_shard(1), 13, first_seat=1)
        due = timed.due("turn", 0)
        versions = {s.id: s.record.version for s in (waiting_ai, timed, direct, elsewhere)}
        await zero.close()
        await one.close()
    clock.advance(TIMER / 4)
    async with await open_storage(database) as storage:
        # A new process takes shard 0 over; shard 1 is not running yet.
        taker = make_service(storage, Shards.of(2, (0,)), clock=clock, seeds=5000)
        changes = recorder(taker)
        await taker.resume()
        await taker.settle()
        for session in (waiting_ai, direct):
            resumed = await taker.get(session.id)
            assert resumed.record.version > versions[session.id]
            assert resumed.rules.to_move(resumed.state).seats == {0}  # the AI moved
        timed_now = await taker.get(timed.id)
        assert timed_now.record.version == versions[timed.id]  # the player still has time
        assert timed_now.due("turn", 0) == due  # the stored deadline, not a new one
        clock.set(due)
        await taker.settle()
        assert timed_now.record.version > versions[timed.id]  # the timer ran out: AI played
        assert timed_now.record.seats[0].missed == 1
        assert elsewhere.id not in {c.session.id for c in changes}
        assert await storage.sessions.version(elsewhere.id) == versions[elsewhere.id]
        await taker.close()


async def test_a_move_made_in_another_process_is_driven_on_by_the_owner(pg_url: str) -> None:
    """A click in a DM reaches shard 0's process whatever the game's guild: that process
    commits the move and tells the others; the owner then plays the AI turn it made due."""
    async with await open_storage(pg_url) as one, await open_storage(pg_url) as two:
        owner = make_service(one, Shards.of(2, (1,)))
        dms = make_service(two, Shards.of(2, (0,)), seeds=7000)
        await owner.resume()
        await dms.resume()
        session = await new_game(owner, on_shard(1), 10, first_seat=0)
        await owner.settle()
        assert owner.owns(session.record) and not dms.owns(session.record)
        seen = recorder(owner)
        elsewhere = await dms.get(session.id)
        action = elsewhere.rules.legal_actions(elsewhere.state, 0)[-1]
        await dms.submit(session.id, HOST, action, elsewhere.record.version)
        version = elsewhere.record.version
        await dms.settle()
        assert elsewhere.record.version == version  # the other process never drives it

        async def ai_moved() -> None:
            while not any(c.actor == 1 for c in seen):
                await owner.settle()
                await asyncio.sleep(0.01)

        await asyncio.wait_for(ai_moved(), 60)
        assert (await owner.get(session.id)).record.version > version
        await owner.close()
        await dms.close()


async def test_the_owner_hears_of_moves_again_after_its_listening_connection_dropped(
    pg_url: str,
) -> None:
    async with await open_storage(pg_url) as one, await open_storage(pg_url) as two:
        heard: list[tuple[str, int | None]] = []
        await one.sessions.watch(lambda session_id, guild: heard.append((session_id, guild)))
        await execute(
            two,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
        )
        service = make_service(two, Shards.of(2, (0,)))  # not the game's shard: it tells
        channels = itertools.count(10)
        games: set[str] = set()

        async def told() -> None:
            # A game can end, or wait for its AI seat (which this process, not the game's
            # shard, never plays), before the listener is back (its reconnect backs off on a
            # busy machine); such a game tells nothing more: another is started then.
            session = await new_game(service, on_shard(1), next(channels), first_seat=0)
            games.add(session.id)
            while not games.intersection(s for s, guild in heard if guild == on_shard(1)):
                if 0 not in session.rules.to_move(session.state).seats:
                    session = await new_game(service, on_shard(1), next(channels), first_seat=0)
                    games.add(session.id)
                action = session.rules.legal_actions(session.state, 0)[-1]
                await service.submit(session.id, HOST, action, session.record.version)
                await asyncio.sleep(0.05)

        await asyncio.wait_for(told(), 60)
        await service.close()
