"""Turn timers as players choose them: the fixed lengths offered, their words, and the server
default (set with `/settings`) that a new game falls back to."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

from bot.i18n import cmd, t
from storage import PrefTable

TIMERS = (0, 30, 120, 600, 3600, 86400)
"""Seconds; 0 is off."""
GUILD_TIMER = "turn_timer"
"""Guild pref: the default turn timer of new games, in seconds."""

CHOICES = [app_commands.Choice(name=cmd(f"timer.{seconds}"), value=seconds) for seconds in TIMERS]

F = TypeVar("F", bound=Callable[..., object])


def turn_timer_option(func: F) -> F:
    """Give a game's `/… new` its `turn_timer` option (a parameter of that name)."""
    func = app_commands.describe(turn_timer=cmd("cmd.turn_timer"))(func)
    func = app_commands.rename(turn_timer=cmd("cmd.turn_timer.name"))(func)
    return app_commands.choices(turn_timer=CHOICES)(func)


def timer_text(lang: str, seconds: int | None) -> str:
    return t(lang, f"timer.{seconds or 0}")


async def server_default(guild_prefs: PrefTable, guild_id: int | None) -> int:
    if guild_id is None:
        return 0
    stored = await guild_prefs.get(guild_id, GUILD_TIMER)
    return int(stored) if stored and stored.isdigit() and int(stored) in TIMERS else 0


async def chosen_or_default(
    guild_prefs: PrefTable, guild_id: int | None, chosen: int | None
) -> int | None:
    """The turn timer of a new game in seconds (None: off)."""
    seconds = chosen if chosen is not None else await server_default(guild_prefs, guild_id)
    return seconds or None
