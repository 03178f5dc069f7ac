"""A local Discord emulator that the real discord.py client connects to: the tests drive the
bot through it, and the playground (`python -m bot.playground`) puts it in a browser.

See `Emulator` for the entry point and `tests/bot/playground/test_emulator.py` for worked examples.
"""

from .emulator import BotErrors, Emulator
from .errors import (
    ApiError,
    EmulatorError,
    EmulatorTimeout,
    InteractionFailed,
    InvalidInteraction,
)
from .interactions import ApiCall, InteractionResult
from .models import EmuChannel, EmuGuild, EmuMessage, EmuRole, EmuUser, text_of
from .ratelimits import RateLimit, RateLimitHit

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
