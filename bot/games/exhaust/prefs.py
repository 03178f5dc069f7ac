"""Exhaust's own preference: each player's solo level (the NPC pile their next solo game
uses), N+1 after every win."""

from __future__ import annotations

from games.engine.options import field_bounds
from games.exhaust.models import Config
from storage import PrefTable

SOLO_LEVEL_KEY = "exhaust.solo_level"
DEFAULT_LEVEL: int = Config.model_fields["npc_size"].default
MIN_LEVEL, MAX_LEVEL = field_bounds(Config, "npc_size")
"""The NPC pile sizes the rules accept (the `npc_size` option)."""


def parse_level(value: str | None) -> int:
    """A stored solo level, or the default when missing or malformed."""
    if value is None or not value.strip().isdigit():
        return DEFAULT_LEVEL
    return min(MAX_LEVEL, max(MIN_LEVEL, int(value)))


class SoloLevels:
    def __init__(self, prefs: PrefTable) -> None:
        self.prefs = prefs

    async def get(self, user_id: int) -> int:
        return parse_level(await self.prefs.get(user_id, SOLO_LEVEL_KEY))

    async def set(self, user_id: int, level: int) -> None:
        await self.prefs.set(user_id, SOLO_LEVEL_KEY, str(level))
