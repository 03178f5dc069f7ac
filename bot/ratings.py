"""Ratings: who a finished game rates (`entrants`), `/leaderboard`, and the rating lines of
`/stats`.

Loaded as a shared extension; it knows no game. A game that is rated says so by its
`GameUI.standing` (places from its own result); a seat is rated for its player unless an AI
held it for most of the seat's moves (then it plays at the AI's rating and keeps it), an AI
seat is rated as its level, and an opponent outside the seats (a solo game's NPC) by the key
the game gives it. Abandoned games never reach here: only a finished game is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.game_ui import GameUI, Standing
from bot.i18n import cmd, t
from bot.stats import GAME_CHOICES, MEDALS, send_layout
from games.engine import LoggedAction, Session
from games.engine.contract import NORMAL
from games.registry import AIS, GAME_IDS
from runtime.thinking import level_of
from storage import Entrant, Rating
from storage.rating_schema import MIN_GAMES

if TYPE_CHECKING:
    from bot.client import TableBot

BOARD_SHOWN = 10


def entrants(
    session: Session, standing: Standing, log: Sequence[LoggedAction]
) -> tuple[Entrant, ...]:
    """The sides a finished game rates, with their places (`log`: the session's actions, to
    count each seat's moves)."""
    record, offered = session.record, AIS[session.record.game_id].levels
    moves = [0] * len(record.seats)
    for entry in log:
        if 0 <= entry.actor < len(moves):
            moves[entry.actor] += 1
    found = []
    for seat, (held, place) in enumerate(zip(record.seats, standing.places, strict=False)):
        if held.user_id is None and held.name:  # its player left: an AI played it out
            found.append(Entrant(seat, place, None, NORMAL, rated=False))
        elif held.user_id is None:
            found.append(Entrant(seat, place, None, level_of(held.ai_level, offered)))
        elif 2 * held.ai_moves > moves[seat]:  # an AI (at NORMAL) held it for most moves
            found.append(Entrant(seat, place, None, NORMAL, rated=False))
        else:
            found.append(Entrant(seat, place, held.user_id))
    found += [Entrant(-1, place, None, key) for key, place in standing.opponents]
    return tuple(found)


def board_lines(lang: str, ui: GameUI, board: Sequence[Rating], ais: Sequence[Rating]) -> list[str]:
    """One game's leaderboard: its top people, then the AIs' ratings to measure against."""
    lines = [
        t(
            lang,
            "ratings.board.line",
            rank=MEDALS[r.rank - 1]
            if r.rank is not None and r.rank <= len(MEDALS)
            else f"{r.rank}.",
            user=f"<@{r.user_id}>",
            rating=r.shown,
            count=r.games,
        )
        for r in board
    ]
    if not board:
        lines.append(t(lang, "ratings.board.nobody", need=MIN_GAMES))
    if ais:
        shown = [
            t(lang, "ratings.board.ai_one", name=ui.ai_name(lang, r.ai), rating=r.shown)
            for r in ais
        ]
        lines.append(t(lang, "ratings.board.ais", ais=t(lang, "stats.separator").join(shown)))
    return lines


class Leaderboard(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("cmd.leaderboard.name"), description=cmd("cmd.leaderboard.desc"))
    @app_commands.describe(game=cmd("cmd.stats.game"))
    @app_commands.rename(game=cmd("cmd.stats.game.name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        """This server's best rated players of each game (or of one)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise BotError("guild_only")
        lang = self.bot.languages.of(interaction)
        ratings = self.bot.storage.ratings
        chosen = GAME_IDS if game is None else [game.value]
        games = [g for g in chosen if g in self.bot.games]
        sections = []
        for game_id in games:
            board = await ratings.board(guild_id, game_id, BOARD_SHOWN)
            ais = await ratings.ais(guild_id, game_id)
            if not board and not ais:
                continue
            lines = board_lines(lang, self.bot.games[game_id], board, ais)
            sections.append("\n".join([f"**{t(lang, f'{game_id}.name')}**", *lines]))
        if not sections:
            sections = [t(lang, "ratings.board.none")]
        sections.append(f"-# {t(lang, 'ratings.board.about', need=MIN_GAMES)}")
        await send_layout(interaction, t(lang, "ratings.board.title"), sections)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(Leaderboard(bot))
