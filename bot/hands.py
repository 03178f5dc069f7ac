"""Private-hand delivery: each player's hand as an ephemeral reply (editable through its
interaction token for 15 minutes) or as an ordinary DM message the bot can edit any time, both
Components V2 messages built from the game's hand layout."""

from __future__ import annotations

import logging
import time
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.context import Context
from bot.errors import reply
from bot.game_ui import GameUI
from bot.i18n import t
from bot.languages import Languages
from bot.ui.layout import Button, Controls, Layout
from bot.ui.v2 import V2Message, build
from games.engine import Event, GameError, Reason, Session, Status
from runtime import Change
from storage import HandStore

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60
"""An interaction token lives 15 minutes; stop using it a little before."""
DMS_CLOSED = 50007
PRIVATE_EVENTS = 3
"""Private events (say, the cards you drew) a hand keeps showing."""

Describe = Callable[[Event, Context], str | None]


class Hands:
    def __init__(
        self,
        client: discord.Client,
        store: HandStore,
        games: Mapping[str, GameUI],
        languages: Languages,
    ) -> None:
        self.client = client
        self.store = store
        self.games = games
        self.languages = languages
        self._ephemeral: dict[tuple[str, int], tuple[discord.Interaction[Any], float]] = {}
        self._sent: dict[tuple[str, int], str] = {}
        self._drawn_at: dict[tuple[str, int], int] = {}
        """The version each open hand was last drawn at: a redraw at the same version would
        wipe a choice in progress."""
        self._private: defaultdict[tuple[str, int], deque[Event]] = defaultdict(
            lambda: deque(maxlen=PRIVATE_EVENTS)
        )

    # Bookkeeping ----------------------------------------------------------------------------

    def on_commit(self, change: Change) -> None:
        """Keep each seat's private events (in memory, right after the commit)."""
        for event in change.events:
            for seat in event.audience or ():
                self._private[(change.session.id, seat)].append(event)

    def forget_session(self, sid: str) -> None:
        for store in (self._ephemeral, self._sent, self._drawn_at, self._private):
            for key in [k for k in store if k[0] == sid]:
                del store[key]

    # Screens --------------------------------------------------------------------------------

    def screen(
        self,
        session: Session,
        user_id: int,
        lang: str,
        pick: str | None = None,
        notice: str | None = None,
    ) -> V2Message:
        seat = session.seat_of(user_id)
        if seat is None:
            raise GameError(Reason.NOT_A_PLAYER)
        ui = self.games[session.record.game_id]
        ctx = Context.of(
            session,
            lang,
            recent=tuple(self._private[(session.id, seat)]),
            notice=notice,
            describe=lambda event, ctx: ui.private_event_text(event, ctx),
        )
        layout = ui.hand(ctx, seat, pick)
        if session.record.status is Status.ACTIVE:
            layout = with_refresh(layout, Button("refresh", t(lang, "hand.refresh"), "🔄"))
        return build(layout)

    # Delivery -------------------------------------------------------------------------------

    async def deliver(
        self, interaction: discord.Interaction[Any], session: Session, *, dm: bool
    ) -> None:
        """Answer `/hand` or a table's hand button with the clicker's hand."""
        user = interaction.user
        lang = self.languages.of(interaction)
        if session.seat_of(user.id) is None:
            raise GameError(Reason.NOT_A_PLAYER)
        if session.record.status is Status.LOBBY:
            raise GameError(Reason.NOT_IN_LOBBY, "not_started")
        if not session.record.status.live:
            raise GameError(Reason.GAME_OVER)
        notice = None
        if dm:
            drawn = session.record.version
            message = self.screen(session, user.id, lang)
            if await self._send_dm(user, session, message, drawn):
                await reply(interaction, t(lang, "hand.sent_dm"))
                return
            notice = t(lang, "hand.dms_closed")
        else:
            await self._leave_dms(session.id, user.id)
        drawn = session.record.version
        message = self.screen(session, user.id, lang, notice=notice)
        await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)
        self._remember(session, user.id, message, drawn, interaction)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        pick: str | None = None,
        notice: str | None = None,
    ) -> None:
        """Redraw the hand message a click came from, in place, as the click's answer."""
        user_id = interaction.user.id
        drawn = session.record.version
        message = self.screen(session, user_id, self.languages.of(interaction), pick, notice)
        await interaction.response.edit_message(**message.edit_kwargs())
        in_dm = interaction.guild_id is None and await self.store.get(session.id, user_id)
        self._remember(session, user_id, message, drawn, None if in_dm else interaction)

    async def redraw(self, session: Session) -> None:
        """Redraw every open hand of the session that changed since it was drawn."""
        sid = session.id
        now = time.monotonic()
        dm = {hand.user_id: hand for hand in await self.store.for_session(sid)}
        for seat in session.record.seats:
            user_id = seat.user_id
            if user_id is None:
                continue
            key = (sid, user_id)
            target = dm.get(user_id)
            entry = self._ephemeral.get(key)
            if target is None and (entry is None or now - entry[1] > TOKEN_LIFETIME):
                self._ephemeral.pop(key, None)
                continue
            if self._drawn_at.get(key) == session.record.version:
                continue  # already drawn at this version, maybe with a choice in progress
            lang = self.languages.user(user_id, session.record.locale)
            message = self.screen(session, user_id, lang)
            self._drawn_at[key] = session.record.version
            if self._sent.get(key) == message.fingerprint:
                continue
            try:
                if target is not None:
                    channel = self.client.get_partial_messageable(target.channel_id)
                    dm_hand = channel.get_partial_message(target.message_id)
                    await dm_hand.edit(**message.edit_kwargs())
                elif entry is not None:
                    await entry[0].edit_original_response(**message.edit_kwargs())
                self._sent[key] = message.fingerprint
            except discord.NotFound:
                await self._forget_hand(sid, user_id)
            except discord.HTTPException as error:
                log.warning("could not redraw hand of %s in %s: %s", user_id, sid, error)
                self._ephemeral.pop(key, None)
                self._drawn_at.pop(key, None)  # not drawn: the next redraw tries again

    def _remember(
        self,
        session: Session,
        user_id: int,
        message: V2Message,
        drawn: int,
        interaction: discord.Interaction[Any] | None,
    ) -> None:
        """The hand the user now sees, drawn at version `drawn`: the session may have moved on
        while it was sent (a rate-limited DM waits), and then a redraw must still come."""
        key = (session.id, user_id)
        if interaction is not None:
            self._ephemeral[key] = (interaction, time.monotonic())
        self._sent[key] = message.fingerprint
        self._drawn_at[key] = drawn

    async def _send_dm(
        self, user: discord.User | discord.Member, session: Session, hand: V2Message, drawn: int
    ) -> bool:
        """Post the hand in the user's DMs; False when their DMs are closed."""
        try:
            message = await user.send(**hand.send_kwargs())
        except discord.Forbidden as error:
            if error.code == DMS_CLOSED:
                return False
            raise
        old = await self.store.get(session.id, user.id)
        if old is not None:
            await self._delete_quietly(old.channel_id, old.message_id)
        await self.store.upsert(session.id, user.id, message.channel.id, message.id)
        self._ephemeral.pop((session.id, user.id), None)
        self._remember(session, user.id, hand, drawn, None)
        return True

    async def _forget_hand(self, sid: str, user_id: int) -> None:
        self._ephemeral.pop((sid, user_id), None)
        await self.store.delete(sid, user_id)

    async def _leave_dms(self, sid: str, user_id: int) -> None:
        """The hand moves to a private reply: forget the DM hand, if the player had one (a
        read first: most never did, and a write would make the click wait for a commit)."""
        self._ephemeral.pop((sid, user_id), None)
        if await self.store.get(sid, user_id) is not None:
            await self.store.delete(sid, user_id)

    async def _delete_quietly(self, channel_id: int, message_id: int) -> None:
        try:
            channel = self.client.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException:
            pass


def with_refresh(layout: Layout, refresh: Button) -> Layout:
    """The hand with the shared Refresh button after the game's own controls."""
    blocks = list(layout.blocks)
    if blocks and isinstance(blocks[-1], Controls):
        blocks[-1] = Controls((*blocks[-1].items, refresh), blocks[-1].priority)
    else:
        blocks.append(Controls((refresh,)))
    return Layout(layout.title, tuple(blocks), layout.accent, layout.session, layout.version)
