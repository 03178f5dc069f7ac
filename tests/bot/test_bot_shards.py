"""The bot as two shard processes (two `ShardedTableBot`s, shard 0 and shard 1 of two) on one
PostgreSQL database, through the emulator: each serves its own guild's games, a DM click that
reaches shard 0 moves a game of shard 1's guild on, and a shard handed to a new process
resumes its games."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from pathlib import Path
from typing import Any

from bot.client import ShardedTableBot, TableBot
from bot.playground.emulator import Emulator, EmuMessage, EmuUser, RateLimit
from bot.playground.emulator.models import EmuChannel, EmuGuild
from games.engine import Session, Status
from games.thegame import RULES
from games.thegame.models import EndTurn, Play
from runtime import Change
from tests.botkit import custom_ids, open_hand, running_bot

FAST = {"table_edit_interval": 0.2}


def shard_bot(
    emu: Emulator, url: str, tmp_path: Path, shards: tuple[int, ...], **options: Any
) -> AbstractAsyncContextManager[TableBot]:
    """A bot process running `shards` of two, on the PostgreSQL database `url`."""
    return running_bot(
        emu,
        tmp_path / "unused.sqlite3",  # DATABASE_URL wins over DATABASE_PATH
        database_url=url,
        shard_count=2,
        shard_ids=shards,
        **FAST,
        **options,
    )


def recorder(bot: TableBot) -> list[Change]:
    changes: list[Change] = []
    bot.service.observe(changes.append)
    return changes


async def table_of(emu: Emulator, bot: TableBot, channel: EmuChannel) -> tuple[Session, EmuMessage]:
    session = await bot.service.live_in_channel(channel.id)
    assert session is not None
    message_id = session.record.table_message_id
    assert message_id is not None
    return session, next(m for m in emu.channel_messages(channel) if m.id == message_id)


async def start_game(
    emu: Emulator, bot: TableBot, host: EmuUser, channel: EmuChannel, *, ai: int, first: str
) -> tuple[Session, EmuMessage]:
    """`/thegame new` in `channel`, `ai` AI seats, started with `first` to play."""
    await host.slash(channel, "thegame new")
    session, table = await table_of(emu, bot, channel)
    for _ in range(ai):
        await host.click(table, custom_ids(table, ":addai$")[0])
    res = await host.click(table, custom_ids(table, ":start$")[0])
    await host.select(res.message, custom_ids(res.message, ":first$")[0], [first])
    await emu.wait_for(lambda: bool(custom_ids(table, ":hand$")))
    return session, table


async def play_turn(
    emu: Emulator, bot: TableBot, session_id: str, user: EmuUser, hand: EmuMessage
) -> None:
    """Play seat 0's turn by clicks on `hand`: the lowest playable card until the turn may
    end, then end it (a short game: it soon runs out of playable cards)."""
    session = await bot.service.get(session_id)
    turn = session.state.turn_number
    while True:
        session = await bot.service.get(session_id)
        state = session.state
        if not session.record.status.live or state.turn != 0 or state.turn_number != turn:
            return
        version = session.record.version
        shown = f":{version}:"
        await emu.wait_for(lambda shown=shown: any(shown in i for i in custom_ids(hand)))
        legal = RULES.legal_actions(state, 0)
        if any(isinstance(a, EndTurn) for a in legal):
            await user.click(hand, custom_ids(hand, r":x\.end$")[0])
        else:
            play = min((a for a in legal if isinstance(a, Play)), key=lambda a: (a.card, a.pile))
            await user.select(hand, custom_ids(hand, r":x\.pick$")[0], [str(play.card)])
            await user.click(hand, custom_ids(hand, rf":x\.play\.{play.card}\.{play.pile}$")[0])
        assert (await bot.service.get(session_id)).record.version > version


async def play_to_the_end(
    emu: Emulator, bot: TableBot, session_id: str, user: EmuUser, hand: EmuMessage
) -> Session:
    """The player plays seat 0 against the AI until the game ends."""
    while True:
        session = await bot.service.get(session_id)
        if session.record.status is not Status.ACTIVE:
            return session
        if session.state.turn == 0:
            await play_turn(emu, bot, session_id, user, hand)
        else:
            await emu.wait_for(
                lambda s=session: s.state.turn == 0 or not s.record.status.live  # type: ignore[misc]
            )


def guilds(emu: Emulator) -> tuple[EmuGuild, EmuGuild]:
    return emu.add_guild("Zero", shard=(0, 2)), emu.add_guild("One", shard=(1, 2))


async def test_two_shard_processes_play_at_once_on_one_postgresql(
    pg_url: str, tmp_path: Path
) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        zero, one = guilds(emu)
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with AsyncExitStack() as stack:
            first = await stack.enter_async_context(shard_bot(emu, pg_url, tmp_path, (0,)))
            second = await stack.enter_async_context(shard_bot(emu, pg_url, tmp_path, (1,)))
            assert isinstance(first, ShardedTableBot) and first.storage.backend == "postgresql"
            assert {g.id for g in first.guilds} & {zero.id, one.id} == {zero.id}
            assert {g.id for g in second.guilds} & {zero.id, one.id} == {one.id}
            seen = {first: recorder(first), second: recorder(second)}
            games = []
            for bot, user, guild in ((first, alice, zero), (second, bob, one)):
                session, table = await start_game(
                    emu, bot, user, guild.channels[0], ai=1, first="1"
                )
                games.append((bot, session.id, user, await open_hand(user, table)))
            ended = await asyncio.gather(*(play_to_the_end(emu, *game) for game in games))
            assert [s.record.status for s in ended] == [Status.FINISHED] * 2
            for bot, session_id, _, _ in games:
                assert {c.session.id for c in seen[bot]} == {session_id}  # its own game only
                ai_moves = [c for c in seen[bot] if c.actor == 1]
                assert ai_moves  # the AI of its game moved here
            for guild, (bot, _, _, _) in zip((zero, one), games, strict=True):
                # Recorded by a listener once the last move is committed: wait for it.
                async def recorded(bot: TableBot = bot, guild_id: int = guild.id) -> bool:
                    stats = await bot.storage.records.stats(guild_id, "thegame")
                    return stats.games == 1

                await emu.wait_for(recorded)


async def test_a_dm_click_moves_a_game_of_the_other_shard_and_its_owner_plays_on(
    pg_url: str, tmp_path: Path
) -> None:
    """Direct messages reach shard 0: the click's process commits the move, and the owner of
    the game's guild (shard 1) then plays the AI's turn."""
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        _, one = guilds(emu)
        bob = emu.add_user("bob")
        async with AsyncExitStack() as stack:
            dms = await stack.enter_async_context(shard_bot(emu, pg_url, tmp_path, (0,)))
            owner = await stack.enter_async_context(shard_bot(emu, pg_url, tmp_path, (1,)))
            channel = one.channels[0]
            session, _ = await start_game(emu, owner, bob, channel, ai=1, first="0")
            await bob.slash(channel, "hand", dm=True)
            hand = bob.dms()[-1]
            by_owner, by_dms = recorder(owner), recorder(dms)
            await play_turn(emu, dms, session.id, bob, hand)  # every click reached shard 0
            assert by_dms and all(c.actor == 0 for c in by_dms)
            await emu.wait_for(lambda: any(c.actor == 1 for c in by_owner))
            assert not any(c.actor == 1 for c in by_dms)  # only the owner drives the AI
            resumed = await owner.service.get(session.id)
            await emu.wait_for(
                lambda: resumed.state.turn == 0 or resumed.record.status is not Status.ACTIVE
            )


async def test_a_shard_taken_over_by_a_new_process_resumes_its_games(
    pg_url: str, tmp_path: Path
) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        zero, _ = guilds(emu)
        alice = emu.add_user("alice")
        channel = zero.channels[0]
        async with shard_bot(emu, pg_url, tmp_path, (0,), ai_delay=3600) as old:
            session, table = await start_game(emu, old, alice, channel, ai=1, first="0")
            hand = await open_hand(alice, table)
            await play_turn(emu, old, session.id, alice, hand)
            version = (await old.service.get(session.id)).record.version
        # The process stopped before its AI played; one that runs both shards takes over.
        async with shard_bot(emu, pg_url, tmp_path, (0, 1)) as new:

            async def ai_moved() -> bool:  # (it may have, before the bot was even ready)
                return (await new.storage.sessions.version(session.id) or 0) > version

            await emu.wait_for(ai_moved)
            resumed = await new.service.get(session.id)
            assert resumed.record.version > version
            await emu.wait_for(
                lambda: resumed.state.turn == 0 or resumed.record.status is not Status.ACTIVE
            )
            if resumed.record.status is Status.ACTIVE:  # and the player plays on
                _, table = await table_of(emu, new, channel)
                await play_turn(emu, new, session.id, alice, await open_hand(alice, table))
