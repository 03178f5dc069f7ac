"""A game's config and first state for a table (its rules, seat count, options and first
player), made once for every game started at such a table.

A rematch starts a game with the finished one's very options, validated when that game was
started, and most tables play a game's defaults: making the config (a strict validation of
the options) and the setup state anew for each game was work done again and again on the
same values. Configs and states are immutable, so every game at the table shares them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.contract import Rules, ToMove


@dataclass(frozen=True, slots=True)
class Setup:
    """What `Play.start` makes of a table before its deal."""

    config: Any
    dumped: dict[str, Any]
    """`config` as a record holds it (`model_dump(mode="json")`; read, never changed)."""
    state: Any
    """`rules.setup(config)`."""
    to_move: ToMove
    """`rules.to_move(state)`: the deal's `before`."""


MAX_SETUPS = 1024
"""Tables remembered; past this many they are all forgotten and made again as they come (a
few hundred bytes each; tables differ in their options, which are few and mostly defaults)."""

_SETUPS: dict[tuple[Any, ...], Setup] = {}

_PLAIN = frozenset({bool, int, float, str, type(None)})
"""The option values a table is remembered by (a list or a dict is made each time). Each
value's type is part of the key: `True == 1`, but strict validation refuses one where it
takes the other, so they must never share a config."""


def setup_of(
    rules: Rules[Any, Any, Any, Any],
    players: int,
    options: Mapping[str, Any],
    first_player: int | None,
) -> Setup:
    """The table's setup: `rules.make_config` (GameError for bad options, as it raises them:
    nothing refused is remembered) and `rules.setup` on its first use, remembered after."""
    key: list[Any] = [rules, players, first_player]
    for name, value in options.items():
        if type(value) not in _PLAIN:
            return _made(rules, players, options, first_player)
        key += (name, type(value), value)
    table = tuple(key)
    setup = _SETUPS.get(table)
    if setup is None:
        setup = _made(rules, players, options, first_player)
        if len(_SETUPS) >= MAX_SETUPS:
            _SETUPS.clear()
        _SETUPS[table] = setup
    return setup


def _made(
    rules: Rules[Any, Any, Any, Any],
    players: int,
    options: Mapping[str, Any],
    first_player: int | None,
) -> Setup:
    config = rules.make_config(players, {**options, "first_player": first_player})
    state = rules.setup(config)
    return Setup(config, config.model_dump(mode="json"), state, rules.to_move(state))
