"""Errors the engine raises; the bot turns each reason code into localized text."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_MOVE = "illegal_move"
    GAME_OVER = "game_over"
    STALE_VERSION = "stale_version"
    NOT_A_PLAYER = "not_a_player"
    NOT_HOST = "not_host"
    NOT_IN_LOBBY = "not_in_lobby"
    LOBBY_FULL = "lobby_full"
    ALREADY_SEATED = "already_seated"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    UNKNOWN_SESSION = "unknown_session"
    CHANNEL_BUSY = "channel_busy"
    BAD_OPTION = "bad_option"


class GameError(Exception):
    """A refused request. `reason` is stable; `detail` is a rule-specific sub-code."""

    def __init__(self, reason: Reason, detail: str = "", **params: object) -> None:
        super().__init__(f"{reason.value}{': ' + detail if detail else ''}")
        self.reason = reason
        self.detail = detail
        self.params = params


def illegal(detail: str, **params: object) -> GameError:
    return GameError(Reason.ILLEGAL_MOVE, detail, **params)
