"""Nothing unreplayable reaches the log: random foreign, malformed and unvalidated actions fed
to every registered game, through the service and straight to `apply`.

Each is refused with a GameError (never IndexError, TypeError, AttributeError…) unless it
equals a legal action, and after a whole game of them the stored log still replays to the
state the service holds, in a fresh service too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, create_model

from games.engine import GameError, Rules, Status, advance, replay
from games.engine.contract import Frozen
from games.registry import AIS, GAMES
from runtime import ManualClock, SessionService
from storage import open_storage

JUNK_VALUES: tuple[Any, ...] = (-1, -(10**9), 10**9, None, "x", 2.5, (), (-1,), (None,), True)
"""Field values an unvalidated action may carry."""
NOT_ACTIONS: tuple[Any, ...] = (None, {}, {"kind": "play"}, 0, "end", object(), [1, 2])


def model_classes(rules: Rules[Any, Any, Any, Any]) -> list[type[BaseModel]]:
    """The game's own action classes, read from its action model."""
    found: list[type[BaseModel]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "model" and isinstance(node.get("cls"), type):
                found.append(node["cls"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value)

    walk(rules.action_adapter.core_schema)
    return found


def lookalike(cls: type[BaseModel]) -> type[BaseModel]:
    """A class of another module with exactly the same fields: foreign all the same."""
    fields = {name: (info.annotation, info) for name, info in cls.model_fields.items()}
    return create_model(f"Foreign{cls.__name__}", __base__=Frozen, **fields)  # type: ignore[call-overload]


def sample_actions(rules: Rules[Any, Any, Any, Any], rng: random.Random) -> list[Any]:
    """A few of a game's own actions from early in a random game (chance included)."""
    config = rules.make_config(max(rules.min_players, 2), {})
    step = advance(rules, rules.setup(config), 0, 0, None, rng.randrange(2**31))
    state, actions = step.state, []
    for _ in range(5):
        seats = sorted(rules.to_move(state).seats)
        if not seats:
            break
        legal = list(rules.legal_actions(state, seats[0]))
        actions += rng.sample(legal, min(3, len(legal)))
        step = advance(rules, state, 0, seats[0], rng.choice(legal), 1)
        state = step.state
    return actions


def unvalidated(action: BaseModel, rng: random.Random) -> BaseModel:
    """`action` rebuilt without validation, one field replaced by a random value."""
    fields = dict(action.__dict__)
    name = rng.choice(sorted(fields))
    fields[name] = rng.choice(JUNK_VALUES)
    return type(action).model_construct(**fields)


def junk(rules: Rules[Any, Any, Any, Any], legal: list[Any], rng: random.Random) -> Iterator[Any]:
    """Foreign actions, look-alikes, malformed instances of the game's own, and non-actions."""
    others = [r for r in GAMES.values() if r is not rules]
    for other in others:
        yield rng.choice(sample_actions(other, rng))
    for cls in model_classes(rules):
        fields = {name: getattr(legal[0], name, None) for name in cls.model_fields}
        yield lookalike(cls).model_construct(**fields)
    for _ in range(4):
        yield unvalidated(rng.choice(legal), rng)
    yield rng.choice(NOT_ACTIONS)


def accepted_only_if_legal(action: Any, legal: list[Any]) -> bool:
    return any(type(action) is type(known) and action == known for known in legal)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", range(3))
def test_apply_refuses_what_it_does_not_know(game_id: str, seed: int) -> None:
    rules, rng = GAMES[game_id], random.Random(seed)
    config = rules.make_config(max(rules.min_players, 2), {})
    state = advance(rules, rules.setup(config), 0, 0, None, seed).state
    for _ in range(30):
        seats = sorted(rules.to_move(state).seats)
        if not seats:
            break
        seat = rng.choice(seats)
        legal = list(rules.legal_actions(state, seat))
        for action in junk(rules, legal, rng):
            try:
                rules.apply(state, seat, action)
            except GameError:
                continue
            assert accepted_only_if_legal(action, legal), action
        state = advance(rules, state, 0, seat, rng.choice(legal), seed).state


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", range(3))
async def test_the_service_refuses_junk_and_the_stored_log_replays(
    tmp_path: Path, game_id: str, seed: int
) -> None:
    rules, rng = GAMES[game_id], random.Random(seed)
    players = max(rules.min_players, 2)
    async with await open_storage(tmp_path / "fuzz.db") as storage:
        service = SessionService(storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
        lobby = await service.create(
            game_id,
            guild_id=1,
            channel_id=10,
            host_id=1,
            host_name="p1",
            locale="en",
            options={},
        )
        for user in range(2, players + 1):
            await service.join(lobby.id, user, f"p{user}")
        session = (await service.start(lobby.id, 1, 0)).session
        refused = 0
        for _ in range(80):
            if session.record.status is not Status.ACTIVE:
                break
            seat = rng.choice(sorted(rules.to_move(session.state).seats))
            user = session.record.seats[seat].user_id
            assert user is not None
            legal = list(rules.legal_actions(session.state, seat))
            for action in junk(rules, legal, rng):
                version, length = session.record.version, len(await storage.sessions.log(lobby.id))
                try:
                    await service.submit(lobby.id, user, action, version)
                except GameError:
                    refused += 1
                    assert session.record.version == version
                    assert len(await storage.sessions.log(lobby.id)) == length
                    continue
                assert accepted_only_if_legal(action, legal), action
                break
            else:
                move = rng.choice(legal)
                await service.submit(lobby.id, user, move, session.record.version)
        assert refused > 0
        log = await storage.sessions.log(lobby.id)
        assert len(log) == session.record.version
        assert replay(rules, session.config, log) == session.state
        await service.close()
        fresh = SessionService(storage.sessions, GAMES, AIS, ai_delay=0, clock=ManualClock())
        reloaded = await fresh.get(lobby.id)
        assert reloaded.state == session.state and reloaded.record.quarantine is None
        await fresh.close()
