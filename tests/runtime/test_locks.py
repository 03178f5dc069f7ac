"""The runtime's per-session locks (`runtime.locks`): one holder at a time, waiters served in
the order they came, a cancelled waiter never keeping the lock, work queued for the release run
before the next holder, and nothing kept once nobody needs a key."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from runtime.locks import Locks

CEILING = 30.0
"""Seconds any wait in these tests may take before it counts as stuck (a loaded machine)."""


async def holder(locks: Locks, key: str, order: list[str], name: str, go: asyncio.Event) -> None:
    """Take `key`, note `name`, hold it until `go` is set."""
    async with locks.hold(key):
        order.append(name)
        await go.wait()


async def until(condition: Callable[[], bool]) -> None:
    """Wait (turns of the loop, never a timed sleep) until `condition()` is true."""
    async with asyncio.timeout(CEILING):
        while not condition():
            await asyncio.sleep(0)


async def test_waiters_get_the_lock_in_the_order_they_asked_for_it() -> None:
    locks, order, go = Locks(), [], asyncio.Event()
    tasks = [asyncio.create_task(holder(locks, "s", order, name, go)) for name in "abcd"]
    await until(lambda: order == ["a"])
    go.set()
    async with asyncio.timeout(CEILING):
        await asyncio.gather(*tasks)
    assert order == ["a", "b", "c", "d"]


async def test_a_second_holder_waits_until_the_first_lets_go() -> None:
    locks, order, go = Locks(), [], asyncio.Event()
    first = asyncio.create_task(holder(locks, "s", order, "first", go))
    await until(lambda: order == ["first"])
    second = asyncio.create_task(holder(locks, "s", order, "second", asyncio.Event()))
    for _ in range(10):
        await asyncio.sleep(0)
    assert order == ["first"]
    go.set()
    await until(lambda: order == ["first", "second"])
    await first
    second.cancel()


async def test_other_keys_never_wait_for_a_held_one() -> None:
    locks, order = Locks(), []
    held = asyncio.create_task(holder(locks, "s", order, "s", asyncio.Event()))
    await until(lambda: order == ["s"])
    async with asyncio.timeout(CEILING), locks.hold("t"):
        order.append("t")
    assert order == ["s", "t"]
    held.cancel()


async def test_a_waiter_cancelled_while_waiting_leaves_the_lock_to_the_next() -> None:
    locks, order, go = Locks(), [], asyncio.Event()
    first = asyncio.create_task(holder(locks, "s", order, "first", go))
    await until(lambda: order == ["first"])
    cancelled = asyncio.create_task(holder(locks, "s", order, "cancelled", go))
    last = asyncio.create_task(holder(locks, "s", order, "last", go))
    await asyncio.sleep(0)
    cancelled.cancel()
    go.set()
    async with asyncio.timeout(CEILING):
        await asyncio.gather(first, last)
    assert cancelled.cancelled()
    assert order == ["first", "last"]
    assert "s" not in locks


async def test_a_waiter_cancelled_as_the_lock_reaches_it_passes_it_on() -> None:
    locks, order, go = Locks(), [], asyncio.Event()
    go.set()
    first = locks.hold("s")
    await first.__aenter__()
    handed = asyncio.create_task(holder(locks, "s", order, "handed", go))
    last = asyncio.create_task(holder(locks, "s", order, "last", go))
    await asyncio.sleep(0)
    await first.__aexit__(None, None, None)  # handed to `handed`, which has not run since
    handed.cancel()
    async with asyncio.timeout(CEILING):
        await last
    assert handed.cancelled()
    assert order == ["last"]
    assert "s" not in locks


async def test_work_queued_for_the_release_runs_before_the_next_holder() -> None:
    locks, order, go = Locks(), [], asyncio.Event()
    first = asyncio.create_task(holder(locks, "s", order, "first", go))
    await until(lambda: order == ["first"])
    second = asyncio.create_task(holder(locks, "s", order, "second", go))
    await asyncio.sleep(0)
    locks.when_free("s", lambda: order.append("told 1"))
    locks.when_free("s", lambda: order.append("told 2"))
    go.set()
    async with asyncio.timeout(CEILING):
        await asyncio.gather(first, second)
    assert order == ["first", "told 1", "told 2", "second"]


async def test_work_for_a_free_key_runs_at_once() -> None:
    locks, told = Locks(), []
    locks.when_free("s", lambda: told.append("now"))
    assert told == ["now"]


async def test_a_key_nobody_holds_or_waits_for_is_forgotten() -> None:
    locks = Locks()
    async with locks.hold("s"):
        assert "s" in locks
    assert len(locks) == 0


async def test_a_holder_that_raises_lets_go() -> None:
    locks = Locks()
    try:
        async with locks.hold("s"):
            raise ValueError("refused")
    except ValueError:
        pass
    async with asyncio.timeout(CEILING), locks.hold("s"):
        assert "s" in locks
    assert "s" not in locks


async def test_a_lock_taken_by_hand_is_held_and_handed_on_as_with_async_with() -> None:
    locks, order, go = Locks(), [], asyncio.Event()
    first = locks.hold("s")
    assert first.take()
    waiting = asyncio.create_task(holder(locks, "s", order, "next", go))
    second = locks.hold("s")
    assert not second.take()  # held: this one must wait
    queued = asyncio.create_task(second.wait())
    await asyncio.sleep(0)
    assert order == []
    first.release()
    await until(lambda: order == ["next"])
    go.set()
    async with asyncio.timeout(CEILING):
        await waiting
        await queued  # handed on in the order asked
    second.release()
    assert "s" not in locks
