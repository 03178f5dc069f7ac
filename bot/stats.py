"""`/stats`, `/history` and `/replay`: every finished game of a server can be counted, listed
and watched again.

Loaded as a shared extension. It knows no game: each game's words and figures come from its
`GameUI` (`stats_lines`, `board_lines`, `history_text`, `score_text`), whose defaults suit a
game that names winners and scores points. Everything read here is an indexed query of the
records (`storage.records`, `storage.players`); no session is loaded except to replay it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.context import message_url
from bot.errors import BotError
from bot.game_ui import ACCENT, GameUI, when
from bot.i18n import cmd, t
from bot.ui.layout import Layout, Priority, Text
from bot.ui.v2 import build
from games.registry import GAME_IDS
from storage import HistoryEntry, Rating
from storage.rating_schema import MIN_GAMES

if TYPE_CHECKING:
    from bot.client import TableBot

HISTORY_SHOWN = 10
TOP_PLAYERS = 5
BEST_RESULTS = 3
MEDALS = ("🥇", "🥈", "🥉")

GAME_CHOICES = [app_commands.Choice(name=cmd(f"{g}.name"), value=g) for g in GAME_IDS]


def rating_text(lang: str, rating: Rating) -> str:
    """A person's rating in a game, with their place on the board once they are on it."""
    if rating.rank is None:
        return t(
            lang, "ratings.provisional", rating=rating.shown, count=rating.games, need=MIN_GAMES
        )
    return t(lang, "ratings.ranked", rating=rating.shown, rank=rating.rank, count=rating.games)


def seat_label(lang: str, entry: HistoryEntry, seat: int) -> str:
    """A seat of a finished game: the player as a mention, or an AI label."""
    stored = entry.seats[seat]
    if stored.user_id is not None:
        return f"<@{stored.user_id}>"
    if stored.name:
        return t(lang, "seat.taken_over", name=stored.name)
    return t(lang, "seat.ai", n=seat + 1)


def history_line(lang: str, ui: GameUI, entry: HistoryEntry) -> str:
    record = entry.record
    names = [seat_label(lang, entry, i) for i in range(len(entry.seats))]
    link = message_url(record.guild_id, record.channel_id, entry.table_message_id)
    result = ui.history_text(lang, entry, names)
    if record.hints:  # a game played with hints says so
        result += " · " + t(lang, "history.hints", count=record.hints)
    return t(
        lang,
        "history.line",
        game=t(lang, f"{record.game_id}.name"),
        players=", ".join(names) or "—",
        result=result,
        when=when(record.finished_at),
        link=link,
        id=record.session_id or "—",
    )


async def send_layout(
    interaction: discord.Interaction[Any], title: str, sections: Sequence[str]
) -> None:
    """A private answer: a title and one text block per section (per game)."""
    blocks = tuple(Text(text, Priority.NORMAL) for text in sections if text.strip())
    message = build(Layout(title, blocks, accent=ACCENT))
    await interaction.response.send_message(
        **message.send_kwargs(), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


class Stats(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    def _games(self, game: app_commands.Choice[str] | None) -> list[str]:
        """The chosen game, or every game this bot hosts, in the registry's order."""
        if game is not None:
            return [game.value] if game.value in self.bot.games else []
        return [g for g in GAME_IDS if g in self.bot.games]

    @app_commands.command(name=cmd("cmd.stats.name"), description=cmd("cmd.stats.desc"))
    @app_commands.describe(user=cmd("cmd.stats.user"), game=cmd("cmd.stats.game"))
    @app_commands.rename(user=cmd("cmd.stats.user.name"), game=cmd("cmd.stats.game.name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """A player's figures in this server, or the server's board."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise BotError("guild_only")
        lang = self.bot.languages.of(interaction)
        if user is None:
            await self._board(interaction, guild_id, lang, self._games(game))
        else:
            await self._player(interaction, guild_id, lang, user, self._games(game))

    async def _player(
        self,
        interaction: discord.Interaction[Any],
        guild_id: int,
        lang: str,
        user: discord.User,
        games: list[str],
    ) -> None:
        players = self.bot.storage.players
        tallies = await players.totals(guild_id, user.id)
        ratings = {r.game_id: r for r in await self.bot.storage.ratings.player(guild_id, user.id)}
        sections = []
        for game_id in games:
            mine = [tally for tally in tallies if tally.game_id == game_id]
            if not mine:
                continue
            ui = self.bot.games[game_id]
            streaks = await players.streaks(guild_id, user.id, game_id) if ui.streaks else None
            lines = ui.stats_lines(lang, mine, streaks)
            if game_id in ratings:
                lines.append(rating_text(lang, ratings[game_id]))
            sections.append("\n".join([f"**{t(lang, f'{game_id}.name')}**", *lines]))
        if not sections:
            sections = [t(lang, "stats.player.none", user=user.mention)]
        title = t(lang, "stats.player.title", name=user.display_name)
        await send_layout(interaction, title, sections)

    async def _board(
        self, interaction: discord.Interaction[Any], guild_id: int, lang: str, games: list[str]
    ) -> None:
        records, players = self.bot.storage.records, self.bot.storage.players
        channel_id = interaction.channel_id
        sections = []
        for game_id in games:
            server = await records.stats(guild_id, game_id)
            if not server.games:
                continue
            ui = self.bot.games[game_id]
            channel = await records.stats(guild_id, game_id, channel_id)
            best = await records.best(guild_id, game_id, limit=BEST_RESULTS)
            lines = [f"**{t(lang, f'{game_id}.name')}**"]
            lines += ui.board_lines(lang, server, channel, best)
            top = await players.top(guild_id, game_id, TOP_PLAYERS)
            if top:
                lines.append(f"**{t(lang, 'stats.board.top')}**")
            for rank, tally in enumerate(top):
                # A medal is for winning: a player without a win gets their place, no medal.
                medal = MEDALS[rank] if rank < len(MEDALS) and tally.wins else f"{rank + 1}."
                best_score = tally.best
                line = t(
                    lang,
                    "stats.board.player",
                    rank=medal,
                    user=f"<@{tally.user_id}>",
                    wins=tally.wins,
                    games=tally.games,
                )
                shown = (
                    None
                    if best_score is None or not best_score[1]
                    else ui.score_text(lang, best_score[0], 0)
                )
                if shown is not None:
                    line += t(lang, "stats.separator") + t(lang, "stats.best", best=shown)
                lines.append(line)
            sections.append("\n".join(lines))
        if not sections:
            sections = [t(lang, "stats.board.none")]
        await send_layout(interaction, t(lang, "stats.board.title"), sections)

    @app_commands.command(name=cmd("cmd.history.name"), description=cmd("cmd.history.desc"))
    @app_commands.describe(game=cmd("cmd.stats.game"))
    @app_commands.rename(game=cmd("cmd.stats.game.name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        """The last finished games of this server: game, players, result, when, link, id."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise BotError("guild_only")
        lang = self.bot.languages.of(interaction)
        entries = await self.bot.storage.records.history(
            guild_id, None if game is None else game.value, HISTORY_SHOWN
        )
        lines = [
            history_line(lang, self.bot.games[e.record.game_id], e)
            for e in entries
            if e.record.game_id in self.bot.games
        ]
        if lines:
            lines.append(f"-# {t(lang, 'history.hint')}")
        await send_layout(interaction, t(lang, "history.title"), lines or [t(lang, "history.none")])

    @app_commands.command(name=cmd("cmd.replay.name"), description=cmd("cmd.replay.desc"))
    @app_commands.describe(id=cmd("cmd.replay.id"), export=cmd("cmd.replay.export"))
    @app_commands.rename(id=cmd("cmd.replay.id.name"), export=cmd("cmd.replay.export.name"))
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        id: app_commands.Range[str, 1, 40],
        export: bool = False,
    ) -> None:
        """Watch a finished game of this server again, or take its log as a file."""
        lang = self.bot.languages.of(interaction)
        sid = id.strip().strip("`").lower()
        if export:
            await self.bot.replays.export(interaction, sid, lang)
        else:
            await self.bot.replays.show(interaction, sid, lang)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(Stats(bot))
