"""Hints are decided in a worker of their own: a player's /hint is answered while the AI seats
of other tables are still waiting for their STRONG decisions (the toy dice game, through the
real service and a SQLite store)."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import random
from dataclasses import replace
from functools import partial
from threading import Event
from typing import Any

from toygame import AI, GAMES

from games.engine import STRONG, AiDecision, Status
from runtime import ManualClock, SessionService
from storage import Storage

HOST, BOB = 1, 2
CEILING = 120.0
"""Seconds a step may take on a loaded machine before the test gives up on it."""


def held(started: Event, release: Event, view: Any, rng: random.Random) -> AiDecision | None:
    """A STRONG decision that, for an AI seat (the human sits at seat 0), says it started and
    then waits until the test releases it; STRONG plays as NORMAL once it returns."""
    if view.seat != 0:
        started.set()
        release.wait(CEILING)
    return None


async def open_game(service: SessionService, host: int, channel: int, first_seat: int) -> str:
    """A dice race of `host` and a STRONG AI seat, started with `first_seat` to move."""
    lobby = await service.create(
        "dicerace",
        guild_id=1,
        channel_id=channel,
        host_id=host,
        host_name=f"u{host}",
        locale="en",
        options={},
    )
    await service.add_ai(lobby.id, host, STRONG)
    await service.start(lobby.id, host, first_seat)
    return lobby.id


async def test_a_hint_is_answered_while_ai_seats_wait_for_their_strong_decisions(
    sqlite_storage: Storage,
) -> None:
    with multiprocessing.get_context("spawn").Manager() as manager:
        started, release = manager.Event(), manager.Event()
        ai = replace(AI, strong=partial(held, started, release))
        seeds = itertools.count(1000)
        service = SessionService(
            sqlite_storage.sessions,
            GAMES,
            {"dicerace": ai},
            ai_delay=0,
            seed_source=lambda: next(seeds),
            clock=ManualClock(),
        )
        try:
            thinking = await open_game(service, HOST, 10, first_seat=1)  # the AI seat moves
            version = (await service.get(thinking)).record.version
            assert await asyncio.to_thread(started.wait, CEILING)  # its decision is under way
            asking = await open_game(service, BOB, 11, first_seat=0)  # Bob is to move
            hint = await asyncio.wait_for(service.hint(asking, BOB), CEILING)
            assert hint.seat == 0
            assert not release.is_set()
            session = await service.get(thinking)  # the AI seat has still not moved
            assert (session.record.status, session.record.version) == (Status.ACTIVE, version)
        finally:
            release.set()
            await service.close()
