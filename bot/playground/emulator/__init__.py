"""A local Discord emulator for driving the real discord.py client in tests.

See `Emulator` for the entry point and `tests/test_emulator.py` for worked examples.
"""

from .emulator import BotErrors, Emulator, RateLimit, RateLimitHit
from .errors import (
    ApiError,
    EmulatorError,
    EmulatorTimeout,
    InteractionFailed,
    InvalidInteraction,
)
from .interactions import ApiCall, InteractionResult
from .models import EmuChannel, EmuGuild, EmuMessage, EmuRole, EmuUser, text_of

__all__ = [
    "ApiCall",
    "ApiError",
    "BotErrors",
    "EmuChannel",
    "EmuGuild",
    "EmuMessage",
    "EmuRole",
    "EmuUser",
    "Emulator",
    "EmulatorError",
    "EmulatorTimeout",
    "InteractionFailed",
    "InteractionResult",
    "InvalidInteraction",
    "RateLimit",
    "RateLimitHit",
    "text_of",
]
