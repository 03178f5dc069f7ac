"""Persistent controls: every button and select is a DynamicItem whose custom_id names the
session, the version it was drawn at and the action, so clicks work after a restart; a modal
(`ControlModal`, `m:…`) is answered the same way without being kept in memory.

A screen that belongs to no session (the rules) names `NO_SESSION` instead of a session id.
Actions are dotted words. Shared verbs (lobby, hand, rematch) are bare; a game's own verbs
live in the `GAME_NS` namespace (`x.play.12.3`, see `bot.ui.layout.game_verb`), so a game can
never shadow a shared verb. Screens make these items through `bot.ui.v2` only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

import discord

from bot.ui.layout import GAME_NS, LOBBY, NO_SESSION
from games.engine import SESSION_ID_PATTERN

if TYPE_CHECKING:  # discord.types cannot be imported on its own at run time (circular)
    from discord.types.interactions import ModalSubmitInteractionData

__all__ = [
    "GAME_NS",
    "LOBBY",
    "NO_SESSION",
    "ControlButton",
    "ControlModal",
    "ControlSelect",
    "control_id",
    "modal_control",
]

_SID = rf"(?P<sid>{SESSION_ID_PATTERN}|{re.escape(NO_SESSION)})"
_FIELDS = rf"{_SID}:(?P<ver>L|\d+):(?P<act>[\w.\-]{{1,80}})"


class ControlHandler(Protocol):
    async def on_control(
        self,
        interaction: discord.Interaction[Any],
        sid: str,
        ver: str,
        act: str,
        values: tuple[str, ...],
    ) -> None: ...


def control_id(prefix: str, sid: str, ver: int | str, act: str) -> str:
    custom_id = f"{prefix}:{sid}:{ver}:{act}"
    if len(custom_id) > 100:
        raise ValueError(f"custom_id too long: {custom_id}")
    return custom_id


ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class _Control(Generic[ItemT]):
    """What buttons and selects share: the parsed custom_id and the dispatch of a click."""

    sid: str
    ver: str
    act: str
    item: ItemT

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: Any, /
    ) -> Any:
        # cls is ControlButton or ControlSelect, whose __init__ takes these; the mixin has none.
        return cls(match["sid"], match["ver"], match["act"], item=item)  # type: ignore[call-arg]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # A button carrying a select's custom_id (or the reverse) has no values: the handler
        # then refuses it like any malformed control.
        values = tuple(getattr(self.item, "values", ()) or ())
        handler: ControlHandler = interaction.client.controls
        await handler.on_control(interaction, self.sid, self.ver, self.act, values)


class ControlButton(
    _Control[discord.ui.Button[Any]],
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template="g:" + _FIELDS,
):
    def __init__(
        self,
        sid: str,
        ver: int | str,
        act: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
        item: discord.ui.Button[Any] | None = None,
    ) -> None:
        if item is None:
            item = discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=control_id("g", sid, ver, act),
            )
        super().__init__(item)
        self.sid, self.ver, self.act = sid, str(ver), act


class ControlSelect(
    _Control[discord.ui.Select[Any]],
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template="s:" + _FIELDS,
):
    def __init__(
        self,
        sid: str,
        ver: int | str,
        act: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
        item: discord.ui.Select[Any] | None = None,
    ) -> None:
        if item is None:
            item = discord.ui.Select(
                custom_id=control_id("s", sid, ver, act),
                options=options or [],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        super().__init__(item)
        self.sid, self.ver, self.act = sid, str(ver), act


_MODAL = re.compile("m:" + _FIELDS)


class ControlModal(discord.ui.Modal):
    """A modal of text fields whose submission reaches `ControlHandler.on_control` like a
    select's values (see `modal_control`). It is never kept in memory, so a submission after a
    restart is answered like any other control."""

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
        return True  # not stored: discord.py then leaves the submission to `modal_control`


def _texts(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """The values of a submission's text inputs in order, found in rows and labels alike."""
    found: list[str] = []
    for component in components:
        inner = component.get("components") or [component.get("component") or {}]
        found += [str(field.get("value") or "") for field in inner if field.get("type") == 4]
    return found


async def modal_control(interaction: discord.Interaction[Any]) -> None:
    """Hand a `ControlModal` submission to the bot's control handler (the client calls this for
    every interaction; others are left alone)."""
    if interaction.type is not discord.InteractionType.modal_submit or interaction.data is None:
        return
    data = cast("ModalSubmitInteractionData", interaction.data)  # a modal_submit's, as checked
    match = _MODAL.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    values = tuple(_texts(list(data.get("components") or [])))
    handler: ControlHandler = interaction.client.controls
    await handler.on_control(interaction, match["sid"], match["ver"], match["act"], values)
