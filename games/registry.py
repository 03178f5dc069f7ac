"""Every game the bot hosts, by game id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.contract import Rules
from games.exhaust import RULES as EXHAUST
from games.thegame import RULES as THEGAME

GAMES: Mapping[str, Rules[Any, Any, Any, Any]] = {
    rules.game_id: rules for rules in (THEGAME, EXHAUST)
}
