"""Checks that an action's fields are exactly what validating it would leave.

Validating an action through its model (`Rules.checked`) was the larger part of a move's cost,
though almost every action that comes in is one the rules listed, already valid. A game
declares once, per action class, a check of each field, and the actions its rules build in
advance (`Rules.exact_actions`, an `ExactActions`): one of those, or an action whose every
field passes, is taken as it is; anything else is validated in full. A check must pass only a
value that validation keeps as it is: its exact type (an int, not a bool or a float), within
the field's bounds, in canonical order.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
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


_NOTHING = object()
"""No action: what `ExactActions.last` holds before any action passed."""

INT = frozenset({int})
SCALARS = frozenset({int, str, bool, type(None)})
"""What a built action's logged form holds: a shallow copy of it is the caller's own."""


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


@dataclass(frozen=True, slots=True)
class ExactActions:
    """A game's `Rules.exact_actions`: per action class, its field names and their checks;
    and the actions its rules build in advance (frozen, shared; their fields plain values),
    each by id with its logged form (kept here, so an id stays that action's while the game
    is loaded)."""

    fields: Mapping[type[BaseModel], tuple[frozenset[str], tuple[tuple[str, Check], ...]]]
    built: Mapping[int, tuple[BaseModel, dict[str, Any]]]
    last: list[object] = field(default_factory=lambda: [_NOTHING], compare=False)
    """The last action whose fields passed, held: the engine checks an action and the game's
    `apply` checks it again, and an action is frozen, so the second check is `is`."""

    @classmethod
    def of(cls, declared: Checks, built: Iterable[BaseModel] = ()) -> ExactActions:
        """`declared` with a check of each field whose type is a Literal of one value (an
        action's `kind`) added; raises TypeError at import if a field is left without a check
        or a built action does not pass its checks."""
        fields = {model: _every_check(model, checks) for model, checks in declared.items()}
        made = cls(fields, {})
        kept = {}
        for action in built:
            dumped = action.__pydantic_serializer__.to_python(action, mode="json")
            if not made.exact(action) or not all(type(v) in SCALARS for v in dumped.values()):
                raise TypeError(f"{action!r} is not as validation leaves it, or not flat")
            kept[id(action)] = (action, dumped)
        return cls(fields, kept)

    def exact(self, action: Any) -> bool | None:
        """True: `action` is exactly what validating it would give back; False: it is of one
        of the game's classes but may not be; None: it is of none of them."""
        if id(action) in self.built or action is self.last[0]:
            return True
        known = self.fields.get(type(action))
        if known is None:
            return None
        names, checks = known
        values = action.__dict__
        if values.keys() != names:
            return False
        for name, check in checks:  # a loop costs less than all() of a generator
            if not check(values[name]):
                return False
        self.last[0] = action
        return True


def _every_check(
    model: type[BaseModel], declared: Mapping[str, Check]
) -> tuple[frozenset[str], tuple[tuple[str, Check], ...]]:
    checks: list[tuple[str, Check]] = []
    for name, info in model.model_fields.items():
        if name in declared:
            checks.append((name, declared[name]))
        elif typing.get_origin(info.annotation) is typing.Literal and (
            len(typing.get_args(info.annotation)) == 1
        ):
            checks.append((name, one_of(typing.get_args(info.annotation))))
        else:
            raise TypeError(f"{model.__name__}.{name} has no exact check")
    unknown = declared.keys() - model.model_fields.keys()
    if unknown:
        raise TypeError(f"{model.__name__} has no fields {sorted(unknown)}")
    return frozenset(name for name, _ in checks), tuple(checks)
