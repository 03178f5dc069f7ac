"""The shared engine: the per-game contract, stepping and replay, and the session service."""

from games.engine.ai import GameAI
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
from games.engine.session import (
    SESSION_ID_PATTERN,
    Seat,
    SessionRecord,
    Status,
    new_session_id,
)
from games.engine.shards import Shards, shard_of
from games.engine.step import LoggedAction, advance, replay
from games.engine.store import (
    DeadlineStore,
    Durable,
    LoadedSession,
    SessionIdTaken,
    SessionStore,
    SessionWrite,
    Snapshot,
    StoreUnavailable,
    VersionConflict,
)

__all__ = [
    "AI_LEVELS",
    "CHANCE",
    "NORMAL",
    "SESSION_ID_PATTERN",
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
    "GameAI",
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
    "SessionIdTaken",
    "SessionRecord",
    "SessionService",
    "SessionStore",
    "SessionWrite",
    "Shards",
    "Snapshot",
    "Status",
    "Step",
    "StoreUnavailable",
    "SystemClock",
    "ToMove",
    "VersionConflict",
    "advance",
    "illegal",
    "new_session_id",
    "replay",
    "shard_of",
]
