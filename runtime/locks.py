"""One lock per session (or channel), forgotten when idle, with work to run once the lock is let
go: what a command committed is told to the listeners only after its holder released the
session, so a listener may call back into the service for it."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable


class _Entry:
    """A key's lock: whether it is held, the futures of the tasks waiting for it (first come,
    first served), and what to run once it is let go. Not an `asyncio.Lock`: a move takes its
    session's lock once, nearly always free, and the lock, its entry and its list were made and
    dropped on every move for it; here a free lock costs one small object and no await."""

    __slots__ = ("held", "released", "users", "waiters")

    def __init__(self) -> None:
        self.held = False
        """Held by a task (or handed to a waiter not yet running): never False while a
        waiter is queued, since letting go hands the lock straight to the first one."""
        self.waiters: deque[asyncio.Future[None]] | None = None
        self.users = 0
        """Holders and waiters; at 0 nobody needs the lock, so it is dropped."""
        self.released: list[Callable[[], object]] | None = None
        """Run, in order, as soon as the holder lets go (before any waiter gets the lock)."""

    def release(self) -> None:
        """Hand the lock to the first waiter still waiting, or leave it free."""
        waiters = self.waiters
        while waiters:
            waiter = waiters.popleft()
            if not waiter.done():  # (a cancelled one is skipped: its task leaves by itself)
                waiter.set_result(None)
                return
        self.held = False


class Locks:
    """One lock per key, kept only while someone holds it or waits for it."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def hold(self, key: str) -> _Hold:
        """`async with locks.hold(key):` — the lock of `key`, made on first use (or see
        `_Hold.take`)."""
        return _Hold(self._entries, key)

    def when_free(self, key: str, then: Callable[[], object]) -> None:
        """Run `then` once nobody holds `key`: at once if nobody does, else as its holder lets
        go. Callbacks queued by successive holders run in the order they were queued."""
        entry = self._entries.get(key)
        if entry is None or not entry.held:
            then()
        elif entry.released is None:
            entry.released = [then]
        else:
            entry.released.append(then)


class _Hold:
    """One use of a key's lock (a plain class: this runs on every move). `async with` it, or,
    on a path run for every move, `take()` (and `wait()` when that says the lock is busy) then
    `release()` in a `finally`: the same steps without two coroutines made and run."""

    __slots__ = ("_entries", "_entry", "_key")

    def __init__(self, entries: dict[str, _Entry], key: str) -> None:
        self._entries = entries
        self._key = key
        entry = entries.get(key)
        if entry is None:
            entry = entries[key] = _Entry()
        entry.users += 1
        self._entry = entry

    def take(self) -> bool:
        """Take the lock if it is free, without an await: False if `wait()` must."""
        entry = self._entry
        if entry.held:
            return False
        entry.held = True  # free, so nobody waits either
        return True

    async def wait(self) -> None:
        """Wait for the lock (`take()` found it held): held once this returns; let go of
        (this use left) if the caller is cancelled meanwhile."""
        entry = self._entry
        waiter = asyncio.get_running_loop().create_future()
        if entry.waiters is None:
            entry.waiters = deque()
        entry.waiters.append(waiter)
        try:
            await waiter  # the holder that lets go hands the lock over: held all along
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                entry.release()  # handed over as this task was cancelled: pass it on
            elif waiter in entry.waiters:
                entry.waiters.remove(waiter)
            self._leave()
            raise

    def release(self) -> None:
        """Let go, then run what was queued for the release (`Locks.when_free`). Nothing is
        awaited: a waiter handed the lock runs only after the callbacks, so they see the
        changes in commit order."""
        entry = self._entry
        entry.release()
        released = entry.released
        if released is not None:
            entry.released = None
        self._leave()
        if released is not None:
            for then in released:
                then()

    async def __aenter__(self) -> None:
        if not self.take():
            await self.wait()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def _leave(self) -> None:
        entry = self._entry
        entry.users -= 1
        if entry.users == 0:
            del self._entries[self._key]
