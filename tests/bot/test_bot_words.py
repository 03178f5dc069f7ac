"""Words as users read them, in both languages: counts in the right form, one shape for every
game's stats lines, medals only for wins, links shown one way. Through the real discord.py
client and the emulator where the text is on a screen, at the `GameUI` formatter otherwise."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest

from bot.game_ui import GameUI, players_label
from bot.i18n import t
from bot.playground.emulator import Emulator
from games.registry import GAME_IDS
from storage import GameStats, PlayerTally, SeatRow
from tests.botkit import LOCALES, open_hand, play_a_card, running_bot, start_game


def game_ui(game_id: str) -> GameUI:
    module = import_module(f"bot.games.{game_id}.ui")
    [ui] = [
        cls()
        for cls in vars(module).values()
        if isinstance(cls, type) and issubclass(cls, GameUI) and cls.__module__ == module.__name__
    ]
    assert ui.game_id == game_id
    return ui


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_one_of_a_thing_is_counted_as_one(tmp_path: Path, lang: str) -> None:
    async with Emulator.running(guild_locale=LOCALES[lang]) as emu:
        alice = emu.add_user("alice", locale=LOCALES[lang])
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            session, table = await start_game(emu, bot, alice)  # solo: one seat
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)
            one_card = {"en": "(1 card)", "ja": "（1枚）"}[lang]
            await emu.wait_for(lambda: one_card in table.text)
            assert "(1 cards)" not in table.text
            res = await alice.slash(emu.general, "games")
            one_seat = {"en": "playing, 1 seat — [table](", "ja": "プレイ中・1席 — [卓]("}[lang]
            assert one_seat in res.text and "1 seats" not in res.text


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_games_stats_lines_share_one_shape(lang: str) -> None:
    separator = t(lang, "stats.separator")
    figures = (("played", 3), ("won", 1), ("lost", 2))
    counted = [t(lang, f"stats.{key}", count=n) for key, n in figures]
    for game_id in GAME_IDS:
        ui = game_ui(game_id)
        tally = PlayerTally(1, game_id, 2, games=3, wins=1, best_win=None, best_loss=None)
        line = ui.tally_line(lang, tally)
        label = players_label(lang, 2)
        assert line.startswith(t(lang, "stats.line", label=label, figures=separator.join(counted)))
        stats = GameStats(game_id, games=3, wins=1)
        [server, *channel] = ui.records_lines(lang, stats, stats)
        played = t(lang, "stats.played", count=3)
        labels = ("stats.server", "stats.channel")[: 1 + len(channel)]
        for label_key, text in zip(labels, [server, *channel], strict=True):
            head = t(lang, "stats.line", label=t(lang, label_key), figures=played)
            assert text.startswith(head + separator), (game_id, text)
        assert ui.board_lines(lang, stats, stats, [])[0] == server  # the board starts the same


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_the_board_gives_medals_only_for_wins(tmp_path: Path, lang: str) -> None:
    async with Emulator.running(guild_locale=LOCALES[lang]) as emu:
        alice, bob = emu.add_user("alice", locale=LOCALES[lang]), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            for session_id, won in (("a", False), ("b", False)):  # alice lost twice
                await bot.storage.records.add(
                    guild_id=emu.guild.id,
                    channel_id=emu.general.id,
                    game_id="hellqueue",
                    session_id=session_id,
                    result="win",
                    score=-40,
                    players=3,
                    won=won,
                    seats=[SeatRow(0, alice.id, won=False, score=-30)],
                )
            res = await alice.slash(emu.general, "stats")
            top = t(lang, "stats.board.player", rank="1.", user=f"<@{alice.id}>", wins=0, games=2)
            assert top in res.text and "🥇" not in res.text
            await bot.storage.records.add(
                guild_id=emu.guild.id,
                channel_id=emu.general.id,
                game_id="hellqueue",
                session_id="c",
                result="win",
                score=-40,
                players=3,
                won=True,
                seats=[SeatRow(0, bob.id, won=True, score=-40)],
            )
            res = await alice.slash(emu.general, "stats")
            assert re.search(rf"🥇 <@{bob.id}> ", res.text)
            assert f"2. <@{alice.id}>" in res.text  # still no medal without a win
