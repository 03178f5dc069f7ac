"""`/stats`, `/history` and `/replay` through the real discord.py client and the emulator.

Every registered game is played to its end the same way (so a new game is covered as it
lands): one player and AI seats, on a manual clock with a turn timer; the player's turns run
out until an AI holds the seat (the seat stays theirs), and the AI plays the game out.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.client import TableBot
from bot.context import Context
from bot.games.exhaust.pieces import card_text
from bot.i18n import t
from bot.playground.emulator import (
    Emulator,
    EmuMessage,
    EmuUser,
    InteractionResult,
    InvalidInteraction,
)
from bot.ui.layout import Priority, Section, Text, without_controls
from games.engine import CHANCE, SYSTEM, LoggedAction, Session, Status
from games.registry import GAME_IDS, GAMES
from games.replay import check
from runtime import ManualClock
from storage import PlayerTally
from tests.botkit import custom_ids, running_bot, start_game

ROOT = Path(__file__).resolve().parents[2]
TIMER = 30
START = 1_800_000_000.0
FAST = {"table_edit_interval": 0.2, "ai_delay": 0.0}


async def finish_a_game(
    emu: Emulator, bot: TableBot, clock: ManualClock, user: EmuUser, game_id: str
) -> tuple[Session, EmuMessage]:
    """`user` and AI seats (one, or as many as the game needs) play `game_id` to its end."""
    rules = GAMES[game_id]
    ai = max(1, rules.min_players - 1)
    session, table = await start_game(
        emu, bot, user, ai=ai, command=f"{game_id} new", turn_timer=TIMER
    )
    for _ in range(2_000):
        if session.record.status is not Status.ACTIVE:
            break
        clock.advance(TIMER + 1)  # the player's turn runs out; after 3, an AI holds the seat
        await asyncio.sleep(0.01)
    await emu.wait_for(lambda: session.record.status is Status.FINISHED, timeout=60)
    await emu.wait_for(lambda: bool(custom_ids(table, ":rematch$")))  # recorded, then redrawn
    await bot.service.settle()  # the record and its ratings are written by a listener
    assert session.record.seats[0].user_id == user.id  # still the player's seat
    return session, table


def seated(session: Session) -> Session:
    """The session with its seats named as they sat down: whoever was away at the end is no
    matter in a replay."""
    seats = tuple(seat.model_copy(update={"away": False}) for seat in session.record.seats)
    record = session.record.model_copy(update={"seats": seats})
    return Session(record, session.rules, session.config, session.state)


def turns_of(log: list[LoggedAction]) -> list[tuple[int, int]]:
    """Each turn's (first, last + 1) log entries, the setup's first: an actor's run of actions
    (a player's, or the clock's) opens a turn, the chance actions after it belong to it."""
    starts = [
        i
        for i, entry in enumerate(log)
        if entry.actor != CHANCE and (i == 0 or log[i - 1].actor != entry.actor)
    ]
    bounds = [0, *starts, len(log)]
    return list(itertools.pairwise(bounds))


def turn_head(session: Session, log: list[LoggedAction], turn: int, lang: str = "en") -> str:
    """The position line a replay shows at `turn` (0 is the setup)."""
    total = len(turns_of(log)) - 1
    if turn == 0:
        return t(lang, "replay.setup", total=total)
    actor = log[turns_of(log)[turn][0]].actor
    names = Context.of(seated(session), lang).names
    who = t(lang, "replay.clock") if actor == SYSTEM else names[actor]
    return t(lang, "replay.turn", turn=turn, total=total, actor=who)


def state_at(session: Session, log: list[LoggedAction], end: int) -> Any:
    """The state after the first `end` entries of the log, replayed through the rules."""
    rules = session.rules
    state = rules.setup(session.config)
    for entry in log[:end]:
        state = rules.apply(state, entry.actor, rules.parse_action(entry.action)).state
    return state


def nav(message: EmuMessage, move: str) -> str:
    [custom_id] = custom_ids(message, rf":rp\.\d+\.{move}$")
    return custom_id


async def jump(user: EmuUser, replay: EmuMessage, turn: str) -> InteractionResult:
    """Type `turn` in the replay's jump form."""
    opened = await user.click(replay, nav(replay, "j"))
    return await user.submit_modal(opened, {"turn": turn})


def table_texts(bot: TableBot, session: Session, state: Any = None) -> list[str]:
    """What the game's own table shows of `state` (by default the final one): its sections and
    essential text."""
    at = seated(session)
    if state is not None:
        at = Session(at.record, at.rules, at.config, state)
    ctx = Context.of(at, "en", describe=bot.tables.describe)
    layout = without_controls(bot.games[session.record.game_id].table(ctx))
    return [
        block.text
        for block in layout.blocks
        if isinstance(block, Section)
        or (isinstance(block, Text) and block.priority is Priority.ESSENTIAL)
    ]


async def run_replay_check(path: Path) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "runtime.replay",
        str(path),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await process.communicate()
    return process.returncode or 0, out.decode()


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_finished_game_is_listed_counted_replayed_and_exported(
    tmp_path: Path, game_id: str
) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            session, table = await finish_a_game(emu, bot, clock, alice, game_id)
            ui = bot.games[game_id]
            name = t("en", f"{game_id}.name")

            res = await alice.slash(emu.general, "history")
            assert res.ephemeral and res.message.components_v2
            assert t("en", "history.title") in res.text
            assert f"`{session.id}`" in res.text and name in res.text
            assert f"<@{alice.id}>" in res.text
            assert f"/{emu.general.id}/{table.id})" in res.text  # the link to its table

            seat = (ui.seat_results(session) or ())[0]
            game_result = ui.result(session)
            assert game_result is not None
            players = len(session.record.seats)
            tally = PlayerTally(
                user_id=alice.id,
                game_id=game_id,
                players=players,
                games=1,
                wins=int(seat.won),
                best_win=seat.score if seat.won else None,
                best_loss=None if seat.won else seat.score,
                results={seat.result or game_result.result: 1},
            )
            res = await alice.slash(emu.general, "stats", user=alice)
            assert res.ephemeral and name in res.text
            assert ui.tally_line("en", tally) in res.text
            res = await alice.slash(emu.general, "stats", game=game_id)
            top = t(
                "en",
                "stats.board.player",
                rank="🥇" if seat.won else "1.",  # a medal only for a win
                user=f"<@{alice.id}>",
                wins=int(seat.won),
                games=1,
            )
            assert name in res.text and top in res.text

            log = await bot.storage.sessions.log(session.id)
            assert len(log) == session.record.version
            turns = turns_of(log)
            total = len(turns) - 1
            res = await alice.slash(emu.general, "replay", id=session.id)
            replay = res.message
            assert res.ephemeral and replay.components_v2
            assert turn_head(session, log, 0) in replay.text  # the setup: the deal
            for text in table_texts(bot, session, state_at(session, log, turns[0][1])):
                assert text in replay.text
            for move in ("f", "p"):  # nothing before the setup
                with pytest.raises(InvalidInteraction):
                    await alice.click(replay, nav(replay, move))
            for turn in (1, 2):
                await alice.click(replay, nav(replay, "n"))
                assert turn_head(session, log, turn) in replay.text
            await alice.click(replay, nav(replay, "l"))
            assert turn_head(session, log, total) in replay.text
            away = t("en", "seat.away", name="alice")
            for text in table_texts(bot, session):
                assert text in replay.text  # the replay ends on the game's own end table
                assert text in table.text.replace(away, "alice")  # as the table message shows
            assert (t("en", "replay.hands") in replay.text) == ui.hidden_hands
            for move in ("n", "l"):  # nothing after the last turn
                with pytest.raises(InvalidInteraction):
                    await alice.click(replay, nav(replay, move))
            await alice.click(replay, nav(replay, "p"))
            assert turn_head(session, log, total - 1) in replay.text
            await alice.click(replay, nav(replay, "f"))
            assert turn_head(session, log, 0) in replay.text

            # A turn of several entries (an actor's run of actions, or an action and the chance it
            # caused) shows the table after all of them, in one step.
            chanced = [turn for turn, (start, end) in enumerate(turns) if turn and end > start + 1]
            caused = next(
                (
                    turn
                    for turn in chanced
                    if set(table_texts(bot, session, state_at(session, log, turns[turn][1])))
                    - set(table_texts(bot, session, state_at(session, log, turns[turn][0] + 1)))
                ),
                None,
            )
            assert (caused is None) == (not chanced)
            if caused is not None:
                await jump(alice, replay, str(caused - 1))
                assert turn_head(session, log, caused - 1) in replay.text
                await alice.click(replay, nav(replay, "n"))  # one step: the action, its chance
                assert turn_head(session, log, caused) in replay.text
                for text in table_texts(bot, session, state_at(session, log, turns[caused][1])):
                    assert text in replay.text

            res = await alice.slash(emu.general, "replay", id=session.id, export=True)
            assert res.ephemeral
            body = res.message.file(f"replay-{session.id}.json")
            data = json.loads(body)
            outcome = session.rules.outcome(session.state)
            assert outcome is not None and check(data) == outcome
            assert [a["seq"] for a in data["actions"]] == list(range(1, len(log) + 1))
            path = tmp_path / "replay.json"
            path.write_bytes(body)
            code, printed = await run_replay_check(path)
            assert code == 0, printed
            assert f"result {outcome.result}" in printed and "matches the stored outcome" in printed
            [stored] = await bot.storage.records.history(emu.guild.id, game_id)
            assert stored.record.result == (ui.result(session) or outcome).result  # as recorded


def card_tokens(game_id: str, cards: tuple[int, ...]) -> list[str]:
    """How a hand's cards read on a replay."""
    if game_id == "exhaust":
        return [f"`{card_text(card)}`" for card in cards]
    return [f"`{card}`" for card in cards]


@pytest.mark.parametrize("game_id", ["thegame", "exhaust"])
async def test_a_replay_shows_every_hand_once_the_game_is_over(
    tmp_path: Path, game_id: str
) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            session, _ = await finish_a_game(emu, bot, clock, alice, game_id)
            rules, log = session.rules, await bot.storage.sessions.log(session.id)
            dealt = state_at(session, log, turns_of(log)[0][1])
            assert rules.secret_cards(dealt)  # the deal hides every hand from the public ...
            res = await alice.slash(emu.general, "replay", id=session.id)
            for seat, hand in enumerate(dealt.hands):  # ... the replay of a finished game shows
                assert hand
                for token in card_tokens(game_id, hand):
                    assert token in res.text, (seat, token)
            assert custom_ids(res.message) == custom_ids(res.message, r":L:rp\.0\.[fpnlj]$")


async def test_a_replay_and_its_jump_form_keep_working_after_a_restart(tmp_path: Path) -> None:
    clock = ManualClock(START)
    db = tmp_path / "db.sqlite3"
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, db, clock=clock, **FAST) as bot:
            session, _ = await finish_a_game(emu, bot, clock, alice, GAME_IDS[0])
            log = await bot.storage.sessions.log(session.id)
            res = await alice.slash(emu.general, "replay", id=session.id)
            replay = res.message
            await alice.click(replay, nav(replay, "n"))
            opened = await alice.click(replay, nav(replay, "j"))  # the form, open over a restart
        bob = emu.add_user("bob")
        async with running_bot(emu, db, clock=clock, **FAST) as bot:
            await alice.click(replay, nav(replay, "n"))  # the message of the first run
            assert turn_head(session, log, 2) in replay.text
            await alice.submit_modal(opened, {"turn": "7"})
            assert turn_head(session, log, 7) in replay.text
            res = await bob.slash(emu.general, "replay", id=session.id)  # anyone of the server
            await bob.click(res.message, nav(res.message, "l"))
            assert turn_head(session, log, len(turns_of(log)) - 1) in res.message.text


async def test_a_jump_to_a_turn_that_is_not_there_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            session, _ = await finish_a_game(emu, bot, clock, alice, GAME_IDS[0])
            log = await bot.storage.sessions.log(session.id)
            total = len(turns_of(log)) - 1
            replay = (await alice.slash(emu.general, "replay", id=session.id)).message
            await jump(alice, replay, "3")
            shown = replay.text
            for typed in ("x", str(total + 1), "-1"):
                res = await jump(alice, replay, typed)
                assert res.ephemeral and res.text == t("en", "error.replay_turn", total=total)
                assert replay.text == shown
            await jump(alice, replay, str(total))
            assert turn_head(session, log, total) in replay.text


async def test_a_replay_reads_in_the_readers_language(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice, hana = emu.add_user("alice"), emu.add_user("hana", locale="ja")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            session, _ = await finish_a_game(emu, bot, clock, alice, GAME_IDS[0])
            log = await bot.storage.sessions.log(session.id)
            total = len(turns_of(log)) - 1
            replay = (await hana.slash(emu.general, "replay", id=session.id)).message
            assert turn_head(session, log, 0, "ja") in replay.text
            assert f"{total}手中0手目" in replay.text
            await hana.click(replay, nav(replay, "n"))
            assert turn_head(session, log, 1, "ja") in replay.text
            assert f"{total}手中1手目" in replay.text
            opened = await hana.click(replay, nav(replay, "j"))
            assert opened.modal is not None
            assert opened.modal["title"] == t("ja", "replay.jump_title")
            res = await hana.submit_modal(opened, {"turn": "x"})
            assert res.text == t("ja", "error.replay_turn", total=total)
            await jump(hana, replay, "２")  # a Japanese keyboard's digits
            assert f"{total}手中2手目" in replay.text
            replay = (await alice.slash(emu.general, "replay", id=session.id)).message
            assert f"Turn 0 / {total}" in replay.text


async def test_only_finished_games_of_this_server_can_be_replayed(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            finished, _ = await finish_a_game(emu, bot, clock, alice, GAME_IDS[0])
            elsewhere = emu.add_guild("elsewhere")
            mallory = emu.add_user("mallory")
            del emu.guild.members[mallory.id]  # mallory is only in the other server
            with pytest.raises(InvalidInteraction):
                await mallory.slash(emu.general, "replay", id=finished.id)
            there = elsewhere.channels[0]
            for export in (False, True):
                res = await mallory.slash(there, "replay", id=finished.id, export=export)
                assert res.text == t("en", "error.replay_unknown", id=finished.id)
                assert not res.message.attachments
            res = await mallory.slash(there, "history")
            assert finished.id not in res.text and t("en", "history.none") in res.text

            live, _ = await start_game(emu, bot, alice, joiners=(bob,), command="thegame new")
            res = await bob.slash(emu.general, "replay", id=live.id)
            assert res.text == t("en", "error.replay_live")
            await alice.slash(emu.general, "abandon")
            res = await bob.slash(emu.general, "replay", id=live.id)
            assert res.text == t("en", "error.replay_unfinished")
            res = await bob.slash(emu.general, "replay", id="not an id")
            assert res.text == t("en", "error.replay_unknown", id="not an id")


async def test_an_empty_server_and_japanese_readers_get_their_words(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        hana, bob = emu.add_user("hana", locale="ja"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST):
            res = await hana.slash(emu.general, "history")
            assert t("ja", "history.none") in res.text and t("ja", "history.title") in res.text
            res = await hana.slash(emu.general, "stats")
            assert t("ja", "stats.board.none") in res.text
            res = await bob.slash(emu.general, "stats", user=hana)
            assert t("en", "stats.player.none", user=f"<@{hana.id}>") in res.text
            res = await bob.slash(emu.general, "replay", id="0123abcd")
            assert res.text == t("en", "error.replay_unknown", id="0123abcd")
