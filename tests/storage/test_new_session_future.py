"""A new session's write is the group commit's own future (`Durable`), as a move's is: a
rematch waiting for its commit holds no coroutine, task or shield of its own. On each
backend's store (the `storage` fixture)."""

from __future__ import annotations

import pytest

from storage import Storage
from storage.session_store import Durable
from tests.storage.test_storage import make_record


async def test_a_new_session_is_stored_through_the_group_commits_own_future(
    storage: Storage,
) -> None:
    pending = storage.sessions.create(make_record())
    assert isinstance(pending, Durable)
    await pending
    loaded = await storage.sessions.load("s1")
    assert loaded is not None and loaded.record == make_record()


async def test_a_new_session_not_at_version_0_is_refused_before_anything_is_queued(
    storage: Storage,
) -> None:
    record = make_record().model_copy(update={"version": 1})
    with pytest.raises(ValueError, match="version 0"):
        storage.sessions.create(record)  # not awaited: refused as it is called
    assert await storage.sessions.load("s1") is None
