"""The discord.py client: the composition root wiring storage, the session service and the
bot's parts (lobby, play, hands, tables, turns, results, replays), then each game's
extension."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord.ext import commands

from bot.errors import Tree
from bot.failures import Failure
from bot.game_ui import GameUI
from bot.hands import Hands
from bot.i18n import CatalogTranslator
from bot.languages import Languages
from bot.lobby import Lobby
from bot.ops import Metrics, Ops
from bot.play import ControlButton, ControlSelect, Play, modal_control
from bot.refresh import Refresher
from bot.replays import Replays
from bot.results import Results
from bot.settings import Settings
from bot.startup import Synced, quiet_voice, report_ready
from bot.store import claim_shards, open_store
from bot.table_pictures import TablePictures, start_picture_process
from bot.tables import Tables
from bot.turns import Turns
from games.registry import AIS, GAME_IDS, GAMES
from runtime import Change, Clock, SessionService, SystemClock
from runtime.logcontext import bind
from storage import Storage

if TYPE_CHECKING:
    from storage.postgres.leases import ShardLeases

log = logging.getLogger(__name__)

SHARED_EXTENSIONS = ("bot.commands", "bot.stats", "bot.ratings")


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic to a Discord-compatible server when configured."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class TableBot(commands.Bot):
    """The bot over one unsharded gateway connection; `ShardedTableBot` runs shards."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        clock: Clock | None = None,
        leases: ShardLeases | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents: slash commands and components only
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=Tree,
            **options,
        )
        self.settings = settings
        self.storage = storage
        self.leases = leases
        self.synced: Synced | None = None
        self.failure: Failure | None = None
        """Why the bot stopped itself (`stop_for`), if it did."""
        self._reported = False
        self._stopping: asyncio.Future[None] | None = None
        self.metrics = Metrics(GAME_IDS)
        self.service = SessionService(
            storage.sessions,
            GAMES,
            AIS,
            ai_delay=settings.ai_delay,
            clock=clock or SystemClock(),
            shards=settings.shards,
            ai_workers=settings.ai_workers,
            on_decision=self.metrics.decided,
            on_commit=self.metrics.committed,
        )
        self.games: dict[str, GameUI] = {}
        self.languages = Languages(storage.prefs.guild, settings.default_locale)
        self.results = Results(storage.records, storage.ratings, storage.sessions, self.games)
        pictures = TablePictures(
            storage.prefs.guild, settings.table_edit_interval, lambda sid: self.refresher.mark(sid)
        )
        self.tables = Tables(self, self.service, self.games, self.results, pictures)
        self.hands = Hands(self, storage.hand_messages, self.games, self.languages)
        self.turns = Turns(self, storage.prefs.user, self.languages)
        self.refresher = Refresher(settings.table_edit_interval, self._redraw)
        self._ending: dict[str, Change] = {}
        """Each session's change that ended it, as committed (the listeners of earlier changes
        already see the session ended: it is one object)."""
        self._ended: set[str] = set()
        """Ended sessions whose ending change the listeners have handled (its record stored):
        their next redraw is their last."""
        self.lobby = Lobby(self.service, self.tables, self.languages, storage.prefs.guild)
        self.replays = Replays(self.service, storage.sessions, self.games, self.tables.describe)
        self.controls = Play(
            self.service,
            self.games,
            self.lobby,
            self.tables,
            self.hands,
            self.refresher,
            self.languages,
            storage.prefs.user,
            self.replays,
        )
        self.service.observe(self.tables.on_commit)
        self.service.observe(self.hands.on_commit)
        self.service.observe(self._on_commit)
        self.service.subscribe(self._on_change)
        self.ops = Ops(self, self.service, self.metrics, settings)

    def add_game(self, ui: GameUI) -> None:
        """Called by a game's extension: its screens and controls."""
        self.games[ui.game_id] = ui

    async def setup_hook(self) -> None:
        await self.ops.start()  # /healthz answers "starting" until the gateway is ready
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(ControlButton, ControlSelect)
        for extension in (*SHARED_EXTENSIONS, *(f"bot.games.{g}.cog" for g in GAME_IDS)):
            await self.load_extension(extension)
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.HTTPException as error:  # not in that server, or no such server
                raise Failure(
                    f"DEV_GUILD_ID {guild.id}: Discord refused the commands there "
                    f"({error.status} {error.text}): invite the bot to that server, or leave "
                    "DEV_GUILD_ID empty to sync globally"
                ) from None
        else:
            synced = await self.tree.sync()
        self.synced = Synced(len(synced), self.settings.dev_guild_id)
        # Loads nothing: sessions load on first touch, and only those with an AI to move or a
        # deadline due are resumed, in the background. Tables are redrawn as they change.
        await self.service.resume()
        start_picture_process(self.games.values())

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction: a form of ours sent (`ControlModal`) is answered as a control."""
        await modal_control(interaction)

    async def on_ready(self) -> None:
        """Tell the admin once; later READYs (a new gateway session) say nothing new."""
        if not self._reported and self.user is not None:
            self._reported = True
            app_id = self.application_id or self.user.id
            report_ready(self.user, app_id, len(self.guilds), self.settings, self.synced)

    def stop_for(self, failure: Failure) -> None:
        """Stop the bot because of `failure`, which `run` then raises."""
        self.failure = failure
        self._stopping = asyncio.ensure_future(self.close())

    def _on_commit(self, change: Change) -> None:
        if not change.session.record.status.live:
            self._ending.setdefault(change.session.id, change)

    async def _on_change(self, change: Change) -> None:
        """After a committed change (and after the click that made it was answered):
        records, pings, then the redraws."""
        session = change.session
        if change.kind == "move" and not session.record.status.live:
            ui = self.games[session.record.game_id]
            # The game's own bookkeeping first (a quick preference, such as the solo level a
            # rematch is played at), then the record and its ratings, which take longer: the
            # Rematch button may be clicked as soon as the table shows the end.
            await ui.after_finish(session, self.storage.prefs.user)
            await self.results.store(session)
        await self.turns.on_change(change)
        if self._ending.get(session.id) is change:
            del self._ending[session.id]
            self._ended.add(session.id)
        self.refresher.mark(session.id)

    async def _redraw(self, sid: str) -> None:
        last = sid in self._ended
        session = await self.service.get(sid)
        bind(session.record)  # a redraw runs in a task of its session's own
        await self.tables.redraw(session)
        if session.state is not None:
            await self.hands.redraw(session)
        ended = sid in self._ended and not session.record.status.live
        if last and ended and not self.refresher.pending(sid):
            # The last redraw of an ended session: its in-memory traces can go. (A redraw
            # another change asked for may run first, before the record is stored, or still be
            # drawing when it is; and a redraw may ask for one more, such as its picture drawn
            # later: only one begun after the record, with none after it, drops them, or the
            # table redrawn with the record would lose its last events.)
            self._ended.discard(sid)
            for part in (self.tables, self.hands, self.turns):
                part.forget_session(sid)

    async def close(self) -> None:
        await self.ops.close()
        await self.service.close()
        self.refresher.close()
        await super().close()
        await self.storage.close()
        if self.leases is not None:
            await self.leases.release()


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot over `SHARD_IDS` of `SHARD_COUNT` shards (discord.py's `AutoShardedClient`).

    Several processes, each with its own shard ids and one PostgreSQL database, serve one bot:
    Discord sends each guild's events to its shard only, and the session service drives only
    the sessions of this process's guilds (`SessionService.owns`)."""


async def create_bot(settings: Settings, clock: Clock | None = None, **options: Any) -> TableBot:
    """The bot over its store and, on PostgreSQL, this process's shard leases; raises a
    `Failure` when either cannot be had."""
    point_at(settings)
    storage = await open_store(settings)
    bot: TableBot | None = None

    def lost(failure: Failure) -> None:
        if bot is not None:
            bot.stop_for(failure)

    try:
        leases = await claim_shards(settings, lost)
    except BaseException:
        await storage.close()
        raise
    if settings.shard_count is None:
        bot = TableBot(settings, storage, clock, leases, **options)
    else:
        ids = None if settings.shard_ids is None else list(settings.shard_ids)
        bot = ShardedTableBot(
            settings,
            storage,
            clock,
            leases,
            shard_count=settings.shard_count,
            shard_ids=ids,
            **options,
        )
    return bot


async def run(settings: Settings) -> None:
    """Run the bot until it is closed or sent SIGTERM (`docker stop`), which closes it like
    Ctrl-C does: moves in flight are committed and the store and worker processes shut down."""
    quiet_voice()
    bot = await create_bot(settings)
    async with bot:
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: asyncio.ensure_future(bot.close())
        )
        try:
            await bot.start(settings.discord_token)
        except discord.LoginFailure:
            raise Failure(
                "Discord refused DISCORD_TOKEN: copy a new one from the Developer Portal "
                "(your application → Bot → Reset Token)"
            ) from None
        except OSError as error:  # aiohttp's connection errors too
            if bot.user is not None:  # logged in: not a start-up failure
                raise
            where = settings.discord_api_base or "discord.com"
            raise Failure(f"cannot reach Discord ({where}): {error}; check the network") from None
    if bot.failure is not None:
        raise bot.failure
