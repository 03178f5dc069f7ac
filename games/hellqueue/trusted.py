"""Models built without validation, for values the rules themselves made valid.

Validating a frozen model costs far more than the rule that built it: every applied action
would validate the whole table again. What a user sends is validated (`checked`); past that,
the rules build their states, dice, events and actions through `build` and `replace`, which
give the same instances validation would (same fields, same types), only without checking.
A rule that builds an invalid state this way is caught by the engine's checked mode, which
validates every state the tests' games produce.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__
_FIELDS: dict[type[BaseModel], set[str]] = {}


def build(cls: type[M], fields: dict[str, Any]) -> M:
    """An instance of `cls` holding `fields` (every field, each already of its field's type)."""
    model = _new(cls)
    _set(model, "__dict__", fields)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = set(cls.model_fields)
    _set(model, "__pydantic_fields_set__", names)
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def replace(model: M, changes: dict[str, Any]) -> M:
    """`model` with some fields changed (the rest shared, not copied)."""
    fields = model.__dict__.copy()
    fields.update(changes)
    return build(type(model), fields)
