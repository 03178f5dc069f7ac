"""Hints and AI levels in the session service, with every registered game.

A hint is the decision of the game's AI at its `hint_level` (the level that measures strongest
for it) for the asker's seat, from that seat's view only, counted on the seat; an AI seat's
level is stored with it. The clock is manual and never moves, so no AI seat moves unless a test
lets it (an AI seat moves `ai_delay` after the change that made it due).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from games.engine import AI_LEVELS, NORMAL, STRONG, GameError, Reason, Session, Status
from games.registry import AIS, GAME_IDS, GAMES
from runtime import Change, ManualClock, SessionService
from storage import Storage

HOST, BOB, EVE = 1, 2, 99
CHANNEL = 10


def make_service(storage: Storage, ai_delay: float = 3600) -> SessionService:
    seeds = itertools.count(1000)
    return SessionService(
        storage.sessions,
        GAMES,
        AIS,
        ai_delay=ai_delay,
        seed_source=lambda: next(seeds),
        clock=ManualClock(),
    )


async def lobby(service: SessionService, game_id: str) -> Session:
    return await service.create(
        game_id,
        guild_id=1,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="host",
        locale="en",
        options={},
    )


async def new_game(
    service: SessionService, game_id: str, *, bob: bool = False, level: str = NORMAL
) -> Session:
    """The host (to move first), bob if asked, then AI seats at `level` up to the game's
    minimum (one at least)."""
    session = await lobby(service, game_id)
    if bob:
        await service.join(session.id, BOB, "bob")
    while len(session.record.seats) < max(2, GAMES[game_id].min_players):
        await service.add_ai(session.id, HOST, level)
    await service.start(session.id, HOST, 0)
    return session


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_hint_depends_only_on_the_askers_view(
    sqlite_storage: Storage, game_id: str
) -> None:
    """Re-dealing everything the asker cannot see (the other seats' cards, the decks) gives
    the same hint."""
    service = make_service(sqlite_storage)
    try:
        session = await new_game(service, game_id)
        rules, dealt = session.rules, session.state
        first = await service.hint(session.id, HOST)
        redealt = 0
        for i in range(4):
            other = rules.resample_hidden(dealt, 0, random.Random(i))
            assert rules.view(other, 0) == rules.view(dealt, 0)
            redealt += other != dealt
            session.state = other  # the live session, as if dealt that way
            again = await service.hint(session.id, HOST)
            assert again.decision == first.decision
        assert redealt  # hidden cards did move
        assert first.decision.action in rules.legal_actions(dealt, 0)
    finally:
        await service.close()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_hint_is_the_move_the_games_hint_level_would_play_at_this_version(
    sqlite_storage: Storage, game_id: str
) -> None:
    service = make_service(sqlite_storage)
    try:
        session = await new_game(service, game_id)
        record, rules, ai = session.record, session.rules, AIS[game_id]
        hint = await service.hint(session.id, HOST)
        rng = random.Random(f"{record.seed}:ai:{record.version}")
        expected = ai.decide(rules.view(session.state, 0), rng, ai.hint_level)
        assert (hint.seat, hint.version, hint.decision) == (0, record.version, expected)
    finally:
        await service.close()


@pytest.mark.parametrize(("game_id", "level"), list(itertools.product(GAME_IDS, AI_LEVELS)))
async def test_a_hint_asks_the_level_the_game_declares(
    sqlite_storage: Storage, monkeypatch: pytest.MonkeyPatch, game_id: str, level: str
) -> None:
    rules, ai = GAMES[game_id], replace(AIS[game_id], hint_level=level)
    monkeypatch.setitem(AIS, game_id, ai)
    service = make_service(sqlite_storage)
    try:
        session = await new_game(service, game_id)
        record = session.record
        hint = await service.hint(session.id, HOST)
        rng = random.Random(f"{record.seed}:ai:{record.version}")
        assert hint.decision == ai.decide(rules.view(session.state, 0), rng, level)
    finally:
        await service.close()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_declares_a_known_hint_level(game_id: str) -> None:
    assert AIS[game_id].hint_level in AI_LEVELS


async def test_a_hint_is_counted_on_the_seat_and_kept_after_a_restart(storage: Storage) -> None:
    service = make_service(storage)
    changes: list[Change] = []

    async def listen(change: Change) -> None:
        changes.append(change)

    service.subscribe(listen)
    session = await new_game(service, "thegame", bob=True)
    version = session.record.version
    await service.hint(session.id, HOST)
    await service.hint(session.id, HOST)
    await service.settle()
    assert [c.kind for c in changes[-2:]] == ["hint", "hint"]
    assert session.record.version == version  # a hint is no move
    await service.close()
    restarted = make_service(storage)
    try:
        loaded = await restarted.get(session.id)
        assert [s.hints for s in loaded.record.seats] == [2, 0]
    finally:
        await restarted.close()


async def test_a_hint_out_of_turn_or_by_a_non_player_is_refused_and_changes_nothing(
    sqlite_storage: Storage,
) -> None:
    service = make_service(sqlite_storage)
    try:
        session = await new_game(service, "rummy", bob=True)
        before = session.record
        with pytest.raises(GameError) as refused:
            await service.hint(session.id, BOB)
        assert (refused.value.reason, refused.value.detail) == (Reason.NOT_YOUR_TURN, "hint")
        with pytest.raises(GameError) as refused:
            await service.hint(session.id, EVE)
        assert refused.value.reason is Reason.NOT_A_PLAYER
        assert session.record == before
    finally:
        await service.close()


async def test_a_hint_in_the_lobby_or_after_the_end_is_refused(sqlite_storage: Storage) -> None:
    service = make_service(sqlite_storage)
    try:
        session = await lobby(service, "exhaust")
        with pytest.raises(GameError) as refused:
            await service.hint(session.id, HOST)
        assert (refused.value.reason, refused.value.detail) == (Reason.NOT_IN_LOBBY, "not_started")
        await service.add_ai(session.id, HOST)
        await service.start(session.id, HOST, 0)
        await service.abandon(session.id, HOST)
        with pytest.raises(GameError) as refused:
            await service.hint(session.id, HOST)
        assert refused.value.reason is Reason.GAME_OVER
        assert [s.hints for s in session.record.seats] == [0, 0]
    finally:
        await service.close()


async def test_an_ai_level_is_stored_with_its_seat_and_kept_after_a_restart(
    storage: Storage,
) -> None:
    service = make_service(storage)
    session = await lobby(service, "hellqueue")
    await service.add_ai(session.id, HOST, STRONG)
    await service.add_ai(session.id, HOST)
    with pytest.raises(GameError) as refused:
        await service.add_ai(session.id, HOST, "godlike")
    assert (refused.value.reason, refused.value.detail) == (Reason.BAD_OPTION, "ai_level")
    await service.close()
    restarted = make_service(storage)
    try:
        loaded = await restarted.get(session.id)
        assert [s.ai_level for s in loaded.record.seats[1:]] == [STRONG, NORMAL]
        await restarted.start(session.id, HOST, 0)
        assert [s.ai_level for s in loaded.record.seats[1:]] == [STRONG, NORMAL]
    finally:
        await restarted.close()


async def test_a_strong_ai_seat_plays_the_decision_seeded_by_the_session_and_version(
    sqlite_storage: Storage,
) -> None:
    """Through the real process pool: the move it logs is the one the game's AI at STRONG makes
    in place from the seat's view with the rng of that version, so a restart or a replay
    plays the same move."""
    service = make_service(sqlite_storage, ai_delay=0)
    try:
        session = await lobby(service, "exhaust")
        await service.add_ai(session.id, HOST, STRONG)
        await service.start(session.id, HOST, 1)
        record, rules, dealt = session.record, session.rules, session.state
        rng = random.Random(f"{record.seed}:ai:{record.version}")
        expected = AIS["exhaust"].decide(rules.view(dealt, 1), rng, STRONG).action
        await service.settle()
        log = await sqlite_storage.sessions.log(session.id, after=record.version)
        assert log and (log[0].actor, log[0].action) == (1, rules.dump_action(expected))
        assert session.record.status is Status.ACTIVE
    finally:
        await service.close()
