"""A rendered message: embeds plus controls."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import discord


@dataclass
class Screen:
    embeds: list[discord.Embed]
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    content: str | None = None

    def view(self) -> discord.ui.View | None:
        if not self.items:
            return None
        view = discord.ui.View(timeout=None)
        for item in self.items:
            view.add_item(item)
        return view

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for send/edit; an empty view clears old controls."""
        return {
            "content": self.content,
            "embeds": self.embeds,
            "view": self.view() or discord.ui.View(timeout=None),
        }

    def fingerprint(self) -> str:
        """Identifies the rendered payload, so identical re-edits can be skipped."""
        view = self.view()
        data = {
            "c": self.content,
            "e": [e.to_dict() for e in self.embeds],
            "v": view.to_components() if view else [],
        }
        return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
