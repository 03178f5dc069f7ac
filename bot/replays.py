"""Replays of finished games: any step of a game's log as its public table plus every hand, on
an ephemeral message with ⏮ ◀ ▶ ⏭ buttons, and the log as a file (`games.replay`).

A step is one entry of the log (chance actions included): step k shows the state after the
first k actions, drawn by the game's own `GameUI.table` and `GameUI.replay_hands`. Nothing is
kept in memory: the buttons are persistent controls (`g:{session}:L:rp.{step}.{move}`) and
every click replays the log from the start, so a replay works after a restart.

Only a finished game of the server the interaction comes from can be replayed: a live game
would give its hands away, and a game of another server is not found at all.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.context import Context
from bot.errors import BotError
from bot.game_ui import ACCENT, GameUI
from bot.i18n import t
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
from bot.ui.v2 import V2Message, build
from games.engine import (
    CHANCE,
    SESSION_ID_PATTERN,
    SYSTEM,
    Event,
    GameError,
    LoggedAction,
    Reason,
    Session,
    SessionService,
    SessionStore,
    Status,
)
from games.replay import export

VERB = "rp"
"""The shared verb of the replay buttons: `rp.{step shown}.{move}`."""
MOVES = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}
SESSION_ID = re.compile(rf"^{SESSION_ID_PATTERN}$")

Describe = Callable[[Event, Context], str | None]


@dataclass(frozen=True)
class ReplayStep:
    """The state after `number` actions of `total`, who acted last and what it showed."""

    number: int
    total: int
    state: Any
    actor: int
    events: tuple[Event, ...]


def target(step: int, move: str, total: int) -> int:
    """The step a move from `step` leads to, within 1..total."""
    wanted = {"f": 1, "p": step - 1, "n": step + 1, "l": total}.get(move)
    if wanted is None:
        raise GameError(Reason.BAD_OPTION, "control")
    return max(1, min(total, wanted))


def replay_step(session: Session, log: Sequence[LoggedAction], number: int) -> ReplayStep:
    """Replay the first `number` entries of `log` (at least one, at most all)."""
    rules = session.rules
    number = max(1, min(len(log), number))
    state = rules.setup(session.config)
    events: tuple[Event, ...] = ()
    for entry in log[:number]:
        step = rules.apply(state, entry.actor, rules.parse_action(entry.action))
        state, events = step.state, step.events
    return ReplayStep(number, len(log), state, log[number - 1].actor, events)


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
        """`/replay <id>`: the first step, privately."""
        session = await self.finished(interaction, sid)
        message = await self.screen(session, 1, lang)
        await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)

    async def control(
        self, interaction: discord.Interaction[Any], sid: str, args: Sequence[str], lang: str
    ) -> None:
        """A replay button: redraw the ephemeral message at the step it leads to."""
        session = await self.finished(interaction, sid)
        try:
            shown, move = int(args[0]), args[1]
        except (IndexError, ValueError):
            raise GameError(Reason.BAD_OPTION, "control") from None
        log = await self.store.log(sid)
        message = self._screen(session, log, target(shown, move, len(log)), lang)
        await interaction.response.edit_message(**message.edit_kwargs())

    async def export(self, interaction: discord.Interaction[Any], sid: str, lang: str) -> None:
        """`/replay <id> export:true`: the game's log as a JSON file `games.replay` checks."""
        session = await self.finished(interaction, sid)
        log = await self.store.log(sid)
        data = export(session.record, log, session.rules.outcome(session.state))
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        name = f"replay-{sid}.json"
        text = t(lang, "replay.exported", actions=len(log), file=name)
        file = discord.File(io.BytesIO(body), filename=name)
        await interaction.response.send_message(text, file=file, ephemeral=True)

    async def screen(self, session: Session, number: int, lang: str) -> V2Message:
        return self._screen(session, await self.store.log(session.id), number, lang)

    def _screen(
        self, session: Session, log: Sequence[LoggedAction], number: int, lang: str
    ) -> V2Message:
        return build(self.layout(session, log, number, lang))

    def layout(
        self, session: Session, log: Sequence[LoggedAction], number: int, lang: str
    ) -> Layout:
        """Step `number`: what happened, the public table, every hand, the controls."""
        ui = self.games[session.record.game_id]
        step = replay_step(session, log, number)
        # The seats as they were dealt in: who was away at the end does not matter here.
        seats = tuple(seat.model_copy(update={"away": False}) for seat in session.record.seats)
        record = session.record.model_copy(update={"seats": seats})
        at = Session(record, session.rules, session.config, step.state)
        ctx = Context.of(at, lang, describe=self.describe)
        happened = [
            text for event in step.events if event.public and (text := self.describe(event, ctx))
        ]
        head = t(
            lang,
            "replay.step",
            step=step.number,
            total=step.total,
            actor=self._actor(ctx, step.actor),
        )
        blocks: list[Block] = [
            Text("\n".join([f"**{head}**", *happened]), Priority.ESSENTIAL),
            self._controls(step),
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
    def _actor(ctx: Context, actor: int) -> str:
        if actor == CHANCE:
            return ctx.t("replay.chance")
        if actor == SYSTEM:
            return ctx.t("replay.clock")
        return ctx.names[actor] if 0 <= actor < len(ctx.names) else "?"

    @staticmethod
    def _controls(step: ReplayStep) -> Controls:
        first, last = step.number <= 1, step.number >= step.total
        edges = {"f": first, "p": first, "n": last, "l": last}
        return Controls(
            tuple(
                Button(
                    f"{VERB}.{step.number}.{move}",
                    emoji=emoji,
                    style=Style.PRIMARY if move in ("p", "n") else Style.SECONDARY,
                    disabled=edges[move],
                )
                for move, emoji in MOVES.items()
            )
        )
