"""Angels & Demons Rummy played through the real discord.py client against the local Discord
emulator, and its screens and controls checked directly.

The tests read the engine state (`bot.service`) only to decide what to click; every move goes
through clicks and selects like a Discord client's, and tables and hands are read through the
catalog's text. Games with AI seats or deadlines run on a `ManualClock`, so a window closing by
its deadline takes no real time and the order of the moves (hence the game) is the simulated one.
"""

from __future__ import annotations

import asyncio
import math
import random
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from bot.errors import error_text
from bot.game_ui import Pick
from bot.games.rummy.controls import discard_choices
from bot.games.rummy.pieces import card_label, card_text, cards_text, sets_text
from bot.games.rummy.ui import RummyUI
from bot.i18n import t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from bot.playground.emulator.models import FLAG_COMPONENTS_V2, text_of, walk_components
from bot.playground.emulator.validation import validate_message
from bot.ui.v2 import build
from games.engine import GameError, Reason, Session, Status
from games.engine.contract import CHANCE, SYSTEM
from games.engine.errors import illegal
from games.engine.step import advance
from games.rummy import AI, RULES
from games.rummy.models import (
    BonusFlip,
    Discard,
    Gain,
    Open,
    Pass,
    RedScore,
    ShortResult,
    State,
    Take,
)
from games.rummy.sets import is_big
from runtime import ManualClock
from tests.botkit import (
    FAST,
    QUICK,
    custom_ids,
    open_hand,
    rules_page,
    running_bot,
    start_game,
    table_message,
    wait_current,
)
from tests.games.rummy.rummy_cards import c, cs, make
from tests.games.rummy.rummy_play import (
    AI_DELAY,
    COMMAND,
    SEED,
    START,
    ai_like,
    as_offered,
    assert_hidden,
    click,
    context,
    first_discard,
    first_discards,
    forge,
    greedy_claimer,
    offer,
    one,
    play,
    seed_where,
    simulate,
    wait_drawn,
)

# Full games ------------------------------------------------------------------------------------


async def test_two_users_play_a_whole_match_by_clicks(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND, match_games=2
            )
            assert session.config.players == 2 and session.config.match_games == 2
            assert session.config.target == 24 and session.config.claim_seconds == 20
            await emu.wait_for(lambda: t("en", "rummy.table.to_take", name="alice") in table.text)
            title = t("en", "rummy.table.title", name=t("en", "rummy.name"), game=1, games=2)
            assert title in table.text
            field = cards_text(context(session.state), session.state.field)
            assert t("en", "rummy.table.field", cards=field, count=len(session.state.deck)) in (
                table.text
            )
            res = await bob.click(table, one(table, ":dm$"))
            assert "in your DMs" in res.text
            users = {0: alice, 1: bob}
            hands = {0: await open_hand(alice, table), 1: bob.dms()[-1]}
            endings: list[ShortResult] = []
            asked: list[tuple[int, bool]] = []

            def seen(seat: int, hand: EmuMessage) -> None:
                state = session.state
                if state.phase == "ended" and state.result not in endings:
                    endings.append(state.result)
                if state.phase == "window":
                    asked.append((seat, len(RULES.legal_actions(state, seat)) > 1))
                assert_hidden(session, {seat: [hand, table_message(emu, session)]})

            played = await play(emu, session, users, hands, ai_like, seen=seen, table=table)
            assert session.record.status is Status.FINISHED
            kinds = {type(action).__name__ for _, action in played}
            assert {"Take", "Discard", "NextGame"} <= kinds, kinds
            # A window asks only who can claim: nobody answered one without a claim to make.
            discards = sum(isinstance(action, Discard) for _, action in played)
            assert all(could for _, could in asked) and len(asked) < discards, asked
            assert endings and endings[0].game_no == 1
            state = session.state
            assert state.game_no == 2
            outcome = RULES.outcome(state)
            assert outcome is not None
            names = ["alice", "bob"]
            winners = ", ".join(names[s] for s in outcome.winners)
            key = (
                "rummy.result.match_shared"
                if len(outcome.winners) > 1
                else "rummy.result.match_win"
            )
            points = t("en", "stats.points", count=max(outcome.scores))
            games = t("en", "rummy.short_games", count=2)
            result = t("en", key, names=winners, points=points, games=games)
            await emu.wait_for(lambda: result in table.text)
            for seat in (0, 1):
                line = t("en", "rummy.result.standing", name=names[seat], count=state.scores[seat])
                assert line in table.text
            await emu.wait_for(lambda: t("en", "records.title") in table.text)
            assert custom_ids(table, ":rematch$") and not custom_ids(table, ":hand$")
            assert bob.dms() and not alice.can_see(bob.dms()[-1])
            assert not emu.rate_limit_hits


async def test_a_user_gains_a_discard_inside_the_window(tmp_path: Path) -> None:
    """Three seats (two users and an AI), one short game; the users claim what they can."""
    users_at = frozenset({0, 1})
    options = {"match_games": 1}

    def user_gained(events: list[Any]) -> bool:
        return any(e.key == "rummy.gained" and e.params["seat"] in users_at for e in events)

    seed = next(
        s for s in range(300) if user_gained(simulate(3, options, users_at, greedy_claimer, s)[1])
    )
    clock = ManualClock(START)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(
            emu, tmp_path / "db.sqlite3", clock=clock, ai_delay=AI_DELAY, **FAST
        ) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, first="0", command=COMMAND, match_games=1
            )
            users = {0: alice, 1: bob}
            hands = {seat: await open_hand(user, table) for seat, user in users.items()}
            names = ["alice", "bob", t("en", "seat.ai", n=3)]
            prompts: dict[tuple[int, int], list[tuple[str, list[str], bool]]] = {}

            def seen(seat: int, hand: EmuMessage) -> None:
                """Check the hidden cards; keep each claim window's prompt as each seat saw it:
                its words and its controls but the claims."""
                state = session.state
                assert_hidden(session, {seat: [hand, table_message(emu, session)]})
                if state.window is not None:
                    claims = [i for i in custom_ids(hand) if re.search(r":x\.w[gn]\.", i)]
                    rest = [i.split(":", 3)[3] for i in custom_ids(hand) if i not in claims]
                    entry = (hand.text.split("\n")[1], rest, bool(claims))
                    prompts.setdefault((state.game_no, state.window.card), []).append(entry)

            def gain_due(state: State) -> bool:
                return state.phase == "window" and any(
                    isinstance(a, Gain) for s in users for a in RULES.legal_actions(state, s)
                )

            # Up to a window where a user can gain: the table shows the window and its deadline,
            # not who is asked; a user who cannot claim has nothing to answer.
            await play(
                emu,
                session,
                users,
                hands,
                greedy_claimer,
                clock=clock,
                stop=gain_due,
                seen=seen,
                table=table,
            )
            state = session.state
            window = state.window
            due = session.due("window")
            assert window is not None and due is not None
            text = t(
                "en",
                "rummy.table.window",
                card=card_text(context(state), window.card),
                name=names[window.discarder],
                when=f"<t:{math.ceil(due)}:R>",
            )
            await emu.wait_for(lambda: text in table.text)
            assert f"📣 {text}" in table.text.split("\n")
            assert t("en", "rummy.table.answer") in table.text
            nothing = t(
                "en",
                "rummy.hand.window_not_asked",
                card=card_text(context(state), window.card),
                name=names[window.discarder],
                when=f"<t:{math.ceil(due)}:R>",
            )
            for seat in users.keys() - RULES.to_move(state).seats - {window.discarder}:
                await wait_drawn(emu, hands[seat], session)
                assert nothing in hands[seat].text
                assert not custom_ids(hands[seat], r":x\.")
            gainer = next(
                s for s in users if any(isinstance(a, Gain) for a in RULES.legal_actions(state, s))
            )
            # The claimant's prompt offers the Gain with the hand cards it would use.
            hand = hands[gainer]
            await wait_drawn(emu, hand, session)
            view = RULES.view(state, gainer)
            gain = greedy_claimer(view, session.record.version)
            assert isinstance(gain, Gain)
            label = t(
                "en",
                "rummy.hand.gain",
                cards=" ".join(card_label(context(state), x) for x in gain.cards),
            )
            assert label in hand.text
            await play(
                emu, session, users, hands, greedy_claimer, clock=clock, seen=seen, table=table
            )
            assert session.record.status is Status.FINISHED
            # The whole short game went as simulated: the user's gain won its window.
            end, events = simulate(3, options, users_at, greedy_claimer, seed)
            assert session.state == end
            gained = next(
                e for e in events if e.key == "rummy.gained" and e.params["seat"] in users_at
            )
            assert any(gained.cards == s for s in end.opened[gained.params["seat"]]) or (
                end.result is not None and end.result.seat == gained.params["seat"]
            )
            # Every asked player saw the same prompt, but for the claims they could make, and
            # only players with a claim to make were asked.
            assert prompts
            for asked in prompts.values():
                assert len({(line, tuple(rest)) for line, rest, _ in asked}) == 1, asked
            assert all(claims for asked in prompts.values() for _, _, claims in asked)


# Deadlines -------------------------------------------------------------------------------------


def window_for_bob() -> tuple[int, int]:
    """A session seed of two players and a card alice may discard on her first turn (after
    taking the first field card) that bob can claim."""
    seed = seed_where(lambda s: frozenset({1}) in first_discards(2, s).values())
    card = next(card for card, asked in first_discards(2, seed).items() if asked == {1})
    return seed, card


async def discard_into_a_window(
    emu: Emulator, session: Session, alice: EmuUser, hand: EmuMessage, card: int
) -> None:
    """Alice takes and discards `card` (see `window_for_bob`), opening a claim window for bob."""
    await first_discard(emu, session, alice, hand, card)
    assert session.state.phase == "window"


async def test_a_claim_window_closes_by_its_deadline(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            seed, card = window_for_bob()
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND, claim_seconds=30
            )
            hand = await open_hand(alice, table)
            await discard_into_a_window(emu, session, alice, hand, card)
            assert session.due("window") == START + 30
            when = f"<t:{math.ceil(START + 30)}:R>"
            await emu.wait_for(lambda: when in table.text)
            # Bob's prompt, opened from the table, shows the same deadline.
            old = await bob.click(table, one(table, ":hand$"))
            prompt = await bob.click(table, one(table, ":hand$"))
            assert when in prompt.message.text and custom_ids(prompt.message, r":x\.wp\.")
            clock.advance(29)
            await asyncio.sleep(0.05)
            assert session.state.phase == "window"
            clock.advance(1)
            await emu.wait_for(lambda: session.state.phase == "take")
            assert session.state.turn == 1
            closed = t("en", "rummy.event.window_closed")
            await emu.wait_for(lambda: closed in table.text)
            await emu.wait_for(lambda: t("en", "rummy.table.to_take", name="bob") in table.text)
            # Claiming after the window: bob's older prompt (no longer redrawn) is refused.
            version = session.record.version
            res = await bob.click(old.message, one(old.message, r":x\.wp\."))
            assert res.text == t("en", "rummy.error.illegal_move.window_closed")
            assert session.record.version == version


async def test_a_restart_inside_a_window_keeps_its_deadline(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    first = ManualClock(START)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, db, clock=first, **FAST) as bot:
            seed, card = window_for_bob()
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND
            )
            hand = await open_hand(alice, table)
            first.advance(3)
            await discard_into_a_window(emu, session, alice, hand, card)
            opened = first.now()
            assert session.due("window") == opened + 20
            before = (session.record.version, session.state)
        # Down for 5 seconds, then up again: 15 s of the window are left.
        second = ManualClock(opened + 5)
        async with running_bot(emu, db, clock=second, **FAST) as bot:
            session = await bot.service.get(session.id)
            assert (session.record.version, session.state) == before
            assert session.due("window") == opened + 20
            table = table_message(emu, session)
            second.advance(14.5)
            await asyncio.sleep(0.1)
            assert session.state.phase == "window"
            second.advance(0.5)
            await emu.wait_for(lambda: session.state.phase == "take")
            assert session.state.turn == 1 and session.record.version == before[0] + 1
            await emu.wait_for(lambda: t("en", "rummy.event.window_closed") in table.text)


# Refusals -------------------------------------------------------------------------------------


def opens_on_first_turn(seed: int) -> bool:
    """Alice (first) can open a big set after her first take, as the AI would take."""
    config = RULES.make_config(2, {"first_player": 0})
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state
    take = ai_like(RULES.view(state, 0), 1)
    state = RULES.apply(state, 0, take).state
    return any(isinstance(a, Open) for a in RULES.legal_actions(state, 0))


async def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    seed = next(s for s in range(300) if opens_on_first_turn(s))
    clock = ManualClock(START)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob, carol = emu.add_user("alice"), emu.add_user("bob"), emu.add_user("carol")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND
            )
            users = {0: alice, 1: bob}

            def snapshot() -> tuple[int, Any]:
                return session.record.version, session.state

            before = snapshot()
            res = await carol.click(table, one(table, ":hand$"))
            assert "not playing in this game" in res.text
            # Out of turn: bob's hand has no game controls; a tampered one is refused.
            bob_hand = await open_hand(bob, table)
            assert t("en", "rummy.hand.waiting", name="alice") in bob_hand.text
            assert not custom_ids(bob_hand, r":x\.")
            card = session.state.field[0]
            res = await bob.click(
                bob_hand, forge(bob_hand, one(bob_hand, ":refresh$"), f"x.tk.{card}")
            )
            assert res.text == t("en", "error.not_your_turn")
            assert snapshot() == before
            # A stale control: alice's first hand after she took a card.
            stale = await open_hand(alice, table)
            hand = await open_hand(alice, table)
            view = RULES.view(session.state, 0)
            await click(alice, hand, view, ai_like(view, session.record.version))
            before = snapshot()
            res = await alice.click(stale, custom_ids(stale, r":x\.tk\.")[0])
            assert "This table has changed" in res.text
            assert snapshot() == before
            # A card the discard select did not offer (a tampered client): told, not redrawn.
            await wait_drawn(emu, hand, session)
            missing = next(x for x in range(100) if x not in session.state.hands[0])
            select = one(hand, r":x\.dc$")
            value = offer(hand, select, missing)
            drawn = hand.text
            res = await alice.select(hand, select, [value])
            text = card_text(context(session.state), missing)
            assert res.text == t("en", "rummy.error.illegal_move.not_offered_discard", card=text)
            assert res.ephemeral and snapshot() == before and hand.text == drawn
            # Ready with no open set.
            card = session.state.hands[0][0]
            res = await alice.click(hand, forge(hand, one(hand, ":refresh$"), f"x.dr.{card}"))
            assert res.text == t("en", "rummy.error.illegal_move.ready_needs_open_set")
            assert snapshot() == before
            # She opens a set; bob plays his turn; on her next turn Ready is refused unless her
            # 7 cards would be one card from the goal form.
            view = RULES.view(session.state, 0)
            opening = next(a for a in view.legal if isinstance(a, Open))
            await click(alice, hand, view, as_offered(view, opening))
            assert session.state.opened[0]
            hands = {0: hand, 1: bob_hand}

            def alice_acts(state: State) -> bool:
                return state.phase == "act" and state.turn == 0

            await play(emu, session, users, hands, ai_like, clock=clock, stop=alice_acts)
            assert session.record.status is Status.ACTIVE
            legal = RULES.legal_actions(session.state, 0)
            unready = next(
                x
                for x in session.state.hands[0]
                if Discard(card=x) in legal and Discard(card=x, ready=True) not in legal
            )
            await wait_current(emu, hand, session)
            before = snapshot()
            forged = forge(hand, one(hand, ":refresh$"), f"x.dr.{unready}")
            res = await alice.click(hand, forged)
            assert res.text == t("en", "rummy.error.illegal_move.not_ready_form")
            assert snapshot() == before


async def test_bad_claims_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """Bob is asked about alice's discard: a Gain without the cards, a Gain that makes no big
    set, the discarder answering her own window, and an answer after the window closed."""
    seed, card = window_for_bob()
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        clock = ManualClock(START)
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND
            )
            alice_hand = await open_hand(alice, table)
            await discard_into_a_window(emu, session, alice, alice_hand, card)

            def snapshot() -> tuple[int, Any]:
                return session.record.version, session.state

            state = session.state
            window = state.window
            assert window is not None and window.discarder == 0
            tag = f"{state.game_no}.{window.card}"
            twice = await open_hand(bob, table)
            bob_hand = await open_hand(bob, table)
            before = snapshot()
            missing = [x for x in range(100) if x not in state.hands[1]][:2]
            res = await bob.click(
                bob_hand,
                forge(
                    bob_hand, one(bob_hand, r":x\.wp\."), f"x.wn.{tag}.{missing[0]}.{missing[1]}"
                ),
            )
            assert res.text == t("en", "error.illegal_move.not_in_hand")
            assert snapshot() == before
            odd = next(
                pair for pair in combinations(state.hands[1], 2) if not is_big((*pair, window.card))
            )
            res = await bob.click(
                bob_hand,
                forge(bob_hand, one(bob_hand, ":refresh$"), f"x.wn.{tag}.{odd[0]}.{odd[1]}"),
            )
            assert res.text == t("en", "rummy.error.illegal_move.not_a_big_set")
            assert snapshot() == before
            await wait_drawn(emu, alice_hand, session)
            res = await alice.click(
                alice_hand, forge(alice_hand, one(alice_hand, ":refresh$"), f"x.wp.{tag}")
            )
            assert res.text == t("en", "error.not_your_turn")
            assert snapshot() == before
            fresh = await open_hand(bob, table)  # the tampered one still shows its forgeries
            await bob.click(fresh, one(fresh, r":x\.wp\."))
            assert session.state.window is None  # bob was the only one asked
            res = await bob.click(twice, one(twice, r":x\.wp\."))
            assert res.text == t("en", "rummy.error.illegal_move.window_closed")


# Languages -------------------------------------------------------------------------------------


async def test_rules_and_screens_in_both_languages(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=QUICK) as emu:
        hana = emu.add_user("hana", locale="ja", admin=True)
        bob = emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            rulings = await rules_page(hana, emu.general, "rummy", "rulings")
            assert "エンジェル&デーモン・ラミー" in rulings and "アイテム勝利" in rulings
            assert "（2枚引く前）に判定します。" in rulings  # the last line: nothing was cut
            rulings = await rules_page(bob, emu.general, "rummy", "rulings")
            for ruling in (
                "the rulebook has no title",
                "sword, shield, potion and ring",
                "always the 8 cards in hand",
                "only for a player with at least one open set",
                "a goal comes only right after a take",
                "the players who can goal or gain with that card are asked at once",
                "always check again while a check scores",
                "share the win",
                "1 point each, no condition",
                "**Item victory**",
                "(before drawing).",  # the last line: nothing was cut
            ):
                assert ruling in rulings, ruling
            await hana.slash(emu.general, "settings", language="ja")
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, hana, joiners=(bob,), first="0", command=COMMAND, advanced=True
            )
            assert session.config.advanced
            await emu.wait_for(lambda: t("ja", "rummy.table.to_take", name="hana") in table.text)
            assert t("ja", "rummy.option.advanced") in table.text
            hand = await open_hand(hana, table)
            assert t("ja", "rummy.hand.title") in hand.text
            assert t("ja", "rummy.hand.your_take") in hand.text
            hand = await open_hand(bob, table)
            assert t("en", "rummy.hand.waiting", name="hana") in hand.text


# Screens and controls, checked directly ---------------------------------------------------------


def _message(layout: Any) -> dict[str, Any]:
    return {"flags": FLAG_COMPONENTS_V2, "components": build(layout).components}


def _text(layout: Any) -> str:
    return text_of(_message(layout))


def _ids(layout: Any) -> list[str]:
    return [c["custom_id"] for c in walk_components(build(layout).components) if "custom_id" in c]


def _window(hands: list[str]) -> State:
    """Alice (seat 0) has discarded `D5''`; `hands` are seats 1.. ."""
    state = make(["H4 H4' A6 A7 D1 D2 D5''", *hands], field="Is", rows=["H7"])
    state = RULES.apply(state, 0, Take(card=c("Is"))).state
    return RULES.apply(state, 0, Discard(card=c("D5''"))).state


def test_the_table_and_every_hand_read_the_same_whoever_is_asked() -> None:
    due = START + 20
    bob_asked = _window(["D3 D4 H2", "H6 A1"])
    carol_asked = _window(["H6 A1 H2", "D3 D4"])
    assert [RULES.to_move(s).seats for s in (bob_asked, carol_asked)] == [{1}, {2}]
    ui = RummyUI()
    ctxs = [context(s, due=due) for s in (bob_asked, carol_asked)]
    tables = [ui.table(ctx) for ctx in ctxs]
    assert _message(tables[0]) == _message(tables[1])
    text = _text(tables[0])
    assert f"<t:{int(due)}:R>" in text and t("en", "rummy.table.answer") in text
    assert _message(ui.hand(ctxs[0], 0, None)) == _message(ui.hand(ctxs[1], 0, None))
    # The asked player's prompt and the other's hand read the same either way.
    asked = [ui.hand(ctx, seat, None) for ctx, seat in zip(ctxs, (1, 2), strict=True)]
    others = [ui.hand(ctx, seat, None) for ctx, seat in zip(ctxs, (2, 1), strict=True)]
    card = card_text(ctxs[0], c("D5''"))
    when = f"<t:{int(due)}:R>"
    prompt = t("en", "rummy.hand.window", name="alice", card=card, when=when)
    assert [_text(h).split("\n")[1] for h in asked] == ["📣 " + prompt] * 2
    nothing = t("en", "rummy.hand.window_not_asked", name="alice", card=card, when=when)
    assert [_text(h).split("\n")[1] for h in others] == ["📣 " + nothing] * 2
    discarded, a, b = c("D5''"), c("D3"), c("D4")
    for hand in asked:
        tag = f"1.{discarded}"
        assert _ids(hand) == [f"g:0123abcd:L:x.wp.{tag}", f"g:0123abcd:L:x.wn.{tag}.{a}.{b}"]
    assert [_ids(h) for h in others] == [[], []]


def test_an_answer_leaves_every_other_screen_as_it_was() -> None:
    """Bob and dave are asked; bob passes. Had anything but bob's hand changed (say, the
    version in a custom_id), the others would learn that someone else is still asked."""
    due = START + 20
    before = _window(["D3 D4 H2", "H6 A1", "D6 D7"])
    after = RULES.apply(before, 1, Pass()).state
    assert RULES.to_move(before).seats == {1, 3} and RULES.to_move(after).seats == {3}
    ui = RummyUI()
    ctxs = [context(before, due=due, version=40), context(after, due=due, version=41)]
    screens = [
        [_message(ui.table(ctx)), *(_message(ui.hand(ctx, seat, None)) for seat in range(4))]
        for ctx in ctxs
    ]
    unchanged = [i for i in range(5) if screens[0][i] == screens[1][i]]
    assert unchanged == [0, 1, 3, 4]  # the table, alice's, carol's and dave's hands


def test_the_hand_offers_only_legal_choices() -> None:
    # Alice took Is: she may open the Human run (the red H3 goes down) or the Angel group,
    # discard any card (one option per kind and colour), and declare Ready only where her 7
    # cards would be one card from the goal form.
    state = make(["H1 H2 H3* A5 A5' A5'' H3", "D1"], field="Is", opened=[["Ir Ir' Ir''"]])
    state = RULES.apply(state, 0, Take(card=c("Is"))).state
    ui, ctx = RummyUI(), context(state)
    layout = ui.hand(ctx, 0, None)
    opens = sorted(i.split(":x.op.")[1] for i in _ids(layout) if ":x.op." in i)
    run = ".".join(str(x) for x in cs("H1 H2 H3*"))
    group = ".".join(str(x) for x in cs("A5 A5' A5''"))
    assert opens == sorted([run, group])
    select = next(
        x
        for x in walk_components(build(layout).components)
        if x.get("custom_id", "").endswith("x.dc")
    )
    values = [int(o["value"]) for o in select["options"]]
    assert values == sorted(cs("H1 H2 H3* H3 A5 Is"))
    described = {int(o["value"]) for o in select["options"] if o.get("description")}
    assert described == set(cs("H3* H3 Is"))
    chosen = _ids(ui.hand(ctx, 0, f"d{c('H3')}"))
    assert f"g:0123abcd:321:x.dr.{c('H3')}" in chosen
    assert f"g:0123abcd:321:x.ds.{c('H3')}" in chosen
    chosen = _ids(ui.hand(ctx, 0, f"d{c('H1')}"))
    assert f"g:0123abcd:321:x.ds.{c('H1')}" in chosen
    assert f"g:0123abcd:321:x.dr.{c('H1')}" not in chosen
    # A card not offered is not chosen; another seat has no controls at all.
    other_copy = c("A5'")
    assert not any(":x.ds." in i for i in _ids(ui.hand(ctx, 0, f"d{other_copy}")))
    assert not any(":x." in i for i in _ids(ui.hand(ctx, 1, None)))


def test_the_table_shows_a_goal_with_every_part_of_its_score() -> None:
    state = make(["H1", "H2"], field="Is", opened=[["A1 A2 A3"]], scores=[3, 9], advanced=True)
    result = ShortResult(
        game_no=1,
        kind="goal",
        seat=0,
        from_seat=1,
        card=c("D5"),
        hand=cs("H4 H4' D5 D6 D7 Is* Is' Is''"),
        split=(cs("H4 H4'"), cs("D5 D6 D7"), cs("Is* Is' Is''")),
        opened=(cs("A1* A2 A3"),),
        set_points=1,
        red=(
            RedScore(card=c("A1*"), condition="ends", met=True, points=2),
            RedScore(card=c("Is*"), condition="item", met=True, points=1),
        ),
        bonus=(BonusFlip(card=c("D6'"), points=1), BonusFlip(card=c("H7"), points=0)),
        total=5,
        loss=5,
    )
    state = state.model_copy(update={"phase": "ended", "result": result, "game_no": 1})
    ctx = context(state)
    text = _text(RummyUI().table(ctx))
    expected = [
        t(
            "en",
            "rummy.result.goal_discard",
            name="alice",
            card=card_text(ctx, c("D5")),
            from_name="bob",
        ),
        t("en", "rummy.result.hand", sets=sets_text(ctx, result.split)),
        t("en", "rummy.result.opened", sets=sets_text(ctx, result.opened), points=1),
        card_text(ctx, c("A1*")) + " (" + t("en", "rummy.condition.ends") + ") ✅ +2",
        card_text(ctx, c("Is*")) + " (" + t("en", "rummy.condition.item") + ") ✅ +1",
        t("en", "rummy.result.total", name="alice", count=5),
        t("en", "rummy.result.loss", name="bob", count=5),
        t("en", "rummy.table.ended", game=1, name="bob", next=2),
    ]
    flips = " · ".join(f"{card_text(ctx, x)} +{p}" for x, p in ((c("D6'"), 1), (c("H7"), 0)))
    expected.append(t("en", "rummy.result.bonus", flips=flips, points=1))
    for line in expected:
        assert line in text, line
    # While the next short game is played, one line keeps the score.
    playing = state.model_copy(update={"phase": "take", "game_no": 2})
    summary = t(
        "en", "rummy.result.summary", game=1, name="alice", points=5, sets=1, red=3, bonus=1
    )
    assert summary in _text(RummyUI().table(context(playing)))


def test_the_table_shows_a_deck_out_and_an_item_victory() -> None:
    state = make(["H1", "H2"], field="Is", scores=[4, 2], advanced=True)
    deck_out = ShortResult(game_no=1, kind="deck_out")
    ended = state.model_copy(update={"phase": "ended", "result": deck_out})
    text = _text(RummyUI().table(context(ended)))
    assert t("en", "rummy.result.deck_out", game=1) in text
    sets = (cs("Is Is' Is''"), cs("Ih Ih' Ih''"), cs("Ip* Ip' Ip''"))
    item = ShortResult(game_no=1, kind="item_victory", seat=1, opened=sets)
    over = state.model_copy(update={"phase": "over", "result": item, "opened": ((), sets)})
    ctx = context(over)
    text = _text(RummyUI().table(ctx))
    assert t("en", "rummy.result.match_item", names="bob", score=2, games=1) in text
    assert t("en", "rummy.result.item_victory", name="bob") in text
    assert t("en", "rummy.result.item_sets", sets=sets_text(ctx, sets)) in text


def test_a_late_four_player_table_fits_discord_limits() -> None:
    config = RULES.make_config(4, {"first_player": 0, "advanced": True})
    step = advance(RULES, RULES.setup(config), 0, CHANCE, None, 5)
    state, version = step.state, len(step.logged)
    while state.phase != "ended" and not RULES.is_over(state):
        seat = min(RULES.to_move(state).seats)
        action = AI.normal(RULES.view(state, seat), random.Random(version))
        step = advance(RULES, state, version, seat, action, 5)
        state, version = step.state, version + len(step.logged)
    for lang in ("en", "ja"):
        ctx = context(state, lang)
        for layout in (RummyUI().table(ctx), *(RummyUI().hand(ctx, s, None) for s in range(4))):
            message = build(layout)
            validate_message(_message(layout), attachments=0)
            assert not message.notes, message.notes


def test_a_replay_shows_every_hand_on_a_line() -> None:
    state = _window(["D3 D4 H2", "H6 A1"])
    ctx = context(state)
    lines = [block.text for block in RummyUI().replay_hands(ctx)]
    assert lines == [
        f"**{name}** {cards_text(ctx, state.hands[s])}"
        for s, name in enumerate(["alice", "bob", "carol"])
    ]


def _events_of_random_games() -> list[tuple[State, Any]]:
    """(state after, event) for every event of a few AI games, basic and advanced."""
    events: list[tuple[State, Any]] = []
    for players, options in ((2, {}), (3, {"advanced": True}), (4, {"advanced": True})):
        config = RULES.make_config(players, {"match_games": 2, **options})
        for seed in range(3):
            step = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
            state, version = step.state, len(step.logged)
            events += [(state, e) for e in step.events]
            while not RULES.is_over(state):
                to_move = RULES.to_move(state)
                seat = min(to_move.seats)
                if state.phase == "window" and version % 5 == 0:  # now and then the clock
                    seat, action = SYSTEM, RULES.timeout_action(state)
                else:
                    action = AI.normal(RULES.view(state, seat), random.Random(version))
                step = advance(RULES, state, version, seat, action, seed)
                state, version = step.state, version + len(step.logged)
                events += [(state, e) for e in step.events]
    return events


SILENT = {"rummy.window", "rummy.no_claim", "rummy.next_game", "rummy.hand"}
"""Events left out of the log: the table's status shows them (or the next event does)."""


def test_every_event_has_text_in_both_languages() -> None:
    ui = RummyUI()
    keys = set()
    for state, event in _events_of_random_games():
        keys.add(event.key)
        for lang in ("en", "ja"):
            ctx = context(state, lang)
            text = ui.event_text(event, ctx) if event.public else ui.private_event_text(event, ctx)
            silent = event.key in SILENT or (
                event.key == "rummy.window_closed" and not event.params["deadline"]
            )
            if silent:
                assert text is None, event
                continue
            assert text and "rummy." not in text and "{" not in text, (event, text)
    wanted = {"goal", "bonus", "scored", "gained", "opened", "drew_cards", "answer", "ready"}
    assert {f"rummy.{k}" for k in wanted} <= keys, keys


def test_every_illegal_reason_has_text_in_both_languages() -> None:
    sources = [
        Path(__file__).resolve().parents[2] / "games" / "rummy",
        Path(__file__).resolve().parents[2] / "bot" / "games" / "rummy",
    ]
    source = "".join(p.read_text() for d in sources for p in d.glob("*.py"))
    codes = set(re.findall(r'illegal\("(\w+)"', source))
    assert {"not_ready_form", "not_in_hand", "own_discard_completes", "window_closed"} <= codes
    for code in codes:
        english, japanese = (error_text(lang, illegal(code), "rummy") for lang in ("en", "ja"))
        assert english != t("en", "error.illegal_move"), code
        assert english != japanese, code


def test_controls_refuse_out_of_turn_and_malformed_clicks() -> None:
    state = make(["H1 H2 H3 A5 A5' D7 D6", "H2"], field="Is H4")
    ui, ctx = RummyUI(), context(state)
    with pytest.raises(GameError) as refused:
        ui.control(ctx, 1, "tk", [str(c("Is"))], [])
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    for verb, args, values in (
        ("tk", ["x"], []),
        ("tk", [], []),
        ("tk", ["100"], []),
        ("op", ["1", "2"], []),
        ("dc", [], []),
        ("zzz", [], []),
        ("wn", ["1", str(c("Is")), "3"], []),
    ):
        with pytest.raises(GameError) as refused:
            ui.control(ctx, 0, verb, args, values)
        assert refused.value.reason in (Reason.BAD_OPTION, Reason.ILLEGAL_MOVE), verb
    assert ui.control(ctx, 0, "tk", [str(c("Is"))], []) == Take(card=c("Is"))
    # The discard select: a card it offered is picked; any other value is refused, a card
    # with a reason that names it (not in the hand, or a copy it did not offer).
    acting = RULES.apply(state, 0, Take(card=c("Is"))).state
    actx = context(acting)
    assert ui.control(actx, 0, "dc", [], [str(c("D7"))]) == Pick(f"d{c('D7')}")
    offered = discard_choices(RULES.view(acting, 0))
    other_copy = next(x for x in cs("A5 A5'") if x not in offered)
    for card in (c("D5"), other_copy):
        with pytest.raises(GameError) as refused:
            ui.control(actx, 0, "dc", [], [str(card)])
        assert refused.value.detail == "not_offered_discard"
        assert refused.value.params == {"card": card_text(actx, card)}
    for value in ("x", "100", "-1"):
        with pytest.raises(GameError) as refused:
            ui.control(actx, 0, "dc", [], [value])
        assert refused.value.reason is Reason.BAD_OPTION, value
    # A claim for a window that is not open.
    with pytest.raises(GameError) as refused:
        ui.control(ctx, 0, "wp", ["1", str(c("D7"))], [])
    assert refused.value.detail == "window_closed"
    window = _window(["D3 D4 H2", "H6 A1"])
    wctx = context(window)
    tag = ["1", str(c("D5''"))]
    assert ui.control(wctx, 1, "wp", tag, []) == Pass()
    assert ui.control(wctx, 1, "wn", [*tag, str(c("D3")), str(c("D4"))], []) == Gain(
        cards=cs("D3 D4")
    )
    with pytest.raises(GameError) as refused:
        ui.control(wctx, 1, "wp", ["2", str(c("D5''"))], [])
    assert refused.value.detail == "window_closed"
    with pytest.raises(GameError) as refused:
        ui.control(wctx, 0, "wp", tag, [])
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(GameError) as refused:  # carol cannot claim: she is not asked
        ui.control(wctx, 2, "wp", tag, [])
    assert refused.value.detail == "not_asked"
    both = _window(["D3 D4 H2", "D6 D7"])  # bob and carol are asked; bob passes
    answered = RULES.apply(both, 1, Pass()).state
    with pytest.raises(GameError) as refused:
        ui.control(context(answered), 1, "wp", tag, [])
    assert refused.value.detail == "already_answered"


def test_the_lobby_shows_the_chosen_options() -> None:
    ui = RummyUI()
    lines = ui.option_lines({"advanced": True, "claim_seconds": 45}, "en")
    assert lines == [
        t("en", "rummy.option.advanced"),
        t("en", "rummy.option.claim_seconds", count=45),
        t("en", "rummy.option.match_default"),
    ]
    assert t("en", "rummy.option.match_games", count=3) in ui.option_lines({"match_games": 3}, "en")


async def test_a_lobby_keeps_the_seeds_match_length_unless_chosen(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob, carol, dave = (emu.add_user(n) for n in ("alice", "bob", "carol", "dave"))
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, alice, joiners=(bob, carol, dave), command=COMMAND
            )
            assert session.record.options == {"advanced": False, "claim_seconds": 20}
            assert (session.config.match_games, session.config.target) == (8, 12)
            title = t("en", "rummy.table.title", name=t("en", "rummy.name"), game=1, games=8)
            await emu.wait_for(lambda: title in table.text)


async def test_a_claim_window_sends_no_turn_dm_but_the_next_turn_does(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            seed, card = window_for_bob()
            bot.service._seed_source = lambda: seed
            await bob.slash(emu.general, "notify", on=True)
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND, claim_seconds=30
            )
            hand = await open_hand(alice, table)
            await discard_into_a_window(emu, session, alice, hand, card)
            await bot.service.settle()
            assert not bob.dms()  # asked to answer a window: no DM
            clock.advance(30)
            await emu.wait_for(lambda: session.state.turn == 1)
            your_turn = t("en", "notify.your_turn", game=t("en", "rummy.name"), link="")
            await emu.wait_for(lambda: any(your_turn.split(":")[0] in m.text for m in bob.dms()))
