"""Models built without validation, for values the rules already know to be valid.

What users send is validated once, at the boundary (`Rules.checked`); the states, events and
views the rules derive from it are valid by construction, and pydantic's validation of them
was a large share of each move. The engine's checked mode re-validates every state the tests
produce, so a rule that builds an invalid one still fails there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from games.engine.contract import Event, Step

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__


def construct(cls: type[M], fields: dict[str, Any], fields_set: set[str] | None = None) -> M:
    """An instance of `cls` holding `fields` (every field of it, each already valid);
    `fields_set` (what pydantic counts as given) is all of them unless told."""
    model: M = _new(cls)
    _set(model, "__dict__", fields)
    _set(model, "__pydantic_fields_set__", set(fields) if fields_set is None else fields_set)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


_EVENT_FIELDS = set(Event.model_fields)
_STEP_FIELDS = set(Step.model_fields)
"""Every event's and step's fields-set (shared: pydantic copies one before it changes it)."""


def event(
    key: str,
    params: dict[str, Any],
    audience: tuple[int, ...] | None = None,
    cards: tuple[int, ...] = (),
) -> Event:
    model: Event = _new(Event)  # `construct`, written out: several a move
    _set(model, "__dict__", {"key": key, "params": params, "audience": audience, "cards": cards})
    _set(model, "__pydantic_fields_set__", _EVENT_FIELDS)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def step(state: Any, events: Iterable[Event]) -> Step:
    return construct(Step, {"state": state, "events": tuple(events)}, _STEP_FIELDS)
