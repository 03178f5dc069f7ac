"""What every job of the session service shares: the store, the games, the clock, this
process's shards, its background tasks, its locks and timers, and how a store outage is met."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import Rules
from games.engine.errors import GameError, Reason
from games.engine.session import SessionRecord
from games.engine.shards import Shards
from runtime.background import Background, Timers
from runtime.clock import Clock
from runtime.locks import Locks
from storage.session_store import RETRY_AFTER, SessionStore, StoreUnavailable

log = logging.getLogger(__name__)

Committed = Callable[[float], None]
"""Told of each change the store committed: the seconds it waited for its commit."""

OUTAGE_LOG_EVERY = 30.0
"""Seconds between two warnings of a store outage (every session's retry meets it)."""


class Core:
    """The service's shared parts; `on_commit` is told of every commit (`Committed`)."""

    def __init__(
        self,
        store: SessionStore,
        games: Mapping[str, Rules[Any, Any, Any, Any]],
        ais: Mapping[str, GameAI[Any, Any]],
        clock: Clock,
        shards: Shards | None,
        on_commit: Committed | None = None,
    ) -> None:
        self.store = store
        self.games = games
        if set(games) - set(ais):
            raise ValueError(f"games without an AI: {sorted(set(games) - set(ais))}")
        self.ais = ais
        self.clock = clock
        self.shards = shards
        self.background = Background(clock)
        self.locks = Locks()
        self.timers = Timers(self.background)
        self.on_commit = on_commit
        self.closed = False
        self._outage_told = -math.inf

    def owns(self, record: SessionRecord) -> bool:
        """Whether this process drives the session's deadlines and AI seats: its guild is on
        one of our shards. Another process's session is only read or played into here."""
        return self.shards is None or self.shards.owns(record)

    def rules(self, game_id: str) -> Rules[Any, Any, Any, Any]:
        try:
            return self.games[game_id]
        except KeyError:
            raise GameError(Reason.BAD_OPTION, "unknown_game") from None

    def outage(self, error: StoreUnavailable) -> None:
        """Warn (in one line, now and then) that work waits for the store to come back."""
        now = self.clock.now()
        if now - self._outage_told >= OUTAGE_LOG_EVERY:
            self._outage_told = now
            log.warning(
                "the store is unavailable; waiting work retries every %ss: %s", RETRY_AFTER, error
            )

    async def wait_out(self, error: StoreUnavailable) -> None:
        """Warn of an outage, then wait `RETRY_AFTER` before the caller tries again."""
        self.outage(error)
        await self.background.sleep_until(self.clock.now() + RETRY_AFTER)

    def retry_later(self, session_id: str, error: StoreUnavailable) -> None:
        """Wake a session's timer after a store outage: it loads the session and arms it."""
        self.outage(error)
        if not self.closed:
            self.timers.set(session_id, self.clock.now() + RETRY_AFTER)
