"""Picking sessions up: after a restart, and when another process moved one of ours on.

After a restart only the sessions an AI is to move in or with a deadline due are resumed, in
the background at a bounded rate; every timed thing is an absolute deadline stored with its
session, so a restart loses nothing. A bot split into shard processes resumes, times and plays
the AI of only the sessions of its own guilds, so no two processes drive one session, and a
process that takes over a shard resumes that shard's sessions from the store.
"""

from __future__ import annotations

import asyncio
import logging

from games.engine.errors import GameError
from games.engine.session import Status
from runtime.cache import Cache, freeze
from runtime.commit import Writer
from runtime.core import Core
from runtime.logcontext import about, bind
from storage.session_store import StoreUnavailable

log = logging.getLogger(__name__)

RESUME_BATCH = 20
RESUME_PAUSE = 0.1
"""After a restart, sessions are resumed in the background `RESUME_BATCH` at a time with this
pause (seconds) between batches: at most 200 a second, so a bot that was down a while neither
stalls its loop nor loads every session at once."""


class Resumer:
    def __init__(self, core: Core, cache: Cache, writer: Writer) -> None:
        self._core = core
        self._cache = cache
        self._writer = writer

    async def resume(self) -> None:
        """Schedule every stored deadline and resume, in the background, the sessions with an
        AI to move or a deadline already due, of the sessions this process owns. Loads
        nothing itself; a deadline that passed while the bot was down fires as its session is
        resumed."""
        core = self._core
        await core.store.watch(self._changed_elsewhere)
        now = core.clock.now()
        due: list[str] = []
        for session_id, when in await core.store.wakeups(core.shards):
            if when <= now:
                due.append(session_id)
            else:
                core.timers.set(session_id, when)
        core.background.spawn(self._resume(due))
        freeze()  # what startup built lives on: keep it out of every full collection

    def _changed_elsewhere(self, session_id: str, guild_id: int | None) -> None:
        """Another process changed a session (a player's click reached it through a DM): our
        copy is out of date, and if the session is ours, what it now waits for is ours to
        drive."""
        core = self._core
        if core.closed:
            return
        if core.shards is None or core.shards.owns_guild(guild_id):
            core.background.spawn(self._pick_up(session_id))
        elif session_id not in core.locks:  # (under a lock, the version check finds out)
            self._cache.sessions.pop(session_id, None)

    async def _pick_up(self, session_id: str) -> None:
        """Reload a session of ours another process moved on, and arm it."""
        async with self._core.locks.hold(session_id):
            try:
                session = await self._cache.fresh(session_id)
            except GameError:
                return  # gone, or quarantined while loading
            except StoreUnavailable as error:
                self._core.retry_later(session_id, error)
                return
            bind(session.record)
            self._writer.arm(session)

    async def _resume(self, due: list[str]) -> None:
        """Load and arm the sessions whose deadline is due, then those whose AI is to move
        (found in the background: that query reads every live session's row)."""
        core = self._core
        seen = set(due)
        while True:
            try:
                awaiting = await core.store.awaiting_ai(core.shards)
                break
            except StoreUnavailable as error:
                await core.wait_out(error)
        session_ids = due + [sid for sid in awaiting if sid not in seen]
        for start in range(0, len(session_ids), RESUME_BATCH):
            if start:
                await asyncio.sleep(RESUME_PAUSE)
            for session_id in session_ids[start : start + RESUME_BATCH]:
                if core.closed:
                    return
                with about(session=session_id):
                    try:
                        session = await self._cache.get(session_id)
                    except GameError:
                        continue  # gone, or quarantined (and logged) as it loaded
                    except StoreUnavailable as error:
                        core.retry_later(session_id, error)
                        continue
                    except Exception:  # one broken session must not keep the others waiting
                        log.exception("session %s could not be resumed", session_id)
                        continue
                if session.record.status is Status.ACTIVE:
                    self._writer.arm(session)
        if session_ids:
            freeze()
