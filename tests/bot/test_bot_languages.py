"""The table speaks its server's language: the /settings choice, else the server's own Discord
language (sent with every interaction as `guild_locale`), else `DEFAULT_LOCALE`; each reply
speaks the clicker's language. Through the real discord.py client and the emulator."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import t
from bot.languages import GUILD_DISCORD_LOCALE
from bot.playground.emulator import Emulator
from games.engine import Status
from tests.botkit import custom_ids, open_hand, open_lobby, running_bot, start_game


def lobby_title(lang: str) -> str:
    return t(lang, "lobby.title", game=t(lang, "thegame.name"))


async def test_a_japanese_server_gets_japanese_lobbies_and_tables_without_settings(
    tmp_path: Path,
) -> None:
    async with Emulator.running(guild_locale="ja") as emu:
        alice = emu.add_user("alice")  # an English client on a Japanese server
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            res = await alice.slash(emu.general, "thegame new")
            assert t("en", "lobby.opened", link="").split("[")[0] in res.text  # her language
            session = await bot.service.live_in_channel(emu.general.id)
            assert session is not None and session.record.locale == "ja"
            stored = await bot.storage.prefs.guild.get(emu.guild.id, GUILD_DISCORD_LOCALE)
            assert stored == "ja"
            table = emu.last_message(emu.general)
            assert lobby_title("ja") in table.text and lobby_title("en") not in table.text
            await alice.click(table, custom_ids(table, ":cancel$")[0])

            # The AI moves first: its moves are redrawn with no interaction, in Japanese.
            session, table = await start_game(emu, bot, alice, ai=1, first="1")
            await emu.wait_for(lambda: session.state.turn == 0)
            await emu.wait_for(lambda: t("ja", "table.recent") in table.text)
            assert t("ja", "thegame.pile.0") in table.text
            assert t("en", "thegame.pile.0") not in table.text
            hand = await open_hand(alice, table)
            assert t("en", "thegame.hand.title") in hand.text  # her hand in her language


async def test_settings_still_override_the_servers_language(tmp_path: Path) -> None:
    async with Emulator.running(guild_locale="ja") as emu:
        mod = emu.add_user("mod", admin=True)
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            res = await mod.slash(emu.general, "settings")
            shown = t("en", "settings.language.server", language=t("en", "settings.lang.ja"))
            assert shown in res.text
            res = await mod.slash(emu.general, "settings", language="en")
            assert t("en", "settings.language", language=t("en", "settings.lang.en")) in res.text
            session, table = await open_lobby(emu, bot, mod)
            assert session.record.locale == "en" and lobby_title("en") in table.text
            await mod.click(table, custom_ids(table, ":cancel$")[0])
            assert session.record.status is Status.ABANDONED

            # Dropping the choice: tables follow the server's own language again.
            res = await mod.slash(emu.general, "settings", language="server")
            assert shown in res.text
            session, table = await open_lobby(emu, bot, mod)
            assert session.record.locale == "ja" and lobby_title("ja") in table.text


async def test_an_english_server_stays_english_for_japanese_players(tmp_path: Path) -> None:
    async with Emulator.running(guild_locale="en-US") as emu:
        hana = emu.add_user("hana", locale="ja")
        async with running_bot(emu, tmp_path / "db.sqlite3", default_locale="ja") as bot:
            res = await hana.slash(emu.general, "thegame new")
            assert t("ja", "lobby.opened", link="").split("[")[0] in res.text  # her language
            session = await bot.service.live_in_channel(emu.general.id)
            assert session is not None and session.record.locale == "en"
            table = emu.last_message(emu.general)
            assert lobby_title("en") in table.text and lobby_title("ja") not in table.text
