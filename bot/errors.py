"""The one error path: every refusal and failure of a command or a control becomes a short,
localized reply to the person who acted, so no interaction is left unanswered."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import has, lang_of, t
from games.engine import GameError
from storage.session_store import StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFER_AFTER = 1.5
"""Seconds a reply may take before it is deferred ("thinking…"): Discord fails an interaction
not answered within 3 s."""

LOST_RESPONSE = frozenset({10062, 40060, 50027})
"""Unknown interaction, already acknowledged, invalid webhook token: the reply is lost."""


class BotError(Exception):
    """A refusal that comes from the bot, not a game (no game here, not allowed, …)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def error_text(lang: str, error: GameError | BotError, game_id: str | None = None) -> str:
    """A refusal in words. A game's refusal `reason.detail` reads `<game>.error.reason.detail`
    from that game's catalog, else the shared `error.reason.detail`, else `error.reason`."""
    if isinstance(error, BotError):
        return t(lang, f"error.{error.key}", **error.params)
    reason = error.reason.value
    keys = [f"error.{reason}"]
    if error.detail:
        keys.insert(0, f"error.{reason}.{error.detail}")
        if game_id is not None:
            keys.insert(0, f"{game_id}.error.{reason}.{error.detail}")
    key = next((key for key in keys[:-1] if has(key)), keys[-1])
    return t(lang, key, **error.params)


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """A private text reply: the interaction's response, or a follow-up once it has one."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def deferring(interaction: discord.Interaction[Any], work: Awaitable[T]) -> T:
    """Await `work`, deferring the private reply if it takes longer than `DEFER_AFTER`."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await interaction.response.defer(ephemeral=True, thinking=True)
    return await task


def _refusal(error: BaseException) -> GameError | BotError | None:
    if isinstance(error, GameError | BotError):
        return error
    if isinstance(error, app_commands.NoPrivateMessage):
        return BotError("guild_only")
    if isinstance(error, app_commands.MissingPermissions):
        return BotError("not_admin")
    if isinstance(error, StoreUnavailable):  # a database outage: try again once it is back
        return BotError("unavailable")
    cause = error.__cause__ or getattr(error, "original", None)
    return _refusal(cause) if isinstance(cause, BaseException) else None


async def answer_error(
    interaction: discord.Interaction[Any], error: BaseException, game_id: str | None = None
) -> None:
    """Tell the person who acted what went wrong (in the words of `game_id`'s catalog first,
    when the refusal came from a game); log what is not a plain refusal."""
    lang = lang_of(interaction.locale)
    refusal = _refusal(error)
    if isinstance(refusal, BotError) and refusal.key == "unavailable":
        log.warning("interaction refused: the store is unavailable")
    if refusal is None:
        if isinstance(error, discord.HTTPException) and error.code in LOST_RESPONSE:
            log.warning("an interaction's reply was lost: %s", error)
            return
        # A command's error comes wrapped (CommandInvokeError): its own traceback is the one
        # to show, once, not followed by the wrapper's.
        log.error("interaction failed", exc_info=getattr(error, "original", error))
    text = error_text(lang, refusal, game_id) if refusal is not None else t(lang, "error.internal")
    try:
        await reply(interaction, text)
    except discord.HTTPException as failure:
        log.warning("could not tell %s about an error: %s", interaction.user.id, failure)


class Tree(app_commands.CommandTree[Any]):
    """Routes every slash command's error to `answer_error`; a game's own commands (their cog
    has a `game_id`) answer in that game's words."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command
        game_id = getattr(getattr(command, "binding", None), "game_id", None)
        await answer_error(interaction, error, game_id)
