"""Replays of finished games: any turn of a game (`bot.replay_turns`) as its public table plus
every hand, on an ephemeral message with ⏮ ◀ ▶ ⏭ buttons and a form to jump to a turn, and the
log as a file (`games.replay`).

Turn k is drawn by the game's own `GameUI.table` and `GameUI.replay_hands` from the state after
it, under what happened in it. Nothing is kept in memory: the buttons are persistent controls
(`g:{session}:L:rp.{turn}.{move}`), the form a `ControlModal`, and every click replays the log
from the start, so a replay works after a restart.

Only a finished game of the server the interaction comes from can be replayed: a live game
would give its hands away, and a game of another server is not found at all.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from bot.context import Context
from bot.errors import BotError
from bot.game_ui import ACCENT, GameUI
from bot.i18n import t
from bot.replay_turns import MOVES, ReplayTurn, replay_turn, target, turn_ends
from bot.ui.controls import ControlModal
from bot.ui.layout import (
    LOBBY,
    Block,
    Button,
    Controls,
    Layout,
    Priority,
    Separator,
    Style,
    Text,
    without_controls,
)
from bot.ui.v2 import build
from games.engine import (
    SESSION_ID_PATTERN,
    SYSTEM,
    Event,
    GameError,
    LoggedAction,
    Reason,
    Session,
    Status,
)
from games.replay import export
from runtime import SessionService
from storage.session_store import SessionStore

VERB = "rp"
"""The shared verb of the replay controls: `rp.{turn shown}.{move}`, a move of `MOVES`, `j`
(open the jump form) or `go` (its submission, the typed turn as its value)."""
SESSION_ID = re.compile(rf"^{SESSION_ID_PATTERN}$")

Describe = Callable[[Event, Context], str | None]


class Replays:
    def __init__(
        self,
        service: SessionService,
        store: SessionStore,
        games: Mapping[str, GameUI],
        describe: Describe,
    ) -> None:
        self.service = service
        self.store = store
        self.games = games
        self.describe = describe

    async def finished(self, interaction: discord.Interaction[Any], sid: str) -> Session:
        """The finished session `sid` of the interaction's server, or a refusal."""
        if interaction.guild_id is None:
            raise BotError("guild_only")
        if not SESSION_ID.match(sid):
            raise BotError("replay_unknown", id=sid[:20])
        try:
            session = await self.service.get(sid)
        except GameError as error:
            if error.reason is Reason.UNKNOWN_SESSION:
                raise BotError("replay_unknown", id=sid) from None
            raise
        if session.record.guild_id != interaction.guild_id:
            raise BotError("replay_unknown", id=sid)  # another server's game is not found here
        if session.record.status.live:
            raise BotError("replay_live")
        if session.record.status is not Status.FINISHED or session.state is None:
            raise BotError("replay_unfinished")
        return session

    async def show(self, interaction: discord.Interaction[Any], sid: str, lang: str) -> None:
        """`/replay <id>`: the setup, privately."""
        session = await self.finished(interaction, sid)
        log = await self.store.log(sid)
        message = build(self.layout(session, log, 0, lang))
        await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)

    async def control(
        self,
        interaction: discord.Interaction[Any],
        sid: str,
        args: Sequence[str],
        values: Sequence[str],
        lang: str,
    ) -> None:
        """A replay button, or the jump form sent: redraw the ephemeral message at the turn it
        leads to (the jump button opens the form instead)."""
        session = await self.finished(interaction, sid)
        try:
            shown, move = int(args[0]), args[1]
        except (IndexError, ValueError):
            raise GameError(Reason.BAD_OPTION, "control") from None
        log = await self.store.log(sid)
        total = len(turn_ends(log)) - 1
        if move == "j":
            await interaction.response.send_modal(self._jump_form(sid, shown, total, lang))
            return
        number = typed_turn(values, total) if move == "go" else target(shown, move, total)
        message = build(self.layout(session, log, number, lang))
        await interaction.response.edit_message(**message.edit_kwargs())

    async def export(self, interaction: discord.Interaction[Any], sid: str, lang: str) -> None:
        """`/replay <id> export:true`: the game's log as a JSON file `games.replay` checks."""
        session = await self.finished(interaction, sid)
        log = await self.store.log(sid)
        data = export(session.record, log, session.rules.outcome(session.state))
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        name = f"replay-{sid}.json"
        text = t(lang, "replay.exported", count=len(log), file=name)
        file = discord.File(io.BytesIO(body), filename=name)
        await interaction.response.send_message(text, file=file, ephemeral=True)

    def layout(
        self, session: Session, log: Sequence[LoggedAction], number: int, lang: str
    ) -> Layout:
        """Turn `number`: what happened, the public table, every hand, the controls."""
        ui = self.games[session.record.game_id]
        turn = replay_turn(session, log, number)
        # The seats as they were dealt in: who was away at the end does not matter here.
        seats = tuple(seat.model_copy(update={"away": False}) for seat in session.record.seats)
        record = session.record.model_copy(update={"seats": seats})
        at = Session(record, session.rules, session.config, turn.state)
        ctx = Context.of(at, lang, describe=self.describe)
        happened = [
            text for event in turn.events if event.public and (text := self.describe(event, ctx))
        ]
        head = position(ctx, turn)
        blocks: list[Block] = [
            Text("\n".join([f"**{head}**", *happened]), Priority.ESSENTIAL),
            self._controls(ctx, turn),
        ]
        table = without_controls(ui.table(ctx))
        blocks += [Separator(), *table.blocks]
        hands = ui.replay_hands(ctx)
        if hands:
            blocks += [Separator(), Text(f"**{t(lang, 'replay.hands')}**", Priority.NORMAL)]
            blocks += hands
        game = t(lang, f"{session.record.game_id}.name")
        title = t(lang, "replay.title", game=game, id=session.id)
        return Layout(title, tuple(blocks), table.accent or ACCENT, session.id, LOBBY)

    @staticmethod
    def _controls(ctx: Context, turn: ReplayTurn) -> Controls:
        first, last = turn.number <= 0, turn.number >= turn.total
        edges = {"f": first, "p": first, "n": last, "l": last}
        moves = tuple(
            Button(
                f"{VERB}.{turn.number}.{move}",
                emoji=emoji,
                style=Style.PRIMARY if move in ("p", "n") else Style.SECONDARY,
                disabled=edges[move],
            )
            for move, emoji in MOVES.items()
        )
        jump = Button(
            f"{VERB}.{turn.number}.j", ctx.t("replay.jump"), "🔢", disabled=turn.total == 0
        )
        return Controls((*moves, jump))

    @staticmethod
    def _jump_form(sid: str, shown: int, total: int, lang: str) -> ControlModal:
        field: discord.ui.TextInput[ControlModal] = discord.ui.TextInput(
            custom_id="turn", placeholder=str(shown), min_length=1, max_length=len(str(total))
        )
        label = t(lang, "replay.jump_field", total=total)
        return ControlModal(
            t(lang, "replay.jump_title"), sid, LOBBY, f"{VERB}.{shown}.go", [(label, field)]
        )


def position(ctx: Context, turn: ReplayTurn) -> str:
    """Where the replay is and who acted ("Turn 12 / 58 · alice"; the setup is turn 0)."""
    if turn.actor is None:
        return ctx.t("replay.setup", total=turn.total)
    if turn.actor == SYSTEM:
        actor = ctx.t("replay.clock")
    else:
        actor = ctx.names[turn.actor] if 0 <= turn.actor < len(ctx.names) else "?"
    return ctx.t("replay.turn", turn=turn.number, total=turn.total, actor=actor)


def typed_turn(values: Sequence[str], total: int) -> int:
    """The turn typed in the jump form, or a refusal that says which numbers there are."""
    text = values[0].strip() if len(values) == 1 else ""
    if not text.isdecimal() or int(text) > total:
        raise BotError("replay_turn", total=total)
    return int(text)
