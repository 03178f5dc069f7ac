"""Checks that an action's fields are exactly what validating it would leave.

Validating an action through its model (`Rules.checked`) was the larger part of a move's cost,
though almost every action that comes in is one the rules listed, already valid. A game
declares once, per action class, a check of each field (`Rules.exact_actions`, built with
`exact_actions` here); an action whose every field passes is taken as it is, anything else is
validated in full. A check must pass only a value that validation keeps as it is: its exact
type (an int, not a bool or a float), within the field's bounds, in canonical order.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any

from pydantic import BaseModel

Check = Callable[[Any], bool]
"""Whether one field's value is exactly what validation leaves."""
Checks = Mapping[type[BaseModel], Mapping[str, Check]]


def is_int(value: Any) -> bool:
    return type(value) is int


def is_bool(value: Any) -> bool:
    return type(value) is bool


def between(low: int, high: int) -> Check:
    """An int from `low` to `high` inclusive."""
    return lambda value: type(value) is int and low <= value <= high


def at_least(low: int) -> Check:
    return lambda value: type(value) is int and value >= low


def one_of(values: Collection[Any]) -> Check:
    """One of `values` (strings, enum members), of exactly its type."""
    kinds = frozenset(type(v) for v in values)
    allowed = frozenset(values)
    return lambda value: type(value) in kinds and value in allowed


def optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


INT = frozenset({int})


def ints(
    low: int | None = None,
    high: int | None = None,
    length: int | None = None,
    ordered: bool = False,
) -> Check:
    """A tuple of ints (from `low` to `high`; of `length` items; sorted when `ordered`, as a
    validator that sorts leaves it). Its items' types are gathered in one set: a whole deal's
    order is checked in the time validating it would take, not twice that."""

    def exact(value: Any) -> bool:
        if type(value) is not tuple or (length is not None and len(value) != length):
            return False
        if not value:
            return True
        if not set(map(type, value)) <= INT:
            return False
        if (low is not None and min(value) < low) or (high is not None and max(value) > high):
            return False
        return not ordered or list(value) == sorted(value)

    return exact


def tuple_of(check: Check) -> Check:
    """A tuple of items passing `check`."""

    def exact(value: Any) -> bool:
        return type(value) is tuple and all(check(v) for v in value)

    return exact


def exact_fields(declared: Checks) -> dict[type[BaseModel], dict[str, Check]]:
    """`declared` with a check of each field whose type is a Literal of one value (an action's
    `kind`) added; raises TypeError at import if a field is left without a check."""
    complete: dict[type[BaseModel], dict[str, Check]] = {}
    for cls, checks in declared.items():
        fields: dict[str, Check] = {}
        for name, info in cls.model_fields.items():
            if name in checks:
                fields[name] = checks[name]
            elif typing.get_origin(info.annotation) is typing.Literal and (
                len(typing.get_args(info.annotation)) == 1
            ):
                fields[name] = one_of(typing.get_args(info.annotation))
            else:
                raise TypeError(f"{cls.__name__}.{name} has no exact check")
        unknown = checks.keys() - fields.keys()
        if unknown:
            raise TypeError(f"{cls.__name__} has no fields {sorted(unknown)}")
        complete[cls] = fields
    return complete
