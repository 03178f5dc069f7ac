"""Turn notifications: a DM when a player's turn comes (for those who asked with `/notify`),
and the turn timer's half-time warning (in the channel, and by DM for those who asked)."""

from __future__ import annotations

import logging

import discord

from bot.context import jump_url
from bot.i18n import t
from bot.languages import Languages
from games.engine import Session, Status
from runtime import Change
from storage import PrefTable

log = logging.getLogger(__name__)

NOTIFY = "notify"
"""User pref: "1" when the user wants a DM as their turn comes."""
WARNING = "session.turn_warning"


class Turns:
    def __init__(self, client: discord.Client, user_prefs: PrefTable, languages: Languages) -> None:
        self.client = client
        self.user_prefs = user_prefs
        self.languages = languages
        self._waiting: dict[str, frozenset[int]] = {}

    def forget_session(self, sid: str) -> None:
        self._waiting.pop(sid, None)

    async def on_change(self, change: Change) -> None:
        session = change.session
        if session.record.status is not Status.ACTIVE:
            self._waiting.pop(session.id, None)
            return
        for event in change.events:
            if event.key == WARNING:
                await self._warn(session, event.params["seat"], event.params["due"])
        to_move = session.rules.to_move(session.state)
        # A timed window (say, a claim window after a discard) asks its players at once for a
        # few seconds: a DM each time would be noise, so only real turns are announced.
        waiting = frozenset() if to_move.timeout is not None else to_move.seats
        before = self._waiting.get(session.id, frozenset())
        self._waiting[session.id] = waiting
        for seat in waiting - before:
            user_id = session.record.seats[seat].user_id
            if user_id is not None and seat != change.actor:
                await self._dm(session, user_id, "notify.your_turn")

    async def _warn(self, session: Session, seat: int, due: float) -> None:
        """Half the turn time is gone: ping the player in the channel (and by DM)."""
        user_id = session.record.seats[seat].user_id
        if user_id is None:
            return
        lang = session.record.locale
        text = t(
            lang,
            "turn.warning",
            mention=f"<@{user_id}>",
            game=t(lang, f"{session.record.game_id}.name"),
            when=f"<t:{int(due)}:R>",
            link=jump_url(session),
        )
        channel = self.client.get_partial_messageable(session.record.channel_id)
        try:
            await channel.send(
                text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
            )
        except discord.HTTPException as error:
            log.warning("turn warning in %s not posted: %s", session.id, error)
        await self._dm(session, user_id, "turn.warning_dm", when=f"<t:{int(due)}:R>")

    async def _dm(self, session: Session, user_id: int, key: str, **params: str) -> None:
        if await self.user_prefs.get(user_id, NOTIFY) != "1":
            return
        lang = self.languages.user(user_id, session.record.locale)
        game = t(lang, f"{session.record.game_id}.name")
        text = t(lang, key, game=game, link=jump_url(session), **params)
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("turn DM to %s not delivered", user_id)
