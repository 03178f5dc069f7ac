"""The Game played through the real discord.py client against the local Discord emulator."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.games.thegame.picture import FILENAME, table_picture
from bot.games.thegame.pieces import pile_line
from bot.i18n import t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser, RateLimit
from bot.playground.emulator.models import ATTACH_FILES
from bot.ui.layout import plain
from games.engine import Session, Status
from games.engine.step import chance_rng
from games.thegame import AI, RULES
from games.thegame.models import EndTurn, Play, Signal, TheGameState
from tests.botkit import (
    click_play,
    custom_ids,
    open_hand,
    open_lobby,
    play_a_card,
    rules_page,
    running_bot,
    session_in,
    start_game,
    table_message,
    wait_current,
)

FAST = {"table_edit_interval": 0.2}
CARD_TOKEN = re.compile(r"`🔵?(\d+)`")


def seen_cards(user: EmuUser) -> set[int]:
    """Every card number this user is shown as a card of a hand (hand lines, selects, buttons)."""
    cards: set[int] = set()
    for message in user.visible_messages():
        cards |= {int(n) for n in CARD_TOKEN.findall(message.text)}
        for custom_id in custom_ids(message, r":x\.pick$"):
            component = message.component(custom_id)
            assert component is not None
            cards |= {int(o["value"]) for o in component["options"]}
        for custom_id in custom_ids(message, r":x\.play\."):
            cards.add(int(custom_id.split(":")[3].split(".")[2]))
    return cards


def assert_hidden(session: Session, users: dict[int, EmuUser]) -> None:
    """Nobody sees a card that is in another seat's hand or in the draw pile."""
    state: TheGameState = session.state
    secret = RULES.secret_cards(state)
    for seat, user in users.items():
        leaked = seen_cards(user) & (secret - set(state.hands[seat]))
        assert not leaked, f"{user.name} sees hidden cards {sorted(leaked)}"


async def play_turn(
    emu: Emulator,
    session: Session,
    user: EmuUser,
    hand: EmuMessage,
    table: EmuMessage,
    seat: int,
    users: dict[int, EmuUser],
) -> None:
    """Play the seat's whole turn by clicks; the planning AI chooses what to click."""
    rng = random.Random(0)
    turn = session.state.turn_number
    while (
        session.record.status is Status.ACTIVE
        and session.state.turn == seat
        and session.state.turn_number == turn
    ):
        await wait_current(emu, hand, session)
        action = AI.normal(RULES.view(session.state, seat), rng)
        version = session.record.version
        match action:
            case Play(card=card, pile=pile):
                await user.select(hand, custom_ids(hand, r":x\.pick$")[0], [str(card)])
                await user.click(hand, custom_ids(hand, rf":x\.play\.{card}\.{pile}$")[0])
            case EndTurn():
                await user.click(hand, custom_ids(hand, r":x\.end$")[0])
            case Signal(pile=pile, signal=kind):
                await emu.wait_for(lambda: bool(custom_ids(table, r":x\.sig$")))
                signals = custom_ids(table, r":x\.sig$")[0]
                await user.select(table, signals, [f"{pile}.{kind.value}"])
        assert session.record.version > version
        assert_hidden(session, users)


async def play_to_the_end(
    emu: Emulator, session: Session, table: EmuMessage, users: dict[int, EmuUser]
) -> None:
    hands = {seat: await open_hand(user, table) for seat, user in users.items()}
    assert_hidden(session, users)
    while session.record.status is Status.ACTIVE:
        seat = session.state.turn
        if seat in users:
            await play_turn(emu, session, users[seat], hands[seat], table, seat, users)
        else:
            await emu.wait_for(
                lambda: session.state.turn in users or session.record.status is not Status.ACTIVE
            )


async def test_two_players_play_a_whole_game_with_clicks(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,))
            await play_to_the_end(emu, session, table, {0: alice, 1: bob})
            outcome = RULES.outcome(session.state)
            assert outcome is not None
            left = outcome.details["cards_left"]
            result = t("en", f"thegame.result.{outcome.result}", count=left)
            await emu.wait_for(lambda: result in table.text)
            assert custom_ids(table, ":rematch$")
            # The record is stored by a listener after the commit: a redraw may come first.
            await emu.wait_for(lambda: t("en", "records.title") in table.text)
            await bot.refresher.idle()
            assert table.file(FILENAME) == table_picture(RULES.view(session.state, None))
            assert not emu.rate_limit_hits


async def test_a_solo_game_runs_to_its_end(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice)
            assert session.config.hand_size == 8
            await play_to_the_end(emu, session, table, {0: alice})
            assert session.record.status is Status.FINISHED
            await emu.wait_for(lambda: custom_ids(table, ":rematch$") != [])


async def test_a_game_with_an_ai_seat_reaches_its_end(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, first="1")
            await emu.wait_for(
                lambda: session.state.turn == 0 or session.record.status is not Status.ACTIVE
            )
            assert session.state.turn_number >= 2  # the AI seat took the first turn itself
            await play_to_the_end(emu, session, table, {0: alice})
            assert session.record.status is Status.FINISHED


async def test_ai_only_table_never_exceeds_the_edit_rate(tmp_path: Path) -> None:
    # Real pacing: Discord's 5 edits per 5 s, and 429s are answered rather than pre-announced.
    async with Emulator.running(rate_limit=RateLimit(5, 5.0), rate_limit_headers=False) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", ai_delay=0.0) as bot:
            session, table = await start_game(emu, bot, alice, ai=2)
            res = await alice.slash(emu.general, "leave")
            assert "AI plays your seat" in res.text
            await bot.service.settle()
            assert session.record.status is Status.FINISHED
            await bot.refresher.idle()
            assert t("en", "thegame.result.title") in table.text
            assert not emu.rate_limit_hits


def _seed_with_blue_in_solo_hand() -> int:
    """A seed whose solo deal gives the player a blue card that fits the first up pile."""
    config = RULES.make_config(1, {"on_fire": True, "first_player": 0})
    for seed in range(1000):
        deal = RULES.chance_action(RULES.setup(config), chance_rng(seed, 1))
        hand = sorted(deal.order[:8])
        blues = [c for c in hand if config.is_blue(c)]
        others = [c for c in hand if not config.is_blue(c)]
        if blues and len(others) >= 3:
            return seed
    raise AssertionError("no seed found")


async def test_on_fire_an_uncovered_blue_card_burns_the_table(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            seed = _seed_with_blue_in_solo_hand()
            bot.service._seed_source = lambda: seed
            session, table = await start_game(emu, bot, alice, first="0", on_fire=True)
            hand = await open_hand(alice, table)
            state = session.state
            blue = next(c for c in state.hands[0] if state.config.is_blue(c))
            others = [c for c in state.hands[0] if c != blue]

            async def play(card: int, pile: int) -> None:
                await click_play(alice, hand, Play(card=card, pile=pile))

            await play(blue, 0)  # blue on Up 1
            await play(max(others), 2)  # a high card on Down 1 ...
            await alice.click(hand, custom_ids(hand, r":x\.end$")[0])
            assert "🔵" in hand.text
            # Next turn: play two cards elsewhere, never covering the blue card.
            for _ in range(2):
                card, pile = next(
                    (c, p)
                    for c in session.state.hands[0]
                    for p in (2, 3, 1)
                    if RULES.legal_actions(session.state, 0).count(Play(card=c, pile=p))
                )
                await play(card, pile)
            await alice.click(hand, custom_ids(hand, r":x\.end$")[0])
            assert session.state.end_reason is not None
            assert RULES.outcome(session.state).result == "burned"
            burned = t("en", "thegame.result.burned", count=session.state.cards_left)
            await emu.wait_for(lambda: burned in table.text)


async def test_a_stale_hand_control_is_refused_with_the_current_table(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            old = await open_hand(alice, table)  # an older copy of alice's hand
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)
            version, state = session.record.version, session.state
            stale_pick = custom_ids(old, r":x\.pick$")[0]
            still_held = next(
                c
                for c in session.state.hands[0]
                if str(c) in [o["value"] for o in old.component(stale_pick)["options"]]
            )
            res = await alice.select(old, stale_pick, [str(still_held)])
            assert "This table has changed" in res.text
            assert (session.record.version, session.state) == (version, state)
            assert f":{version}:" in " ".join(custom_ids(res.message))  # redrawn current


async def test_a_control_from_an_earlier_turn_cannot_move_out_of_turn(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            alice_hand = await open_hand(alice, table)
            for _ in range(2):
                await play_a_card(alice, alice_hand, session, 0)
            end_turn = custom_ids(alice_hand, r":x\.end$")[0]
            await alice.click(alice_hand, end_turn)
            assert session.state.turn == 1
            version = session.record.version
            bob_hand = await open_hand(bob, table)
            assert custom_ids(bob_hand, r":x\.pick$")  # bob's turn: he has controls
            await emu.wait_for(lambda: not custom_ids(alice_hand, r":x\.pick$"))
            assert not custom_ids(alice_hand, r":x\.(pick|end)$")  # alice sees no play controls now
            assert t("en", "thegame.hand.waiting", name="bob") in alice_hand.text
            assert session.record.version == version


async def test_non_players_and_non_hosts_are_refused(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob, carol = emu.add_user("alice"), emu.add_user("bob"), emu.add_user("carol")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await open_lobby(emu, bot, alice)
            await bob.click(table, custom_ids(table, ":join$")[0])
            res = await bob.click(table, custom_ids(table, ":start$")[0])
            assert res.ephemeral and "Only the host" in res.text
            assert session.record.status is Status.LOBBY
            res = await bob.click(table, custom_ids(table, ":join$")[0])
            assert "already have a seat" in res.text
            res = await carol.click(table, custom_ids(table, ":cancel$")[0])
            assert "Only the host" in res.text
            res = await alice.click(table, custom_ids(table, ":start$")[0])
            await alice.select(res.message, custom_ids(res.message, ":first$")[0], ["r"])
            await emu.wait_for(lambda: bool(custom_ids(table, r":x\.sig$")))
            version = session.record.version
            res = await carol.click(table, custom_ids(table, ":hand$")[0])
            assert res.ephemeral and "not playing in this game" in res.text
            res = await carol.select(table, custom_ids(table, r":x\.sig$")[0], ["0.no_play"])
            assert "not playing in this game" in res.text
            res = await carol.slash(emu.general, "abandon")
            assert "Only the host" in res.text
            assert session.record.version == version
            assert session.record.status is Status.ACTIVE


async def test_a_second_game_in_the_same_channel_is_refused(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            session, _ = await open_lobby(emu, bot, alice)
            res = await bob.slash(emu.general, "thegame new")
            assert "already open in this channel" in res.text
            assert res.ephemeral
            live = await bot.service.live_sessions(emu.guild.id)
            assert [s.id for s in live] == [session.id]


async def test_hand_in_dms_is_edited_after_every_change(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            res = await bob.slash(emu.general, "hand", dm=True)
            assert "in your DMs" in res.text
            dm = bob.dms()[-1]
            assert t("en", "thegame.hand.waiting", name="alice") in dm.text
            assert not alice.can_see(dm)
            hand = await open_hand(alice, table)
            for _ in range(2):
                played = await play_a_card(alice, hand, session, 0)
            await alice.click(hand, custom_ids(hand, r":x\.end$")[0])
            your_turn = t("en", "thegame.hand.your_turn", n=2)
            await emu.wait_for(lambda: your_turn in dm.text)
            played = await play_a_card(bob, dm, session, 1)  # plays from the DM
            assert session.state.top(played.pile) == played.card
            assert_hidden(session, {0: alice, 1: bob})


async def test_a_hand_opened_in_the_channel_takes_over_from_the_dm_hand(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            await bob.slash(emu.general, "hand", dm=True)
            dm = bob.dms()[-1]
            shown_in_dm = dm.text
            here = await open_hand(bob, table)
            hand = await open_hand(alice, table)
            for _ in range(2):
                await play_a_card(alice, hand, session, 0)
            await alice.click(hand, custom_ids(hand, r":x\.end$")[0])
            your_turn = t("en", "thegame.hand.your_turn", n=2)
            await emu.wait_for(lambda: your_turn in here.text)
            assert dm.text == shown_in_dm
            assert await bot.storage.hand_messages.get(session.id, bob.id) is None


async def test_closed_dms_fall_back_to_a_private_reply(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice", dms_open=False)
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            _, table = await start_game(emu, bot, alice)
            res = await alice.click(table, custom_ids(table, ":dm$")[0])
            assert res.ephemeral
            assert t("en", "hand.dms_closed") in res.text
            assert t("en", "thegame.hand.title") in res.text
            assert not alice.dms()


async def test_a_restart_mid_game_keeps_the_game_and_its_buttons(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, db, **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)
            before = (session.record.version, session.state)
        async with running_bot(emu, db, **FAST) as bot:
            restored = await session_in(bot, emu)
            assert (restored.record.version, restored.state) == before
            await play_a_card(alice, hand, restored, 0)  # the old message still works
            assert restored.record.version > before[0]
            await alice.click(hand, custom_ids(hand, r":x\.end$")[0])
            assert restored.state.turn == 1
            bob = t("en", "thegame.table.seat", name="bob", count=len(restored.state.hands[1]))
            await emu.wait_for(lambda: f"▶ **{bob}**" in table_message(emu, restored).text)


async def test_japanese_users_get_japanese_and_the_table_follows_the_server(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        hana = emu.add_user("hana", locale="ja", admin=True)
        bob = emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3") as bot:
            assert "10戻し" in await rules_page(hana, emu.general, "thegame", "turn")
            assert "±10 trick" in await rules_page(bob, emu.general, "thegame", "turn")
            res = await hana.slash(emu.general, "settings", language="ja")
            assert "日本語" in res.text
            _, table = await start_game(emu, bot, hana, joiners=(bob,))
            await emu.wait_for(lambda: t("ja", "thegame.pile.0") in table.text)
            hand = await open_hand(hana, table)
            assert t("ja", "thegame.hand.title") in hand.text
            hand = await open_hand(bob, table)
            assert t("en", "thegame.hand.title") in hand.text
            res = await bob.slash(emu.general, "thegame new")
            assert "already open" in res.text
            res = await bob.slash(emu.general, "games")
            assert res.message.components_v2 and t("en", "games.title") in res.text


async def test_abandon_by_an_admin_closes_the_table(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, admin = emu.add_user("alice"), emu.add_user("mod", admin=True)
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, ai=1)
            res = await admin.slash(emu.general, "abandon")
            assert "abandoned" in res.text
            assert session.record.status is Status.ABANDONED
            closed = t("en", "lobby.abandoned")
            await emu.wait_for(lambda: closed in table.text and not custom_ids(table))
            res = await admin.slash(emu.general, "games")
            assert "No game" in res.text


async def test_rematch_starts_a_new_table_with_the_same_seats(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice, carol = emu.add_user("alice"), emu.add_user("carol")
        async with running_bot(emu, tmp_path / "db.sqlite3", ai_delay=0.0, **FAST) as bot:
            session, table = await start_game(emu, bot, alice, ai=1, smaller_hand=True)
            await play_to_the_end(emu, session, table, {0: alice})
            await emu.wait_for(lambda: bool(custom_ids(table, ":rematch$")))
            res = await carol.click(table, custom_ids(table, ":rematch$")[0])
            assert "not playing in this game" in res.text
            res = await alice.click(table, custom_ids(table, ":rematch$")[0])
            assert "Rematch started" in res.text
            new = await session_in(bot, emu)
            assert new.id != session.id
            assert new.record.options == session.record.options
            assert [s.user_id for s in new.record.seats] == [alice.id, None]
            assert new.config.smaller_hand
            await emu.wait_for(lambda: new.record.table_message_id is not None)
            assert table_message(emu, new).id != table.id


async def test_the_table_picture_shows_the_public_view_only(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice, joiners=(bob,), first="0")
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)
            await bot.refresher.idle()
            public = RULES.view(session.state, None)
            assert public.hand is None
            assert table.file(FILENAME) == table_picture(public)
            [gallery] = [c for c in table.all_components() if c["type"] == 12]
            lines = "\n".join(pile_line(public, "en", i) for i in range(4))
            assert gallery["items"][0]["description"] == plain(lines)  # the alt: piles only
            assert len(table.attachments) == 1  # the edit replaced the picture
            assert_hidden(session, {0: alice, 1: bob})


async def test_a_server_can_turn_table_pictures_off_and_the_text_stays_complete(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        admin, bob = emu.add_user("mod", admin=True), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            res = await admin.slash(emu.general, "settings", pictures=False)
            assert t("en", "settings.pictures", state=t("en", "settings.off")) in res.text
            assert res.message.components_v2
            session, table = await start_game(emu, bot, admin, joiners=(bob,), first="0")
            await bot.refresher.idle()
            assert table.attachments == []
            view = RULES.view(session.state, None)
            assert all(pile_line(view, "en", i) in table.text for i in range(4))
            res = await admin.slash(emu.general, "settings", pictures=True)
            assert t("en", "settings.pictures", state=t("en", "settings.on")) in res.text
            hand = await open_hand(admin, table)
            await play_a_card(admin, hand, session, 0)
            await bot.refresher.idle()
            assert table.file(FILENAME) == table_picture(RULES.view(session.state, None))


async def test_without_attach_files_the_table_is_posted_without_its_picture(
    tmp_path: Path,
) -> None:
    async with Emulator.running() as emu:
        for role in (emu.guild.everyone, emu.guild.role(emu.bot.name)):
            role.permissions &= ~ATTACH_FILES
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(emu, bot, alice)
            hand = await open_hand(alice, table)
            await play_a_card(alice, hand, session, 0)
            await bot.refresher.idle()
            assert table.components_v2 and table.attachments == []
            view = RULES.view(session.state, None)
            assert all(pile_line(view, "en", i) in table.text for i in range(4))


async def test_the_end_table_ranks_a_win_above_any_loss_per_server_and_channel(
    tmp_path: Path,
) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        other = emu.add_channel("other")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            records = bot.storage.records
            common = {"guild_id": emu.guild.id, "game_id": "thegame", "players": 2}
            # A win elsewhere in the server, and a burned loss with fewer cards left here.
            await records.add(
                channel_id=other.id, session_id="a", result="win", score=7, won=True, **common
            )
            await records.add(
                channel_id=emu.general.id,
                session_id="b",
                result="burned",
                score=3,
                won=False,
                **common,
            )
            session, table = await start_game(emu, bot, alice)
            await alice.slash(emu.general, "leave")  # an AI plays the seat to the end
            await emu.wait_for(lambda: session.record.status is Status.FINISHED, timeout=60)
            await emu.wait_for(lambda: custom_ids(table, ":rematch$") != [])

            async def recorded() -> bool:  # stored by a listener after the last commit
                return (await records.stats(emu.guild.id, "thegame", emu.general.id)).games == 2

            await emu.wait_for(recorded)
            stats = await records.stats(emu.guild.id, "thegame", emu.general.id)
            server = await records.stats(emu.guild.id, "thegame")
            expected = "\n".join(bot.games["thegame"].records_lines("en", server, stats))
            # The burned loss is never the server's best (the AI's game, a win with 3 cards
            # left, may tie its score: the record, not the number, tells them apart).
            assert server.best is not None and server.best.won and server.best.session_id != "b"
            # The record is stored after the commit; a redraw may show the end table first.
            await emu.wait_for(lambda: expected in table.text)


async def test_an_ended_table_keeps_its_last_events_when_a_redraw_comes_before_its_record(
    tmp_path: Path,
) -> None:
    """A redraw an earlier change asked for may run after the last move's commit but before the
    game's record is stored (a busy bot): the table redrawn with the record still shows its
    last events."""
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            store = bot.results.store

            async def redraw_first(session: Session) -> None:
                await bot._redraw(session.id)  # the earlier change's redraw lands first
                await store(session)

            bot.results.store = redraw_first  # type: ignore[method-assign]
            session, table = await start_game(emu, bot, alice)
            await play_to_the_end(emu, session, table, {0: alice})
            await emu.wait_for(lambda: t("en", "records.title") in table.text)
            await bot.service.settle()  # the listeners are done: the record is stored
            await bot.refresher.idle()  # and the table redrawn with it
            assert t("en", "table.recent") in table.text
