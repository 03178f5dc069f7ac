"""Turn timers through the real discord.py client and the emulator, on a manual clock: the
half-time ping, an AI playing an expired turn, away seats and coming back, and deadlines that
outlive a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.i18n import t
from bot.playground.emulator import Emulator, EmuUser, InvalidInteraction
from games.engine import Session, Status
from runtime import ManualClock
from tests.botkit import custom_ids, open_lobby, running_bot, start_game

TIMER = 30
START = 1_800_000_000.0


async def run_clock(
    clock: ManualClock, until: Callable[[], bool], step: float = 0.5, limit: int = 400
) -> None:
    """Move the clock in small steps (letting AI seats act) until `until()` holds."""
    for _ in range(limit):
        if until():
            return
        clock.advance(step)
        await asyncio.sleep(0.01)
    assert until(), "the condition never came true"


def channel_text(emu: Emulator) -> str:
    return "\n".join(m.text for m in emu.channel_messages(emu.general))


def warned(emu: Emulator, user: EmuUser) -> bool:
    return any(
        f"<@{user.id}>" in m.content and "⏰" in m.content
        for m in emu.channel_messages(emu.general)
    )


async def test_a_turn_timer_warns_at_half_time_then_an_ai_plays_the_turn(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, ai_delay=0.5) as bot:
            await alice.slash(emu.general, "notify", on=True)
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", turn_timer=TIMER
            )
            assert session.record.turn_timer == TIMER
            clock.advance(TIMER / 2 - 1)
            await asyncio.sleep(0.05)
            assert not warned(emu, alice)
            clock.advance(1)
            await emu.wait_for(lambda: warned(emu, alice))
            await emu.wait_for(lambda: any("⏰" in m.text for m in alice.dms()))
            assert not warned(emu, bob)
            assert session.state.turn == 0
            clock.advance(TIMER / 2)
            # The AI's first move comes at once, with the note; the rest of the turn follows.
            expired = t("en", "event.session.turn_expired", seat="alice")
            await emu.wait_for(lambda: expired in table.text)
            await run_clock(clock, lambda: session.state.turn == 1)
            assert session.record.seats[0].missed == 1
            assert not session.record.seats[0].away


async def miss_three_turns(clock: ManualClock, session: Session) -> None:
    """Let seat 0's turn expire three times: the seat is handed to an AI (away)."""
    for missed in (1, 2, 3):
        await run_clock(clock, lambda: session.state.turn == 0)
        await run_clock(clock, lambda m=missed: session.record.seats[0].missed == m)
    assert session.record.seats[0].away


async def test_three_expiries_hand_the_seat_to_an_ai_until_the_player_comes_back(
    tmp_path: Path,
) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, ai_delay=0.5) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, first="0", turn_timer=TIMER)
            await miss_three_turns(clock, session)
            away = t("en", "event.session.seat_away", seat="alice")
            await emu.wait_for(lambda: away in table.text)
            # The AI now plays the seat on its own, with no timer behind it.
            turns = session.state.turn_number
            await run_clock(clock, lambda: session.state.turn_number >= turns + 2)
            assert session.record.status is Status.ACTIVE
            assert not session.deadlines
            # Coming back: any control of hers retakes the seat.
            res = await alice.click(table, custom_ids(table, ":hand$")[0])
            assert res.ephemeral
            assert not session.record.seats[0].away
            assert session.record.seats[0].missed == 0
            back = t("en", "event.session.seat_back", seat="alice")
            await emu.wait_for(lambda: back in table.text)


async def test_an_away_players_move_takes_the_seat_back_in_the_moves_own_commit(
    tmp_path: Path,
) -> None:
    clock = ManualClock(START)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, ai_delay=0.5) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, first="0", turn_timer=TIMER)
            await miss_three_turns(clock, session)
            told: list[tuple[str, list[str]]] = []
            bot.service.observe(lambda c: told.append((c.kind, [e.key for e in c.events])))
            await emu.wait_for(lambda: bool(custom_ids(table, r":x\.sig$")))
            # A signal is a move of hers at any time, with no pick before it.
            await alice.select(table, custom_ids(table, r":x\.sig$")[0], ["0.no_play"])
            assert not session.record.seats[0].away
            assert [kind for kind, _ in told] == ["move"]  # no come-back committed on its own
            assert told[0][1][0] == "session.seat_back"
            back = t("en", "event.session.seat_back", seat="alice")
            await emu.wait_for(lambda: back in table.text)


async def wait_warned(emu: Emulator, session: Session, user: EmuUser) -> None:
    await emu.wait_for(lambda: warned(emu, user))
    assert session.state.turn == 0


async def test_a_restart_between_the_warning_and_the_expiry_keeps_the_deadline(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite3"
    first = ManualClock(START)
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, db, clock=first, ai_delay=0.5) as bot:
            session, _ = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", turn_timer=TIMER
            )
            started = first.now()
            first.advance(TIMER / 2)
            await wait_warned(emu, session, alice)
        # Down for a while, then up again: 20 s after the start, 10 s of the turn are left.
        second = ManualClock(started + 20)
        async with running_bot(emu, db, clock=second, ai_delay=0.5) as bot:
            session = await bot.service.get(session.id)
            assert session.due("turn", 0) == started + TIMER
            second.advance(9)
            await asyncio.sleep(0.1)
            assert session.state.turn == 0
            assert session.record.seats[0].missed == 0
            second.advance(1)
            await run_clock(second, lambda: session.state.turn == 1)
            assert session.record.seats[0].missed == 1


async def test_the_server_default_turn_timer_applies_unless_a_game_chooses(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        admin = emu.add_user("mod", admin=True)
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            res = await admin.slash(emu.general, "settings", turn_timer=600)
            assert t("en", "settings.turn_timer", timer=t("en", "timer.600")) in res.text
            session, table = await open_lobby(emu, bot, admin)
            assert session.record.turn_timer == 600
            assert t("en", "lobby.turn_timer", timer=t("en", "timer.600")) in table.text
            await bot.service.abandon(session.id, admin.id)
            session, table = await open_lobby(emu, bot, admin, turn_timer=0)
            assert session.record.turn_timer is None
            assert "⏱️" not in table.text


async def test_settings_are_for_server_managers_only(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        bob = emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            with pytest.raises(InvalidInteraction, match="needs permissions"):
                await bob.slash(emu.general, "settings", turn_timer=30)
            assert await bot.storage.prefs.guild.get(emu.guild.id, "turn_timer") is None
