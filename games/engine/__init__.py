"""The shared engine, pure: the per-game contract, stepping and replay, session records and
the deadlines they need. What runs sessions (asyncio, processes, the store) is `runtime/`."""

from games.engine.ai import GameAI
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
from games.engine.live import Session
from games.engine.session import (
    SESSION_ID_PATTERN,
    Seat,
    SessionRecord,
    Status,
)
from games.engine.shards import Shards, shard_of
from games.engine.step import LoggedAction, advance, replay

__all__ = [
    "AI_LEVELS",
    "CHANCE",
    "NORMAL",
    "SESSION_ID_PATTERN",
    "STRONG",
    "SYSTEM",
    "AiDecision",
    "Deadline",
    "DeadlineUpdate",
    "Event",
    "Frozen",
    "GameAI",
    "GameError",
    "LoggedAction",
    "Outcome",
    "Reason",
    "Rules",
    "Seat",
    "Session",
    "SessionRecord",
    "Shards",
    "Status",
    "Step",
    "ToMove",
    "advance",
    "illegal",
    "replay",
    "shard_of",
]
