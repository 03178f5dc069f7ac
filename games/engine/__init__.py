"""The shared engine: the per-game contract, stepping and replay, and the session service."""

from games.engine.contract import CHANCE, SYSTEM, Event, Frozen, Outcome, Rules, Step, ToMove
from games.engine.errors import GameError, Reason, illegal
from games.engine.service import Change, Session, SessionService
from games.engine.session import Seat, SessionRecord, Status
from games.engine.step import LoggedAction, advance, replay
from games.engine.store import LoadedSession, SessionStore, Snapshot, VersionConflict

__all__ = [
    "CHANCE",
    "SYSTEM",
    "Change",
    "Event",
    "Frozen",
    "GameError",
    "LoadedSession",
    "LoggedAction",
    "Outcome",
    "Reason",
    "Rules",
    "Seat",
    "Session",
    "SessionRecord",
    "SessionService",
    "SessionStore",
    "Snapshot",
    "Status",
    "Step",
    "ToMove",
    "VersionConflict",
    "advance",
    "illegal",
    "replay",
]
