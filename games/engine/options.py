"""A lobby's options made into a game's config, checked by the config model itself.

Each game declares its options once, as fields of its pydantic `Config` (type, bounds, default);
this reads a lobby's options through that model in strict mode (no `"15"` for 15, no `True`
for 1), so `make_config` writes no check of its own. A malformed option is refused with its
name as the detail, which picks the game's own words for it (`<game>.error.bad_option.<name>`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from games.engine.errors import GameError, Reason

C = TypeVar("C", bound=BaseModel)

NOT_OPTIONS = frozenset({"players"})
"""Config fields that no lobby sets: the seats taken decide the player count."""


def config_from_options(
    model: type[C],
    players: int,
    options: Mapping[str, Any],
    defaults: Mapping[str, Any] | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> C:
    """The config of `players` seats with a lobby's `options`; `defaults` fill options left
    out where the model's own default does not fit (one that depends on the player count),
    `fixed` are fields no lobby may set.

    Raises GameError(BAD_OPTION) with the detail `unknown_option` for an option the game does
    not have, else the name of the first field refused (`players` for a seat count outside the
    game's), or `first_player` for a first player outside the seats.
    """
    fixed = dict(fixed or {})
    if set(options) - (set(model.model_fields) - NOT_OPTIONS - set(fixed)):
        raise GameError(Reason.BAD_OPTION, "unknown_option")
    data = {**(defaults or {}), **options, **fixed, "players": players}
    try:
        config = model.model_validate(data, strict=True)
    except ValidationError as error:
        raise GameError(Reason.BAD_OPTION, str(error.errors()[0]["loc"][0])) from None
    first = getattr(config, "first_player", None)
    if first is not None and not 0 <= first < players:
        raise GameError(Reason.BAD_OPTION, "first_player")
    return config


def field_bounds(model: type[BaseModel], name: str) -> tuple[int, int]:
    """The lowest and highest value a number field of `model` takes (its `ge` and `le`), for
    the places that offer the option (a slash command's range) to read rather than repeat."""
    field = model.model_fields[name]
    low = next(m.ge for m in field.metadata if getattr(m, "ge", None) is not None)
    high = next(m.le for m in field.metadata if getattr(m, "le", None) is not None)
    return int(low), int(high)
