"""One asyncio lock per session (or channel), forgotten when idle, with work to run once the
lock is let go: what a command committed is told to the listeners only after its holder
released the session, so a listener may call back into the service for it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Holders and waiters; at 0 nobody needs the lock, so it is dropped."""
    released: list[Callable[[], object]] = field(default_factory=list)
    """Run, in order, as soon as the holder lets go (before any waiter gets the lock)."""


class Locks:
    """One asyncio lock per key, kept only while someone holds it or waits for it."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def hold(self, key: str) -> _Hold:
        """`async with locks.hold(key):` — the lock of `key`, made on first use."""
        return _Hold(self._entries, key)

    def when_free(self, key: str, then: Callable[[], object]) -> None:
        """Run `then` once nobody holds `key`: at once if nobody does, else as its holder lets
        go. Callbacks queued by successive holders run in the order they were queued."""
        entry = self._entries.get(key)
        if entry is None or not entry.lock.locked():
            then()
        else:
            entry.released.append(then)


class _Hold:
    """One use of a key's lock (a plain class: this runs on every move)."""

    __slots__ = ("_entries", "_entry", "_key")

    def __init__(self, entries: dict[str, _Entry], key: str) -> None:
        self._entries = entries
        self._key = key
        self._entry = entries.get(key) or entries.setdefault(key, _Entry())
        self._entry.users += 1

    async def __aenter__(self) -> None:
        try:
            await self._entry.lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(self, *exc: object) -> None:
        # No await from here on: a waiter woken by the release runs only after the callbacks,
        # so they see the changes in commit order.
        entry = self._entry
        entry.lock.release()
        released = entry.released
        if released:
            entry.released = []
        self._leave()
        for then in released:
            then()

    def _leave(self) -> None:
        self._entry.users -= 1
        if self._entry.users == 0:
            del self._entries[self._key]
