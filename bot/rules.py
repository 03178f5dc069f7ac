"""The rules screens: `/<game> rules` answers privately with the game's first page (the goal,
a turn, the end: short enough for a phone) and a select of its other pages (setup, a turn in
detail, scoring, options, this bot's rulings).

A page is the catalog text `{game_id}.rules.{page}` (`GameUI.rules_pages`). Every ruling of
this bot is marked with the one marker `rules.marker`, explained once on the first page and
gathered on the `rulings` page. The select is a persistent control of no session
(`s:-:L:rules.{game_id}`): a pick edits the asker's own message, after a restart too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.game_ui import ACCENT, GameUI
from bot.i18n import t
from bot.ui.layout import NO_SESSION, Controls, Layout, Option, Priority, Select, Text
from bot.ui.v2 import build
from games.engine import GameError, Reason

VERB = "rules"
"""The shared verb of the page select: `rules.{game_id}`, the page as its value."""
FIRST = "intro"
"""Every game's first page: the goal, a turn, the end."""


def rules_layout(ui: GameUI, lang: str, page: str) -> Layout:
    """One page of `ui`'s rules in `lang`, with the select of every page (this one chosen)."""
    game = t(lang, f"{ui.game_id}.name")
    blocks: list[Text | Controls] = [
        Text(t(lang, f"{ui.game_id}.rules.{page}"), Priority.ESSENTIAL)
    ]
    if page == FIRST:
        title = t(lang, "rules.title", game=game)
        blocks.append(Text(t(lang, "rules.marker_note"), Priority.ESSENTIAL))
    else:
        title = t(lang, "rules.title_page", game=game, page=t(lang, f"rules.page.{page}"))
    options = tuple(
        Option(name, t(lang, f"rules.page.{name}"), default=name == page) for name in ui.rules_pages
    )
    pick = Select(f"{VERB}.{ui.game_id}", options, placeholder=t(lang, "rules.pick"))
    blocks.append(Controls((pick,)))
    return Layout(title, tuple(blocks), ACCENT, NO_SESSION)


async def send_rules(interaction: discord.Interaction[Any], ui: GameUI, lang: str) -> None:
    """`/<game> rules`: the first page, privately."""
    message = build(rules_layout(ui, lang, FIRST))
    await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)


async def pick_page(
    interaction: discord.Interaction[Any],
    games: Mapping[str, GameUI],
    args: Sequence[str],
    values: Sequence[str],
    lang: str,
) -> None:
    """A pick in the page select: the asker's rules message shows that page."""
    ui = games.get(args[0]) if len(args) == 1 else None
    if ui is None or len(values) != 1 or values[0] not in ui.rules_pages:
        raise GameError(Reason.BAD_OPTION, "control")
    message = build(rules_layout(ui, lang, values[0]))
    await interaction.response.edit_message(**message.edit_kwargs())
