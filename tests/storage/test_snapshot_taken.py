"""A snapshot the runtime takes (`Taken`) holds its state until its batch is built, and what
is stored then is the state's dump, as a dumped `Snapshot` stores it. On each backend's store
(the `storage` fixture)."""

from __future__ import annotations

from toygame import RULES

from games.engine import advance
from storage import Storage
from storage.session_store import SessionWrite, Taken
from tests.storage.test_storage import make_record, start


async def test_a_taken_snapshot_loads_back_as_its_states_dump(storage: Storage) -> None:
    store = storage.sessions
    record, state = await start(store, make_record())
    seat = min(RULES.to_move(state).seats)
    action = RULES.legal_actions(state, seat)[-1]
    step = advance(RULES, state, record.version, seat, action, record.seed)
    moved = record.model_copy(update={"version": record.version + len(step.logged)})
    await store.write(SessionWrite(record, moved, step.logged, Taken(moved.version, step.state)))
    loaded = await store.load(record.id)
    assert loaded is not None and loaded.snapshot is not None
    assert loaded.snapshot.version == moved.version
    assert loaded.snapshot.state == step.state.model_dump(mode="json")
    assert RULES.state_model.model_validate(loaded.snapshot.state) == step.state
