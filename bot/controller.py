"""The shared controller: lobby, hands, tables and clicks for every game.

Game-specific drawing and parsing lives in each game's `GameUI`; everything that is the same
for every game (seats, stale clicks, errors, delivery, coalesced redraws) lives here.
"""

from __future__ import annotations

import logging
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.gameui.base import Context, GameUI, Pick
from bot.hands import Hands
from bot.i18n import has, lang_of, t
from bot.lobby import closed_screen, first_player_screen, lobby_screen
from bot.refresh import Refresher
from bot.settings import Settings
from bot.ui.controls import ControlButton
from bot.ui.screen import Screen
from games.engine import Change, Event, GameError, Reason, Session, SessionService, Status

log = logging.getLogger(__name__)

LOBBY_VERBS = frozenset({"join", "leave", "addai", "rmai", "start", "first", "cancel"})
RECENT_EVENTS = 6
LOST_RESPONSE = frozenset({10062, 40060, 50027})
"""Unknown interaction, already acknowledged, invalid webhook token: the reply is lost."""


def error_text(lang: str, error: GameError) -> str:
    detailed = f"error.{error.reason.value}.{error.detail}"
    key = detailed if error.detail and has(detailed) else f"error.{error.reason.value}"
    return t(lang, key, **{k: v for k, v in error.params.items()})


def jump_url(session: Session) -> str:
    record = session.record
    guild = record.guild_id or "@me"
    if record.table_message_id is None:
        return f"https://discord.com/channels/{guild}/{record.channel_id}"
    return f"https://discord.com/channels/{guild}/{record.channel_id}/{record.table_message_id}"


class Controller:
    def __init__(
        self,
        client: discord.Client,
        settings: Settings,
        storage: Any,
        service: SessionService,
        uis: Mapping[str, GameUI],
    ) -> None:
        self.client = client
        self.settings = settings
        self.storage = storage
        self.service = service
        self.uis = uis
        self.hands = Hands(client, storage)
        self.refresher = Refresher(settings.table_edit_interval, self._redraw)
        self._recent: defaultdict[str, deque[Event]] = defaultdict(
            lambda: deque(maxlen=RECENT_EVENTS)
        )
        self._private: defaultdict[tuple[str, int], deque[Event]] = defaultdict(
            lambda: deque(maxlen=3)
        )
        self._user_lang: dict[int, str] = {}
        self._hand_versions: dict[tuple[str, int], int] = {}
        """The version each open hand was last drawn at: a redraw at the same version would
        wipe a choice in progress (see `_redraw`)."""
        self._waiting: dict[str, frozenset[int]] = {}
        self._table_prints: dict[str, str] = {}
        service.subscribe(self.on_change)

    # Context --------------------------------------------------------------------------------

    def names(self, session: Session, lang: str) -> list[str]:
        names = []
        for index, seat in enumerate(session.record.seats):
            if seat.user_id is not None:
                names.append(seat.name)
            elif seat.name:
                names.append(t(lang, "seat.taken_over", name=seat.name))
            else:
                names.append(t(lang, "seat.ai", n=index + 1))
        return names

    def context(self, session: Session, lang: str, notice: str | None = None) -> Context:
        return Context(
            session=session,
            lang=lang,
            names=self.names(session, lang),
            recent=tuple(self._recent[session.id]),
            notice=notice,
        )

    async def guild_lang(self, guild_id: int | None) -> str:
        if guild_id is not None:
            stored = await self.storage.prefs.guild.get(guild_id, "locale")
            if stored in ("ja", "en"):
                return str(stored)
        return self.settings.default_locale

    def user_lang(self, user_id: int, fallback: str) -> str:
        return self._user_lang.get(user_id, fallback)

    def _lang(self, interaction: discord.Interaction[Any]) -> str:
        lang = lang_of(interaction.locale)
        self._user_lang[interaction.user.id] = lang
        return lang

    # Replies --------------------------------------------------------------------------------

    async def reply(self, interaction: discord.Interaction[Any], text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def reply_error(self, interaction: discord.Interaction[Any], error: GameError) -> None:
        await self.reply(interaction, error_text(self._lang(interaction), error))

    # Slash commands -------------------------------------------------------------------------

    async def new_lobby(
        self, interaction: discord.Interaction[Any], game_id: str, options: dict[str, Any]
    ) -> None:
        lang = self._lang(interaction)
        if interaction.channel_id is None:
            return
        try:
            session = await self.service.create(
                game_id,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                locale=await self.guild_lang(interaction.guild_id),
                options=options,
            )
        except GameError as error:
            if error.reason is Reason.CHANNEL_BUSY:
                busy = await self.service.live_in_channel(interaction.channel_id)
                link = jump_url(busy) if busy else ""
                await self.reply(interaction, t(lang, "error.channel_busy", link=link))
                return
            await self.reply_error(interaction, error)
            return
        await self._post_table(session)
        await self.reply(interaction, t(lang, "lobby.opened", link=jump_url(session)))

    async def show_hand(self, interaction: discord.Interaction[Any], *, dm: bool) -> None:
        lang = self._lang(interaction)
        session = await self._channel_session(interaction)
        if session is None:
            return
        await self._deliver_hand(interaction, session, lang, dm=dm)

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        session = await self._channel_session(interaction)
        if session is None:
            return
        try:
            change = await self.service.leave(session.id, interaction.user.id)
        except GameError as error:
            await self.reply_error(interaction, error)
            return
        key = "leave.lobby" if change.kind in ("lobby", "abandon") else "leave.game"
        await self.reply(interaction, t(self._lang(interaction), key))

    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        session = await self._channel_session(interaction)
        if session is None:
            return
        try:
            await self.service.abandon(
                session.id, interaction.user.id, admin=_is_admin(interaction)
            )
        except GameError as error:
            await self.reply_error(interaction, error)
            return
        await self.reply(interaction, t(self._lang(interaction), "abandon.done"))

    async def list_games(self, interaction: discord.Interaction[Any]) -> None:
        lang = self._lang(interaction)
        sessions = await self.service.live_sessions(interaction.guild_id)
        if not sessions:
            await self.reply(interaction, t(lang, "games.none"))
            return
        lines = [
            t(
                lang,
                "games.line",
                game=t(lang, f"{s.record.game_id}.name"),
                status=t(lang, f"status.{s.record.status.value}"),
                players=len(s.record.seats),
                link=jump_url(s),
            )
            for s in sessions[:20]
        ]
        embed = discord.Embed(title=t(lang, "games.title"), description="\n".join(lines))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def set_notify(self, interaction: discord.Interaction[Any], on: bool) -> None:
        await self.storage.prefs.user.set(interaction.user.id, "notify", "1" if on else "0")
        await self.reply(
            interaction, t(self._lang(interaction), "notify.on" if on else "notify.off")
        )

    async def set_language(self, interaction: discord.Interaction[Any], lang: str) -> None:
        if interaction.guild_id is None or not _is_admin(interaction):
            await self.reply(interaction, t(self._lang(interaction), "error.not_admin"))
            return
        await self.storage.prefs.guild.set(interaction.guild_id, "locale", lang)
        await self.reply(interaction, t(lang, "language.set"))

    async def rules(self, interaction: discord.Interaction[Any], game_id: str) -> None:
        lang = self._lang(interaction)
        embed = discord.Embed(
            title=t(lang, f"{game_id}.name"), description=self.uis[game_id].rules_text(lang)
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _channel_session(self, interaction: discord.Interaction[Any]) -> Session | None:
        session = None
        if interaction.channel_id is not None:
            session = await self.service.live_in_channel(interaction.channel_id)
        if session is None:
            await self.reply(interaction, t(self._lang(interaction), "error.no_session_here"))
        return session

    # Controls -------------------------------------------------------------------------------

    async def on_control(
        self,
        interaction: discord.Interaction[Any],
        sid: str,
        ver: str,
        act: str,
        values: Sequence[str],
    ) -> None:
        try:
            await self._control(interaction, sid, ver, act, values)
        except discord.HTTPException as error:
            if error.code not in LOST_RESPONSE:
                raise
            # The move (if any) is already stored; the table redraw will show it.
            log.warning("could not answer a click in %s: %s", sid, error)

    async def _control(
        self,
        interaction: discord.Interaction[Any],
        sid: str,
        ver: str,
        act: str,
        values: Sequence[str],
    ) -> None:
        lang = self._lang(interaction)
        verb, *args = act.split(".")
        try:
            session = await self.service.get(sid)
            if verb in LOBBY_VERBS:
                await self._lobby_control(interaction, session, lang, verb, args, values)
            elif verb == "hand":
                await self._deliver_hand(interaction, session, lang, dm=False)
            elif verb == "dm":
                await self._deliver_hand(interaction, session, lang, dm=True)
            elif verb == "refresh":
                await self._hand_control(interaction, session, lang, None, None)
            elif verb == "rematch":
                await self._rematch(interaction, session, lang)
            else:
                await self._game_control(interaction, session, lang, ver, verb, args, values)
        except GameError as error:
            await self.reply_error(interaction, error)

    async def _lobby_control(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        lang: str,
        verb: str,
        args: list[str],
        values: Sequence[str],
    ) -> None:
        sid, user = session.id, interaction.user
        match verb:
            case "join":
                await self.service.join(sid, user.id, user.display_name)
            case "leave":
                await self.service.leave(sid, user.id)
            case "addai":
                await self.service.add_ai(sid, user.id)
            case "rmai":
                await self.service.remove_ai(sid, user.id)
            case "cancel":
                await self.service.abandon(sid, user.id, admin=_is_admin(interaction))
                await self._answer_with_table(interaction, await self.service.get(sid))
                return
            case "start":
                if session.record.host_id != user.id:
                    raise GameError(Reason.NOT_HOST)
                if session.record.status is not Status.LOBBY:
                    raise GameError(Reason.NOT_IN_LOBBY)
                ctx = self.context(session, lang)
                await interaction.response.send_message(
                    **first_player_screen(ctx).kwargs(), ephemeral=True
                )
                return
            case "first":
                choice = (values[0] if values else args[0]) if (values or args) else "r"
                first = _first_seat(choice, len(session.record.seats))
                await self.service.start(sid, user.id, first)
                await interaction.response.edit_message(
                    content=t(lang, "lobby.started"), embeds=[], view=None
                )
                return
        await self._answer_with_table(interaction, session)

    async def _answer_with_table(
        self, interaction: discord.Interaction[Any], session: Session
    ) -> None:
        """Redraw the public table as the answer to a click on it: instant, and not counted
        against the channel's edit rate."""
        screen = await self._table_now(session)
        await interaction.response.edit_message(**screen.kwargs())
        self._table_prints[session.id] = screen.fingerprint()

    async def _deliver_hand(
        self, interaction: discord.Interaction[Any], session: Session, lang: str, *, dm: bool
    ) -> None:
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise GameError(Reason.NOT_A_PLAYER)
        if session.record.status is Status.LOBBY:
            raise GameError(Reason.NOT_IN_LOBBY, "not_started")
        if dm:
            screen = self.hand_screen(session, interaction.user.id, lang, None)
            if await self.hands.send_dm(interaction.user, session.id, screen):
                self._hand_versions[(session.id, interaction.user.id)] = session.record.version
                await self.reply(interaction, t(lang, "hand.sent_dm"))
                return
            notice = t(lang, "hand.dms_closed")
        else:
            await self.hands.forget(session.id, interaction.user.id)
            notice = None
        screen = self.hand_screen(session, interaction.user.id, lang, None, notice)
        await interaction.response.send_message(**screen.kwargs(), ephemeral=True)
        self.hands.remember(session.id, interaction.user.id, interaction)
        self.hands.sent(session.id, interaction.user.id, screen)
        self._hand_versions[(session.id, interaction.user.id)] = session.record.version

    async def _hand_control(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        lang: str,
        pick: str | None,
        notice: str | None,
    ) -> None:
        """Redraw the hand message the click came from, in place."""
        user_id = interaction.user.id
        if session.seat_of(user_id) is None:
            raise GameError(Reason.NOT_A_PLAYER)
        screen = self.hand_screen(session, user_id, lang, pick, notice)
        await interaction.response.edit_message(**screen.kwargs())
        if interaction.guild_id is not None or not await self.hands.is_dm(session.id, user_id):
            self.hands.remember(session.id, user_id, interaction)
        self.hands.sent(session.id, user_id, screen)
        self._hand_versions[(session.id, user_id)] = session.record.version

    async def _game_control(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        lang: str,
        ver: str,
        verb: str,
        args: list[str],
        values: Sequence[str],
    ) -> None:
        ui = self.uis[session.record.game_id]
        record = session.record
        if record.status is Status.LOBBY:
            raise GameError(Reason.NOT_IN_LOBBY)
        if record.status is not Status.ACTIVE:
            raise GameError(Reason.GAME_OVER)
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise GameError(Reason.NOT_A_PLAYER)
        on_table = verb in ui.table_verbs
        if ver != str(record.version) and verb not in ui.unversioned_verbs:
            if on_table:
                await self.reply(interaction, t(lang, "stale.table", link=jump_url(session)))
                self.refresher.mark(session.id)
            else:
                await self._hand_control(interaction, session, lang, None, t(lang, "stale.hand"))
            return
        result = ui.control(self.context(session, lang), seat, verb, args, values)
        if isinstance(result, Pick):
            await self._hand_control(interaction, session, lang, result.value, None)
            return
        await self.service.submit(session.id, interaction.user.id, result, record.version)
        if on_table:
            await self._answer_with_table(interaction, session)
        else:
            await self._hand_control(interaction, session, lang, None, None)

    async def _rematch(
        self, interaction: discord.Interaction[Any], session: Session, lang: str
    ) -> None:
        ui = self.uis[session.record.game_id]
        options = await ui.rematch_options(session, self.storage)
        await self.service.rematch(session.id, interaction.user.id, options)
        await self.reply(interaction, t(lang, "rematch.started"))

    # Screens --------------------------------------------------------------------------------

    def hand_screen(
        self,
        session: Session,
        user_id: int,
        lang: str,
        pick: str | None,
        notice: str | None = None,
    ) -> Screen:
        seat = session.seat_of(user_id)
        ctx = self.context(session, lang, notice)
        if seat is None:
            return Screen(embeds=[], content=t(lang, "error.not_a_player"))
        ui = self.uis[session.record.game_id]
        ctx.recent = tuple(self._private[(session.id, seat)])
        screen = ui.hand(ctx, seat, pick)
        if session.record.status is Status.ACTIVE:
            screen.items.append(
                ControlButton(
                    session.id,
                    session.record.version,
                    "refresh",
                    label=t(lang, "hand.refresh"),
                    emoji="🔄",
                    row=4,
                )
            )
        return screen

    async def records_summary(self, session: Session) -> dict[str, Any]:
        """This server's records for the game, as the finished table shows them."""
        stats = await self.storage.records.stats(session.record.guild_id, session.record.game_id)
        best = stats.best.score if stats.best is not None else "—"
        wins = sum(
            n
            for code, n in stats.results.items()
            if code in self.uis[session.record.game_id].winning_results
        )
        return {
            "best": best,
            "games": stats.games,
            "wins": wins,
            "perfect": stats.results.get("perfect", 0),
        }

    def table_screen(self, session: Session, records: dict[str, Any] | None = None) -> Screen:
        lang = session.record.locale
        ctx = self.context(session, lang)
        ui = self.uis[session.record.game_id]
        status = session.record.status
        if status is Status.LOBBY:
            return lobby_screen(ctx, ui)
        if status is Status.ABANDONED and session.state is None:
            return closed_screen(ctx)
        ctx.records = records or {}
        screen = ui.table(ctx)
        if status is Status.ABANDONED:
            screen.items = []
            screen.content = t(lang, "lobby.abandoned")
        return screen

    # Changes --------------------------------------------------------------------------------

    async def on_change(self, change: Change) -> None:
        session = change.session
        for event in change.events:
            if event.public:
                if self.uis[session.record.game_id].event_text(
                    event, self.context(session, session.record.locale)
                ):
                    self._recent[session.id].append(event)
            else:
                for seat in event.audience or ():
                    self._private[(session.id, seat)].append(event)
        if session.record.status is Status.FINISHED and change.kind == "move":
            await self._record_result(session)
            await self.uis[session.record.game_id].after_finish(session, self.storage)
        await self._notify_turn(session, change)
        self.refresher.mark(session.id)

    async def _record_result(self, session: Session) -> None:
        ui = self.uis[session.record.game_id]
        scored = ui.record_score(session)
        record = session.record
        if scored is None:
            return
        result, score = scored
        await self.storage.records.add(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            game_id=record.game_id,
            session_id=record.id,
            result=result,
            score=score,
            players=len(record.seats),
        )

    async def _notify_turn(self, session: Session, change: Change) -> None:
        """DM a "your turn" ping to players who asked for it with /notify."""
        record = session.record
        if record.status is not Status.ACTIVE:
            self._waiting.pop(session.id, None)
            return
        waiting = session.rules.to_move(session.state).seats
        before = self._waiting.get(session.id, frozenset())
        self._waiting[session.id] = waiting
        for seat in waiting - before:
            user_id = record.seats[seat].user_id
            if user_id is None or seat == change.actor:
                continue
            if await self.storage.prefs.user.get(user_id, "notify") != "1":
                continue
            lang = self.user_lang(user_id, record.locale)
            text = t(
                lang,
                "notify.your_turn",
                game=t(lang, f"{record.game_id}.name"),
                link=jump_url(session),
            )
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(text)
            except discord.HTTPException:
                log.info("turn ping to %s not delivered", user_id)

    async def _table_now(self, session: Session) -> Screen:
        finished = session.record.status is Status.FINISHED
        return self.table_screen(session, await self.records_summary(session) if finished else None)

    async def _post_table(self, session: Session) -> None:
        screen = await self._table_now(session)
        channel = self.client.get_partial_messageable(session.record.channel_id)
        message = await channel.send(**screen.kwargs())
        await self.service.set_table_message(session.id, message.id)
        self._table_prints[session.id] = screen.fingerprint()
        self.refresher.touched(session.id)

    async def _redraw(self, sid: str) -> None:
        session = await self.service.get(sid)
        if session.record.table_message_id is None:
            await self._post_table(session)
        else:
            screen = await self._table_now(session)
            if self._table_prints.get(sid) != screen.fingerprint():
                channel = self.client.get_partial_messageable(session.record.channel_id)
                await channel.get_partial_message(session.record.table_message_id).edit(
                    **screen.kwargs()
                )
                self._table_prints[sid] = screen.fingerprint()
        if session.state is None:
            return
        users = [s.user_id for s in session.record.seats if s.user_id is not None]

        async def render(user_id: int) -> Screen | None:
            if self._hand_versions.get((sid, user_id)) == session.record.version:
                return None  # already drawn at this version, maybe with a choice in progress
            self._hand_versions[(sid, user_id)] = session.record.version
            return self.hand_screen(
                session, user_id, self.user_lang(user_id, session.record.locale), None
            )

        await self.hands.refresh(sid, users, render)


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


def _first_seat(choice: str, seats: int) -> int | None:
    if choice == "r":
        return None
    if not choice.isdigit() or not 0 <= int(choice) < seats:
        raise GameError(Reason.BAD_OPTION, "first_player")
    return int(choice)
