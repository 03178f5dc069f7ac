"""A lobby's options are each game's `Config` fields, checked by that model: a malformed one is
refused in the game's own words where it has them, and opens nothing."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.errors import error_text
from bot.i18n import t
from games.engine import GameError, Reason
from games.registry import AIS, GAMES
from runtime import ManualClock, SessionService
from storage import Storage

CHANNEL = 10

MALFORMED: list[tuple[str, dict[str, Any], str, str]] = [
    ("thegame", {"on_fire": "yes"}, "on_fire", "error.bad_option"),
    ("thegame", {"signals": 1}, "signals", "error.bad_option"),
    ("exhaust", {"npc_size": 50}, "npc_size", "exhaust.error.bad_option.npc_size"),
    ("exhaust", {"long_game": 1}, "long_game", "exhaust.error.bad_option.long_game"),
    ("hellqueue", {"first_player": True}, "first_player", "error.bad_option.first_player"),
    ("hellqueue", {"speed": 2}, "unknown_option", "error.bad_option"),
    ("rummy", {"claim_seconds": 301}, "claim_seconds", "rummy.error.bad_option.claim_seconds"),
    ("rummy", {"match_games": "6"}, "match_games", "rummy.error.bad_option.match_games"),
]
"""A malformed option of each game, the detail it is refused with, and the words that say
so: the game's own where it has them, else the shared ones."""


@pytest.mark.parametrize(("game_id", "options", "detail", "words"), MALFORMED)
async def test_a_malformed_lobby_option_is_refused_in_the_games_words_and_opens_nothing(
    sqlite_storage: Storage, game_id: str, options: dict[str, Any], detail: str, words: str
) -> None:
    seeds = itertools.count(1)
    service = SessionService(
        sqlite_storage.sessions, GAMES, AIS, seed_source=lambda: next(seeds), clock=ManualClock()
    )
    try:
        with pytest.raises(GameError) as refused:
            await service.create(
                game_id,
                guild_id=1,
                channel_id=CHANNEL,
                host_id=1,
                host_name="alice",
                locale="ja",
                options=options,
            )
        assert (refused.value.reason, refused.value.detail) == (Reason.BAD_OPTION, detail)
        for lang in ("en", "ja"):
            assert error_text(lang, refused.value, game_id) == t(lang, words)
        assert await sqlite_storage.sessions.live_in_channel(CHANNEL) is None
    finally:
        await service.close()
        await service.settle()
