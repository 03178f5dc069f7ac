"""The session runtime: what runs games for the bot — sessions held in memory and loaded from
the store, the lobby's and a game's commands, persistence, deadlines, the AI seats (STRONG ones
in worker processes) and telling the bot what changed. Between `storage` (whose protocols it
types against) and `bot`; `games/` stays pure rules and never imports it."""

from runtime.clock import Clock, ManualClock, SystemClock
from runtime.listeners import Change, Hint, Listener, Observer
from runtime.lobby import new_session_id
from runtime.service import SessionService

__all__ = [
    "Change",
    "Clock",
    "Hint",
    "Listener",
    "ManualClock",
    "Observer",
    "SessionService",
    "SystemClock",
    "new_session_id",
]
