"""Persistent controls: every button and select has a custom_id that names the session, the
version it was drawn at and the action, so clicks work after a restart (the DynamicItems that
answer them are the play dispatch's, `bot.play`); a modal (`ControlModal`, `m:…`) is answered
the same way without being kept in memory.

A screen that belongs to no session (the rules) names `NO_SESSION` instead of a session id.
Actions are dotted words. Shared verbs (lobby, hand, rematch) are bare; a game's own verbs
live in the `GAME_NS` namespace (`x.play.12.3`, see `bot.ui.layout.game_verb`), so a game can
never shadow a shared verb. Screens make these items through `bot.ui.v2` only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.ui.layout import GAME_NS, LOBBY, NO_SESSION
from games.engine import SESSION_ID_PATTERN

__all__ = [
    "FIELDS",
    "GAME_NS",
    "LOBBY",
    "NO_SESSION",
    "ControlModal",
    "control_id",
]

_SID = rf"(?P<sid>{SESSION_ID_PATTERN}|{re.escape(NO_SESSION)})"
FIELDS = rf"{_SID}:(?P<ver>L|\d+):(?P<act>[\w.\-]{{1,80}})"
"""What follows a control's prefix (`g:` button, `s:` select, `m:` form): session, version,
action; the items that answer a click (`bot.play`) match it."""


def control_id(prefix: str, sid: str, ver: int | str, act: str) -> str:
    custom_id = f"{prefix}:{sid}:{ver}:{act}"
    if len(custom_id) > 100:
        raise ValueError(f"custom_id too long: {custom_id}")
    return custom_id


class ControlModal(discord.ui.Modal):
    """A modal of text fields whose submission reaches the play dispatch like a select's values
    (`bot.play.modal_control`). It is never kept in memory, so a submission after a restart is
    answered like any other control."""

    def __init__(
        self,
        title: str,
        sid: str,
        ver: int | str,
        act: str,
        fields: Sequence[tuple[str, discord.ui.TextInput[Any]]],
    ) -> None:
        super().__init__(title=title, custom_id=control_id("m", sid, ver, act), timeout=None)
        for label, field in fields:
            self.add_item(discord.ui.Label(text=label, component=field))

    def is_finished(self) -> bool:
        return True  # not stored: discord.py leaves the submission to `bot.play.modal_control`
