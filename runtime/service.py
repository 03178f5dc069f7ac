"""The session service: the one face the bot sees of the session runtime.

It wires the runtime's jobs together, and each of its commands and reads is the method of the
job that holds it, called directly (no forwarding layer between the bot and the work): the cache and
loading (`runtime.cache`), restarts and other processes' changes (`runtime.resume`), the
lobby's commands (`runtime.lobby`) and a game's (`runtime.play`), persistence
(`runtime.commit`), deadlines (`runtime.deadlines`), the seats the AI plays
(`runtime.seats`, `runtime.thinking`) and telling the bot what changed
(`runtime.listeners`).

Moves are serialised per session by one asyncio lock (never held while another session's
work runs: the store's group commit batches many sessions' writes without a lock). Each change
is persisted — with the deadlines it makes due, in the same transaction — before it reaches
memory; callers get the change back at once, and the bot is told of it once the lock is let go.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import Rules
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord
from games.engine.shards import Shards
from runtime.cache import Cache
from runtime.clock import SYSTEM_CLOCK, Clock
from runtime.commit import Writer
from runtime.core import Committed, Core
from runtime.deadlines import Deadlines
from runtime.listeners import Change, Listeners
from runtime.lobby import Lobby, new_session_id
from runtime.play import Play
from runtime.resume import Resumer
from runtime.seats import Seats
from runtime.thinking import SEAT_NICENESS, Thinker, Timed
from storage.session_store import SessionIdTaken, SessionStore


class SessionService:
    def __init__(
        self,
        store: SessionStore,
        games: Mapping[str, Rules[Any, Any, Any, Any]],
        ais: Mapping[str, GameAI[Any, Any]],
        *,
        ai_delay: float = 1.0,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        id_source: Callable[[], str] = new_session_id,
        clock: Clock = SYSTEM_CLOCK,
        shards: Shards | None = None,
        ai_workers: int = 1,
        on_decision: Timed | None = None,
        on_commit: Committed | None = None,
    ) -> None:
        """`games` and `ais`: each game's rules and AI by game id (games/registry.py).
        `shards`: the shards this process runs (None: every session is its own).
        `ai_workers`: processes of the pool that makes the AI seats' STRONG decisions (started
        on the first one); hints have a process of their own. `id_source`: new session ids
        (tests give one that clashes).
        `on_decision`: told of every AI decision (hints too), its level and seconds.
        `on_commit`: told of every change the store committed, with the seconds it waited
        for its commit (the store's group commit included)."""
        self.store = store
        self.shards = shards
        self.games = games
        self.clock = clock
        self._seed_source = seed_source
        core = self._core = Core(store, games, ais, clock, shards, on_commit)
        thinker = self._thinker = Thinker(ai_workers, on_decision, niceness=SEAT_NICENESS)
        self._hinter = Thinker(1, on_decision)  # a hint never queues behind AI seats
        listeners = self._listeners = Listeners(core)
        cache = self._cache = Cache(core, listeners)
        writer = Writer(core, cache)
        seats = self._seats = Seats(core, cache, writer, listeners, thinker, ai_delay)
        deadlines = Deadlines(core, cache, writer, listeners, seats)
        resumer = Resumer(core, cache, writer)
        # Each job made before the one it calls gets that call now (no call back up to here):
        writer.drive = seats.drive
        core.timers.fire = deadlines.fire
        listeners.told = cache.drop_if_over
        lobby = self._lobby = Lobby(core, cache, writer, listeners, self._seed, id_source)
        play = Play(core, cache, writer, listeners, self._hinter)

        # The service's face: each command and read is the job's own method, called directly.
        self.owns = core.owns
        self.subscribe = listeners.subscribe
        self.observe = listeners.observe
        self.settle = core.background.settle
        self.get = cache.get
        self.live_in_channel = cache.live_in_channel
        self.live_sessions = cache.live_sessions
        self.resume = resumer.resume
        self.create = lobby.create
        self.join = lobby.join
        self.add_ai = lobby.add_ai
        self.remove_ai = lobby.remove_ai
        self.set_table_message = lobby.set_table_message
        self.start = play.start
        self.submit = play.submit
        self.submit_all = play.submit_all
        self.hint = play.hint
        self.come_back = play.come_back
        self.leave = play.leave
        self.abandon = play.abandon

    def _seed(self) -> int:
        return self._seed_source()  # read at each new session: tests replace it

    async def rematch(
        self, session_id: str, by: int, options: Mapping[str, Any] | None = None
    ) -> Change:
        """A new session with the same seats, options and turn timer, started at once (its
        lobby is stored with its seats and its start: one write). Nothing of the finished game
        is held while the new one waits on the store (its record is read again if it must)."""
        finished = await self._finished(session_id, by)  # 2 KB, let go before the write:
        session = await self._lobby.reopen(finished, by, options, stored=False)
        del finished  # games started together end together, and rematch together
        try:  # the lobby and its start in one write
            return await self.start(session.id, by, new=True)
        except SessionIdTaken:  # 64 random bits: all but never; then under another id
            self._cache.drop(session)
        except BaseException:
            self._cache.drop(session)  # maybe never stored: the store decides on the next look
            raise
        session = await self._lobby.reopen(await self._finished(session_id, by), by, options)
        return await self.start(session.id, by)

    async def _finished(self, session_id: str, by: int) -> SessionRecord:
        record = (await self.get(session_id)).record
        if record.status.live:
            raise GameError(Reason.ILLEGAL_MOVE, "still_playing")
        if record.seat_of(by) is None:
            raise GameError(Reason.NOT_A_PLAYER)
        return record

    # Lifetime -------------------------------------------------------------------------------

    async def close(self) -> None:
        """Stop timers and AI seats, and let the listeners finish what they were told."""
        self._core.closed = True
        self._core.timers.closed = True
        await self._core.background.stop(keep=self._listeners.pumps())
        await self._thinker.close()
        await self._hinter.close()
