"""The public table: its screen (lobby, play, end) as a Components V2 message, posting it, and
redrawing it in place (skipped when it would show exactly the same)."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

import discord

from bot.context import Context, Records
from bot.game_ui import ENDED, GameUI
from bot.hints import with_hint_count
from bot.i18n import has
from bot.lobby_screens import closed_screen, lobby_screen
from bot.results import Results
from bot.table_pictures import TablePictures
from bot.ui.layout import Priority, Text, without_controls
from bot.ui.v2 import V2Message, build
from games.engine import Event, Session, Status
from runtime import Change, SessionService

log = logging.getLogger(__name__)

RECENT_EVENTS = 6
MISSING_PERMISSIONS = 50013
SESSION_EVENTS = "session."
"""Prefix of the events the service itself emits (turn timers, away seats)."""


class Tables:
    def __init__(
        self,
        client: discord.Client,
        service: SessionService,
        games: Mapping[str, GameUI],
        results: Results,
        pictures: TablePictures,
    ) -> None:
        self.client = client
        self.service = service
        self.games = games
        self.results = results
        self.pictures = pictures
        self._recent: defaultdict[str, deque[Event]] = defaultdict(
            lambda: deque(maxlen=RECENT_EVENTS)
        )
        self._prints: dict[str, str] = {}
        self._posting: dict[str, asyncio.Event] = {}
        """Sessions whose table is being posted: a redraw meanwhile waits to edit that one."""

    def on_commit(self, change: Change) -> None:
        """Keep the table's log of recent public events (in memory, right after the commit)."""
        public = [event for event in change.events if event.public]
        if not public:
            return  # (most AI and timer changes): no context to build
        session = change.session
        ctx = self.context(session)
        for event in public:
            if self.describe(event, ctx):
                self._recent[session.id].append(event)

    def forget_session(self, sid: str) -> None:
        self._recent.pop(sid, None)
        self._prints.pop(sid, None)
        self.pictures.forget_session(sid)

    def describe(self, event: Event, ctx: Context) -> str | None:
        if event.key.startswith(SESSION_EVENTS):
            key = f"event.{event.key}"
            if not has(key):
                return None
            params = dict(event.params)
            if "seat" in params:
                params["seat"] = ctx.names[params["seat"]]
            return ctx.t(key, **params)
        return self.games[ctx.session.record.game_id].event_text(event, ctx)

    def context(self, session: Session, records: Records | None = None) -> Context:
        return Context.of(
            session,
            session.record.locale,
            recent=tuple(self._recent[session.id]),
            records=records,
            describe=self.describe,
        )

    async def screen(self, session: Session) -> V2Message:
        status = session.record.status
        ui = self.games[session.record.game_id]
        if status is Status.LOBBY:
            return build(lobby_screen(self.context(session), ui))
        if status is Status.ABANDONED and session.state is None:
            return build(closed_screen(self.context(session)))
        records = await self.results.summary(session) if status is Status.FINISHED else None
        ctx = self.context(session, records)
        ctx.picture = await self.pictures.picture(session, ui)
        layout = with_hint_count(ui.table(ctx), ctx)
        if status is Status.ABANDONED:  # closed: the notice first, no controls, grey
            notice = Text(ctx.t("lobby.abandoned"), Priority.ESSENTIAL)
            layout = replace(without_controls(layout, notice), accent=ENDED)
        return build(layout)

    async def _deliver(
        self,
        session: Session,
        message: V2Message,
        deliver: Callable[[V2Message], Awaitable[Any]],
    ) -> tuple[V2Message, Any]:
        """Hand the table to `deliver` (a send or an edit); where the bot may not attach files,
        once more without the picture (the text says it all)."""
        try:
            return message, await deliver(message)
        except discord.Forbidden as error:
            if not message.pictures or error.code != MISSING_PERMISSIONS:
                raise
            log.warning("no Attach Files permission in %s", session.record.channel_id)
            self.pictures.refused(session.record.channel_id)
        message = await self.screen(session)
        return message, await deliver(message)

    async def post(self, session: Session) -> None:
        """Send the table as a new message in the session's channel and remember it."""
        posted = self._posting[session.id] = asyncio.Event()
        try:
            channel = self.client.get_partial_messageable(session.record.channel_id)
            message, sent = await self._deliver(
                session,
                await self.screen(session),
                lambda message: channel.send(**message.send_kwargs()),
            )
            await self.service.set_table_message(session.id, sent.id)
            self._prints[session.id] = message.fingerprint
        finally:
            del self._posting[session.id]
            posted.set()

    async def answer(self, interaction: discord.Interaction[Any], session: Session) -> None:
        """Redraw the table as the answer to a click on it: instant, and not counted against
        the channel's edit rate. What it shows is noted before the answer goes out, so a
        redraw of the same change meanwhile (its listener runs at once) is not sent too."""
        message = await self.screen(session)
        shown = self._prints.get(session.id)
        self._prints[session.id] = message.fingerprint
        try:
            await interaction.response.edit_message(**message.edit_kwargs())
        except BaseException:
            if self._prints.get(session.id) == message.fingerprint:  # not shown after all:
                self._prints.pop(session.id)  # the next redraw must send it
                if shown is not None:
                    self._prints[session.id] = shown
            raise

    async def redraw(self, session: Session) -> bool:
        """Edit the table message to the current state (post it if it has none yet).

        False when it was already showing exactly that.
        """
        posting = self._posting.get(session.id)
        if posting is not None:
            # Its message may be out already (and clicked), not yet remembered: a second
            # post would leave players on a table that is never redrawn.
            await posting.wait()
            session = await self.service.get(session.id)
        if session.record.table_message_id is None:
            await self.post(session)
            return True
        message = await self.screen(session)
        if self._prints.get(session.id) == message.fingerprint:
            return False
        channel = self.client.get_partial_messageable(session.record.channel_id)
        table = channel.get_partial_message(session.record.table_message_id)
        message, _ = await self._deliver(
            session, message, lambda message: table.edit(**message.edit_kwargs())
        )
        self._prints[session.id] = message.fingerprint
        return True
