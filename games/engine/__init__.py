"""The shared engine: the per-game contract, stepping and replay, and the session service."""

from games.engine.clock import Clock, ManualClock, SystemClock
from games.engine.contract import (
    AI_LEVELS,
    CHANCE,
    NORMAL,
    STRONG,
    SYSTEM,
    AiDecision,
    Event,
    Frozen,
    Outcome,
    Rules,
    Step,
    ToMove,
)
from games.engine.deadlines import Deadline, DeadlineUpdate
from games.engine.errors import GameError, Reason, illegal
from games.engine.service import Change, Hint, Session, SessionService
from games.engine.session import Seat, SessionRecord, Status
from games.engine.shards import Shards, shard_of
from games.engine.step import LoggedAction, advance, replay
from games.engine.store import (
    DeadlineStore,
    Durable,
    LoadedSession,
    SessionStore,
    SessionWrite,
    Snapshot,
    VersionConflict,
)

__all__ = [
    "AI_LEVELS",
    "CHANCE",
    "NORMAL",
    "STRONG",
    "SYSTEM",
    "AiDecision",
    "Change",
    "Clock",
    "Deadline",
    "DeadlineStore",
    "DeadlineUpdate",
    "Durable",
    "Event",
    "Frozen",
    "GameError",
    "Hint",
    "LoadedSession",
    "LoggedAction",
    "ManualClock",
    "Outcome",
    "Reason",
    "Rules",
    "Seat",
    "Session",
    "SessionRecord",
    "SessionService",
    "SessionStore",
    "SessionWrite",
    "Shards",
    "Snapshot",
    "Status",
    "Step",
    "SystemClock",
    "ToMove",
    "VersionConflict",
    "advance",
    "illegal",
    "replay",
    "shard_of",
]
