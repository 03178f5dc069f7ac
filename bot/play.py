"""Play dispatch: a click on any control, from its custom_id to the service and back.

Shared verbs first (replay steps, rules pages, lobby, hand, rematch), then the game's own verbs
through its `GameUI`; the click is answered as soon as the move is committed, everything else
follows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.context import jump_url
from bot.errors import answer_error, reply
from bot.game_ui import GameUI, Pick
from bot.hands import Hands
from bot.i18n import t
from bot.languages import Languages
from bot.lobby import VERBS as LOBBY_VERBS
from bot.lobby import Lobby
from bot.refresh import Refresher
from bot.replays import VERB as REPLAY_VERB
from bot.replays import Replays
from bot.rules import VERB as RULES_VERB
from bot.rules import pick_page
from bot.tables import Tables
from bot.ui.controls import GAME_NS
from bot.ui.layout import base_action
from games.engine import GameError, Reason, Session, Status
from runtime import SessionService
from runtime.logcontext import bind
from storage import PrefTable


class Play:
    def __init__(
        self,
        service: SessionService,
        games: Mapping[str, GameUI],
        lobby: Lobby,
        tables: Tables,
        hands: Hands,
        refresher: Refresher,
        languages: Languages,
        user_prefs: PrefTable,
        replays: Replays,
    ) -> None:
        self.service = service
        self.games = games
        self.lobby = lobby
        self.tables = tables
        self.hands = hands
        self.refresher = refresher
        self.languages = languages
        self.user_prefs = user_prefs
        self.replays = replays

    async def on_control(
        self,
        interaction: discord.Interaction[Any],
        sid: str,
        ver: str,
        act: str,
        values: tuple[str, ...],
    ) -> None:
        """Hand a click to what its verb names, and play a game's own verb here: the game's
        `GameUI.control` turns it into actions, the service commits them, and the hand (or the
        table) the click came from is redrawn as its answer. A refusal (or any error) gets its
        localized answer, worded by the session's game when there is one.

        Any control retakes the clicker's away seat: a move in its own commit (`submit_all`,
        which commits it alone if the move is refused), any other control (a refused one too)
        through `come_back`."""
        try:
            lang = self.languages.of(interaction)
            verb, *args = base_action(act).split(".")
            if verb == REPLAY_VERB:  # a finished game: anyone of its server may watch
                await self.replays.control(interaction, sid, args, values, lang)
                return
            if verb == RULES_VERB:  # a rules page: no session
                await pick_page(interaction, self.games, args, values, lang)
                return
            session = await self.service.get(sid)
            bind(session.record)
            user_id = interaction.user.id
            if verb != GAME_NS or not args:
                await self.service.come_back(sid, user_id)
                await self._shared(interaction, session, verb, args, values)
                return
            ui = self.games[session.record.game_id]
            record = session.record
            if record.status is Status.LOBBY:
                raise GameError(Reason.NOT_IN_LOBBY)
            if record.status is not Status.ACTIVE:
                raise GameError(Reason.GAME_OVER)
            seat = _require_seat(session, user_id)
            game_verb, game_args = args[0], args[1:]
            on_table = game_verb in ui.table_verbs
            if ver != str(record.version) and game_verb not in ui.unversioned_verbs:
                await self.service.come_back(sid, user_id)
                if on_table:
                    await reply(interaction, t(lang, "stale.table", link=jump_url(session)))
                    self.refresher.mark(session.id)
                else:
                    await self.hands.answer(interaction, session, notice=t(lang, "stale.hand"))
                return
            try:
                context = self.tables.context(session)
                result = ui.control(context, seat, game_verb, game_args, values)
            except Exception:
                await self.service.come_back(sid, user_id)  # a refused control is theirs too
                raise
            if isinstance(result, Pick):
                await self.service.come_back(sid, user_id)
                await self.hands.answer(interaction, session, pick=result.value)
                return
            actions = result if isinstance(result, tuple) else (result,)
            await self.service.submit_all(session.id, user_id, actions, record.version)
            if on_table:
                await self.tables.answer(interaction, session)
            else:
                await self.hands.answer(interaction, session)
        except Exception as error:
            await answer_error(interaction, error, await self._game_of(sid))

    async def _game_of(self, sid: str) -> str | None:
        """The game of the session a refused click was on, whose catalog words the refusal."""
        try:
            return (await self.service.get(sid)).record.game_id
        except Exception:  # an unknown or unreadable session: the shared words will do
            return None

    async def _shared(
        self,
        interaction: discord.Interaction[Any],
        session: Session,
        verb: str,
        args: list[str],
        values: Sequence[str],
    ) -> None:
        """A shared verb of a session: the lobby's, the hand's, a rematch."""
        if verb in LOBBY_VERBS:
            await self.lobby.control(interaction, session, verb, args, values)
        elif verb == "hand":
            await self.hands.deliver(interaction, session, dm=False)
        elif verb == "dm":
            await self.hands.deliver(interaction, session, dm=True)
        elif verb == "refresh":
            _require_seat(session, interaction.user.id)
            await self.hands.answer(interaction, session)
        elif verb == "rematch":
            await self._rematch(interaction, session)
        else:
            raise GameError(Reason.BAD_OPTION, "control")

    async def _rematch(self, interaction: discord.Interaction[Any], session: Session) -> None:
        ui = self.games[session.record.game_id]
        options = await ui.rematch_options(session, self.user_prefs)
        await self.service.rematch(session.id, interaction.user.id, options)
        await reply(interaction, t(self.languages.of(interaction), "rematch.started"))


def _require_seat(session: Session, user_id: int) -> int:
    seat = session.seat_of(user_id)
    if seat is None:
        raise GameError(Reason.NOT_A_PLAYER)
    return seat
