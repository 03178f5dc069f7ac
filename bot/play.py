"""Play dispatch: a click on any control, from its custom_id to the service and back.

discord.py enters here: the persistent items it makes from a clicked button's or select's
custom_id (`ControlButton`, `ControlSelect`, registered by the client) and a submitted form
(`modal_control`) hand the click to `Play.on_control`. Shared verbs first (replay steps, rules
pages, lobby, hand, rematch), then the game's own verbs through its `GameUI`; the click is
answered as soon as the move is committed, everything else follows it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

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
from bot.ui.controls import FIELDS, GAME_NS
from bot.ui.layout import base_action
from games.engine import GameError, Reason, Session, Status
from runtime import SessionService
from runtime.logcontext import bind
from storage import PrefTable

if TYPE_CHECKING:  # discord.types cannot be imported on its own at run time (circular)
    from discord.types.interactions import ModalSubmitInteractionData

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class _Clicked(Generic[ItemT]):
    """What a clicked button and select share: the custom_id's fields, and the click handed to
    the client's `Play`."""

    item: ItemT

    def __init__(self, sid: str, ver: str, act: str, item: ItemT) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # the DynamicItem after this mixin
        self.sid, self.ver, self.act = sid, ver, act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: Any, /
    ) -> Any:
        return cls(match["sid"], match["ver"], match["act"], item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # A button carrying a select's custom_id (or the reverse) has no values: `on_control`
        # then refuses it like any malformed control.
        values = tuple(getattr(self.item, "values", ()) or ())
        play: Play = interaction.client.controls
        await play.on_control(interaction, self.sid, self.ver, self.act, values)


class ControlButton(
    _Clicked[discord.ui.Button[Any]],
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template="g:" + FIELDS,
):
    """A clicked button (the custom_id's `g:` form)."""


class ControlSelect(
    _Clicked[discord.ui.Select[Any]],
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template="s:" + FIELDS,
):
    """A clicked select (the custom_id's `s:` form)."""


_MODAL = re.compile("m:" + FIELDS)


async def modal_control(interaction: discord.Interaction[Any]) -> None:
    """Hand a `ControlModal` submission to the client's `Play` like a select's values (the
    client calls this for every interaction; others are left alone)."""
    if interaction.type is not discord.InteractionType.modal_submit or interaction.data is None:
        return
    data = cast("ModalSubmitInteractionData", interaction.data)  # a modal_submit's, as checked
    match = _MODAL.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    values = tuple(_texts(list(data.get("components") or [])))
    play: Play = interaction.client.controls
    await play.on_control(interaction, match["sid"], match["ver"], match["act"], values)


def _texts(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """The values of a submission's text inputs in order, found in rows and labels alike."""
    found: list[str] = []
    for component in components:
        inner = component.get("components") or [component.get("component") or {}]
        found += [str(field.get("value") or "") for field in inner if field.get("type") == 4]
    return found


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
