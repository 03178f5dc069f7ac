"""What every bench computes the same way: means, percentiles, and `--param NAME=VALUE` tuning."""

from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

P = TypeVar("P", bound="DataclassInstance")


def mean(values: list[float]) -> float:
    """The mean (0 without any value)."""
    return sum(values) / max(1, len(values))


def percentile(values: list[float], fraction: float) -> float:
    """The value `fraction` of the way up `values` (0 without any value)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def parse_params(pairs: list[str], defaults: P) -> P:
    """`defaults` (an AI's parameter dataclass) with each `NAME=VALUE` of `pairs` applied."""
    types = {f.name: type(getattr(defaults, f.name)) for f in fields(defaults)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in types:
            raise SystemExit(f"unknown parameter {name!r}")
        changes[name] = types[name](value)
    return replace(defaults, **changes)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a rate: `successes` of `trials` (a
    shared win may count a fraction). (0, 1) without any trial."""
    if trials <= 0:
        return 0.0, 1.0
    rate = successes / trials
    centre = rate + z * z / (2 * trials)
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)
