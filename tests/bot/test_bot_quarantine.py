"""A session whose stored log no longer loads is set aside: the bot starts and runs on, the
table says the game is closed, and the channel is free for a new one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.i18n import t
from bot.playground.emulator import Emulator
from games.engine import Status
from tests.botkit import custom_ids, running_bot, start_game, table_message


def corrupt(db: Path, session_id: str) -> None:
    """Append an entry The Game does not know, as an older build could have stored, and say
    the AI is to move, so the restart resumes the session at once."""
    conn = sqlite3.connect(db, isolation_level=None)
    (version,) = conn.execute("SELECT version FROM sessions WHERE id = ?", (session_id,)).fetchone()
    conn.execute(
        "INSERT INTO actions (session_id, seq, actor, payload) VALUES (?, ?, 0, ?)",
        (session_id, version + 1, '{"kind": "time"}'),
    )
    conn.execute(
        "UPDATE sessions SET version = ?, to_move = '[1]' WHERE id = ?", (version + 1, session_id)
    )
    conn.execute("DELETE FROM snapshots WHERE session_id = ?", (session_id,))
    conn.close()


async def test_a_session_that_cannot_load_is_closed_and_the_bot_runs_on(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, db, table_edit_interval=0.2) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, first="0")
        corrupt(db, session.id)
        async with running_bot(emu, db, fail_on_errors=False, table_edit_interval=0.2) as bot:
            closed = t("en", "lobby.quarantined")
            await emu.wait_for(lambda: closed in table_message(emu, session).text)
            assert not custom_ids(table, ":hand$")
            loaded = await bot.storage.sessions.load(session.id)
            assert loaded is not None and loaded.record.status is Status.ABANDONED
            assert loaded.record.quarantine is not None
            res = await alice.slash(emu.general, "thegame new")  # the channel is free again
            assert res.text.startswith(t("en", "lobby.opened", link="").split(":")[0])
