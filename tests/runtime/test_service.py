"""The session service over each backend's store (SQLite, then PostgreSQL: the `database`
fixture), driven with the toy dice game.

Time is a `ManualClock`: deadlines fire when a test moves it, never by waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import math
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from toygame import AIS, GAMES, Close, Move, Vote

from games.engine import (
    CHANCE,
    NORMAL,
    STRONG,
    SYSTEM,
    Deadline,
    GameError,
    Reason,
    Session,
    Status,
)
from games.thegame.models import Play
from runtime import Change, Clock, ManualClock, SessionService, new_session_id
from runtime.cache import YOUNG_COLLECTION
from storage import Storage, open_storage
from storage.session_store import SessionIdTaken
from tests.stores import execute, scalar

HOST, BOB, CAROL, EVE = 1, 2, 3, 99
CHANNEL = 10


def make_service(
    storage: Storage, ai_delay: float = 0, clock: Clock | None = None
) -> SessionService:
    seeds = itertools.count(1000)
    return SessionService(
        storage.sessions,
        GAMES,
        AIS,
        ai_delay=ai_delay,
        seed_source=lambda: next(seeds),
        clock=ManualClock() if clock is None else clock,
    )


async def stored_deadlines(storage: Storage, session_id: str) -> list[Deadline]:
    """The session's deadlines as stored, earliest first."""
    loaded = await storage.sessions.load(session_id)
    return [] if loaded is None else list(loaded.deadlines)


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[SessionService]:
    svc = make_service(storage)
    yield svc
    await svc.close()
    await svc.settle()


async def open_lobby(
    service: SessionService,
    host: int = HOST,
    channel: int = CHANNEL,
    turn_timer: int | None = None,
    **options: Any,
) -> Session:
    return await service.create(
        "dicerace",
        guild_id=1,
        channel_id=channel,
        host_id=host,
        host_name=f"user{host}",
        locale="en",
        options=options,
        turn_timer=turn_timer,
    )


async def new_game(
    service: SessionService,
    humans: tuple[int, ...] = (HOST, BOB),
    ai: int = 0,
    first_seat: int | None = None,
    channel: int = CHANNEL,
    turn_timer: int | None = None,
    **options: Any,
) -> Session:
    """A started session: `humans` (the first one hosts), then `ai` AI seats."""
    session = await open_lobby(service, humans[0], channel, turn_timer, **options)
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


def clock(service: SessionService) -> ManualClock:
    assert isinstance(service.clock, ManualClock)
    return service.clock


async def log_length(storage: Storage, session_id: str) -> int:
    return len(await storage.sessions.log(session_id))


async def test_a_level_the_game_does_not_offer_is_refused_and_seats_nobody(
    service: SessionService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(AIS, "dicerace", replace(AIS["dicerace"], levels=(NORMAL,)))
    session = await open_lobby(service)
    with pytest.raises(GameError) as refused:
        await service.add_ai(session.id, HOST, STRONG)
    assert (refused.value.reason, refused.value.detail) == (Reason.BAD_OPTION, "ai_level")
    assert len(session.record.seats) == 1
    await service.add_ai(session.id, HOST, NORMAL)
    assert [s.ai_level for s in session.record.seats[1:]] == [NORMAL]


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
    assert [e.actor for e in await storage.sessions.log(session.id)] == [CHANCE]
    assert loaded.snapshot is not None and loaded.snapshot.version == 1  # taken at the deal
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


async def test_concurrent_submits_from_two_processes(database: Path | str) -> None:
    """Two services on two connections: the store's version check picks one winner."""
    path = database
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


async def test_new_service_resumes_where_it_stopped(database: Path | str) -> None:
    path = database
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


async def test_resume_restarts_ai_seats(database: Path | str) -> None:
    path = database
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


async def test_the_actions_of_one_click_are_stored_together_as_one_change(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, moves=2)  # two moves a turn
    await service.settle()
    changes: list[Change] = []

    async def listen(change: Change) -> None:
        changes.append(change)

    service.subscribe(listen)
    writes = await count_writes(storage)
    version = session.record.version
    await service.submit_all(session.id, HOST, (Move(amount=1), Move(amount=1)), version)
    await service.settle()
    assert writes == [1]  # one commit for both
    log = await storage.sessions.log(session.id, after=version)
    assert [(e.actor, e.action) for e in log[:2]] == [(0, {"kind": "move", "amount": 1})] * 2
    assert [e.actor for e in log[2:]] == [CHANCE]  # the next turn's roll, due after them
    assert len(changes) == 1 and [e.key for e in changes[0].events][:2] == ["toy.move"] * 2
    assert to_move(session) == {1}


async def test_one_refused_action_of_a_click_stores_none_of_them(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, moves=2)
    state, record = session.state, session.record
    length = await log_length(storage, session.id)
    for actions in ((Move(amount=1), Move(amount=99)), (Move(amount=1), None), ()):
        with pytest.raises(GameError) as refused:
            await service.submit_all(session.id, HOST, actions, record.version)
        assert refused.value.reason is Reason.ILLEGAL_MOVE
        assert session.state == state and session.record == record
        assert await log_length(storage, session.id) == length


@pytest.mark.parametrize(
    "actions",
    [Move(amount=1), 5, "move", b"move", {"amount": 1}, (m for m in [Move(amount=1)])],
    ids=["an-action-alone", "a-number", "a-string", "bytes", "a-dict", "a-generator"],
)
async def test_a_click_whose_actions_are_not_a_sequence_is_a_refused_move(
    service: SessionService, storage: Storage, actions: Any
) -> None:
    session = await new_game(service, moves=2)
    state, record = session.state, session.record
    length = await log_length(storage, session.id)
    with pytest.raises(GameError) as refused:
        await service.submit_all(session.id, HOST, actions, record.version)
    assert (refused.value.reason, refused.value.detail) == (Reason.ILLEGAL_MOVE, "malformed_action")
    assert session.state == state and session.record == record
    assert await log_length(storage, session.id) == length


@pytest.mark.parametrize(
    "actions",
    [({"amount": 1},), ("move",), (Play(card=2, pile=0),), (Move(amount=1), 7)],
    ids=["a-dict", "a-string", "another-games-action", "a-number-after-an-action"],
)
async def test_a_click_whose_items_are_not_actions_of_the_game_is_a_refused_move(
    service: SessionService, storage: Storage, actions: Any
) -> None:
    session = await new_game(service, moves=2)
    state, record = session.state, session.record
    length = await log_length(storage, session.id)
    with pytest.raises(GameError) as refused:
        await service.submit_all(session.id, HOST, actions, record.version)
    assert refused.value.reason is Reason.ILLEGAL_MOVE
    assert refused.value.detail in {"unknown_action", "malformed_action"}
    assert session.state == state and session.record == record
    assert await log_length(storage, session.id) == length


async def count_writes(storage: Storage) -> list[int]:
    """A one-item list counting the session store's writes from now on."""
    count = [0]
    write = storage.sessions.write

    def counted(change: Any) -> Any:
        count[0] += 1
        return write(change)

    storage.sessions.write = counted  # type: ignore[method-assign]
    return count


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
    session = await new_game(service, window=60)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.submit(session.id, BOB, Move(amount=1), session.record.version)
    assert session.state.phase == "vote"
    totals = session.state.totals
    clock(service).advance(59.9)
    await service.settle()
    assert session.state.phase == "vote"
    clock(service).advance(0.1)
    await service.settle()  # nobody voted: the clock closes the window
    assert session.state.phase == "play" and session.state.totals == totals
    log = await storage.sessions.log(session.id)
    closes = [e for e in log if e.actor == SYSTEM]
    assert [e.action for e in closes] == [{"kind": "close"}]
    assert changes[-1].actor == SYSTEM


async def test_timed_window_closed_early_by_votes(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, window=60)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.submit(session.id, BOB, Move(amount=1), session.record.version)
    assert session.due("window") is not None
    await service.submit(session.id, HOST, Vote(yes=True), session.record.version)
    await service.submit(session.id, BOB, Vote(yes=True), session.record.version)
    assert session.due("window") is None and await stored_deadlines(storage, session.id) == []
    clock(service).advance(3600)
    await service.settle()
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


async def test_busy_channel_across_processes(database: Path | str) -> None:
    """The service's channel lock is per process; the database backs it up."""
    path = database
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


async def test_concurrent_first_loads_share_one_session(database: Path | str) -> None:
    """A `get` racing a submit's first load must not cache a copy at the old version."""
    async with await open_storage(database) as storage:
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


async def test_ai_recovers_when_another_writer_moved_on(database: Path | str) -> None:
    """An AI move refused as stale is retried on the reloaded session, not dropped."""
    path = database
    async with await open_storage(path) as one, await open_storage(path) as two:
        first, second = make_service(one, ai_delay=10), make_service(two)
        session = await new_game(first, (HOST,), ai=1)
        await first.submit(session.id, HOST, Move(amount=1), session.record.version)
        clock(first).advance(10)
        await first.settle()  # the AI moved; its vote waits for the next 10 s
        assert session.state.phase == "vote" and to_move(session) == {0, 1}
        other = await second.get(session.id)
        await second.submit(session.id, HOST, Vote(yes=True), other.record.version)
        interfered = other.record.version
        clock(first).advance(10)
        await first.settle()  # the AI's vote is refused once as stale, then played again
        reloaded = await first.get(session.id)
        assert reloaded is not session and reloaded.record.version > interfered + 1
        assert reloaded.state.phase == "play" and to_move(reloaded) == {0}
        log = await one.sessions.log(session.id, after=interfered)
        assert [e.actor for e in log][:1] == [1]  # the AI's vote, right after the host's
        await first.close()
        await second.close()


async def test_the_commit_hook_is_told_of_each_committed_change_and_not_of_a_refused_one(
    storage: Storage,
) -> None:
    waited: list[float] = []
    service = SessionService(
        storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock(), on_commit=waited.append
    )
    try:
        session = await new_game(service, first_seat=0)  # join and start: two commits
        assert len(waited) == 2
        with pytest.raises(GameError):
            await service.submit(session.id, HOST, Move(amount=1), session.record.version - 1)
        assert len(waited) == 2
        await service.submit(session.id, HOST, Move(amount=1), session.record.version)
        assert len(waited) == 3 and all(seconds >= 0 for seconds in waited)
    finally:
        await service.close()


# Listeners ----------------------------------------------------------------------------------


async def test_listeners_run_after_the_caller_has_the_change_in_order(
    service: SessionService,
) -> None:
    committed: list[tuple[Change, int]] = []
    heard: list[Change] = []

    def observe(change: Change) -> None:
        committed.append((change, change.session.record.version))

    async def listen(change: Change) -> None:
        heard.append(change)

    service.observe(observe)
    service.subscribe(listen)
    session = await new_game(service)
    change = await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    assert committed[-1] == (change, session.record.version)  # observed at the commit
    assert all(c is not change for c in heard)  # listeners have not run yet
    await service.submit(session.id, BOB, Move(amount=1), session.record.version)
    await service.settle()
    assert len(heard) == len(committed) == 4  # join, start, two moves: in commit order
    assert all(h is c for h, (c, _) in zip(heard, committed, strict=True))
    versions = [version for _, version in committed]
    assert versions == sorted(versions)


async def test_observers_are_told_once_the_session_lock_is_let_go(
    service: SessionService,
) -> None:
    told: list[tuple[str, bool]] = []

    def observe(change: Change) -> None:
        told.append((change.kind, change.session.id in service._core.locks))

    service.observe(observe)
    session = await new_game(service)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    assert told == [("lobby", False), ("start", False), ("move", False)]


async def test_changes_racing_for_a_session_are_told_in_commit_order(
    service: SessionService,
) -> None:
    observed: list[str] = []
    heard: list[str] = []

    async def listen(change: Change) -> None:
        heard.append(change.kind)

    service.observe(lambda change: observed.append(change.kind))
    service.subscribe(listen)
    session = await new_game(service, (HOST, BOB, CAROL))
    await service.settle()
    observed.clear()
    heard.clear()
    version = session.record.version
    move = service.submit(session.id, HOST, Move(amount=1), version)
    await asyncio.gather(move, service.leave(session.id, CAROL), service.hint(session.id, BOB))
    await service.settle()
    assert observed == heard == ["move", "leave", "hint"]  # the order they took the lock


async def test_a_listener_can_play_into_the_session_it_is_told_of(
    service: SessionService,
) -> None:
    heard: list[tuple[str, int | None, int]] = []

    async def answer(change: Change) -> None:
        session = change.session
        heard.append((change.kind, change.actor, session.record.version))
        if change.kind == "move" and change.actor == 0:  # the host moved: Bob answers at once
            await service.submit(session.id, BOB, Move(amount=1), session.record.version)
            await service.hint(session.id, HOST)  # and asks for the host's next move

    service.subscribe(answer)
    session = await new_game(service)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await asyncio.wait_for(service.settle(), timeout=60)  # a deadlock would never settle
    assert [(kind, actor) for kind, actor, _ in heard[-3:]] == [
        ("move", 0),
        ("move", 1),
        ("hint", 0),
    ]
    assert session.record.seats[0].hints == 1


async def test_a_failing_listener_does_not_stop_the_next(service: SessionService) -> None:
    heard: list[str] = []

    async def broken(change: Change) -> None:
        heard.append("broken")
        raise RuntimeError("listener bug")

    async def listen(change: Change) -> None:
        heard.append(change.kind)

    service.subscribe(broken)
    service.subscribe(listen)
    session = await new_game(service)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.settle()
    assert heard == ["broken", "lobby", "broken", "start", "broken", "move"]


async def test_over_sessions_leave_no_task_or_lock_behind(service: SessionService) -> None:
    session = await new_game(service, (HOST,), ai=1, target=4, turn_timer=60)
    await play(service, session.id)
    assert session.record.status is Status.FINISHED
    await service.settle()
    assert held(service) == {"drivers": 0, "outboxes": 0, "sessions": 0, "locks": 0, "timers": 0}
    other = await new_game(service, channel=CHANNEL + 1, turn_timer=60)
    await service.abandon(other.id, HOST)
    await service.settle()
    assert held(service) == {"drivers": 0, "outboxes": 0, "sessions": 0, "locks": 0, "timers": 0}


def held(service: SessionService) -> dict[str, int]:
    """What the service keeps per session: each should be empty once its sessions are over."""
    return {
        "drivers": len(service._seats.drivers),
        "outboxes": len(service._listeners.outboxes),
        "sessions": len(service._cache.sessions),
        "locks": len(service._core.locks),
        "timers": len(service._core.timers),
    }


# Durable deadlines: rules windows ------------------------------------------------------------


async def vote_phase(service: SessionService, session: Session) -> None:
    """Every seat moves (the lowest human first) until the vote window opens."""
    await play(service, session.id, stop=lambda s: s.state.phase == "vote")


async def test_window_deadline_survives_a_restart_and_fires_at_its_original_time(
    database: Path | str,
) -> None:
    path, time = database, ManualClock()
    async with await open_storage(path) as storage:
        service = make_service(storage, clock=time)
        session = await new_game(service, window=60)
        await vote_phase(service, session)
        due = time.now() + 60
        assert session.due("window") == due
        time.advance(20)
        await service.close()
    async with await open_storage(path) as storage:
        service = make_service(storage, clock=time)
        await service.resume()
        time.advance(39.9)
        await service.settle()
        assert all(e.actor != SYSTEM for e in await storage.sessions.log(session.id))
        time.advance(0.1)
        await service.settle()
        log = await storage.sessions.log(session.id)
        assert [e.action for e in log if e.actor == SYSTEM] == [{"kind": "close"}]
        assert (await service.get(session.id)).state.phase == "play"
        await service.close()


async def test_window_is_not_restarted_by_answers_inside_it(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, (HOST, BOB, CAROL), window=60)
    await vote_phase(service, session)
    due = clock(service).now() + 60
    for user in (HOST, BOB):
        clock(service).advance(10)
        await service.submit(session.id, user, Vote(yes=True), session.record.version)
        assert session.due("window") == due
        assert [d.due for d in await stored_deadlines(storage, session.id)] == [due]
    clock(service).advance(40)
    await service.settle()
    log = await storage.sessions.log(session.id)
    assert [e.actor for e in log if e.action["kind"] in ("vote", "close")] == [0, 1, SYSTEM]


async def test_past_deadline_fires_at_once_on_resume(database: Path | str) -> None:
    path, time = database, ManualClock()
    async with await open_storage(path) as storage:
        service = make_service(storage, clock=time)
        session = await new_game(service, window=60)
        await vote_phase(service, session)
        await service.close()
    time.advance(3600)  # the bot was down when the window should have closed
    async with await open_storage(path) as storage:
        service = make_service(storage, clock=time)
        await service.resume()
        await service.settle()
        log = await storage.sessions.log(session.id)
        assert [e.action for e in log if e.actor == SYSTEM] == [{"kind": "close"}]
        await service.close()


async def test_deadlines_are_written_with_the_move_and_only_when_they_change(
    service: SessionService, storage: Storage
) -> None:
    await execute(storage, "CREATE TABLE deadline_writes (op TEXT)")
    if storage.backend == "postgresql":
        await execute(
            storage,
            "CREATE FUNCTION count_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "INSERT INTO deadline_writes VALUES (TG_OP); RETURN NULL; END $$",
        )
    for op in ("INSERT", "UPDATE", "DELETE"):
        await execute(
            storage,
            f"CREATE TRIGGER count_{op.lower()} AFTER {op} ON deadlines "
            + (
                f"BEGIN INSERT INTO deadline_writes VALUES ('{op}'); END"
                if storage.backend == "sqlite"
                else "FOR EACH ROW EXECUTE FUNCTION count_write()"
            ),
        )

    async def writes() -> list[str]:
        return [row[0] for row in await execute(storage, "SELECT op FROM deadline_writes")]

    untimed = await new_game(service, channel=CHANNEL + 1)
    await play(service, untimed.id, stop=lambda s: s.record.version > 12)
    assert await writes() == []  # no timer, no window: never a deadline write
    session = await new_game(service, (HOST, BOB, CAROL), window=60)
    await vote_phase(service, session)
    assert await writes() == ["INSERT"]  # the window opened
    await service.submit(session.id, HOST, Vote(yes=True), session.record.version)
    await service.submit(session.id, BOB, Vote(yes=True), session.record.version)
    assert await writes() == ["INSERT"]  # answers keep it: nothing written
    await service.submit(session.id, CAROL, Vote(yes=True), session.record.version)
    assert await writes() == ["INSERT", "DELETE"]  # closed with the last answer


# Turn timers ---------------------------------------------------------------------------------

TIMER = 60


def recorder(service: SessionService) -> list[Change]:
    changes: list[Change] = []

    async def listen(change: Change) -> None:
        changes.append(change)

    service.subscribe(listen)
    return changes


def keys(changes: list[Change]) -> list[str]:
    return [event.key for change in changes for event in change.events]


async def expire(service: SessionService, seconds: float = TIMER) -> None:
    clock(service).advance(seconds)
    await service.settle()


async def test_turn_timer_starts_with_the_turn(service: SessionService, storage: Storage) -> None:
    session = await new_game(service, turn_timer=TIMER)
    now = clock(service).now()
    assert session.due("turn", 0) == now + TIMER and session.due("warn", 0) == now + TIMER / 2
    assert session.due("turn", 1) is None  # not Bob's turn yet
    stored = {(d.kind, d.seat): d.due for d in await stored_deadlines(storage, session.id)}
    assert stored == {("turn", 0): now + TIMER, ("warn", 0): now + TIMER / 2}
    clock(service).advance(5)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    assert session.due("turn", 0) is None and session.due("turn", 1) == clock(service).now() + TIMER


async def test_warning_at_half_time(service: SessionService, storage: Storage) -> None:
    changes = recorder(service)
    session = await new_game(service, turn_timer=TIMER)
    due = clock(service).now() + TIMER
    await expire(service, TIMER / 2 - 1)
    assert "session.turn_warning" not in keys(changes)
    await expire(service, 1)
    warnings = [c for c in changes if c.kind == "warn"]
    assert len(warnings) == 1 and warnings[0].actor is None
    assert [(e.key, e.params, e.public) for e in warnings[0].events] == [
        ("session.turn_warning", {"seat": 0, "due": math.ceil(due)}, True)
    ]
    assert session.due("warn", 0) is None and session.due("turn", 0) == due
    assert [(d.kind, d.seat) for d in await stored_deadlines(storage, session.id)] == [("turn", 0)]
    await expire(service, 1)
    assert keys(changes).count("session.turn_warning") == 1  # warned once per turn


async def test_a_move_restarts_the_seats_timer(service: SessionService) -> None:
    session = await new_game(service, turn_timer=TIMER, moves=2)
    clock(service).advance(40)
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    assert to_move(session) == {0}  # the turn goes on
    assert session.due("turn", 0) == clock(service).now() + TIMER
    assert session.due("warn", 0) == clock(service).now() + TIMER / 2


async def test_expiry_lets_the_ai_play_the_whole_turn(
    service: SessionService, storage: Storage
) -> None:
    changes = recorder(service)
    session = await new_game(service, turn_timer=TIMER, moves=2)
    version = session.record.version
    await expire(service)
    log = await storage.sessions.log(session.id, after=version)
    assert [e.actor for e in log if e.actor != CHANCE] == [0, 0]  # both moves of the turn
    assert to_move(session) == {1}
    assert session.record.seats[0].missed == 1 and not session.record.seats[0].away
    moves = [c for c in changes if c.kind == "move"]
    assert [e.key for e in moves[0].events][:1] == ["session.turn_expired"]
    assert moves[0].events[0].params == {"seat": 0} and moves[0].actor == 0
    assert keys(changes).count("session.turn_expired") == 1
    assert "session.turn_warning" not in keys(changes)  # too late to warn
    assert session.due("turn", 0) is None
    assert session.due("turn", 1) == clock(service).now() + TIMER


async def make_bob_away(service: SessionService, session: Session) -> None:
    """The host plays; Bob lets his timer run out until his seat is handed to the AI."""
    for _ in range(20):
        if session.record.seats[1].away:
            return
        if 0 in to_move(session):
            action = session.rules.legal_actions(session.state, 0)[-1]
            await service.submit(session.id, HOST, action, session.record.version)
        else:
            await expire(service)
    raise AssertionError("Bob's seat never went away")


async def test_three_expiries_in_a_row_hand_the_seat_to_the_ai(
    service: SessionService, storage: Storage
) -> None:
    changes = recorder(service)
    session = await new_game(service, turn_timer=TIMER, first_seat=1)
    missed: list[int] = []
    for _ in range(2):
        await expire(service)
        missed.append(session.record.seats[1].missed)
        while 0 in to_move(session):
            action = session.rules.legal_actions(session.state, 0)[-1]
            await service.submit(session.id, HOST, action, session.record.version)
    assert missed == [1, 2] and not session.record.seats[1].away
    await make_bob_away(service, session)
    await service.settle()
    bob = session.record.seats[1]
    assert bob.away and bob.missed == 3 and bob.autoplay
    assert keys(changes).count("session.turn_expired") == 3
    away = [c for c in changes if "session.seat_away" in [e.key for e in c.events]]
    assert len(away) == 1 and away[0].events[1].params == {"seat": 1}
    # From now on the AI plays Bob at once, with no timer for his seat.
    assert to_move(session) == {0}
    assert all(d.seat != 1 for d in await stored_deadlines(storage, session.id))
    version = session.record.version
    await service.submit(session.id, HOST, Move(amount=1), session.record.version)
    await service.settle()
    log = await storage.sessions.log(session.id, after=version)
    assert 1 in [e.actor for e in log] and to_move(session) == {0}  # no time had to pass


async def test_a_move_by_the_player_resets_missed(service: SessionService) -> None:
    session = await new_game(service, turn_timer=TIMER, first_seat=1)
    await expire(service)
    assert session.record.seats[1].missed == 1
    await play(service, session.id, stop=lambda s: 1 in to_move(s) and 0 not in to_move(s))
    action = session.rules.legal_actions(session.state, 1)[-1]
    await service.submit(session.id, BOB, action, session.record.version)
    assert session.record.seats[1].missed == 0


async def test_come_back_retakes_the_seat(storage: Storage) -> None:
    service = make_service(storage, ai_delay=5)
    changes = recorder(service)
    session = await new_game(service, turn_timer=TIMER, first_seat=1)
    await make_bob_away(service, session)
    await service.settle()
    assert await service.come_back(session.id, HOST) is None  # not away: nothing to do
    await play(service, session.id, stop=lambda s: 1 in to_move(s))  # the AI waits 5 s
    change = await service.come_back(session.id, BOB)
    assert change is not None and change.kind == "back" and change.actor == 1
    assert [(e.key, e.params) for e in change.events] == [("session.seat_back", {"seat": 1})]
    bob = session.record.seats[1]
    assert not bob.away and bob.missed == 0 and not bob.autoplay
    assert session.due("turn", 1) == clock(service).now() + TIMER  # a fresh timer
    assert await service.come_back(session.id, BOB) is None
    version = session.record.version
    await expire(service, 5)
    assert session.record.version == version  # the AI no longer plays Bob's seat
    await service.settle()
    assert keys(changes).count("session.seat_back") == 1
    await service.close()


async def test_an_away_players_move_takes_the_seat_back_in_the_same_commit(
    storage: Storage,
) -> None:
    service = make_service(storage, ai_delay=5)
    session = await new_game(service, turn_timer=TIMER, first_seat=1)
    await make_bob_away(service, session)
    await play(service, session.id, stop=lambda s: 1 in to_move(s))
    length = await log_length(storage, session.id)
    action = session.rules.legal_actions(session.state, 1)[-1]
    change = await service.submit(session.id, BOB, action, session.record.version)
    assert [e.key for e in change.events][:2] == ["session.seat_back", f"toy.{action.kind}"]
    assert change.kind == "move" and not session.record.seats[1].away
    log = await storage.sessions.log(session.id, after=length)
    assert log[0].actor == 1
    loaded = await storage.sessions.load(session.id)
    assert loaded is not None and not loaded.record.seats[1].away
    await service.close()


async def test_a_refused_click_of_an_away_player_still_takes_the_seat_back(
    storage: Storage,
) -> None:
    service = make_service(storage, ai_delay=5)
    session = await new_game(service, turn_timer=TIMER, first_seat=1)
    await make_bob_away(service, session)
    version = session.record.version
    with pytest.raises(GameError) as stale:
        await service.submit(session.id, BOB, Move(amount=1), version - 1)
    assert stale.value.reason is Reason.STALE_VERSION
    assert not session.record.seats[1].away and session.record.version == version
    await service.close()


async def test_a_restart_between_warning_and_expiry_keeps_the_turn_deadline(
    database: Path | str,
) -> None:
    path, time = database, ManualClock()
    async with await open_storage(path) as storage:
        service = make_service(storage, clock=time)
        changes = recorder(service)
        session = await new_game(service, turn_timer=TIMER)
        due = time.now() + TIMER
        await expire(service, TIMER / 2)
        assert keys(changes).count("session.turn_warning") == 1
        await service.close()
    time.advance(10)
    async with await open_storage(path) as storage:
        stored = await stored_deadlines(storage, session.id)
        assert [(d.kind, d.seat, d.due) for d in stored] == [("turn", 0, due)]
        service = make_service(storage, clock=time)
        changes = recorder(service)
        await service.resume()
        await expire(service, due - time.now() - 0.1)
        assert keys(changes) == []  # no second warning, no early expiry
        await expire(service, 0.1)
        assert keys(changes)[:1] == ["session.turn_expired"]
        resumed = await service.get(session.id)
        assert resumed.record.seats[0].missed == 1 and to_move(resumed) == {1}
        await service.close()


async def test_a_restart_mid_expiry_lets_the_ai_finish_the_turn_once(database: Path | str) -> None:
    path, time = database, ManualClock()
    async with await open_storage(path) as storage:
        service = make_service(storage, ai_delay=10, clock=time)
        session = await new_game(service, turn_timer=TIMER, moves=2)
        await expire(service)  # the AI made the first move; the second waits 10 s
        assert to_move(session) == {0} and session.state.made == 1
        await service.close()  # the bot stops mid-turn
    async with await open_storage(path) as storage:
        stored = await stored_deadlines(storage, session.id)
        assert [(d.kind, d.seat, d.fired) for d in stored] == [("turn", 0, True)]
        service = make_service(storage, clock=time)
        changes = recorder(service)
        await service.resume()
        await service.settle()
        resumed = await service.get(session.id)
        assert to_move(resumed) == {1} and resumed.record.seats[0].missed == 1
        assert "session.turn_expired" not in keys(changes)
        log = await storage.sessions.log(session.id)
        assert [e.actor for e in log if e.actor != CHANCE] == [0, 0]
        await service.close()


async def test_leaving_or_ending_the_game_drops_its_timers(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, turn_timer=TIMER)
    await service.leave(session.id, HOST)  # seat 0, to move, goes to an AI
    await service.settle()
    assert to_move(session) == {1} and session.due("turn", 0) is None
    assert {(d.kind, d.seat) for d in await stored_deadlines(storage, session.id)} == {
        ("turn", 1),
        ("warn", 1),
    }
    await service.abandon(session.id, BOB)
    assert session.deadlines == {} and await stored_deadlines(storage, session.id) == []


async def test_rematch_keeps_the_turn_timer(service: SessionService) -> None:
    session = await new_game(service, (HOST,), ai=1, target=4, turn_timer=TIMER)
    await play(service, session.id)
    change = await service.rematch(session.id, HOST)
    assert change.session.record.turn_timer == TIMER
    assert to_move(change.session) == {0} and change.session.due("turn", 0) is not None


async def test_a_rematch_counts_each_seats_timeouts_and_ai_moves_anew(
    service: SessionService, storage: Storage
) -> None:
    session = await new_game(service, (HOST, BOB), target=4, turn_timer=TIMER)
    clock(service).advance(TIMER + 1)  # the seat to move runs out of time: an AI plays it
    await service.settle()
    assert any(seat.ai_moves and seat.missed for seat in session.record.seats)
    await play(service, session.id)
    new = (await service.rematch(session.id, HOST)).session
    assert [(s.user_id, s.missed, s.ai_moves) for s in new.record.seats] == [
        (HOST, 0, 0),
        (BOB, 0, 0),
    ]
    loaded = await storage.sessions.load(new.id)
    assert loaded is not None and loaded.record.seats == new.record.seats


async def test_turn_timer_must_be_positive(service: SessionService) -> None:
    with pytest.raises(GameError) as refused:
        await open_lobby(service, turn_timer=0)
    assert refused.value.reason is Reason.BAD_OPTION and refused.value.detail == "turn_timer"


# Restarts, quarantine, cancellation, a second process ----------------------------------------


async def corrupt(storage: Storage, session_id: str) -> None:
    """Append a log entry no game knows, the way a buggy older build could have stored one."""

    seq = await scalar(storage, "SELECT version FROM sessions WHERE id = ?", session_id) + 1
    await execute(
        storage,
        "INSERT INTO actions (session_id, seq, actor, payload) VALUES (?, ?, 0, ?)",
        session_id,
        seq,
        '{"kind": "end_turn"}',
    )
    await execute(storage, "UPDATE sessions SET version = ? WHERE id = ?", seq, session_id)
    await execute(storage, "DELETE FROM snapshots WHERE session_id = ?", session_id)


async def test_a_session_that_cannot_load_is_quarantined_and_the_others_resume(
    database: Path | str,
) -> None:
    path = database
    async with await open_storage(path) as storage:
        slow = make_service(storage, ai_delay=3600)
        broken = await new_game(slow, (HOST,), ai=1, first_seat=1)
        sound = await new_game(slow, (BOB,), ai=1, first_seat=1, channel=CHANNEL + 1)
        await slow.close()
        await corrupt(storage, broken.id)
    async with await open_storage(path) as storage:
        service = make_service(storage)
        changes = recorder(service)
        await service.resume()  # must not raise
        await service.settle()
        assert to_move(await service.get(sound.id)) == {0}  # its AI moved
        quarantined = [c for c in changes if c.kind == "quarantine"]
        assert [c.session.id for c in quarantined] == [broken.id]
        assert [e.key for e in quarantined[0].events] == ["session.quarantined"]
        assert quarantined[0].session.record.status is Status.ABANDONED
        with pytest.raises(GameError) as gone:  # set aside: it reads as a closed table
            await service.submit(broken.id, HOST, Move(amount=1), 99)
        assert gone.value.reason is Reason.GAME_OVER
        assert (await service.get(broken.id)).state is None
        loaded = await storage.sessions.load(broken.id)
        assert loaded is not None and loaded.record.status is Status.ABANDONED
        assert loaded.record.quarantine is not None and "end_turn" in loaded.record.quarantine
        assert await storage.sessions.awaiting_ai() == []
        await open_lobby(service)  # the channel is free for a new game
        await service.close()


async def test_resume_loads_only_sessions_with_an_ai_to_move_or_a_deadline_due(
    database: Path | str,
) -> None:
    path, time = database, ManualClock()
    async with await open_storage(path) as storage:
        slow = make_service(storage, ai_delay=3600, clock=time)
        humans = await new_game(slow, channel=CHANNEL)
        ai = await new_game(slow, (HOST,), ai=1, first_seat=1, channel=CHANNEL + 1)
        waiting = await new_game(slow, (HOST,), ai=1, first_seat=0, channel=CHANNEL + 2)
        later = await new_game(slow, turn_timer=TIMER, channel=CHANNEL + 3)
        due = await new_game(slow, turn_timer=TIMER, channel=CHANNEL + 4)
        await slow.close()
        time.advance(TIMER - 10)
        slow = make_service(storage, ai_delay=3600, clock=time)
        await slow.submit(later.id, HOST, Move(amount=1), later.record.version)  # Bob's turn
        await slow.close()
    time.advance(15)  # `due` is past its turn timer, `later` not even at its warning
    async with await open_storage(path) as storage:
        service = make_service(storage, clock=time)
        await service.resume()
        await service.settle()
        held = service._cache.sessions
        assert set(held) == {ai.id, due.id}
        assert humans.id not in held and waiting.id not in held
        assert later.id in service._core.timers  # scheduled, not loaded
        assert (await service.get(due.id)).record.seats[0].missed == 1  # it expired
        await service.close()


@pytest.mark.parametrize("ticks", range(8))
async def test_a_cancelled_submit_leaves_memory_level_with_the_store(
    service: SessionService, storage: Storage, ticks: int
) -> None:
    session = await new_game(service)
    task = asyncio.create_task(
        service.submit(session.id, HOST, Move(amount=1), session.record.version)
    )
    for _ in range(ticks):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    stored = await storage.sessions.version(session.id)
    assert (await service.get(session.id)).record.version == stored
    current = await service.get(session.id)
    seat = min(to_move(current))
    user = current.record.seats[seat].user_id
    assert user is not None
    action = current.rules.legal_actions(current.state, seat)[0]
    await service.submit(session.id, user, action, current.record.version)  # not refused


async def test_a_second_process_rereads_the_version_before_refusing(database: Path | str) -> None:
    path = database
    async with await open_storage(path) as one, await open_storage(path) as two:
        first, second = make_service(one), make_service(two)
        session = await new_game(first)
        stale = await second.get(session.id)  # cached at the current version
        await first.submit(session.id, HOST, Move(amount=1), session.record.version)
        assert stale.record.version < session.record.version
        change = await second.submit(session.id, BOB, Move(amount=1), session.record.version)
        assert change.session.record.version > session.record.version
        with pytest.raises(GameError) as refused:  # really stale: refused, as before
            await second.submit(session.id, HOST, Move(amount=1), session.record.version)
        assert refused.value.reason is Reason.STALE_VERSION
        await first.close()
        await second.close()


def ids_from(*first: str) -> Callable[[], str]:
    """An id source that hands out `first` in turn, then fresh ids."""
    queue = list(first)
    return lambda: queue.pop(0) if queue else new_session_id()


def test_new_session_ids_carry_64_random_bits() -> None:
    ids = {new_session_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(re.fullmatch(r"[0-9a-f]{16}", sid) for sid in ids)


async def test_a_new_game_whose_id_a_session_holds_is_stored_under_another(
    storage: Storage,
) -> None:
    first = make_service(storage)
    taken = await open_lobby(first)
    service = SessionService(
        storage.sessions, GAMES, AIS, clock=ManualClock(), id_source=ids_from(taken.id)
    )
    try:
        session = await open_lobby(service, channel=CHANNEL + 1)
        assert session.id != taken.id
        assert (await service.get(session.id)).record.channel_id == CHANNEL + 1
        assert (await service.get(taken.id)).record.channel_id == CHANNEL
    finally:
        await service.close()
        await first.close()


async def test_a_new_game_whose_id_a_game_record_keeps_is_stored_under_another(
    storage: Storage,
) -> None:
    kept = "00112233aabbccdd"
    await storage.records.add(
        guild_id=1,
        channel_id=CHANNEL,
        game_id="dicerace",
        session_id=kept,
        result="won",
        score=None,
        players=1,
        won=True,
    )
    service = SessionService(
        storage.sessions, GAMES, AIS, clock=ManualClock(), id_source=ids_from(kept)
    )
    try:
        session = await open_lobby(service)
        assert session.id != kept
        assert await storage.sessions.version(kept) is None
    finally:
        await service.close()


async def test_an_id_source_that_only_clashes_fails_the_game_without_storing_it(
    storage: Storage,
) -> None:
    first = make_service(storage)
    taken = await open_lobby(first)
    service = SessionService(
        storage.sessions, GAMES, AIS, clock=ManualClock(), id_source=lambda: taken.id
    )
    try:
        with pytest.raises(SessionIdTaken):
            await open_lobby(service, channel=CHANNEL + 1)
        assert await storage.sessions.live_in_channel(CHANNEL + 1) is None
    finally:
        await service.close()
        await first.close()


async def test_a_game_stored_under_a_short_id_of_old_plays_on_after_a_restart(
    database: Path | str,
) -> None:
    storage = await open_storage(database)
    service = SessionService(
        storage.sessions, GAMES, AIS, clock=ManualClock(), id_source=lambda: "0123abcd"
    )
    session = await new_game(service, moves=2)
    await service.close()
    await storage.close()
    storage = await open_storage(database)
    service = make_service(storage)
    try:
        restored = await service.get("0123abcd")
        assert restored.record.version == session.record.version
        played = await play(service, "0123abcd")
        assert played.record.status is Status.FINISHED
    finally:
        await service.close()
        await storage.close()


async def test_a_service_refuses_a_game_without_an_ai(storage: Storage) -> None:
    with pytest.raises(ValueError, match="dicerace"):
        SessionService(storage.sessions, GAMES, {})


async def test_a_service_collects_its_youngest_objects_less_often_than_python_does(
    storage: Storage,
) -> None:
    kept = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's defaults
    try:
        service = make_service(storage)
        assert gc.get_threshold() == (YOUNG_COLLECTION, 10, 10)
        await service.close()
    finally:
        gc.set_threshold(*kept)
