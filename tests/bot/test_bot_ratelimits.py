"""Discord's rate limits met by the real bot: a burst of moves at one table while the emulator
answers 429s (per channel and global, unannounced) loses no edit, doubles none, answers every
click in time and logs no error; and with 429s off, the bot's own pacing never edits a channel
more often than Discord allows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.playground.emulator import Emulator, EmuMessage, EmuUser, RateLimit
from bot.playground.emulator.models import walk_components
from games.engine import Session, Status
from tests.bot.test_bot_thegame import play_turn
from tests.botkit import custom_ids, running_bot, start_game

DISCORD_EDITS = RateLimit(5, 5.0)
"""Discord's limit of edits per channel: 5 in 5 s."""


def version_shown(components: list[dict[str, Any]], session: Session) -> int | None:
    """The version a table's controls were drawn at (None: it has none)."""
    pattern = re.compile(rf":{session.id}:(\d+):")
    found = [
        int(m[1])
        for c in walk_components(components)
        if (m := pattern.search(str(c.get("custom_id", ""))))
    ]
    return max(found, default=None)


def shown(table: EmuMessage) -> list[list[dict[str, Any]]]:
    """Every state the table was in, oldest first: each edit's components, then today's."""
    return [*(before["components"] for before in table.history), table.components]


async def dm_hand(emu: Emulator, user: EmuUser, table: EmuMessage) -> EmuMessage:
    """Ask for the hand in DMs: the DM the bot sends."""
    await user.click(table, custom_ids(table, ":dm$")[0])
    return await emu.wait_for(lambda: next(iter(user.dms()), None))


async def test_a_burst_of_moves_meets_429s_and_every_edit_lands_once(tmp_path: Path) -> None:
    # Two edits a second per channel and five requests a second in all, neither announced:
    # the bot learns of them only from 429s. The interaction deadline stays Discord's 3 s.
    limits = {
        "rate_limit": RateLimit(1, 2.0),
        "global_limit": RateLimit(3, 1.0),
        "rate_limit_headers": False,
    }
    async with Emulator.running(**limits) as emu:
        users = [emu.add_user(name) for name in ("alice", "bob", "carol")]
        async with running_bot(emu, tmp_path / "db.sqlite3", table_edit_interval=0.2) as bot:
            session, table = await start_game(
                emu, bot, users[0], joiners=tuple(users[1:]), first="0"
            )
            hands = [await dm_hand(emu, user, table) for user in users]
            seats = dict(enumerate(users))
            while session.record.status is Status.ACTIVE and session.state.turn_number < 6:
                seat = session.state.turn
                await play_turn(emu, session, seats[seat], hands[seat], table, seat, seats)
            await bot.service.settle()
            await bot.refresher.idle()

            assert {hit.scope for hit in emu.rate_limit_hits} == {"user", "global"}
            assert emu.errors == []  # every refused request went through on its retry
            # Every click was acknowledged within its 3 s (a late one raised in its click).
            assert all(clicked.responded for clicked in emu.interactions.values())
            states = shown(table)
            assert version_shown(states[-1], session) == session.record.version
            doubled = [i for i in range(1, len(states)) if states[i] == states[i - 1]]
            assert doubled == []


async def test_ai_seats_moving_fast_never_edit_a_channel_past_discords_limit(
    tmp_path: Path,
) -> None:
    # No 429s at all: the pacing alone must keep within Discord's 5 edits per 5 s.
    async with Emulator.running(rate_limit=None, global_limit=None) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", ai_delay=0.05) as bot:
            session, _ = await start_game(emu, bot, alice, ai=3, command="hellqueue new")
            await alice.slash(emu.general, "leave")
            await emu.wait_for(lambda: session.record.status is Status.FINISHED)
            await bot.service.settle()
            await bot.refresher.idle()

    edits = [
        call.at
        for call in emu.calls
        if call.method == "PATCH"
        and call.path.startswith(f"/channels/{emu.general.id}/messages/")
        and call.status == 200
    ]
    assert len(edits) > DISCORD_EDITS.count  # enough edits for the limit to matter
    busiest = max(
        sum(1 for later in edits[i:] if later - start < DISCORD_EDITS.per)
        for i, start in enumerate(edits)
    )
    assert busiest <= DISCORD_EDITS.count
