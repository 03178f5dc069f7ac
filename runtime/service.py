"""The session service: the one face the bot sees of the session runtime.

It wires the runtime's jobs together and hands each command to its own: the cache and
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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import NORMAL, Rules
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import SessionRecord
from games.engine.shards import Shards
from runtime.cache import Cache
from runtime.clock import SYSTEM_CLOCK, Clock
from runtime.commit import Writer
from runtime.core import Core
from runtime.deadlines import Deadlines
from runtime.listeners import Change, Hint, Listener, Listeners, Observer
from runtime.lobby import Lobby, new_session_id
from runtime.play import Play
from runtime.resume import Resumer
from runtime.seats import Seats
from runtime.thinking import SEAT_NICENESS, Thinker, Timed
from storage.session_store import SessionStore


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
    ) -> None:
        """`games` and `ais`: each game's rules and AI by game id (games/registry.py).
        `shards`: the shards this process runs (None: every session is its own).
        `ai_workers`: processes of the pool that makes the AI seats' STRONG decisions (started
        on the first one); hints have a process of their own. `id_source`: new session ids
        (tests give one that clashes).
        `on_decision`: told of every AI decision (hints too), its level and seconds."""
        self.store = store
        self.shards = shards
        self.games = games
        self.clock = clock
        self._seed_source = seed_source
        core = self._core = Core(store, games, ais, clock, shards, fire=self._fire)
        self._thinker = Thinker(ai_workers, on_decision, niceness=SEAT_NICENESS)
        self._hinter = Thinker(1, on_decision)  # a hint never queues behind AI seats
        self._listeners = Listeners(core, told=self._told)
        self._cache = Cache(core, self._listeners)
        self._writer = Writer(core, self._cache, armed=self._armed)
        self._seats = Seats(
            core, self._cache, self._writer, self._listeners, self._thinker, ai_delay
        )
        self._deadlines = Deadlines(core, self._cache, self._writer, self._listeners, self._seats)
        self._resumer = Resumer(core, self._cache, self._seats)
        self._lobby = Lobby(core, self._cache, self._writer, self._listeners, self._seed, id_source)
        self._play = Play(core, self._cache, self._writer, self._listeners, self._hinter)

    # The wiring's late-bound calls (each job is made before the one it calls).

    async def _fire(self, session_id: str) -> None:
        await self._deadlines.fire(session_id)

    def _armed(self, session: Session) -> None:
        self._seats.arm(session)

    def _told(self, session_id: str) -> None:
        self._cache.drop_if_over(session_id)

    def _seed(self) -> int:
        return self._seed_source()  # read at each call: tests replace it

    def owns(self, record: SessionRecord) -> bool:
        """Whether this process drives the session's deadlines and AI seats."""
        return self._core.owns(record)

    # Listeners ------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every change, after its caller has it, in order per session,
        in a task of the session's own: it may call back into the service."""
        self._listeners.subscribe(listener)

    def observe(self, observer: Observer) -> None:
        """Call `observer` with every change once its session's lock is let go and before the
        command that made it returns, in commit order: for in-memory bookkeeping only, no
        I/O."""
        self._listeners.observe(observer)

    # Loading --------------------------------------------------------------------------------

    async def get(self, session_id: str) -> Session:
        """The session, loaded from the store on first touch (UNKNOWN_SESSION if there is none,
        or it was quarantined as it loaded)."""
        return await self._cache.get(session_id)

    async def live_in_channel(self, channel_id: int) -> Session | None:
        return await self._cache.live_in_channel(channel_id)

    async def live_sessions(self, guild_id: int | None = None) -> list[Session]:
        return await self._cache.live_sessions(guild_id)

    async def resume(self) -> None:
        """After a restart: schedule every stored deadline and resume, in the background, the
        sessions with an AI to move or a deadline already due (of this process's shards)."""
        await self._resumer.resume()

    # Commands -------------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        locale: str,
        options: Mapping[str, Any],
        turn_timer: int | None = None,
    ) -> Session:
        """Open a lobby. `turn_timer`: seconds per turn before an AI plays it (None: off)."""
        return await self._lobby.create(
            game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            locale=locale,
            options=options,
            turn_timer=turn_timer,
        )

    async def join(self, session_id: str, user_id: int, name: str) -> Change:
        return await self._lobby.join(session_id, user_id, name)

    async def add_ai(self, session_id: str, by: int, level: str = NORMAL) -> Change:
        """Seat an AI that plays at `level` (one of the levels the game's AI offers)."""
        return await self._lobby.add_ai(session_id, by, level)

    async def remove_ai(self, session_id: str, by: int) -> Change:
        return await self._lobby.remove_ai(session_id, by)

    async def set_table_message(self, session_id: str, message_id: int) -> None:
        await self._lobby.set_table_message(session_id, message_id)

    async def start(self, session_id: str, by: int, first_seat: int | None = None) -> Change:
        return await self._play.start(session_id, by, first_seat)

    async def submit(
        self, session_id: str, user_id: int, action: Any, expected_version: int
    ) -> Change:
        """Play `action` for `user_id`'s seat (see `submit_all`)."""
        return await self._play.submit_all(session_id, user_id, (action,), expected_version)

    async def submit_all(
        self, session_id: str, user_id: int, actions: Sequence[Any], expected_version: int
    ) -> Change:
        """Play `actions` in turn for `user_id`'s seat as one move, in one commit or none."""
        return await self._play.submit_all(session_id, user_id, actions, expected_version)

    async def hint(self, session_id: str, user_id: int, level: str | None = None) -> Hint:
        """What the AI would play now for `user_id`'s seat (counted on the seat)."""
        return await self._play.hint(session_id, user_id, level)

    async def come_back(self, session_id: str, user_id: int) -> Change | None:
        """Hand `user_id`'s away seat back to them; None when it is not away."""
        return await self._play.come_back(session_id, user_id)

    async def leave(self, session_id: str, user_id: int) -> Change:
        """Leave a lobby, or hand a seat in play over to an AI."""
        return await self._play.leave(session_id, user_id)

    async def abandon(self, session_id: str, by: int, *, admin: bool = False) -> Change:
        return await self._play.abandon(session_id, by, admin=admin)

    async def rematch(
        self, session_id: str, by: int, options: Mapping[str, Any] | None = None
    ) -> Change:
        """A new session with the same seats, options and turn timer, started at once."""
        old = await self.get(session_id)
        if old.record.status.live:
            raise GameError(Reason.ILLEGAL_MOVE, "still_playing")
        if old.seat_of(by) is None:
            raise GameError(Reason.NOT_A_PLAYER)
        host = old.record.seats[old.seat_of(by) or 0]
        session = await self.create(
            old.record.game_id,
            guild_id=old.record.guild_id,
            channel_id=old.record.channel_id,
            host_id=by,
            host_name=host.name,
            locale=old.record.locale,
            options=old.record.options if options is None else options,
            turn_timer=old.record.turn_timer,
        )
        fresh = {"away": False, "missed": 0, "hints": 0}
        await self._lobby.reseat(
            session, tuple(s.model_copy(update=fresh) for s in old.record.seats)
        )
        return await self.start(session.id, by)

    # Lifetime -------------------------------------------------------------------------------

    async def settle(self) -> None:
        """Wait until nothing is due: no listener pending, no AI move or deadline due by the
        clock (tests, shutdown). A deadline still ahead does not hold it up."""
        await self._core.background.settle()

    async def close(self) -> None:
        """Stop timers and AI seats, and let the listeners finish what they were told."""
        self._core.closed = True
        self._core.timers.closed = True
        await self._core.background.stop(keep=self._listeners.pumps())
        await self._thinker.close()
        await self._hinter.close()
