"""The session service's background work: tasks it spawns, sleeps through its clock, and a way
to wait until nothing is due (`settle`); and one heap of every session's next wake-up served by
a single task."""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Callable, Collection, Coroutine
from typing import Any

from runtime.clock import Clock

log = logging.getLogger(__name__)


class Background:
    """Spawned tasks, and when each sleeping one wakes, so `settle` can tell busy from idle."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.running: set[asyncio.Task[None]] = set()
        self._sleeping: dict[asyncio.Task[Any], float] = {}
        self._settlers: set[asyncio.Event] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self.running.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self.running.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("background task failed", exc_info=error)
        self._poke()

    def _poke(self) -> None:
        for event in self._settlers:
            event.set()

    async def sleep_until(self, when: float) -> None:
        """Sleep through the clock; meanwhile the task counts as idle once `when` is ahead."""
        task = asyncio.current_task()
        assert task is not None
        self._sleeping[task] = when
        self._poke()
        try:
            await self.clock.sleep_until(when)
        finally:
            self._sleeping.pop(task, None)

    def busy(self) -> list[asyncio.Task[None]]:
        now = self.clock.now()
        return [t for t in self.running if not t.done() and self._sleeping.get(t, now) <= now]

    async def settle(self) -> None:
        """Wait until every task is done or asleep until a moment still ahead of the clock."""
        while self.busy():
            event = asyncio.Event()
            self._settlers.add(event)
            try:
                await event.wait()
            finally:
                self._settlers.discard(event)

    async def stop(self, keep: Collection[asyncio.Task[None]] = ()) -> None:
        """Cancel every task but `keep`, then wait for all of them."""
        tasks = list(self.running)
        for task in tasks:
            if task not in keep:
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Timers:
    """Each session's next wake-up, in one heap served by one task.

    Ten thousand sessions with turn timers cost ten thousand heap entries, not ten thousand
    sleeping tasks. When a session's time comes, `fire(session_id)` runs as a task of its own.
    """

    fire: Callable[[str], Coroutine[Any, Any, None]]
    """What a session's wake-up runs (the deadlines' job; set as the service is wired)."""

    def __init__(self, background: Background) -> None:
        self._background = background
        self._due: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self._runner: asyncio.Task[None] | None = None
        self._until: float | None = None
        """When the runner wakes next (None while it is not asleep)."""
        self.closed = False

    def __len__(self) -> int:
        return len(self._due)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._due

    def get(self, session_id: str) -> float | None:
        return self._due.get(session_id)

    def set(self, session_id: str, due: float | None) -> None:
        """Wake `session_id` at `due` (None: never), replacing its previous wake-up."""
        if due is None:
            self._due.pop(session_id, None)  # its heap entry is skipped when reached
            return
        if self._due.get(session_id) == due or self.closed:
            return
        self._due[session_id] = due
        if len(self._heap) > 2 * len(self._due) + 64:  # drop entries nobody waits for
            self._heap = [(when, sid) for sid, when in self._due.items()]
            heapq.heapify(self._heap)
        else:
            heapq.heappush(self._heap, (due, session_id))
        running = self._runner is not None and not self._runner.done()
        if running and self._until is not None and due < self._until:
            assert self._runner is not None
            self._runner.cancel()  # asleep until later: wake for this one
            running = False
        if not running:
            self._runner = self._background.spawn(self._run())

    async def _run(self) -> None:
        while self._heap:
            due, session_id = self._heap[0]
            if self._due.get(session_id) != due:
                heapq.heappop(self._heap)
                continue
            if due > self._background.clock.now():
                self._until = due
                await self._background.sleep_until(due)
                if self._until == due:
                    self._until = None
                continue
            heapq.heappop(self._heap)
            del self._due[session_id]
            self._background.spawn(self.fire(session_id))
