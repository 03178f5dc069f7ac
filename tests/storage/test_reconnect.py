"""Waiting for a database server not up yet (`storage.reconnect.retry`), without a database:
what is tried again, how the waits grow, when the wait ends. Kept connections are tested on
PostgreSQL (tests/storage/test_shard_leases.py, test_outage.py)."""

from __future__ import annotations

import pytest

from storage.reconnect import retry

REFUSED = ConnectionRefusedError("the server is not up yet")


class Server:
    """A server refusing the first `refusals` connections."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.attempts = 0

    async def connect(self, left: float) -> str:
        self.attempts += 1
        if self.attempts <= self.refusals:
            raise REFUSED
        return f"connection {self.attempts}"


async def test_a_refused_attempt_is_tried_again_each_wait_told_and_twice_the_last() -> None:
    server = Server(refusals=3)
    told: list[tuple[Exception, float]] = []

    conn = await retry(
        server.connect,
        (OSError,),
        patience=600,
        delay=0.001,
        on_wait=lambda error, delay, left: told.append((error, delay)),
    )

    assert conn == "connection 4"
    assert told == [(REFUSED, 0.001), (REFUSED, 0.002), (REFUSED, 0.004)]


async def test_the_waits_grow_no_longer_than_the_most_allowed() -> None:
    server = Server(refusals=4)
    delays: list[float] = []

    await retry(
        server.connect,
        (OSError,),
        delay=0.001,
        most=0.002,
        on_wait=lambda error, delay, left: delays.append(delay),
    )

    assert delays == [0.001, 0.002, 0.002, 0.002]


async def test_an_error_waiting_will_not_mend_is_raised_at_once() -> None:
    async def no_such_database(left: float) -> str:
        raise LookupError('database "bot" does not exist')

    told: list[float] = []
    with pytest.raises(LookupError):
        await retry(
            no_such_database, (OSError,), on_wait=lambda error, delay, left: told.append(delay)
        )
    assert told == []


async def test_without_patience_the_first_refusal_is_raised_and_nothing_waited() -> None:
    server = Server(refusals=1)
    told: list[float] = []

    with pytest.raises(ConnectionRefusedError):
        await retry(
            server.connect, (OSError,), patience=0, on_wait=lambda e, d, left: told.append(d)
        )

    assert server.attempts == 1 and told == []
