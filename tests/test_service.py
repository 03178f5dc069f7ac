"""The session service over SqliteSessionStore, driven with the toy dice game."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from toygame import GAMES, Close, Move, Vote

from games.engine import CHANCE, SYSTEM, Change, GameError, Reason, Session, SessionService, Status
from storage import Storage, open_storage

HOST, BOB, CAROL, EVE = 1, 2, 3, 99
CHANNEL = 10


def make_service(storage: Storage, ai_delay: float = 0) -> SessionService:
    seeds = itertools.count(1000)
    return SessionService(
        storage.sessions, GAMES, ai_delay=ai_delay, seed_source=lambda: next(seeds)
    )


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await open_storage(tmp_path / "bot.db")
    yield opened
    await opened.close()


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[SessionService]:
    svc = make_service(storage)
    yield svc
    await svc.close()
    await svc.settle()


async def open_lobby(
    service: SessionService, host: int = HOST, channel: int = CHANNEL, **options: Any
) -> Session:
    return await service.create(
        "dicerace",
        guild_id=1,
        channel_id=channel,
        host_id=host,
        host_name=f"user{host}",
        locale="en",
        options=options,
    )


async def new_game(
    service: SessionService,
    humans: tuple[int, ...] = (HOST, BOB),
    ai: int = 0,
    first_seat: int | None = None,
    channel: int = CHANNEL,
    **options: Any,
) -> Session:
    """A started session: `humans` (the first one hosts), then `ai` AI seats."""
    session = await open_lobby(service, humans[0], channel, **options)
    for user in humans[1:]:
        await service.join(session.id, user, f"user{user}")
    for _ in range(ai):
        await service.add_ai(session.id, humans[0])
    await service.start(session.id, humans[0], first_seat)
    return session


async def play(
    service: SessionService, session_id: str, stop: Callable[[Session], bool] = lambda s: False
) -> Session:
    """Let AI seats move, then move for the lowest human seat, until `stop` or the end."""
    for _ in range(1000):
        await service.settle()
        session = await service.get(session_id)
        if session.record.status is not Status.ACTIVE or stop(session):
            return session
        seat = min(session.rules.to_move(session.state).seats)
        user = session.record.seats[seat].user_id
        assert user is not None, "an AI seat was left to move"
        action = session.rules.legal_actions(session.state, seat)[-1]
        await service.submit(session_id, user, action, session.record.version)
    raise AssertionError("the game did not end")


def to_move(session: Session) -> frozenset[int]:
    return session.rules.to_move(session.state).seats


async def log_length(storage: Storage, session_id: str) -> int:
    return len(await storage.sessions.log(session_id))


async def test_lobby_join_add_ai_start(service: SessionService, storage: Storage) -> None:
    session = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="Host",
        locale="en",
        options={"target": 15},
    )
    await service.join(session.id, BOB, "Bob")
    with pytest.raises(GameError) as seated:
        await service.join(session.id, BOB, "Bob")
    assert seated.value.reason is Reason.ALREADY_SEATED
    with pytest.raises(GameError) as not_host:
        await service.add_ai(session.id, BOB)
    assert not_host.value.reason is Reason.NOT_HOST
    await service.add_ai(session.id, HOST)
    with pytest.raises(GameError) as not_host:
        await service.start(session.id, BOB)
    assert not_host.value.reason is Reason.NOT_HOST
    change = await service.start(session.id, HOST)
    assert change.kind == "start"
    record = session.record
    assert record.status is Status.ACTIVE and record.version == 1  # the first roll
    assert [(s.user_id, s.name) for s in record.seats] == [(HOST, "Host"), (BOB, "Bob"), (None, "")]
    assert to_move(session) == {0}
    loaded = await storage.sessions.load(session.id)
    assert loaded is not None and loaded.record == record
    assert [e.actor for e in loaded.log] == [CHANCE]
    with pytest.raises(GameError) as started:
        await service.join(session.id, CAROL, "Carol")
    assert started.value.reason is Reason.NOT_IN_LOBBY


async def test_concurrent_submits_one_applies(service: SessionService, storage: Storage) -> None:
    session = await new_game(service)
    await play(service, session.id, stop=lambda s: to_move(s) == {0, 1})  # the vote window
    version, length = session.record.version, await log_length(storage, session.id)
    results = await asyncio.gather(
        service.submit(session.id, HOST, Vote(yes=True), version),
        service.submit(session.id, BOB, Vote(yes=False), version),
        return_exceptions=True,
    )
    changes = [r for r in results if isinstance(r, Change)]
    errors = [r for r in results if isinstance(r, GameError)]
    assert len(changes) == 1 and len(errors) == 1
    assert errors[0].reason is Reason.STALE_VERSION
    assert session.record.version == version + 1
    assert await log_length(storage, session.id) == length + 1


async def test_concurrent_submits_from_two_processes(tmp_path: Path) -> None:
    """Two services on two connections: the store's version check picks one winner."""
    path = tmp_path / "bot.db"
    async with await open_storage(path) as one, await open_storage(path) as two:
        first, second = make_service(one), make_service(two)
        session = await new_game(first)
        await play(first, session.id, stop=lambda s: to_move(s) == {0, 1})
        version = session.record.version
        other = await second.get(session.id)
        assert other.record.version == version and other.state == session.state
        results = await asyncio.gather(
            first.submit(session.id, HOST, Vote(yes=True), version),
            second.submit(session.id, BOB, Vote(yes=True), version),
            return_exceptions=True,
        )
        errors = [r for r in results if isinstance(r, GameError)]
        assert len(errors) == 1 and errors[0].reason is Reason.STALE_VERSION
        assert len(await one.sessions.log(session.id)) == version + 1
        # The loser reloads on next use and sees the winner's move.
        loser = second if isinstance(results[1], GameError) else first
        reloaded = await loser.get(session.id)
        assert reloaded.record.version == version + 1
        await first.close()
        await second.close()


async def test_new_service_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with await open_storage(path) as storage:
        service = make_service(storage)
        session = await new_game(service, (HOST,), ai=1, target=40)
        await play(service, session.id, stop=lambda s: s.record.version > 25)
        state, record = session.state, session.record
        await service.close()
    async with await open_storage(path) as storage:
        loaded = await storage.sessions.load(session.id)
        assert loaded is not None and loaded.snapshot is not None  # the snapshot was used
        assert len(loaded.log) < record.version
        service = make_service(storage)
        again = await service.get(session.id)
        assert again.state == state and again.record == record
        seat = min(to_move(again))
        action = again.rules.legal_actions(again.state, seat)[0]
        await service.submit(session.id, HOST, action, record.version)
        assert again.record.version > record.version
        finished = await play(service, session.id)
        assert finished.record.status is Status.FINISHED
        await service.close()


async def test_resume_restarts_ai_seats(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with await open_storage(path) as storage:
        slow = make_service(storage, ai_delay=3600)  # the AI never gets to move here
        session = await new_game(slow, (HOST,), ai=1, first_seat=1)
        version = session.record.version
        await slow.close()
    async with await open_storage(path) as storage:
        service = make_service(storage)
        await service.resume()
        await service.settle()
        resumed = await service.get(session.id)
        assert resumed.record.version > version
        assert to_move(resumed) == {0}  # the AI moved; now the human is to move
        await service.close()


async def test_refused_submits_change_nothing(service: SessionService, storage: Storage) -> None:
    session = await new_game(service)
    assert to_move(session) == {0}
    attempts = [
        (EVE, Move(amount=1), session.record.version, Reason.NOT_A_PLAYER),
        (BOB, Move(amount=1), session.record.version, Reason.NOT_YOUR_TURN),
        (HOST, Move(amount=99), session.record.version, Reason.ILLEGAL_MOVE),
        (HOST, Vote(yes=True), session.record.version, Reason.ILLEGAL_MOVE),
        (HOST, Close(), session.record.version, Reason.ILLEGAL_MOVE),
        (HOST, Move(amount=1), session.record.version - 1, Reason.STALE_VERSION),
    ]
    for user, action, version, reason in attempts:
        state, record = session.state, session.record
        length = await log_length(storage, session.id)
        with pytest.raises(GameError) as refused:
            await service.submit(session.id, user, action, version)
        assert refused.value.reason is reason
        assert session.state == state and session.record == record
        assert await log_length(storage, session.id) == length
        loaded = await storage.sessions.load(session.id)
        assert loaded is not None and loaded.record == record


async def test_submit_in_lobby_refused(service: SessionService) -> None:
    session = await open_lobby(service)
    with pytest.raises(GameError) as refused:
        await service.submit(session.id, HOST, Move(amount=1), 0)
    assert refused.value.reason is Reason.NOT_IN_LOBBY


async def test_ai_seats_play_until_a_human_is_to_move(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, (HOST,), ai=2, first_seat=1)
    await service.settle()
    assert to_move(session) == {0}
    actors = {entry.actor for entry in await storage.sessions.log(session.id)}
    assert {1, 2, CHANCE} <= actors and 0 not in actors
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.settle()
    assert to_move(session) == {0}  # AI moved, then voted; only the host's vote is left
    assert session.state.phase == "vote"


async def test_timed_window_closes_by_itself(service: SessionService, storage: Storage) -> None:
    changes: list[Change] = []

    async def listen(change: Change) -> None:
        changes.append(change)

    service.subscribe(listen)
    session = await new_game(service, window=0.01)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.submit(session.id, BOB, Move(amount=1), session.record.version)
    assert session.state.phase == "vote"
    totals = session.state.totals
    await service.settle()  # nobody votes: the clock closes the window
    assert session.state.phase == "play" and session.state.totals == totals
    log = await storage.sessions.log(session.id)
    closes = [e for e in log if e.actor == SYSTEM]
    assert [e.action for e in closes] == [{"kind": "close"}]
    assert changes[-1].actor == SYSTEM


async def test_timed_window_closed_early_by_votes(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, window=0.05)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.submit(session.id, BOB, Move(amount=1), session.record.version)
    await service.submit(session.id, HOST, Vote(yes=True), session.record.version)
    await service.submit(session.id, BOB, Vote(yes=True), session.record.version)
    await service.settle()  # the stale timer wakes, sees a newer version, does nothing
    log = await storage.sessions.log(session.id)
    assert all(e.actor != SYSTEM for e in log)


async def test_busy_channel(service: SessionService) -> None:
    session = await new_game(service)
    with pytest.raises(GameError) as busy:
        await new_game(service, (CAROL,), ai=1)
    assert busy.value.reason is Reason.CHANNEL_BUSY
    await new_game(service, (CAROL,), ai=1, channel=CHANNEL + 1)
    await service.abandon(session.id, HOST)
    await new_game(service, (CAROL,), ai=1)


async def test_busy_channel_across_processes(tmp_path: Path) -> None:
    """The service's channel lock is per process; the database backs it up."""
    path = tmp_path / "bot.db"
    async with await open_storage(path) as one, await open_storage(path) as two:
        services = [make_service(one), make_service(two)]
        results = await asyncio.gather(
            open_lobby(services[0], HOST), open_lobby(services[1], BOB), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, GameError)]
        assert len(errors) == 1 and errors[0].reason is Reason.CHANNEL_BUSY
        assert len(await one.sessions.live_sessions()) == 1


async def test_leave(service: SessionService, storage: Storage) -> None:
    lobby = await open_lobby(service)
    await service.join(lobby.id, BOB, "Bob")
    await service.leave(lobby.id, HOST)
    assert lobby.record.host_id == BOB and len(lobby.record.seats) == 1
    change = await service.leave(lobby.id, BOB)
    assert change.kind == "abandon" and lobby.record.status is Status.ABANDONED

    session = await new_game(service, (HOST, BOB))
    change = await service.leave(session.id, BOB)
    assert change.kind == "leave"
    assert session.record.seats[1].is_ai and session.record.seats[1].name == f"user{BOB}"
    loaded = await storage.sessions.load(session.id)
    assert loaded is not None and loaded.record.seats[1].user_id is None
    length = await log_length(storage, session.id)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.settle()  # the AI that took Bob's seat moved and voted
    assert to_move(session) == {0}
    log = await storage.sessions.log(session.id, after=length)
    assert any(e.actor == 1 for e in log)
    with pytest.raises(GameError) as gone:
        await service.submit(session.id, BOB, Vote(yes=True), session.record.version)
    assert gone.value.reason is Reason.NOT_A_PLAYER


async def test_abandon(service: SessionService, storage: Storage) -> None:
    session = await new_game(service)
    with pytest.raises(GameError) as refused:
        await service.abandon(session.id, BOB)
    assert refused.value.reason is Reason.NOT_HOST
    assert session.record.status is Status.ACTIVE
    change = await service.abandon(session.id, BOB, admin=True)
    assert change.kind == "abandon" and session.record.status is Status.ABANDONED
    loaded = await storage.sessions.load(session.id)
    assert loaded is not None and loaded.record.status is Status.ABANDONED
    assert await service.live_in_channel(CHANNEL) is None
    with pytest.raises(GameError) as over:
        await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    assert over.value.reason is Reason.GAME_OVER


async def test_rematch(service: SessionService) -> None:
    session = await new_game(service, (HOST, BOB), ai=1, target=4)
    with pytest.raises(GameError) as playing:
        await service.rematch(session.id, HOST)
    assert playing.value.detail == "still_playing"
    await play(service, session.id)
    assert session.record.status is Status.FINISHED
    assert session.rules.outcome(session.state) is not None
    with pytest.raises(GameError) as outsider:
        await service.rematch(session.id, EVE)
    assert outsider.value.reason is Reason.NOT_A_PLAYER
    change = await service.rematch(session.id, BOB)
    new = change.session
    assert change.kind == "start" and new.id != session.id
    assert new.record.status is Status.ACTIVE and new.record.seats == session.record.seats
    assert new.record.options == session.record.options and new.record.host_id == BOB
    live = await service.live_in_channel(CHANNEL)
    assert live is not None and live.id == new.id


async def test_listeners_see_every_change(service: SessionService, storage: Storage) -> None:
    seen: list[tuple[str, int | None, int]] = []

    async def listen(change: Change) -> None:
        seen.append((change.kind, change.actor, change.session.record.version))

    async def broken(change: Change) -> None:
        raise RuntimeError("a failing listener must not stop the others")

    service.subscribe(broken)
    service.subscribe(listen)
    session = await new_game(service, (HOST, BOB), ai=1, target=6)
    await play(service, session.id)
    assert [kind for kind, _, _ in seen[:3]] == ["lobby", "lobby", "start"]
    moves = seen[3:]
    assert {kind for kind, _, _ in moves} == {"move"}
    versions = [version for _, _, version in seen[2:]]
    assert versions == sorted(set(versions)) and versions[-1] == session.record.version
    log = await storage.sessions.log(session.id)
    assert [e.actor for e in log if e.actor != CHANCE] == [actor for _, actor, _ in moves]


async def test_concurrent_first_loads_share_one_session(tmp_path: Path) -> None:
    """A `get` racing a submit's first load must not cache a copy at the old version."""
    async with await open_storage(tmp_path / "bot.db") as storage:
        first = make_service(storage)
        session = await new_game(first)
        await first.close()
        service = make_service(storage)  # a restart: nothing cached
        version = session.record.version
        change, _ = await asyncio.gather(
            service.submit(session.id, HOST, Move(amount=1), version), service.get(session.id)
        )
        cached = await service.get(session.id)
        assert cached is change.session and cached.record.version > version
        await service.submit(session.id, BOB, Move(amount=1), cached.record.version)
        await service.close()


async def test_ai_recovers_when_another_writer_moved_on(tmp_path: Path) -> None:
    """An AI move refused as stale is retried on the reloaded session, not dropped."""
    path = tmp_path / "bot.db"
    async with await open_storage(path) as one, await open_storage(path) as two:
        first, second = make_service(one), make_service(two, ai_delay=3600)
        interfered: list[int] = []

        async def vote_elsewhere(change: Change) -> None:
            session = change.session
            if session.state.phase == "vote" and not interfered:
                other = await second.get(session.id)
                interfered.append(other.record.version)
                await second.submit(session.id, HOST, Vote(yes=True), other.record.version)

        first.subscribe(vote_elsewhere)
        session = await new_game(first, (HOST,), ai=1)
        await first.submit(session.id, HOST, Move(amount=1), session.record.version)
        await first.settle()  # the AI moves, then its vote is refused once as stale
        assert interfered
        reloaded = await first.get(session.id)
        assert reloaded.record.version > interfered[0] + 1
        assert reloaded.state.phase == "play" and to_move(reloaded) == {0}
        await first.close()
        await second.close()
