"""Models the rules build from values they know are valid, without validating them again.

What users send is validated once, at the boundary (`Rules.checked`); the states, events, views
and log entries derived from it are valid by construction, and validating each again was a large
share of every move. Pydantic's own unvalidated paths (`model_construct`, `model_copy`) measured
slower than validation for these small models; these set the same attributes they do. The
engine's checked mode (`games.engine.step.check_states`, on in the tests) validates every state
a game builds, so a rule that builds an invalid one still fails there.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from games.engine.contract import Event, made
from games.engine.fieldsets import joined, shared

M = TypeVar("M", bound=BaseModel)


def built(cls: type[M], values: dict[str, Any], fields_set: set[str] | None = None) -> M:
    """A `cls` holding `values`, which must name every field (defaults are not filled in);
    `fields_set` (what pydantic counts as given) is every field unless told."""
    return made(cls, values, every_field(cls) if fields_set is None else fields_set)


_EVERY_FIELD: dict[type[BaseModel], set[str]] = {}


def every_field(cls: type[BaseModel]) -> set[str]:
    """One fields-set shared by the models of a class built with all their fields set: one
    object less per model to allocate and collect (pydantic copies it before it changes it)."""
    fields = _EVERY_FIELD.get(cls)
    if fields is None:
        fields = _EVERY_FIELD[cls] = shared(cls.model_fields)
    return fields


def evolve(model: M, **changes: Any) -> M:
    """`model` with `changes`: what `model_copy(update=changes)` gives, for a fraction of
    its cost."""
    values = dict(model.__dict__)  # built anew: compact, where .copy() keeps deleted keys' slots
    values.update(changes)
    return built(type(model), values, joined(model.__pydantic_fields_set__, changes))


def event(
    key: str,
    params: dict[str, Any] | None = None,
    audience: tuple[int, ...] | None = None,
    cards: tuple[int, ...] = (),
) -> Event:
    """An `Event` of the rules' own values (several a move)."""
    values = {
        "key": key,
        "params": {} if params is None else params,
        "audience": audience,
        "cards": cards,
    }
    return made(Event, values, _EVENT_FIELDS)


_EVENT_FIELDS = every_field(Event)
