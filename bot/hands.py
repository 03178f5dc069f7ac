"""Where each player's private hand lives: an ephemeral reply (editable through its
interaction token for 15 minutes) or an ordinary DM message the bot can edit any time."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.ui.screen import Screen

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60
"""An interaction token lives 15 minutes; stop using it a little before."""
DMS_CLOSED = 50007


class Hands:
    def __init__(self, client: discord.Client, storage: Any) -> None:
        self.client = client
        self.storage = storage
        self._ephemeral: dict[tuple[str, int], tuple[discord.Interaction[Any], float]] = {}
        self._sent: dict[tuple[str, int], str] = {}

    def remember(self, sid: str, user_id: int, interaction: discord.Interaction[Any]) -> None:
        """The latest interaction whose original response is this user's hand message."""
        self._ephemeral[(sid, user_id)] = (interaction, time.monotonic())

    def sent(self, sid: str, user_id: int, screen: Screen) -> None:
        self._sent[(sid, user_id)] = screen.fingerprint()

    async def send_dm(self, user: discord.abc.User, sid: str, screen: Screen) -> bool:
        """Post the hand in the user's DMs; False when their DMs are closed."""
        try:
            message = await user.send(**screen.kwargs())
        except discord.Forbidden as error:
            if error.code == DMS_CLOSED:
                return False
            raise
        old = await self.storage.hand_messages.get(sid, user.id)
        if old is not None:
            await self._delete_quietly(old.channel_id, old.message_id)
        await self.storage.hand_messages.upsert(sid, user.id, message.channel.id, message.id)
        self._ephemeral.pop((sid, user.id), None)
        self.sent(sid, user.id, screen)
        return True

    async def is_dm(self, sid: str, user_id: int) -> bool:
        return await self.storage.hand_messages.get(sid, user_id) is not None

    async def refresh(
        self, sid: str, users: list[int], render: Callable[[int], Awaitable[Screen | None]]
    ) -> None:
        """Redraw every open hand of the session (skipping unchanged ones)."""
        now = time.monotonic()
        dm = {
            hand.user_id: (hand.channel_id, hand.message_id)
            for hand in await self.storage.hand_messages.for_session(sid)
        }
        for user_id in users:
            key = (sid, user_id)
            target = dm.get(user_id)
            entry = self._ephemeral.get(key)
            if target is None and (entry is None or now - entry[1] > TOKEN_LIFETIME):
                self._ephemeral.pop(key, None)
                continue
            screen = await render(user_id)
            if screen is None or self._sent.get(key) == screen.fingerprint():
                continue
            try:
                if target is not None:
                    channel = self.client.get_partial_messageable(target[0])
                    await channel.get_partial_message(target[1]).edit(**screen.kwargs())
                elif entry is not None:
                    await entry[0].edit_original_response(**screen.kwargs())
                self.sent(sid, user_id, screen)
            except discord.NotFound:
                await self.forget(sid, user_id)
            except discord.HTTPException as error:
                log.warning("could not redraw hand of %s in %s: %s", user_id, sid, error)
                self._ephemeral.pop(key, None)

    async def forget(self, sid: str, user_id: int) -> None:
        self._ephemeral.pop((sid, user_id), None)
        await self.storage.hand_messages.delete(sid, user_id)

    async def _delete_quietly(self, channel_id: int, message_id: int) -> None:
        try:
            channel = self.client.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException:
            pass
