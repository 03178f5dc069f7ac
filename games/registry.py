"""Every game the bot hosts, by game id: the one list a new game is added to.

A game is `games/<id>/` (its package exports `RULES` and its `AI`) and `bot/games/<id>/` (its
Discord extension); nothing else names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import Rules

GAME_IDS: tuple[str, ...] = ("thegame", "exhaust", "hellqueue", "rummy")

GAMES: Mapping[str, Rules[Any, Any, Any, Any]] = {
    game_id: import_module(f"games.{game_id}").RULES for game_id in GAME_IDS
}
AIS: Mapping[str, GameAI[Any, Any]] = {
    game_id: import_module(f"games.{game_id}").AI for game_id in GAME_IDS
}
"""Each game's AI players (`games.engine.ai.GameAI`): its levels, decisions and hint reasons."""
