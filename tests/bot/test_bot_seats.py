"""How every game's table names its seats and shows a table that is over, in both languages,
through the real discord.py client and the emulator: an away player is marked in the seat list
only, events name them plainly (older lines too), coming back is said; a closed table has no
one to move and looks closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.context import Context
from bot.game_ui import ENDED
from bot.i18n import t
from bot.playground.emulator import Emulator
from bot.playground.emulator.models import text_of
from bot.ui.v2 import build
from games.engine import CHANCE, Seat, Session, SessionRecord, Status
from games.engine.step import advance
from games.registry import GAME_IDS, GAMES
from runtime import ManualClock
from tests.bot.test_bot_stats import FAST, finish_a_game
from tests.bot.test_bot_words import game_ui
from tests.botkit import LOCALES, custom_ids, running_bot, start_game

TIMER = 30
START = 1_800_000_000.0
TO_MOVE = "▶"
"""What marks the player to move on every game's table."""


def ai_seats(game_id: str) -> int:
    return max(1, GAMES[game_id].min_players - 1)


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_an_away_player_is_marked_in_the_seat_list_only_and_said_back(
    tmp_path: Path, game_id: str, lang: str
) -> None:
    clock = ManualClock(START)
    async with Emulator.running(guild_locale=LOCALES[lang]) as emu:
        alice = emu.add_user("alice", locale=LOCALES[lang])
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, ai_delay=0.5) as bot:
            session, table = await start_game(
                emu, bot, alice, ai=ai_seats(game_id), first="0", command=f"{game_id} new",
                turn_timer=TIMER,
            )  # fmt: skip
            expired = t(lang, "event.session.turn_expired", seat="alice")
            told = False
            for _ in range(400):  # her turns run out (AI seats play between) until she is away
                if session.record.seats[0].away or session.record.status is not Status.ACTIVE:
                    break
                clock.advance(TIMER + 1)
                await asyncio.sleep(0.02)
                if session.record.seats[0].missed == 1 and not told:
                    await emu.wait_for(lambda: expired in table.text)  # the first one, plainly
                    told = True
            assert session.record.seats[0].away and session.record.status is Status.ACTIVE
            away = t(lang, "seat.away", name="alice")
            missed = t(lang, "event.session.seat_away", seat="alice")
            await emu.wait_for(lambda: missed in table.text)
            assert table.text.count(away) == 1  # beside her seat, in no sentence, old or new

            res = await alice.click(table, custom_ids(table, ":hand$")[0])
            assert res.ephemeral and not session.record.seats[0].away
            back = t(lang, "event.session.seat_back", seat="alice")
            await emu.wait_for(lambda: back in table.text)
            assert away not in table.text  # on no line, older ones included


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_an_abandoned_table_has_no_one_to_move_and_looks_closed(
    tmp_path: Path, game_id: str, lang: str
) -> None:
    async with Emulator.running(guild_locale=LOCALES[lang]) as emu:
        alice = emu.add_user("alice", locale=LOCALES[lang])
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            session, table = await start_game(
                emu, bot, alice, ai=ai_seats(game_id), first="0", command=f"{game_id} new"
            )
            assert TO_MOVE in table.text
            await alice.slash(emu.general, "abandon")
            assert session.record.status is Status.ABANDONED
            notice = t(lang, "lobby.abandoned")
            await emu.wait_for(lambda: notice in table.text)
            assert table.text.split("\n")[1] == notice  # first, under the title
            assert TO_MOVE not in table.text
            assert not custom_ids(table)
            assert table.components[0]["accent_color"] == ENDED


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_finished_table_has_no_one_to_move_and_no_away_mark(
    tmp_path: Path, game_id: str, lang: str
) -> None:
    clock = ManualClock(START)
    async with Emulator.running(guild_locale=LOCALES[lang]) as emu:
        alice = emu.add_user("alice", locale=LOCALES[lang])
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            session, table = await finish_a_game(emu, bot, clock, alice, game_id)
            assert session.record.seats[0].away  # an AI held her seat to the end
            await emu.wait_for(lambda: t(lang, "records.title") in table.text)
            assert TO_MOVE not in table.text
            assert t(lang, "seat.away", name="alice") not in table.text


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_replayed_step_of_a_finished_game_still_shows_who_was_to_move(game_id: str) -> None:
    """A finished game's replay draws each step with the game's own table: the session is
    over, yet at that step someone was to move."""
    rules = GAMES[game_id]
    players = ai_seats(game_id) + 1
    config = rules.make_config(players, {"first_player": 0})
    dealt = advance(rules, rules.setup(config), 0, CHANCE, None, 7).state
    record = SessionRecord(
        id="0badcafe", game_id=game_id, rules_version=1, guild_id=1, channel_id=2, host_id=3,
        locale="en", options={}, seed=7, status=Status.FINISHED, version=1,
        seats=tuple(Seat(user_id=None, name="") for _ in range(players)),
        config=config.model_dump(mode="json"),
    )  # fmt: skip
    ctx = Context.of(Session(record, rules, config, dealt), "en")
    assert TO_MOVE in text_of({"components": build(game_ui(game_id).table(ctx)).components})
