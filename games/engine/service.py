"""The async session service: lobby, start, moves, AI seats, timed windows, persistence.

Moves are serialised per session by one asyncio lock; each accepted move is persisted before
anyone is told about it; sessions load lazily from the store, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine.contract import SYSTEM, Event, Rules
from games.engine.errors import GameError, Reason
from games.engine.session import Seat, SessionRecord, Status
from games.engine.step import advance, replay
from games.engine.store import SessionStore, Snapshot, VersionConflict

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 20
"""Versions between snapshots; a snapshot is only a cache over the log."""


@dataclass
class Session:
    """A session as the service holds it: the stored record plus the live state."""

    record: SessionRecord
    rules: Rules[Any, Any, Any, Any]
    config: Any = None
    state: Any = None

    @property
    def id(self) -> str:
        return self.record.id

    def seat_of(self, user_id: int) -> int | None:
        return self.record.seat_of(user_id)


@dataclass(frozen=True)
class Change:
    """A change the bot should show: the session after it and what happened."""

    session: Session
    events: tuple[Event, ...] = ()
    actor: int | None = None
    kind: str = "move"


Listener = Callable[[Change], Awaitable[None]]


@dataclass
class _Tasks:
    ai: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    timer_version: int = -1
    all: set[asyncio.Task[None]] = field(default_factory=set)


class SessionService:
    def __init__(
        self,
        store: SessionStore,
        games: Mapping[str, Rules[Any, Any, Any, Any]],
        *,
        ai_delay: float = 1.0,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        self.store = store
        self.games = games
        self.ai_delay = ai_delay
        self._seed_source = seed_source
        self._sessions: dict[str, Session] = {}
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: defaultdict[str, _Tasks] = defaultdict(_Tasks)
        self._listeners: list[Listener] = []

    # Listeners ------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def _notify(self, change: Change) -> None:
        for listener in self._listeners:
            try:
                await listener(change)
            except Exception:
                log.exception("listener failed for session %s", change.session.id)
        session = change.session
        if not session.record.status.live and self._sessions.get(session.id) is session:
            # Over: stop holding it in memory; a later look (rematch, redraw) reloads it.
            del self._sessions[session.id]
            self._tasks.pop(session.id, None)

    # Loading --------------------------------------------------------------------------------

    def _rules(self, game_id: str) -> Rules[Any, Any, Any, Any]:
        try:
            return self.games[game_id]
        except KeyError:
            raise GameError(Reason.BAD_OPTION, "unknown_game") from None

    async def get(self, session_id: str) -> Session:
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
        record = loaded.record
        rules = self._rules(record.game_id)
        session = Session(record=record, rules=rules)
        if record.config is not None:
            session.config = rules.config_model.model_validate(record.config)
            start = (
                rules.state_model.model_validate(loaded.snapshot.state)
                if loaded.snapshot is not None
                else None
            )
            session.state = replay(rules, session.config, loaded.log, start=start)
        self._sessions[session_id] = session
        return session

    async def live_in_channel(self, channel_id: int) -> Session | None:
        record = await self.store.live_in_channel(channel_id)
        return None if record is None else await self.get(record.id)

    async def live_sessions(self, guild_id: int | None = None) -> list[Session]:
        return [await self.get(r.id) for r in await self.store.live_sessions(guild_id)]

    async def resume(self) -> None:
        """After a restart: reload sessions in play and restart their AI seats and timers."""
        for record in await self.store.live_sessions():
            if record.status is Status.ACTIVE:
                self._kick(await self.get(record.id))

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
    ) -> Session:
        rules = self._rules(game_id)
        rules.make_config(rules.min_players, dict(options))  # validates the options
        async with self._locks[f"channel:{channel_id}"]:
            if await self.store.live_in_channel(channel_id) is not None:
                raise GameError(Reason.CHANNEL_BUSY)
            record = SessionRecord(
                id=secrets.token_hex(4),
                game_id=game_id,
                rules_version=rules.rules_version,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                locale=locale,
                options=dict(options),
                seed=self._seed_source(),
                seats=(Seat(user_id=host_id, name=host_name),),
                created_at=time.time(),
            )
            await self.store.create(record)
        session = Session(record=record, rules=rules)
        self._sessions[record.id] = session
        return session

    async def _lobby_edit(
        self, session_id: str, edit: Callable[[SessionRecord], SessionRecord]
    ) -> Change:
        async with self._locks[session_id]:
            session = await self.get(session_id)
            if session.record.status is not Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            record = edit(session.record)
            await self.store.save_record(record)
            session.record = record
        change = Change(session=session, kind="lobby")
        await self._notify(change)
        return change

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

    async def add_ai(self, session_id: str, by: int) -> Change:
        def edit(record: SessionRecord) -> SessionRecord:
            _require_host(record, by)
            self._seats_left(record)
            return record.model_copy(update={"seats": (*record.seats, Seat(user_id=None, name=""))})

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

    async def set_options(self, session_id: str, by: int, options: Mapping[str, Any]) -> Change:
        def edit(record: SessionRecord) -> SessionRecord:
            _require_host(record, by)
            merged = {**record.options, **options}
            rules = self._rules(record.game_id)
            rules.make_config(rules.min_players, merged)
            return record.model_copy(update={"options": merged})

        return await self._lobby_edit(session_id, edit)

    async def set_table_message(self, session_id: str, message_id: int) -> None:
        async with self._locks[session_id]:
            session = await self.get(session_id)
            record = session.record.model_copy(update={"table_message_id": message_id})
            await self.store.save_record(record)
            session.record = record

    # Play -----------------------------------------------------------------------------------

    async def start(self, session_id: str, by: int, first_seat: int | None = None) -> Change:
        async with self._locks[session_id]:
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
            state = rules.setup(config)
            step = advance(rules, state, 0, 0, None, record.seed)
            record = record.model_copy(
                update={
                    "status": Status.ACTIVE,
                    "config": config.model_dump(mode="json"),
                    "version": len(step.logged),
                }
            )
            await self.store.append(record, 0, step.logged, None)
            session.record, session.config, session.state = record, config, step.state
            change = Change(session=session, events=step.events, kind="start")
        await self._after(change)
        return change

    async def submit(
        self, session_id: str, user_id: int, action: Any, expected_version: int
    ) -> Change:
        async with self._locks[session_id]:
            session = await self.get(session_id)
            record = session.record
            if record.status is Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            if record.status is not Status.ACTIVE:
                raise GameError(Reason.GAME_OVER)
            seat = record.seat_of(user_id)
            if seat is None:
                raise GameError(Reason.NOT_A_PLAYER)
            if expected_version != record.version:
                raise GameError(Reason.STALE_VERSION)
            change = await self._commit(session, seat, action)
        await self._after(change)
        return change

    async def _commit(self, session: Session, actor: int, action: Any) -> Change:
        """Apply, persist, and only then update the live session. Call under the lock."""
        rules, record = session.rules, session.record
        step = advance(rules, session.state, record.version, actor, action, record.seed)
        over = rules.is_over(step.state)
        new = record.model_copy(
            update={
                "version": record.version + len(step.logged),
                "status": Status.FINISHED if over else record.status,
            }
        )
        snapshot = None
        if over or new.version // SNAPSHOT_EVERY != record.version // SNAPSHOT_EVERY:
            snapshot = Snapshot(version=new.version, state=step.state.model_dump(mode="json"))
        try:
            await self.store.append(new, record.version, step.logged, snapshot)
        except VersionConflict:
            self._sessions.pop(record.id, None)  # another writer moved on: reload next time
            raise GameError(Reason.STALE_VERSION) from None
        session.record, session.state = new, step.state
        return Change(session=session, events=step.events, actor=actor)

    async def leave(self, session_id: str, user_id: int) -> Change:
        """Leave a lobby, or hand a seat in play over to an AI."""
        async with self._locks[session_id]:
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
                seats = list(record.seats)
                seats[seat] = Seat(user_id=None, name=seats[seat].name)
                update = {"seats": tuple(seats)}
                humans = [s for s in seats if not s.is_ai]
                if record.host_id == user_id and humans:
                    update["host_id"] = humans[0].user_id
                kind = "leave"
            else:
                raise GameError(Reason.GAME_OVER)
            record = record.model_copy(update=update)
            await self.store.save_record(record)
            session.record = record
            change = Change(session=session, actor=seat, kind=kind)
        await self._after(change)
        return change

    async def abandon(self, session_id: str, by: int, *, admin: bool = False) -> Change:
        async with self._locks[session_id]:
            session = await self.get(session_id)
            record = session.record
            if not record.status.live:
                raise GameError(Reason.GAME_OVER)
            if not admin:
                _require_host(record, by)
            record = record.model_copy(update={"status": Status.ABANDONED})
            await self.store.save_record(record)
            session.record = record
            change = Change(session=session, kind="abandon")
        self._cancel(session_id)
        await self._notify(change)
        return change

    async def rematch(
        self, session_id: str, by: int, options: Mapping[str, Any] | None = None
    ) -> Change:
        """A new session with the same seats and options, started at once."""
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
        )
        record = session.record.model_copy(update={"seats": old.record.seats})
        await self.store.save_record(record)
        session.record = record
        return await self.start(session.id, by)

    # AI seats and timed windows -------------------------------------------------------------

    async def _after(self, change: Change) -> None:
        await self._notify(change)
        self._kick(change.session)

    def _kick(self, session: Session) -> None:
        """Start the AI driver or the window timer if the game now waits for one."""
        if session.record.status is not Status.ACTIVE:
            return
        tasks = self._tasks[session.id]
        to_move = session.rules.to_move(session.state)
        if any(session.record.seats[s].is_ai for s in to_move.seats) and (
            tasks.ai is None or tasks.ai.done()
        ):
            tasks.ai = self._spawn(session.id, self._drive_ai(session.id))
        if to_move.timeout is not None and tasks.timer_version != session.record.version:
            if tasks.timer is not None:
                tasks.timer.cancel()
            tasks.timer_version = session.record.version
            tasks.timer = self._spawn(
                session.id, self._close_window(session.id, session.record.version, to_move.timeout)
            )

    def _spawn(self, session_id: str, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        pending = self._tasks[session_id].all
        pending.add(task)
        task.add_done_callback(pending.discard)
        return task

    async def _drive_ai(self, session_id: str) -> None:
        while True:
            await asyncio.sleep(self.ai_delay)
            async with self._locks[session_id]:
                session = await self.get(session_id)
                if session.record.status is not Status.ACTIVE:
                    return
                rules, state = session.rules, session.state
                seats = sorted(
                    s for s in rules.to_move(state).seats if session.record.seats[s].is_ai
                )
                if not seats:
                    return
                seat = seats[0]
                rng = random.Random(f"{session.record.seed}:ai:{session.record.version}")
                action = rules.ai_action(rules.view(state, seat), rng)
                try:
                    change = await self._commit(session, seat, action)
                except GameError as error:
                    if error.reason is Reason.STALE_VERSION:
                        continue  # another writer moved on; the next round reloads the session
                    log.exception(
                        "AI chose a refused action in %s; playing a legal one", session_id
                    )
                    change = await self._commit(session, seat, rules.legal_actions(state, seat)[0])
            await self._notify(change)
            self._kick(change.session)

    async def _close_window(self, session_id: str, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self._locks[session_id]:
            session = await self.get(session_id)
            if session.record.status is not Status.ACTIVE or session.record.version != version:
                return
            action = session.rules.timeout_action(session.state)
            change = await self._commit(session, SYSTEM, action)
        await self._after(change)

    def _cancel(self, session_id: str) -> None:
        for task in list(self._tasks[session_id].all):
            task.cancel()

    async def settle(self) -> None:
        """Wait until no AI driver or timer is pending (tests, shutdown)."""
        while True:
            pending = [t for tasks in self._tasks.values() for t in tasks.all if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        for session_id in list(self._tasks):
            self._cancel(session_id)
        await asyncio.sleep(0)


def _require_host(record: SessionRecord, user_id: int) -> None:
    if record.host_id != user_id:
        raise GameError(Reason.NOT_HOST)
