"""Turn notifications: a DM to players who asked for one (`/notify`) when their turn comes."""

from __future__ import annotations

import logging

import discord

from bot.context import jump_url
from bot.i18n import t
from bot.languages import Languages
from games.engine import Change, Session, Status
from storage import PrefTable

log = logging.getLogger(__name__)

NOTIFY = "notify"
"""User pref: "1" when the user wants a DM as their turn comes."""


class Turns:
    def __init__(self, client: discord.Client, user_prefs: PrefTable, languages: Languages) -> None:
        self.client = client
        self.user_prefs = user_prefs
        self.languages = languages
        self._waiting: dict[str, frozenset[int]] = {}

    def forget_session(self, sid: str) -> None:
        self._waiting.pop(sid, None)

    async def on_change(self, change: Change) -> None:
        """DM each seat that just became one to move, if its player asked for it."""
        session = change.session
        if session.record.status is not Status.ACTIVE:
            self._waiting.pop(session.id, None)
            return
        waiting = session.rules.to_move(session.state).seats
        before = self._waiting.get(session.id, frozenset())
        self._waiting[session.id] = waiting
        for seat in waiting - before:
            user_id = session.record.seats[seat].user_id
            if user_id is not None and seat != change.actor:
                await self._ping(session, user_id)

    async def _ping(self, session: Session, user_id: int) -> None:
        if await self.user_prefs.get(user_id, NOTIFY) != "1":
            return
        lang = self.languages.user(user_id, session.record.locale)
        game = t(lang, f"{session.record.game_id}.name")
        text = t(lang, "notify.your_turn", game=game, link=jump_url(session))
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("turn ping to %s not delivered", user_id)
