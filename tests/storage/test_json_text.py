"""The JSON text the stores write (`storage.sql.dumps`, orjson with the standard library's
encoder behind it): what either database reads back is what was written."""

from __future__ import annotations

import json
from typing import Any

from games.engine import LoggedAction
from storage import Storage
from storage.session_store import Snapshot
from storage.sql import dumps
from tests.storage.test_storage import append, make_record, start

AWKWARD: dict[str, Any] = {
    "name": "二人の手札 — ünïcode 🂡",
    "big": 2**63 - 1,
    "small": -(2**63),
    "floats": [0.1, 1 / 3, 1_795_677_184.2323334, 1e-7, -2.5e300],
    "flags": [True, False, None],
    "nested": {"list": [[1, "a"], []], "empty": {}},
}


def test_dumps_writes_compact_json_that_reads_back_as_the_value() -> None:
    text = dumps(AWKWARD)
    assert json.loads(text) == AWKWARD
    assert "二人の手札" in text and "\\u" not in text  # non-ASCII kept as is
    assert ": " not in text and ", " not in text


def test_dumps_writes_an_integer_past_64_bits_exactly() -> None:
    value = {"seed": 2**64 + 3, "list": [-(2**70)]}
    assert json.loads(dumps(value)) == value


def test_dumps_writes_integer_keys_as_strings_as_json_does() -> None:
    value = {1: "one", "two": {3: [4]}}
    assert dumps(value) == json.dumps(value, separators=(",", ":"))


def test_dumps_writes_tuples_as_lists() -> None:
    assert dumps({"seats": (0, 1)}) == '{"seats":[0,1]}'


async def test_a_moves_action_and_snapshot_read_back_as_written(storage: Storage) -> None:
    store = storage.sessions
    record, _ = await start(store, make_record())
    action = LoggedAction(seq=record.version + 1, actor=0, action={"kind": "note", **AWKWARD})
    after = record.model_copy(update={"version": action.seq})
    snapshot = Snapshot(version=action.seq, state={"state": AWKWARD})
    await append(store, record, after, (action,), snapshot)
    loaded = await store.load(record.id)
    assert loaded is not None
    assert loaded.snapshot == snapshot
    assert (await store.log(record.id))[-1] == action
