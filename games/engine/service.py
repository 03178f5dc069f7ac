"""The async session service: lobby, start, moves, AI seats, deadlines, persistence.

Moves are serialised per session by one asyncio lock (never held while another session's
work runs: the store's group commit batches many sessions' writes without a lock). Each action
is validated through its game's own action model before `apply`, and each change is persisted
— with the deadlines it makes due, in the same transaction — before it reaches memory; a
cancelled caller cannot leave memory behind the store. Callers get the change back at once,
and listeners (DMs, pings, records, table redraws) run after that in a background task, in
order per session.

Sessions load lazily, on first touch; one whose log no longer loads is quarantined (set aside,
its table told) and never stops the others. After a restart only the sessions an AI is to move
in or with a deadline due are resumed, in the background at a bounded rate; every timed thing
is an absolute deadline stored with its session, so a restart loses nothing.

A bot split into shard processes gives each service its `Shards`: it then resumes, times and
plays the AI of only the sessions of its own guilds (`owns`), so no two processes drive one
session, and a process that takes over a shard resumes that shard's sessions from the store.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.ai import GameAI
from games.engine.background import Background, Locks, Timers
from games.engine.clock import SYSTEM_CLOCK, Clock
from games.engine.contract import (
    AI_LEVELS,
    NORMAL,
    SYSTEM,
    AiDecision,
    Event,
    Rules,
    ToMove,
)
from games.engine.deadlines import Deadline, Key, Kind, changes, plan
from games.engine.errors import GameError, Reason
from games.engine.logcontext import about, bind
from games.engine.session import Seat, SessionRecord, Status, new_session_id
from games.engine.shards import Shards
from games.engine.step import Advance, advance, advance_all, replay
from games.engine.store import (
    RETRY_AFTER,
    Durable,
    LoadedSession,
    SessionIdTaken,
    SessionStore,
    SessionWrite,
    Snapshot,
    StoreUnavailable,
    VersionConflict,
)
from games.engine.thinking import Thinker, Timed, level_of

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 20
"""Versions between snapshots (one is also taken at the deal and at the end): no load replays
more than this many actions, whatever the game's length. A snapshot is only a cache."""

FREEZE_EVERY = 512
"""Sessions taken into memory (loaded or created) between two `gc.freeze()` calls: what was
built in bulk is long-lived, so full collections stop walking it (with 10,000 sessions a full
collection otherwise stalls the loop for a quarter of a second). Objects that die later are
still freed by reference counting."""

RESUME_BATCH = 20
RESUME_PAUSE = 0.1
"""After a restart, sessions are resumed in the background `RESUME_BATCH` at a time with this
pause (seconds) between batches: at most 200 a second, so a bot that was down a while neither
stalls its loop nor loads every session at once."""

OUTAGE_LOG_EVERY = 30.0
"""Seconds between two warnings of a store outage (every session's retry meets it)."""

ID_TRIES = 5
"""Ids a new session tries before its creation fails: only a broken id source runs out."""

AWAY_AFTER = 3
"""Turn-timer expiries in a row after which an AI holds the seat until its player is back."""


@dataclass
class Session:
    """A session as the service holds it: the stored record, the live state, its deadlines."""

    record: SessionRecord
    rules: Rules[Any, Any, Any, Any]
    config: Any = None
    state: Any = None
    deadlines: dict[Key, Deadline] = field(default_factory=dict)
    waiting: ToMove = field(default_factory=ToMove)
    """`rules.to_move(state)`, kept with the state so a move computes it once."""

    @property
    def id(self) -> str:
        return self.record.id

    def seat_of(self, user_id: int) -> int | None:
        return self.record.seat_of(user_id)

    def due(self, kind: Kind, seat: int | None = None) -> float | None:
        """When a deadline (`window`, or a seat's `warn`/`turn`) falls due; None if unset."""
        deadline = self.deadlines.get((kind, seat))
        return None if deadline is None else deadline.due


@dataclass(frozen=True)
class Change:
    """A change the bot should show: the session after it and what happened.

    `kind`: lobby, start, move (a seat's, an AI's, or SYSTEM closing a window), leave,
    abandon, back (an away player retook the seat), warn (a turn is half over), hint (a
    player asked the AI for a hint: the seat's count went up) or quarantine
    (the session's log no longer loads: it was set aside as abandoned, `session.state` is None
    and its one event is `session.quarantined`; the table should say the game could not be
    restored and is closed).
    """

    session: Session
    events: tuple[Event, ...] = ()
    actor: int | None = None
    kind: str = "move"


@dataclass(frozen=True)
class Hint:
    """What the AI would play for `seat` at `version`, decided from that seat's view only."""

    seat: int
    version: int
    decision: AiDecision


Listener = Callable[[Change], Awaitable[None]]
Observer = Callable[[Change], None]


@dataclass
class _Runtime:
    """A session's background work: its AI driver and listener queue (dropped when idle)."""

    ai: asyncio.Task[None] | None = None
    pump: asyncio.Task[None] | None = None
    outbox: deque[Change] = field(default_factory=deque)


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
        `ai_workers`: processes of the pool that makes STRONG AI decisions (started on the
        first one). `id_source`: new session ids (tests give one that clashes).
        `on_decision`: told of every AI decision (hints too), its level and seconds."""
        self.store = store
        self.shards = shards
        self.games = games
        self.ais = ais
        if set(games) - set(ais):
            raise ValueError(f"games without an AI: {sorted(set(games) - set(ais))}")
        self.ai_delay = ai_delay
        self.clock = clock
        self._seed_source = seed_source
        self._id_source = id_source
        self._sessions: dict[str, Session] = {}
        self._locks = Locks()
        self._tasks: dict[str, _Runtime] = {}
        self._background = Background(clock)
        self._timers = Timers(self._background, self._timer)
        self._listeners: list[Listener] = []
        self._observers: list[Observer] = []
        self._closed = False
        self._taken_in = 0
        self._thinker = Thinker(ai_workers, on_decision)
        self._outage_told = -math.inf

    def owns(self, record: SessionRecord) -> bool:
        """Whether this process drives the session's deadlines and AI seats: its guild is on
        one of our shards. Another process's session is only read or played into here."""
        return self.shards is None or self.shards.owns(record)

    # Listeners ------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every change, after its caller has it, in order per session."""
        self._listeners.append(listener)

    def observe(self, observer: Observer) -> None:
        """Call `observer` synchronously right after each commit, before anyone else sees it.

        For in-memory bookkeeping only (it runs under the session's lock): no I/O.
        """
        self._observers.append(observer)

    def _publish(self, change: Change) -> Change:
        with about(change.session.record):
            for observer in self._observers:
                try:
                    observer(change)
                except Exception:
                    log.exception("observer failed for session %s", change.session.id)
        runtime = self._runtime(change.session.id)
        runtime.outbox.append(change)
        if runtime.pump is None or runtime.pump.done():
            runtime.pump = self._background.spawn(self._deliver(change.session.id, runtime))
        return change

    async def _deliver(self, session_id: str, runtime: _Runtime) -> None:
        while runtime.outbox:
            change = runtime.outbox.popleft()
            with about(change.session.record):
                for listener in list(self._listeners):
                    await self._tell(listener, change)
        session = self._sessions.get(session_id)
        if session is not None and not session.record.status.live:
            # Over and told: stop holding it; a later look (rematch, redraw) reloads it.
            del self._sessions[session_id]
            self._timers.set(session_id, None)
        self._drop_if_idle(session_id, runtime)

    async def _tell(self, listener: Listener, change: Change) -> None:
        """Run a listener on a change; again after a store outage (records are idempotent),
        so a game that ended just before the outage still gets its record."""
        while True:
            try:
                await listener(change)
                return
            except StoreUnavailable as error:
                self._outage(error)
                if self._closed:
                    return
                await self._background.sleep_until(self.clock.now() + RETRY_AFTER)
            except Exception:
                log.exception("listener failed for session %s", change.session.id)
                return

    def _outage(self, error: StoreUnavailable) -> None:
        """Warn (in one line, now and then) that work waits for the store to come back."""
        now = self.clock.now()
        if now - self._outage_told >= OUTAGE_LOG_EVERY:
            self._outage_told = now
            log.warning(
                "the store is unavailable; waiting work retries every %ss: %s", RETRY_AFTER, error
            )

    def _retry_later(self, session_id: str, error: StoreUnavailable) -> None:
        """Wake a session's timer after a store outage: it loads the session and arms it."""
        self._outage(error)
        if not self._closed:
            self._timers.set(session_id, self.clock.now() + RETRY_AFTER)

    def _drop_if_idle(self, session_id: str, runtime: _Runtime) -> None:
        """Forget a session's runtime once nothing of it runs (called from its own tasks)."""
        current = asyncio.current_task()
        others = [t for t in (runtime.ai, runtime.pump) if t is not None and t is not current]
        idle = not runtime.outbox and all(t.done() for t in others)
        if idle and self._tasks.get(session_id) is runtime:
            del self._tasks[session_id]

    def _runtime(self, session_id: str) -> _Runtime:
        runtime = self._tasks.get(session_id)
        if runtime is None:
            runtime = self._tasks[session_id] = _Runtime()
        return runtime

    # Loading --------------------------------------------------------------------------------

    def _rules(self, game_id: str) -> Rules[Any, Any, Any, Any]:
        try:
            return self.games[game_id]
        except KeyError:
            raise GameError(Reason.BAD_OPTION, "unknown_game") from None

    async def get(self, session_id: str) -> Session:
        """The session, loaded from the store on first touch.

        A session whose stored log no longer loads is quarantined (and UNKNOWN_SESSION raised)
        instead of raising whatever the replay raised.
        """
        session = self._sessions.get(session_id)
        if session is not None:
            return session
        loaded = await self.store.load(session_id)
        cached = self._sessions.get(session_id)
        if cached is not None:
            # Loaded meanwhile by another caller, maybe already moved on under its lock: a copy
            # replacing it would hold an old version and refuse every up-to-date click.
            return cached
        if loaded is None:
            raise GameError(Reason.UNKNOWN_SESSION)
        rules = self._rules(loaded.record.game_id)
        try:
            session = _build(loaded, rules)
        except Exception as error:
            await self._quarantine(loaded.record, rules, error)
            raise GameError(Reason.UNKNOWN_SESSION, "quarantined") from error
        if session.record.status.live:  # a finished session is only looked at; nothing to hold
            self._hold(session)
        return session

    def _hold(self, session: Session) -> None:
        """Keep a live session in memory; after every `FREEZE_EVERY` of them, freeze the heap."""
        self._sessions[session.id] = session
        self._taken_in += 1
        if self._taken_in >= FREEZE_EVERY:
            self._taken_in = 0
            gc.collect(1)  # young cyclic garbage goes first: a frozen cycle is never freed
            gc.freeze()

    async def _quarantine(
        self, record: SessionRecord, rules: Rules[Any, Any, Any, Any], error: Exception
    ) -> None:
        """Set aside a session that cannot load: logged, marked in the store, its table told."""
        with about(record):
            log.error("session %s cannot be loaded; quarantined", record.id, exc_info=error)
        reason = f"{type(error).__name__}: {error}"
        if not await self.store.quarantine(record.id, reason):
            return  # another caller (or process) already did
        self._timers.set(record.id, None)
        closed = record.model_copy(update={"status": Status.ABANDONED, "quarantine": reason})
        event = Event(key="session.quarantined")
        self._publish(Change(session=Session(closed, rules), events=(event,), kind="quarantine"))

    async def _fresh(self, session_id: str) -> Session:
        """Drop the cached copy and load the session again (another process moved it on)."""
        self._sessions.pop(session_id, None)
        return await self.get(session_id)

    async def live_in_channel(self, channel_id: int) -> Session | None:
        record = await self.store.live_in_channel(channel_id)
        return None if record is None else await self.get(record.id)

    async def live_sessions(self, guild_id: int | None = None) -> list[Session]:
        return [await self.get(r.id) for r in await self.store.live_sessions(guild_id)]

    async def resume(self) -> None:
        """After a restart: schedule every stored deadline and resume, in the background, the
        sessions with an AI to move or a deadline already due, of the sessions this process
        owns (all of them without shards). Loads nothing itself.

        A deadline that passed while the bot was down fires as its session is resumed. Every
        other session loads when a player touches it or its deadline comes.
        """
        await self.store.watch(self._changed_elsewhere)
        now = self.clock.now()
        due: list[str] = []
        for session_id, when in await self.store.wakeups(self.shards):
            if when <= now:
                due.append(session_id)
            else:
                self._timers.set(session_id, when)
        self._background.spawn(self._resume(due))
        gc.collect(1)
        gc.freeze()  # what startup built lives on: keep it out of every full collection

    def _changed_elsewhere(self, session_id: str, guild_id: int | None) -> None:
        """Another process changed a session (a player's click reached it through a DM): our
        copy is out of date, and if the session is ours, what it now waits for is ours to
        drive."""
        if self._closed:
            return
        if self.shards is None or self.shards.owns_guild(guild_id):
            self._background.spawn(self._pick_up(session_id))
        elif session_id not in self._locks:  # (under a lock, the version check finds out)
            self._sessions.pop(session_id, None)

    async def _pick_up(self, session_id: str) -> None:
        """Reload a session of ours another process moved on, and arm it."""
        async with self._locks.hold(session_id):
            try:
                session = await self._fresh(session_id)
            except GameError:
                return  # gone, or quarantined while loading
            except StoreUnavailable as error:
                self._retry_later(session_id, error)
                return
            bind(session.record)
            self._arm(session)

    async def _resume(self, due: list[str]) -> None:
        """Load and arm the sessions whose deadline is due, then those whose AI is to move
        (found in the background: that query reads every live session's row)."""
        seen = set(due)
        while True:
            try:
                awaiting = await self.store.awaiting_ai(self.shards)
                break
            except StoreUnavailable as error:
                self._outage(error)
                await self._background.sleep_until(self.clock.now() + RETRY_AFTER)
        session_ids = due + [sid for sid in awaiting if sid not in seen]
        for start in range(0, len(session_ids), RESUME_BATCH):
            if start:
                await asyncio.sleep(RESUME_PAUSE)
            for session_id in session_ids[start : start + RESUME_BATCH]:
                if self._closed:
                    return
                with about(session=session_id):
                    try:
                        session = await self.get(session_id)
                    except GameError:
                        continue  # gone, or quarantined (and logged) as it loaded
                    except StoreUnavailable as error:
                        self._retry_later(session_id, error)
                        continue
                    except Exception:  # one broken session must not keep the others waiting
                        log.exception("session %s could not be resumed", session_id)
                        continue
                if session.record.status is Status.ACTIVE:
                    self._arm(session)
        if session_ids:
            gc.collect(1)
            gc.freeze()

    # Writing --------------------------------------------------------------------------------

    async def _write(
        self,
        session: Session,
        record: SessionRecord,
        step: Advance | None = None,
        *,
        acted: int | None = None,
        keep: Mapping[Key, Deadline] | None = None,
    ) -> None:
        """Persist `record` (and `step`'s log entries) with the deadlines they need, then update
        the live session and its timers. Call under the session's lock.

        `acted`: the seat whose own player made this change. `keep`: the deadlines to plan
        from when not the stored ones (one that fired is left out or marked).
        """
        stored = session.deadlines
        state = session.state if step is None else step.state
        needed: dict[Key, Deadline] = {}
        waiting = session.waiting if step is None else step.to_move
        if record.status is Status.ACTIVE:
            needed = plan(
                record,
                waiting,
                session.waiting,
                stored if keep is None else keep,
                self.clock.now(),
                acted=acted,
                left=frozenset() if step is None else step.left,
            )
        update = changes(stored, needed)
        old = session.record
        snapshot = None
        if step is not None:
            dealt = old.status is Status.LOBBY
            crossed = record.version // SNAPSHOT_EVERY != old.version // SNAPSHOT_EVERY
            if dealt or crossed or record.status is Status.FINISHED:
                snapshot = Snapshot(version=record.version, state=state.model_dump(mode="json"))
        elif record == old and update.empty:
            return
        write = SessionWrite(
            before=old,
            after=record,
            entries=() if step is None else step.logged,
            snapshot=snapshot,
            deadlines=None if update.empty else update,
            notify=not self.owns(record),  # its owner must arm what this change made due
        )
        await self._commit(session, write, state, waiting, needed)

    async def _commit(
        self,
        session: Session,
        write: SessionWrite,
        state: Any,
        waiting: ToMove,
        needed: dict[Key, Deadline],
    ) -> None:
        """Store `write`, then bring memory level with it: both or neither, even if the caller
        is cancelled in between (a commit may still land after a cancel, and memory must
        follow it before the session's lock is let go, or the next click at the shown version
        would be refused)."""
        stored = asyncio.ensure_future(self.store.write(write))
        cancelled = await _settle(stored)
        error = stored.exception()
        if isinstance(error, VersionConflict):
            if self._sessions.get(session.id) is session:
                del self._sessions[session.id]  # another writer moved on: reload next time
            if not cancelled:
                raise GameError(Reason.STALE_VERSION) from None
        elif error is None:
            session.record, session.state, session.deadlines = write.after, state, needed
            session.waiting = waiting
            self._arm(session)
        else:
            if isinstance(error, StoreUnavailable) and self._sessions.get(session.id) is session:
                del self._sessions[session.id]  # a lost COMMIT may yet have landed: reload
            if not cancelled:
                raise error
        if cancelled:
            raise asyncio.CancelledError

    @staticmethod
    def _advanced(
        record: SessionRecord, rules: Rules[Any, Any, Any, Any], step: Advance
    ) -> SessionRecord:
        over = not step.to_move.seats and not step.to_move.chance
        return record.model_copy(
            update={
                "version": record.version + len(step.logged),
                "status": Status.FINISHED if over else record.status,
                "to_move": tuple(sorted(step.to_move.seats)),
            }
        )

    # Lobby ----------------------------------------------------------------------------------

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
        rules = self._rules(game_id)
        rules.make_config(rules.min_players, dict(options))  # validates the options
        if turn_timer is not None and turn_timer <= 0:
            raise GameError(Reason.BAD_OPTION, "turn_timer")
        async with self._locks.hold(f"channel:{channel_id}"):
            if await self.store.live_in_channel(channel_id) is not None:
                raise GameError(Reason.CHANNEL_BUSY)
            record = SessionRecord(
                id=self._id_source(),
                game_id=game_id,
                rules_version=rules.rules_version,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                locale=locale,
                options=dict(options),
                seed=self._seed_source(),
                seats=(Seat(user_id=host_id, name=host_name),),
                created_at=self.clock.now(),
                turn_timer=turn_timer,
            )
            record = await self._insert(record)
        session = Session(record=record, rules=rules)
        self._hold(session)
        return session

    async def _insert(self, record: SessionRecord) -> SessionRecord:
        """Store a new session, under a fresh id while its id is taken (64 random bits make a
        clash all but impossible, but a clash must never cost a player their new game)."""
        for _ in range(ID_TRIES - 1):
            try:
                await self.store.create(record)
                return record
            except SessionIdTaken:
                log.warning("session id %s is taken: trying another", record.id)
                record = record.model_copy(update={"id": self._id_source()})
        await self.store.create(record)
        return record

    async def _lobby_edit(
        self, session_id: str, edit: Callable[[SessionRecord], SessionRecord]
    ) -> Change:
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            if session.record.status is not Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            await self._write(session, edit(session.record))
            return self._publish(Change(session=session, kind="lobby"))

    def _seats_left(self, record: SessionRecord) -> None:
        if len(record.seats) >= self._rules(record.game_id).max_players:
            raise GameError(Reason.LOBBY_FULL)

    async def join(self, session_id: str, user_id: int, name: str) -> Change:
        def edit(record: SessionRecord) -> SessionRecord:
            if record.seat_of(user_id) is not None:
                raise GameError(Reason.ALREADY_SEATED)
            self._seats_left(record)
            return record.model_copy(
                update={"seats": (*record.seats, Seat(user_id=user_id, name=name))}
            )

        return await self._lobby_edit(session_id, edit)

    async def add_ai(self, session_id: str, by: int, level: str = NORMAL) -> Change:
        """Seat an AI that plays at `level` (one of the levels the game's AI offers)."""
        if level not in AI_LEVELS:
            raise GameError(Reason.BAD_OPTION, "ai_level")

        def edit(record: SessionRecord) -> SessionRecord:
            if level not in self.ais[record.game_id].levels:
                raise GameError(Reason.BAD_OPTION, "ai_level")
            _require_host(record, by)
            self._seats_left(record)
            seat = Seat(user_id=None, name="", ai_level=level)
            return record.model_copy(update={"seats": (*record.seats, seat)})

        return await self._lobby_edit(session_id, edit)

    async def remove_ai(self, session_id: str, by: int) -> Change:
        def edit(record: SessionRecord) -> SessionRecord:
            _require_host(record, by)
            ai = [i for i, seat in enumerate(record.seats) if seat.is_ai]
            if not ai:
                raise GameError(Reason.ILLEGAL_MOVE, "no_ai_seat")
            seats = record.seats[: ai[-1]] + record.seats[ai[-1] + 1 :]
            return record.model_copy(update={"seats": seats})

        return await self._lobby_edit(session_id, edit)

    async def set_table_message(self, session_id: str, message_id: int) -> None:
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            await self._write(
                session, session.record.model_copy(update={"table_message_id": message_id})
            )

    # Play -----------------------------------------------------------------------------------

    async def start(self, session_id: str, by: int, first_seat: int | None = None) -> Change:
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            record = session.record
            if record.status is not Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            _require_host(record, by)
            rules = session.rules
            if len(record.seats) < rules.min_players:
                raise GameError(Reason.NOT_ENOUGH_PLAYERS)
            if first_seat is not None and not 0 <= first_seat < len(record.seats):
                raise GameError(Reason.BAD_OPTION, "first_player")
            config = rules.make_config(
                len(record.seats), {**record.options, "first_player": first_seat}
            )
            step = advance(rules, rules.setup(config), 0, 0, None, record.seed)
            update = {"status": Status.ACTIVE, "config": config.model_dump(mode="json")}
            started = self._advanced(record.model_copy(update=update), rules, step)
            await self._write(session, started, step)
            session.config = config
            return self._publish(Change(session=session, events=step.events, kind="start"))

    async def submit(
        self, session_id: str, user_id: int, action: Any, expected_version: int
    ) -> Change:
        """Play `action` for `user_id`'s seat.

        A player whose seat is away takes it back first, in the same commit; if the action is
        refused, taking the seat back is committed on its own before the error is raised (any
        control of theirs counts as being back).
        """
        return await self.submit_all(session_id, user_id, (action,), expected_version)

    async def submit_all(
        self, session_id: str, user_id: int, actions: Sequence[Any], expected_version: int
    ) -> Change:
        """Play `actions` in turn for `user_id`'s seat as one move (one click that makes
        several): all of them are stored in one commit, or none when any is refused."""
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            cached = session.record.version
            # Maybe another process moved it on: re-read the version before refusing.
            if expected_version != cached and await self.store.version(session_id) != cached:
                session = await self._fresh(session_id)
            record = session.record
            if record.status is Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            if record.status is not Status.ACTIVE:
                raise GameError(Reason.GAME_OVER)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(Reason.NOT_A_PLAYER)
            back = record.seats[seat].away
            try:
                played = _actions(actions)
                if expected_version != record.version:
                    raise GameError(Reason.STALE_VERSION)
                step = advance_all(
                    session.rules, session.state, record.version, seat, played, record.seed
                )
            except GameError:
                if back:
                    await self._come_back(session, seat)
                raise
            present = record
            if back or record.seats[seat].missed:
                present = _with_seat(record, seat, away=False, missed=0)
            moved = self._advanced(present, session.rules, step)
            await self._write(session, moved, step, acted=seat)
            events = (*_back_events(seat, back), *step.events)
            return self._publish(Change(session=session, events=events, actor=seat))

    async def hint(self, session_id: str, user_id: int, level: str | None = None) -> Hint:
        """What the AI at `level` (by default the game's `hint_level`) would play now for
        `user_id`'s seat, which must be to move.

        Decided from that seat's view only, with the rng an AI holding the seat would use at
        this version; a STRONG one in the AI pool, after the session's lock is let go, so the
        table plays on meanwhile. Each hint is counted on the seat (stored with it) and
        published as a `hint` change, so the table can show how many were used.
        """
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            record = session.record
            if record.status is Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY, "not_started")
            if record.status is not Status.ACTIVE:
                raise GameError(Reason.GAME_OVER)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(Reason.NOT_A_PLAYER)
            if seat not in session.waiting.seats:
                raise GameError(Reason.NOT_YOUR_TURN, "hint")
            rules, view = session.rules, session.rules.view(session.state, seat)
            counted = _with_seat(record, seat, hints=record.seats[seat].hints + 1)
            await self._write(session, counted)
            self._publish(Change(session=session, actor=seat, kind="hint"))
        ai = self.ais[record.game_id]
        level = level or ai.hint_level
        decision = await self._thinker.decide(rules, ai, view, _ai_seed(record), level)
        return Hint(seat=seat, version=record.version, decision=decision)

    async def come_back(self, session_id: str, user_id: int) -> Change | None:
        """Hand `user_id`'s away seat back to them (any control or hand of theirs calls this).

        None, and nothing written, when their seat is not away.
        """
        cached = self._sessions.get(session_id)
        if cached is not None and not _away(cached.record, user_id):
            return None  # the usual case, answered without waiting for the session's lock
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            seat = session.record.seat_of(user_id)
            if session.record.status is not Status.ACTIVE or seat is None:
                return None
            if not session.record.seats[seat].away:
                return None
            return await self._come_back(session, seat)

    async def _come_back(self, session: Session, seat: int) -> Change:
        await self._write(session, _with_seat(session.record, seat, away=False, missed=0))
        events = _back_events(seat, True)
        return self._publish(Change(session=session, events=events, actor=seat, kind="back"))

    async def leave(self, session_id: str, user_id: int) -> Change:
        """Leave a lobby, or hand a seat in play over to an AI."""
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            record = session.record
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(Reason.NOT_A_PLAYER)
            if record.status is Status.LOBBY:
                seats = record.seats[:seat] + record.seats[seat + 1 :]
                humans = [s for s in seats if not s.is_ai]
                update: dict[str, Any] = {"seats": seats}
                if not humans:
                    update["status"] = Status.ABANDONED
                elif record.host_id == user_id:
                    update["host_id"] = humans[0].user_id
                kind = "lobby" if humans else "abandon"
            elif record.status is Status.ACTIVE:
                taken = list(record.seats)
                taken[seat] = Seat(user_id=None, name=taken[seat].name, hints=taken[seat].hints)
                update = {"seats": tuple(taken)}
                humans = [s for s in taken if not s.is_ai]
                if record.host_id == user_id and humans:
                    update["host_id"] = humans[0].user_id
                kind = "leave"
            else:
                raise GameError(Reason.GAME_OVER)
            await self._write(session, record.model_copy(update=update))
            return self._publish(Change(session=session, actor=seat, kind=kind))

    async def abandon(self, session_id: str, by: int, *, admin: bool = False) -> Change:
        async with self._locks.hold(session_id):
            session = await self.get(session_id)
            record = session.record
            if not record.status.live:
                raise GameError(Reason.GAME_OVER)
            if not admin:
                _require_host(record, by)
            await self._write(session, record.model_copy(update={"status": Status.ABANDONED}))
            return self._publish(Change(session=session, kind="abandon"))

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
        seats = tuple(s.model_copy(update=fresh) for s in old.record.seats)
        async with self._locks.hold(session.id):
            await self._write(session, session.record.model_copy(update={"seats": seats}))
        return await self.start(session.id, by)

    # AI seats and deadlines -----------------------------------------------------------------

    def _arm(self, session: Session) -> None:
        """Make the session's timer and AI driver match what it now waits for (on the process
        that owns it only)."""
        if self._closed or not self.owns(session.record):
            return
        if session.record.status is not Status.ACTIVE:
            self._timers.set(session.id, None)
            runtime = self._tasks.get(session.id)
            ai = None if runtime is None else runtime.ai
            if ai is not None and ai is not asyncio.current_task():
                ai.cancel()
            return
        pending = [d.due for d in session.deadlines.values() if not d.fired]
        self._timers.set(session.id, min(pending, default=None))
        if self._autoplay_seats(session):
            runtime = self._runtime(session.id)
            if runtime.ai is None or runtime.ai.done():
                runtime.ai = self._background.spawn(self._drive_ai(session.id, self.clock.now()))

    async def _timer(self, session_id: str) -> None:
        """A session's earliest deadline came: act on every deadline now due, one at a time.
        In a store outage, it comes again `RETRY_AFTER` later."""
        try:
            await self._due(session_id)
        except StoreUnavailable as error:
            self._retry_later(session_id, error)

    async def _due(self, session_id: str) -> None:
        async with self._locks.hold(session_id):
            try:
                session = await self.get(session_id)
            except GameError:
                return  # gone, or quarantined while loading
            bind(session.record)
            now = self.clock.now()
            due_now = [d for d in session.deadlines.values() if not d.fired and d.due <= now]
            if session.record.status is not Status.ACTIVE or not due_now:
                self._arm(session)
                return
            try:
                await self._fire(session, min(due_now, key=lambda d: d.due))
            except GameError as error:
                if error.reason is not Reason.STALE_VERSION:
                    raise
                self._timers.set(session_id, now)  # another writer moved on: reload, try again

    async def _fire(self, session: Session, deadline: Deadline) -> None:
        """Act on a deadline that fell due; one that no longer applies is just dropped."""
        record, rules, state = session.record, session.rules, session.state
        rest = {key: d for key, d in session.deadlines.items() if key != deadline.key}
        to_move = session.waiting
        seat = deadline.seat
        if deadline.kind == "window":
            if to_move.timeout is not None:
                action = rules.timeout_action(state)
                step = advance(rules, state, record.version, SYSTEM, action, record.seed)
                await self._write(session, self._advanced(record, rules, step), step, keep=rest)
                self._publish(Change(session=session, events=step.events, actor=SYSTEM))
                return
        elif seat is not None and seat in to_move.seats and not record.seats[seat].autoplay:
            if deadline.kind == "turn":
                await self._expire(session, deadline, rest)
                return
            turn = session.deadlines.get(("turn", seat))
            if turn is not None and turn.due > self.clock.now():  # else: too late to warn
                await self._write(session, record, keep=rest)
                params = {"seat": seat, "due": math.ceil(turn.due)}
                warning = Event(key="session.turn_warning", params=params)
                self._publish(Change(session=session, events=(warning,), kind="warn"))
                return
        await self._write(session, record, keep=rest)

    async def _expire(self, session: Session, turn: Deadline, rest: dict[Key, Deadline]) -> None:
        """A seat's turn timer ran out: the AI plays its first action now, the rest of the turn
        as an AI seat would; the deadline stays (marked fired) until that turn is done."""
        seat = turn.seat
        assert seat is not None
        missed = session.record.seats[seat].missed + 1
        away = missed >= AWAY_AFTER
        events = [Event(key="session.turn_expired", params={"seat": seat})]
        if away:
            events.append(Event(key="session.seat_away", params={"seat": seat}))
        record = _with_seat(session.record, seat, missed=missed, away=away)
        keep = {**rest, turn.key: turn.model_copy(update={"fired": True})}
        keep.pop(("warn", seat), None)
        await self._play_ai(session, seat, record=record, keep=keep, events=tuple(events))

    def _autoplay_seats(self, session: Session) -> list[int]:
        """Seats to move that the AI plays now: AI and away seats, and expired turns."""
        seats = session.record.seats
        to_move = session.waiting.seats
        return sorted(s for s in to_move if seats[s].autoplay or _expiring(session, s))

    async def _drive_ai(self, session_id: str, since: float) -> None:
        """Play the AI's seats, `ai_delay` after the change that made each move due (in a store
        outage, again every `RETRY_AFTER` until the store is back)."""
        try:
            while True:
                try:
                    await self._play_ai_seats(session_id, since)
                    return
                except StoreUnavailable as error:
                    self._outage(error)
                    await self._background.sleep_until(self.clock.now() + RETRY_AFTER)
                    since = self.clock.now() - self.ai_delay  # the move is overdue: at once
        finally:
            runtime = self._tasks.get(session_id)
            if runtime is not None:
                self._drop_if_idle(session_id, runtime)

    async def _play_ai_seats(self, session_id: str, since: float) -> None:
        pause = True
        while True:
            if pause:
                await self._background.sleep_until(since + self.ai_delay)
            pause = True
            async with self._locks.hold(session_id):
                try:
                    session = await self.get(session_id)
                except GameError:
                    return  # gone, or quarantined while loading
                if session.record.status is not Status.ACTIVE:
                    return
                bind(session.record)
                seats = self._autoplay_seats(session)
                if not seats:
                    return
                seat = seats[0]
                ai = self.ais[session.record.game_id]
                level = _level(session.record, ai, seat)
                if level == NORMAL:
                    try:
                        await self._play_ai(session, seat)
                        since = self.clock.now()
                    except GameError as error:
                        if error.reason is not Reason.STALE_VERSION:
                            raise
                        pause = False  # another writer moved on: reload and play at once
                    continue
                version = session.record.version
                rules, view = session.rules, session.rules.view(session.state, seat)
                seed = _ai_seed(session.record)
            # Off the loop and outside the lock: players' clicks (and hints) go on meanwhile.
            decision = await self._thinker.decide(rules, ai, view, seed, level)
            async with self._locks.hold(session_id):
                try:
                    session = await self.get(session_id)
                except GameError:
                    return
                record = session.record
                moved_on = record.status is not Status.ACTIVE or record.version != version
                if moved_on or seat not in self._autoplay_seats(session):
                    pause = False  # decided for a table that changed: look again at once
                    continue
                try:
                    await self._play_ai(session, seat, decision=decision)
                    since = self.clock.now()
                except GameError as error:
                    if error.reason is not Reason.STALE_VERSION:
                        raise
                    pause = False

    async def _play_ai(
        self,
        session: Session,
        seat: int,
        *,
        record: SessionRecord | None = None,
        keep: Mapping[Key, Deadline] | None = None,
        events: tuple[Event, ...] = (),
        decision: AiDecision | None = None,
    ) -> Change:
        """One AI action for `seat`, decided from its view (NORMAL, in place, unless
        `decision` was made already); `record` carries seat changes."""
        rules, state = session.rules, session.state
        base = session.record if record is None else record
        if base.seats[seat].user_id is not None:  # a player's seat the AI holds for them
            base = _with_seat(base, seat, ai_moves=base.seats[seat].ai_moves + 1)
        if decision is None:
            ai = self.ais[base.game_id]
            decision = self._thinker.now(ai, rules.view(state, seat), _ai_seed(base))
        try:
            step = advance(rules, state, base.version, seat, decision.action, base.seed)
        except GameError:
            log.exception("AI chose a refused action in %s; playing a legal one", session.id)
            legal = rules.legal_actions(state, seat)[0]
            step = advance(rules, state, base.version, seat, legal, base.seed)
        await self._write(session, self._advanced(base, rules, step), step, keep=keep)
        return self._publish(Change(session=session, events=(*events, *step.events), actor=seat))

    async def settle(self) -> None:
        """Wait until nothing is due: no listener pending, no AI move or deadline due by the
        clock (tests, shutdown). A deadline still ahead does not hold it up."""
        await self._background.settle()

    async def close(self) -> None:
        """Stop timers and AI seats, and let the listeners finish what they were told."""
        self._closed = True
        self._timers.closed = True
        pumps = [runtime.pump for runtime in self._tasks.values() if runtime.pump is not None]
        await self._background.stop(keep=pumps)
        await self._thinker.close()


def _actions(actions: object) -> tuple[Any, ...]:
    """`submit_all`'s actions as a tuple, or GameError: a caller's malformed argument (not a
    sequence, a string, a None in it) is a refused move, never a TypeError from deep inside."""
    if not isinstance(actions, Sequence) or isinstance(actions, str | bytes):
        raise GameError(Reason.ILLEGAL_MOVE, "malformed_action")
    played = tuple(actions)
    if any(a is None for a in played):  # to `advance`, None means "no move"
        raise GameError(Reason.ILLEGAL_MOVE, "unknown_action")
    return played


def _require_host(record: SessionRecord, user_id: int) -> None:
    if record.host_id != user_id:
        raise GameError(Reason.NOT_HOST)


def _with_seat(record: SessionRecord, seat: int, **update: Any) -> SessionRecord:
    seats = list(record.seats)
    seats[seat] = seats[seat].model_copy(update=update)
    return record.model_copy(update={"seats": tuple(seats)})


def _ai_seed(record: SessionRecord) -> str:
    """The seed of the AI's rng at the record's version: the same move after a restart."""
    return f"{record.seed}:ai:{record.version}"


def _level(record: SessionRecord, ai: GameAI[Any, Any], seat: int) -> str:
    """The level the AI plays `seat` at: an AI seat's own if its game offers it (else NORMAL),
    NORMAL for a player's seat it holds (away, or a turn whose timer ran out)."""
    held = record.seats[seat]
    return level_of(held.ai_level, ai.levels) if held.is_ai else NORMAL


def _away(record: SessionRecord, user_id: int) -> bool:
    seat = record.seat_of(user_id)
    return seat is not None and record.seats[seat].away


def _back_events(seat: int, back: bool) -> tuple[Event, ...]:
    return (Event(key="session.seat_back", params={"seat": seat}),) if back else ()


def _expiring(session: Session, seat: int) -> bool:
    """The seat's turn timer ran out and the AI is playing the rest of that turn."""
    turn = session.deadlines.get(("turn", seat))
    return turn is not None and turn.fired


async def _settle(future: asyncio.Future[Any]) -> bool:
    """Wait until `future` is done, even through cancellations of the caller; True if the
    caller was cancelled meanwhile (the caller then re-raises it once its work is level)."""
    cancelled = False
    while not future.done():
        try:
            await (future if isinstance(future, Durable) else asyncio.shield(future))
        except asyncio.CancelledError:
            if future.cancelled():
                raise
            cancelled = True
        except Exception:
            break  # done, with an error the caller reads from the future
    if future.cancelled():
        raise asyncio.CancelledError
    return cancelled


def _build(loaded: LoadedSession, rules: Rules[Any, Any, Any, Any]) -> Session:
    """The live session from what the store holds: the snapshot plus the log after it."""
    record = loaded.record
    deadlines = {deadline.key: deadline for deadline in loaded.deadlines}
    session = Session(record=record, rules=rules, deadlines=deadlines)
    if record.config is not None and record.quarantine is None:
        session.config = rules.config_model.model_validate(record.config)
        start = (
            rules.state_model.model_validate(loaded.snapshot.state)
            if loaded.snapshot is not None
            else None
        )
        session.state = replay(rules, session.config, loaded.log, start=start)
        session.waiting = rules.to_move(session.state)
    return session
