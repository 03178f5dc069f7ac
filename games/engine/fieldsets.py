"""Pydantic's fields-set (the names a model was given) as one shared object per combination
of names, for the frozen models the engine and runtime copy on every move.

Pydantic gives each copy a set of its own: a session record's sixteen names make a set of
over a kilobyte, outside pydantic's small-object allocator, made and freed on every move, and
a state's or record's set is held per session. That churn fragmented the C heap: the bench's
resident memory kept growing with the moves played (bench/memory.py). A frozen model's set is
never changed in place (pydantic copies it before it changes it), so one object serves all
the models given the same names.
"""

from __future__ import annotations

from collections.abc import Iterable

_SHARED: dict[frozenset[str], set[str]] = {}
_SHARED_IDS: set[int] = set()
"""The ids of the shared sets (they live as long as the process): a cheap way to tell one."""


def shared(names: Iterable[str]) -> set[str]:
    """The one shared set of `names`."""
    key = frozenset(names)
    fields = _SHARED.get(key)
    if fields is None:
        fields = _SHARED[key] = set(key)
        _SHARED_IDS.add(id(fields))
    return fields


def joined(fields_set: set[str], names: Iterable[str]) -> set[str]:
    """The shared set of `fields_set` and `names` (`fields_set` itself when it is shared and
    names them all already: the usual case, no set built)."""
    if id(fields_set) in _SHARED_IDS and fields_set.issuperset(names):
        return fields_set
    return shared(fields_set.union(names))
