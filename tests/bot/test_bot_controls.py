"""Malformed controls: a click whose custom_id does not fit its component gets a refusal."""

from __future__ import annotations

from pathlib import Path

from bot.playground.emulator import Emulator
from tests.botkit import running_bot, start_game


async def test_a_button_carrying_a_select_custom_id_is_refused(tmp_path: Path) -> None:
    """The select-style id on a button has no values: refused in words, nothing raised."""
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            session, _ = await start_game(emu, bot, alice, first="0")
            version = session.record.version
            custom_id = f"s:{session.id}:{version}:x.pick"
            button = {"type": 2, "style": 2, "label": "odd", "custom_id": custom_id}
            forged = emu.create_message(
                emu.general, emu.bot, {"components": [{"type": 1, "components": [button]}]}
            )
            res = await alice.click(forged, custom_id)
            assert res.ephemeral and "not valid" in res.text
            assert session.record.version == version
