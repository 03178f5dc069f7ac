"""A PostgreSQL outage as players see it, through the emulator: a click while the server is
down gets a short private reply that nothing was changed (no error logged: `running_bot` fails
the test on one), and once the server is back a click plays and the public table shows it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.games.thegame.pieces import pile_line
from bot.i18n import t
from bot.playground.emulator import Emulator
from games.thegame import RULES
from games.thegame.models import Play
from tests.botkit import custom_ids, open_hand, running_bot, start_game
from tests.pgserver import Cluster

CEILING = 60.0


async def test_a_click_in_an_outage_is_told_nothing_changed_and_play_resumes_after_it(
    tmp_path: Path, stoppable_cluster: Cluster, stoppable_url: str
) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice", locale="ja")
        async with running_bot(
            emu, tmp_path / "unused.sqlite3", database_url=stoppable_url, table_edit_interval=0.2
        ) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, first="0")
            hand = await open_hand(alice, table)
            version = session.record.version
            play = next(a for a in RULES.legal_actions(session.state, 0) if isinstance(a, Play))
            before = pile_line(RULES.view(session.state, None), "en", play.pile)
            await alice.select(hand, custom_ids(hand, r":x\.pick$")[0], [str(play.card)])
            button = custom_ids(hand, rf":x\.play\.{play.card}\.{play.pile}$")[0]
            await asyncio.to_thread(stoppable_cluster.stop_server)
            try:
                refused = await alice.click(hand, button)
                assert refused.ephemeral and alice.can_see(refused.message)
                assert refused.text == t("ja", "error.unavailable")
            finally:
                await asyncio.to_thread(stoppable_cluster.start_server)
            played = await alice.click(hand, button)
            assert played.responded and played.text != t("ja", "error.unavailable")
            moved = await bot.service.get(session.id)
            assert moved.record.version == version + 1
            assert moved.state.top(play.pile) == play.card
            shown = pile_line(RULES.view(moved.state, None), "en", play.pile)
            assert shown != before  # the pile's top card and count changed
            await emu.wait_for(lambda: shown in table.text, timeout=CEILING)
