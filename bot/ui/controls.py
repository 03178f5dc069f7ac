"""Persistent controls: every button and select is a DynamicItem whose custom_id names the
session, the version it was drawn at and the action, so clicks work after a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.controller import Controller

LOBBY = "L"
"""Version marker of controls that do not depend on the game's version."""
_FIELDS = r"(?P<sid>[0-9a-f]{8}):(?P<ver>L|\d+):(?P<act>[\w.\-]{1,80})"


def control_id(prefix: str, sid: str, ver: int | str, act: str) -> str:
    custom_id = f"{prefix}:{sid}:{ver}:{act}"
    if len(custom_id) > 100:
        raise ValueError(f"custom_id too long: {custom_id}")
    return custom_id


def _controller(interaction: discord.Interaction[Any]) -> Controller:
    return interaction.client.controller  # type: ignore[no-any-return,attr-defined]


class ControlButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"g:" + _FIELDS):
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
        custom_id = control_id("g", sid, ver, act)
        if item is None:
            item = discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=custom_id,
            )
        super().__init__(item)
        self.sid, self.ver, self.act = sid, str(ver), act

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: Any,
        /,
    ) -> ControlButton:
        return cls(match["sid"], match["ver"], match["act"], item=item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _controller(interaction).on_control(interaction, self.sid, self.ver, self.act, ())


class ControlSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"s:" + _FIELDS):
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
        custom_id = control_id("s", sid, ver, act)
        if item is None:
            item = discord.ui.Select(
                custom_id=custom_id,
                options=options or [],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        super().__init__(item)
        self.sid, self.ver, self.act = sid, str(ver), act

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: Any,
        /,
    ) -> ControlSelect:
        return cls(match["sid"], match["ver"], match["act"], item=item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = tuple(self.item.values)
        await _controller(interaction).on_control(interaction, self.sid, self.ver, self.act, values)
