"""The clocks the session service sleeps through."""

from __future__ import annotations

import asyncio

from runtime import ManualClock, SystemClock


async def test_manual_clock_wakes_a_sleeper_only_when_its_time_comes() -> None:
    clock = ManualClock(start=100.0)
    woke: list[float] = []

    async def sleeper(when: float) -> None:
        await clock.sleep_until(when)
        woke.append(when)

    tasks = [asyncio.create_task(sleeper(when)) for when in (130.0, 110.0)]
    await asyncio.sleep(0)
    clock.advance(9.9)
    await asyncio.sleep(0)
    assert woke == [] and clock.now() == 109.9
    clock.advance(0.1)
    await asyncio.sleep(0)
    assert woke == [110.0]
    clock.set(200.0)
    await asyncio.gather(*tasks)
    assert woke == [110.0, 130.0]


async def test_manual_clock_returns_at_once_for_a_moment_already_past() -> None:
    clock = ManualClock(start=100.0)
    await asyncio.wait_for(clock.sleep_until(50.0), timeout=60)


async def test_system_clock_returns_for_a_moment_already_past() -> None:
    clock = SystemClock()
    await asyncio.wait_for(clock.sleep_until(clock.now() - 1), timeout=60)
