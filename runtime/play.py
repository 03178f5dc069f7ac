"""The commands of a game in play: start it, play a move (one action or several), ask for a
hint, come back to an away seat, leave, abandon. Each runs under its session's lock; each
action is validated through its game's own action model before `apply`."""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from typing import Any

from games.engine.built import evolve
from games.engine.contract import Event
from games.engine.errors import GameError, Reason
from games.engine.live import Session
from games.engine.session import Seat, SessionRecord, Status
from games.engine.step import advance, advance_all
from runtime.cache import Cache
from runtime.commit import Writer, advanced, with_seat
from runtime.core import Core
from runtime.listeners import Change, Hint, Listeners
from runtime.lobby import require_host
from runtime.seats import ai_seed
from runtime.setups import setup_of
from runtime.thinking import Thinker


class Play:
    def __init__(
        self, core: Core, cache: Cache, writer: Writer, listeners: Listeners, thinker: Thinker
    ) -> None:
        self._core = core
        self._cache = cache
        self._writer = writer
        self._listeners = listeners
        self._thinker = thinker

    async def start(
        self, session_id: str, by: int, first_seat: int | None = None, *, new: bool = False
    ) -> Change:
        """`new`: the lobby is held but not stored yet (`Writer.write`'s)."""
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
            record = session.record
            if record.status is not Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            require_host(record, by)
            rules = session.rules
            if len(record.seats) < rules.min_players:
                raise GameError(Reason.NOT_ENOUGH_PLAYERS)
            if first_seat is not None and not 0 <= first_seat < len(record.seats):
                raise GameError(Reason.BAD_OPTION, "first_player")
            table = setup_of(rules, len(record.seats), record.options, first_seat)
            step = advance(rules, table.state, 0, 0, None, record.seed, table.to_move)
            dealt = evolve(record, status=Status.ACTIVE, config=table.dumped)
            started = advanced(dealt, rules, step)
            await self._writer.write(session, started, step, new=new)
            session.config = table.config
        return self._listeners.tell(Change(session=session, events=step.events, kind="start"))

    def submit(
        self, session_id: str, user_id: int, action: Any, expected_version: int
    ) -> Coroutine[Any, Any, Change]:
        """Play `action` for `user_id`'s seat (see `submit_all`): `submit_all`'s own coroutine,
        not one more that awaits it."""
        return self.submit_all(session_id, user_id, (action,), expected_version)

    async def submit_all(
        self, session_id: str, user_id: int, actions: Sequence[Any], expected_version: int
    ) -> Change:
        """Play `actions` in turn for `user_id`'s seat as one move (one click that makes
        several): all of them are stored in one commit, or none when any is refused.

        A player whose seat is away takes it back first, in the same commit; if the move is
        refused, taking the seat back is committed on its own before the error is raised (any
        control of theirs counts as being back)."""
        # The lock taken and let go by hand, not `async with`: two coroutines less a move.
        hold = self._core.locks.hold(session_id)
        if not hold.take():
            await hold.wait()
        try:
            session = self._cache.cached(session_id) or await self._cache.get(session_id)
            cached = session.record.version
            # Maybe another process moved it on: re-read the version before refusing.
            if expected_version != cached and await self._core.store.version(session_id) != cached:
                session = await self._cache.fresh(session_id)
            record = session.record
            status = record.status
            if status is not Status.ACTIVE:
                raise GameError(Reason.NOT_IN_LOBBY if status is Status.LOBBY else Reason.GAME_OVER)
            seat = session.seat_of(user_id)
            if seat is None:
                raise GameError(Reason.NOT_A_PLAYER)
            mine = record.seats[seat]
            back = mine.away
            try:
                played = _actions(actions)
                version = record.version
                if expected_version != version:
                    raise GameError(Reason.STALE_VERSION)
                rules, state, waiting = session.rules, session.state, session.waiting
                step = advance_all(rules, state, version, seat, played, record.seed, waiting)
            except GameError:
                if back:  # told once the lock is let go, as the refusal leaves
                    self._listeners.publish(await self._come_back(session, seat))
                raise
            present = record
            if back or mine.missed:
                present = with_seat(record, seat, away=False, missed=0)
            moved = advanced(present, rules, step)
            await self._writer.write(session, moved, step, acted=seat)
            events = (*_back_events(seat, True), *step.events) if back else step.events
        finally:
            hold.release()
        # The lock is let go and nothing awaited since: told before any later change.
        return self._listeners.tell(Change(session=session, events=events, actor=seat))

    async def hint(self, session_id: str, user_id: int, level: str | None = None) -> Hint:
        """What the AI at `level` (by default the game's `hint_level`) would play now for
        `user_id`'s seat, which must be to move.

        Decided from that seat's view only, with the rng an AI holding the seat would use at
        this version; a STRONG one in the AI pool, after the session's lock is let go, so the
        table plays on meanwhile. Each hint is counted on the seat (stored with it) and
        published as a `hint` change, so the table can show how many were used.
        """
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
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
            counted = with_seat(record, seat, hints=record.seats[seat].hints + 1)
            await self._writer.write(session, counted)
        self._listeners.tell(Change(session=session, actor=seat, kind="hint"))
        ai = self._core.ais[record.game_id]
        level = level or ai.hint_level
        decision = await self._thinker.decide(rules, ai, view, ai_seed(record), level)
        return Hint(seat=seat, version=record.version, decision=decision)

    async def come_back(self, session_id: str, user_id: int) -> Change | None:
        """Hand `user_id`'s away seat back to them (any control or hand of theirs calls this).

        None, and nothing written, when their seat is not away.
        """
        cached = self._cache.cached(session_id)
        if cached is not None and not _away(cached.record, user_id):
            return None  # the usual case, answered without waiting for the session's lock
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
            seat = session.record.seat_of(user_id)
            if session.record.status is not Status.ACTIVE or seat is None:
                return None
            if not session.record.seats[seat].away:
                return None
            change = await self._come_back(session, seat)
        return self._listeners.tell(change)

    async def _come_back(self, session: Session, seat: int) -> Change:
        """Commit `seat`'s return; the caller tells the change once it lets go of the lock."""
        await self._writer.write(session, with_seat(session.record, seat, away=False, missed=0))
        return Change(session=session, events=_back_events(seat, True), actor=seat, kind="back")

    async def leave(self, session_id: str, user_id: int) -> Change:
        """Leave a lobby, or hand a seat in play over to an AI."""
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
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
            await self._writer.write(session, record.model_copy(update=update))
        return self._listeners.tell(Change(session=session, actor=seat, kind=kind))

    async def abandon(self, session_id: str, by: int, *, admin: bool = False) -> Change:
        async with self._core.locks.hold(session_id):
            session = await self._cache.get(session_id)
            record = session.record
            if not record.status.live:
                raise GameError(Reason.GAME_OVER)
            if not admin:
                require_host(record, by)
            update = {"status": Status.ABANDONED}
            await self._writer.write(session, record.model_copy(update=update))
        return self._listeners.tell(Change(session=session, kind="abandon"))


def _actions(actions: object) -> tuple[Any, ...]:
    """`submit_all`'s actions as a tuple, or GameError: a caller's malformed argument (not a
    sequence, a string, a None in it) is a refused move, never a TypeError from deep inside."""
    played: tuple[Any, ...]
    if type(actions) is tuple:  # (`submit`'s is: taken as it is)
        played = actions
    elif isinstance(actions, Sequence) and not isinstance(actions, str | bytes):
        played = tuple(actions)
    else:
        raise GameError(Reason.ILLEGAL_MOVE, "malformed_action")
    for action in played:
        if action is None:  # to `advance`, None means "no move"
            raise GameError(Reason.ILLEGAL_MOVE, "unknown_action")
    return played


def _away(record: SessionRecord, user_id: int) -> bool:
    seat = record.seat_of(user_id)
    return seat is not None and record.seats[seat].away


def _back_events(seat: int, back: bool) -> tuple[Event, ...]:
    return (Event(key="session.seat_back", params={"seat": seat}),) if back else ()
