"""/hint and the AI levels in every game, through the real discord.py client and the emulator;
and every reason an AI can give, in words in both languages."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.client import TableBot
from bot.context import Context
from bot.hints import UNKNOWN, hint_text, reason_text
from bot.i18n import CATALOGS, t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser, InteractionResult
from games.engine import CHANCE, NORMAL, STRONG, AiDecision, Session, Status, advance
from games.engine.search import WINS_MOST_SAMPLES
from games.registry import AIS, GAME_IDS, GAMES
from runtime import Hint, ManualClock
from storage import open_storage
from tests.botkit import (
    LOCALES,
    custom_ids,
    open_lobby,
    running_bot,
    session_in,
    start_game,
    table_message,
)

FAST = {"table_edit_interval": 0.2}
STRONG_GAMES = [g for g in GAME_IDS if STRONG in AIS[g].levels]
ONE_LEVEL_GAMES = [g for g in GAME_IDS if STRONG not in AIS[g].levels]


def others(game_id: str) -> int:
    """AI seats a game needs besides alice and bob."""
    return max(0, GAMES[game_id].min_players - 2)


def expected_hint(bot: TableBot, session: Session, seat: int, lang: str = "en") -> str:
    """The reply a hint for `seat` should be: the decision of the game's best AI level
    (`hint_level`) from the seat's view with the rng of this version, in words."""
    record, rules, ai = session.record, session.rules, AIS[session.record.game_id]
    rng = random.Random(f"{record.seed}:ai:{record.version}")
    decision = ai.decide(rules.view(session.state, seat), rng, ai.hint_level)
    hint = Hint(seat=seat, version=record.version, decision=decision)
    return hint_text(Context.of(session, lang), bot.games[record.game_id], hint)


async def ask_hint(emu: Emulator, user: EmuUser) -> InteractionResult:
    """`/hint` and its answer: one that thinks long (a busy machine) is deferred, "thinking…",
    then filled; wait for the answer itself."""
    res = await user.slash(emu.general, "hint")
    await res.wait_until_loaded()
    return res


def lobby_seat(n: int, level: str) -> str:
    """How the lobby lists AI seat `n` (1-based) at `level`."""
    name = t("en", "seat.ai", n=n)
    return t("en", "lobby.ai_seat", name=name, level=t("en", f"ai.level.{level}"))


async def ai_moved(bot: TableBot, session: Session, seat: int, after: int) -> bool:
    log = await bot.service.store.log(session.id, after=after)
    return any(entry.actor == seat for entry in log)


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_a_hint_is_private_counted_on_the_table_and_refused_out_of_turn(
    tmp_path: Path, game_id: str
) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=others(game_id), first="0",
                command=f"{game_id} new",
            )  # fmt: skip
            version = session.record.version
            used = t("en", "table.hints", n=1)

            res = await ask_hint(emu, bob)
            assert res.ephemeral and res.text == t("en", "error.not_your_turn.hint")
            assert session.record.version == version
            assert [s.hints for s in session.record.seats] == [0] * len(session.record.seats)

            res = await ask_hint(emu, alice)
            assert res.ephemeral and alice.can_see(res.message)
            assert not bob.can_see(res.message)
            assert res.text == expected_hint(bot, session, 0)
            assert t("en", UNKNOWN) not in res.text
            assert session.record.version == version  # a hint is no move
            assert session.record.seats[0].hints == 1
            await emu.wait_for(lambda: used in table.text)
            assert not any(res.text == m.text for m in bob.visible_messages())


@pytest.mark.parametrize("game_id", STRONG_GAMES)
async def test_a_strong_ai_seat_shows_its_level_keeps_it_after_a_restart_and_plays(
    tmp_path: Path, game_id: str
) -> None:
    """The strong seat's moves go through the real process pool."""
    db = tmp_path / "db.sqlite3"
    strong, normal = lobby_seat(2, STRONG), lobby_seat(3, NORMAL)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, db, **FAST) as bot:
            session, table = await open_lobby(emu, bot, alice, f"{game_id} new")
            await alice.click(table, custom_ids(table, r":addai\.strong$")[0])
            assert [s.ai_level for s in session.record.seats] == [NORMAL, STRONG]
            await emu.wait_for(lambda: strong in table.text)
        async with running_bot(emu, db, **FAST) as bot:
            session = await session_in(bot, emu)
            assert [s.ai_level for s in session.record.seats] == [NORMAL, STRONG]
            table = table_message(emu, session)
            await alice.click(table, custom_ids(table, ":addai$")[0])
            await emu.wait_for(lambda: strong in table.text and normal in table.text)
            res = await alice.click(table, custom_ids(table, ":start$")[0])
            await alice.select(res.message, custom_ids(res.message, ":first$")[0], ["1"])
            dealt = session.record.version
            await emu.wait_for(lambda: ai_moved(bot, session, 1, dealt))
            assert session.record.seats[1].ai_level == STRONG


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", ONE_LEVEL_GAMES)
async def test_a_game_whose_ai_has_one_level_offers_no_strong_seat_and_says_so(
    tmp_path: Path, game_id: str, lang: str
) -> None:
    async with Emulator.running(guild_locale=LOCALES[lang]) as emu:
        alice = emu.add_user("alice", locale=LOCALES[lang])
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            _, table = await open_lobby(emu, bot, alice, f"{game_id} new")
            assert custom_ids(table, ":addai$")
            assert not custom_ids(table, r":addai\.")
            assert t(lang, "lobby.add_ai_strong") not in table.text
            assert t(lang, "lobby.description_one_level") in table.text
            assert t(lang, "lobby.description") not in table.text


@pytest.mark.parametrize("game_id", ONE_LEVEL_GAMES)
async def test_a_stored_strong_seat_of_a_game_with_one_ai_level_loads_reads_normal_and_plays(
    tmp_path: Path, game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat added while the game still offered STRONG (the offer is patched back in for the
    first run) keeps its stored level, is listed as the level it plays, and plays."""
    db = tmp_path / "db.sqlite3"
    normal = lobby_seat(2, NORMAL)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        monkeypatch.setitem(AIS, game_id, replace(AIS[game_id], levels=(NORMAL, STRONG)))
        async with running_bot(emu, db, **FAST) as bot:
            session, table = await open_lobby(emu, bot, alice, f"{game_id} new")
            await alice.click(table, custom_ids(table, r":addai\.strong$")[0])
            assert [s.ai_level for s in session.record.seats] == [NORMAL, STRONG]
        monkeypatch.undo()
        async with running_bot(emu, db, **FAST) as bot:
            session = await session_in(bot, emu)
            assert [s.ai_level for s in session.record.seats] == [NORMAL, STRONG]
            table = table_message(emu, session)
            await alice.click(table, custom_ids(table, ":addai$")[0])  # redraws the lobby
            await emu.wait_for(lambda: normal in table.text and lobby_seat(3, NORMAL) in table.text)
            assert lobby_seat(2, STRONG) not in table.text
            res = await alice.click(table, custom_ids(table, ":start$")[0])
            await alice.select(res.message, custom_ids(res.message, ":first$")[0], ["1"])
            dealt = session.record.version
            await emu.wait_for(lambda: ai_moved(bot, session, 1, dealt), timeout=30)


async def test_a_hint_where_it_makes_no_sense_gets_a_localized_reply(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        hana, eve = emu.add_user("hana", locale="ja"), emu.add_user("eve")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            res = await ask_hint(emu, hana)
            assert res.ephemeral and res.text == t("ja", "error.no_session_here")
            session, table = await open_lobby(emu, bot, hana, "exhaust new")
            res = await ask_hint(emu, hana)
            assert res.ephemeral and res.text == t("ja", "error.not_in_lobby.not_started")
            res = await hana.click(table, custom_ids(table, ":start$")[0])
            await hana.select(res.message, custom_ids(res.message, ":first$")[0], ["0"])
            assert session.record.status is Status.ACTIVE
            res = await ask_hint(emu, eve)
            assert res.ephemeral and res.text == t("en", "error.not_a_player")
            await bot.service.abandon(session.id, hana.id)
            res = await ask_hint(emu, hana)
            assert res.ephemeral and res.text == t("ja", "error.no_session_here")
            assert session.record.seats[0].hints == 0


async def finish_with_a_hint(
    emu: Emulator, bot: TableBot, clock: ManualClock, user: EmuUser
) -> tuple[Session, EmuMessage]:
    """The Game, `user` and an AI seat: one hint on the first turn, then the turn timer runs
    out until an AI holds the seat and plays the game out."""
    session, table = await start_game(emu, bot, user, ai=1, first="0", turn_timer=30)
    res = await ask_hint(emu, user)
    assert res.ephemeral and session.record.seats[0].hints == 1
    for _ in range(2_000):
        if session.record.status is not Status.ACTIVE:
            break
        clock.advance(31)
        await asyncio.sleep(0.01)
    await emu.wait_for(lambda: session.record.status is Status.FINISHED, timeout=60)
    await emu.wait_for(lambda: bool(custom_ids(table, ":rematch$")))  # recorded, then redrawn
    return session, table


async def test_a_game_played_with_hints_is_marked_in_the_records(tmp_path: Path) -> None:
    db, clock = tmp_path / "db.sqlite3", ManualClock(1_800_000_000.0)
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, db, clock=clock, ai_delay=0.0, **FAST) as bot:
            session, table = await finish_with_a_hint(emu, bot, clock, alice)
            assert t("en", "table.hints", n=1) in table.text
            res = await alice.slash(emu.general, "history")
            assert res.ephemeral and t("en", "history.hints", count=1) in res.text
    async with await open_storage(db) as storage:
        [entry] = await storage.records.history(session.record.guild_id)
        assert entry.record.session_id == session.id
        assert (entry.record.hints, [s.hints for s in entry.seats]) == (1, [1, 0])


# Reasons in words -----------------------------------------------------------------------------


def reasons_seen(game_id: str, games: int = 2, decisions: int = 40) -> set[str]:
    """The reason codes the NORMAL AI gives in a few games it plays against itself."""
    rules, seen = GAMES[game_id], set()
    for seed in range(games):
        config = rules.make_config(max(2, rules.min_players), {})
        step = advance(rules, rules.setup(config), 0, CHANCE, None, seed)
        state, version = step.state, len(step.logged)
        rng = random.Random(seed)
        for _ in range(decisions):
            if rules.is_over(state):
                break
            seat = min(rules.to_move(state).seats)
            made = AIS[game_id].decide(rules.view(state, seat), rng, NORMAL)
            seen.add(made.reason)
            step = advance(rules, state, version, seat, made.action, seed)
            state, version = step.state, version + len(step.logged)
    return seen


def reason_codes(game_id: str) -> set[str]:
    """Every reason a game's AI gives: those its AI declares, and any seen in play."""
    return set(AIS[game_id].reasons) | reasons_seen(game_id)


def phrase(lang: str, game_id: str, reason: str, **params: Any) -> str:
    return reason_text(lang, game_id, AiDecision(action=None, reason=reason, params=params))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_reason_of_a_games_ai_reads_in_both_languages(game_id: str) -> None:
    """Each code (and each as the move a search kept) has its own phrase, never the fallback."""
    for code in sorted(reason_codes(game_id)):
        for lang in CATALOGS:
            own = phrase(lang, game_id, code)
            assert own and own != t(lang, UNKNOWN), (lang, code)
            searched = phrase(lang, game_id, WINS_MOST_SAMPLES, move=code, score=73, playouts=410)
            assert own in searched and "73" in searched and "410" in searched, (lang, code)


def test_a_reason_no_catalog_knows_reads_as_the_fallback() -> None:
    for lang in CATALOGS:
        assert phrase(lang, "thegame", "brand_new_code") == t(lang, UNKNOWN)
