"""Hell Queue Club played through the real discord.py client against the local Discord emulator,
and its screens, controls and picture checked directly.

The tests read the engine state (`bot.service`) only to decide what to click; every move goes
through clicks and selects like a Discord client's, and tables and panels are read through the
catalog's text.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from bot.context import Context, jump_url
from bot.errors import error_text
from bot.game_ui import Pick
from bot.games.hellqueue.choice import rerollable
from bot.games.hellqueue.picture import FILENAME, table_picture
from bot.games.hellqueue.pieces import (
    KEYCAP,
    MARKERS,
    dice_text,
    group_text,
    sleep_text,
    stone_counts_text,
    stones_row,
)
from bot.games.hellqueue.ui import HellQueueUI
from bot.i18n import t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser, RateLimit
from bot.playground.emulator.models import FLAG_COMPONENTS_V2, text_of, walk_components
from bot.playground.emulator.validation import validate_message
from bot.ui.v2 import build
from games.engine import GameError, Reason, Session, SessionRecord, Status
from games.engine.contract import CHANCE
from games.engine.errors import illegal
from games.engine.step import advance, advance_all
from games.hellqueue import AI, RULES
from games.hellqueue.cards import NUMBERS, SLOTS, STONES
from games.hellqueue.models import (
    Action,
    Awaken,
    Mark,
    Payout,
    Queue,
    Recall,
    Reroll,
    RollMarked,
    State,
    View,
)
from games.hellqueue.models import Pick as TakeStone
from games.hellqueue.moves import room, to_move_seat
from tests.botkit import (
    FAST,
    QUICK,
    custom_ids,
    open_hand,
    rules_page,
    running_bot,
    session_in,
    start_game,
    table_message,
    wait_current,
)
from tests.games.hellqueue.hellqueue_tables import dice, table

COMMAND = "hellqueue new"
SEED = 11
"""The session seed of the scripted games (the first user's stone pick comes early)."""


# Playing by clicks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RerollMove:
    """A Reroll as a player makes it: the face group to rest and the dice chosen to reroll."""

    face: int
    dice: tuple[tuple[str, int], ...]


Move = Action | RerollMove


def choose(view: View, rng: random.Random, reroll_share: float) -> Move:
    """What a player clicks: the AI's choice, or now and then a Reroll of a few random dice
    (the AI never rerolls, and the multi-select must be played too)."""
    seat = view.turn
    faces = view.players[seat].active.faces()
    if view.phase == "play" and faces and rng.random() < reroll_share:
        face = rng.choice(faces)
        pool = sorted(rerollable(view, seat, face).elements())
        chosen = rng.sample(pool, rng.randint(0, min(4, len(pool))))
        return RerollMove(face, tuple(sorted(chosen)))
    return AI.normal(view, rng)


def die_values(dice: tuple[tuple[str, int], ...]) -> list[str]:
    """The multi-select's option values of these dice (one option per die)."""
    return [f"{kind}{face}{i}" for (kind, face), n in Counter(dice).items() for i in range(n)]


def one(message: EmuMessage, pattern: str) -> str:
    found = custom_ids(message, pattern)
    assert len(found) == 1, (pattern, message.custom_ids())
    return found[0]


async def click_move(user: EmuUser, panel: EmuMessage, move: Move) -> str:
    """Make `move` with the panel's controls; returns its kind."""
    match move:
        case Queue(face=face, slot=slot, steal_seat=steal, steal_face=stolen):
            await user.select(panel, one(panel, r":x\.fc$"), [str(face)])
            tail = "" if steal is None else rf"\.{steal}\.{stolen}"
            await user.click(panel, one(panel, rf":x\.q\.{face}\.{slot}{tail}$"))
            return "queue"
        case Awaken(face=face, wake=wake):
            await user.select(panel, one(panel, r":x\.fc$"), [str(face)])
            await user.click(panel, one(panel, rf":x\.aw\.{face}\.{wake}$"))
            return "awaken"
        case Recall():
            await user.click(panel, one(panel, r":x\.rc$"))
            return "recall"
        case TakeStone(stone=stone):
            await user.click(panel, one(panel, rf":x\.pk\.{stone}$"))
            return "pick"
        case RerollMove(face=face, dice=chosen):
            await user.select(panel, one(panel, r":x\.fc$"), [str(face)])
            await user.click(panel, one(panel, rf":x\.rs\.{face}$"))
            if chosen:
                await user.select(panel, one(panel, rf":x\.rd\.{face}$"), die_values(chosen))
            await user.click(panel, one(panel, rf":x\.rg\.{face}\.\w*$"))
            return "reroll"
        case RollMarked():
            await user.click(panel, one(panel, r":x\.rg\.m\.\w*$"))
            return "reroll"
    raise AssertionError(f"no control for {move}")


async def play_until(
    emu: Emulator,
    session: Session,
    users: dict[int, EmuUser],
    panels: dict[int, EmuMessage],
    stop: Callable[[State], bool] = lambda state: False,
    *,
    reroll_share: float = 0.0,
    rng: random.Random | None = None,
    clicked: Callable[[int], None] = lambda seat: None,
) -> Counter[str]:
    """Click every move of the seats in `users` (in their open panels) until `stop` or the end,
    calling `clicked(seat)` after each; returns how many moves of each kind were clicked."""
    rng = rng or random.Random(7)
    kinds: Counter[str] = Counter()
    while session.record.status is Status.ACTIVE and not stop(session.state):
        seat = to_move_seat(session.state)
        if seat not in users:
            await emu.wait_for(moved_on(session, session.record.version))
            continue
        panel = panels[seat]
        await wait_current(emu, panel, session)
        move = choose(RULES.view(session.state, seat), rng, reroll_share)
        version = session.record.version
        kinds[await click_move(users[seat], panel, move)] += 1
        assert session.record.version > version, move
        clicked(seat)
    return kinds


def moved_on(session: Session, version: int) -> Callable[[], bool]:
    """Whether the session moved past `version` (or ended)."""
    return lambda: session.record.version != version or session.record.status is not Status.ACTIVE


def user_pick_due(users: dict[int, EmuUser]) -> Callable[[State], bool]:
    """A stone pick is waiting for one of `users` (a real choice: 2+ colours on the card)."""
    return lambda state: state.phase == "resolve" and to_move_seat(state) in users


def name(seat: int, names: list[str]) -> str:
    return f"{MARKERS[seat]} {names[seat]}"


def forge(message: EmuMessage, custom_id: str, action: str) -> str:
    """Make a control of `message` send another action (a tampered client); returns the id."""
    component = message.component(custom_id)
    assert component is not None
    sid, version = custom_id.split(":")[1:3]
    component["custom_id"] = f"{custom_id[0]}:{sid}:{version}:{action}"
    return str(component["custom_id"])


# Full games ------------------------------------------------------------------------------------


async def test_two_users_and_an_ai_seat_play_a_whole_game_by_clicks(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, first="0", command=COMMAND
            )
            names = ["alice", "bob", t("en", "seat.ai", n=3)]
            assert session.config.players == 3
            view = RULES.view(session.state, None)
            # The public table: the three cards, each player's cards, the supply.
            await emu.wait_for(
                lambda: t("en", "hellqueue.table.to_move", marker="🔴", name="alice") in table.text
            )
            for slot in SLOTS:
                card = t(
                    "en",
                    "hellqueue.table.card",
                    number=NUMBERS[slot],
                    total=0,
                    stones=stones_row(view.card_stones[slot]),
                    deck=view.deck_sizes[slot],
                )
                assert card in table.text
            for seat in range(3):
                player = view.players[seat]
                area = t(
                    "en",
                    "hellqueue.table.area",
                    active=dice_text(player.active),
                    sleep=sleep_text(player.sleep),
                    rest=0,
                )
                assert area in table.text
            supply = stone_counts_text(view.stone_supply)
            assert t("en", "hellqueue.table.supply", black=5, rest_black=0, stones=supply) in (
                table.text
            )
            users = {0: alice, 1: bob}
            panels = {seat: await open_hand(user, table) for seat, user in users.items()}
            kinds = await play_until(emu, session, users, panels, reroll_share=0.15)
            assert session.record.status is Status.FINISHED
            assert {"queue", "awaken", "reroll", "pick"} <= set(kinds), kinds
            outcome = RULES.outcome(session.state)
            assert outcome is not None
            key = "hellqueue.result.win" if outcome.result == "win" else "hellqueue.result.shared"
            winners = ", ".join(name(s, names) for s in outcome.winners)
            result = t("en", key, names=winners, count=max(outcome.scores))
            await emu.wait_for(lambda: result in table.text)
            assert custom_ids(table, ":rematch$") and not custom_ids(table, ":hand$")
            await emu.wait_for(lambda: t("en", "records.title") in table.text)
            await bot.refresher.idle()
            assert table.file(FILENAME) == table_picture(RULES.view(session.state, None))
            assert not emu.rate_limit_hits


async def test_four_ai_seats_play_a_whole_game_within_the_edit_rate(tmp_path: Path) -> None:
    # Real pacing: Discord's 5 edits per 5 s, and 429s are answered rather than pre-announced.
    async with Emulator.running(rate_limit=RateLimit(5, 5.0), rate_limit_headers=False) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", ai_delay=0.0) as bot:
            session, table = await start_game(emu, bot, alice, ai=3, command=COMMAND)
            assert session.config.players == 4
            res = await alice.slash(emu.general, "leave")
            assert "AI plays your seat" in res.text
            await bot.service.settle()
            assert session.record.status is Status.FINISHED
            await bot.refresher.idle()
            assert t("en", "hellqueue.result.title") in table.text
            outcome = RULES.outcome(session.state)
            assert outcome is not None and len(outcome.scores) == 4
            assert not emu.rate_limit_hits


# Stone picks -----------------------------------------------------------------------------------


async def test_a_user_picks_stones_with_the_colour_buttons_and_is_pinged(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            res = await bob.slash(emu.general, "notify", on=True)
            assert res.ephemeral
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, first="0", command=COMMAND
            )
            names = ["alice", "bob", t("en", "seat.ai", n=3)]
            users = {0: alice, 1: bob}
            panels = {seat: await open_hand(user, table) for seat, user in users.items()}

            ping = t(
                "en", "notify.your_turn", game=t("en", "hellqueue.name"), link=jump_url(session)
            )
            pinged: list[int] = []

            def pings() -> int:
                return sum(ping in m.text for m in bob.dms())

            def bob_picks_after_another_move(state: State) -> bool:
                return user_pick_due({1: bob})(state) and state.turn != 1

            def after_click(seat: int) -> None:
                if seat == 1:
                    pinged.append(pings())

            await play_until(
                emu, session, users, panels, bob_picks_after_another_move, clicked=after_click
            )
            assert pinged, "bob never moved before his pick"
            state = session.state
            assert session.record.status is Status.ACTIVE
            slot = state.payout.slot
            on_card = list(dict.fromkeys(state.card_stones[slot]))
            assert len(on_card) > 1
            # The table says who picks; bob's panel offers exactly the colours on the card.
            picking = t(
                "en", "hellqueue.table.picking", marker="🔵", name="bob", number=NUMBERS[slot]
            )
            await emu.wait_for(lambda: picking in table.text)
            panel = panels[1]
            await wait_current(emu, panel, session)
            mine = state.payout.picks.count(1)
            assert t("en", "hellqueue.hand.your_pick", number=NUMBERS[slot], n=mine) in panel.text
            offered = [i.rsplit(".", 1)[1] for i in custom_ids(panel, r":x\.pk\.")]
            assert offered == on_card
            for stone in on_card:
                assert t("en", f"hellqueue.stone.{stone}") in panel.text
            waiting = t("en", "hellqueue.hand.waiting_pick", name=name(1, names))
            await wait_current(emu, panels[0], session)
            assert waiting in panels[0].text and not custom_ids(panels[0], r":x\.pk\.")
            # The turn ping: bob became the seat to move through another seat's move (his own
            # turns need his clicks, so a ping since his last click is this pick's).
            await emu.wait_for(lambda: pings() > pinged[-1])
            # His click takes the stone.
            stone = on_card[-1]
            before = state.players[1].stones[STONES.index(stone)]
            await bob.click(panel, one(panel, rf":x\.pk\.{stone}$"))
            assert session.state.players[1].stones[STONES.index(stone)] == before + 1
            took = t(
                "en",
                "hellqueue.event.picked",
                seat=name(1, names),
                stone="🟥🟦🟨🟩💠⬜"[STONES.index(stone)] + t("en", f"hellqueue.stone.{stone}"),
            )
            await emu.wait_for(lambda: took in table.text)


async def test_a_restart_in_the_middle_of_a_stone_pick_keeps_the_choice(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        users = {0: alice, 1: bob}
        async with running_bot(emu, db, **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, first="0", command=COMMAND
            )
            panels = {seat: await open_hand(user, table) for seat, user in users.items()}
            await play_until(emu, session, users, panels, user_pick_due(users))
            seat = to_move_seat(session.state)
            assert seat in users
            panel = panels[seat]
            await wait_current(emu, panel, session)
            before = (session.record.version, session.state)
        async with running_bot(emu, db, **FAST) as bot:
            restored = await session_in(bot, emu)
            assert (restored.record.version, restored.state) == before
            state = restored.state
            slot = state.payout.slot
            marker, who = MARKERS[seat], ["alice", "bob"][seat]
            picking = t(
                "en", "hellqueue.table.picking", marker=marker, name=who, number=NUMBERS[slot]
            )
            await emu.wait_for(lambda: picking in table_message(emu, restored).text)
            stone = state.card_stones[slot][0]
            had = state.players[seat].stones[STONES.index(stone)]
            await users[seat].click(panel, one(panel, rf":x\.pk\.{stone}$"))  # the old panel
            assert restored.record.version > before[0]
            assert restored.state.players[seat].stones[STONES.index(stone)] == had + 1


# Rerolls ---------------------------------------------------------------------------------------


async def test_a_reroll_is_one_multi_select_and_one_click(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, first="0", command=COMMAND
            )
            panel = await open_hand(alice, table)
            state = session.state
            player = state.players[0]
            face = max(player.active.faces(), key=lambda f: player.active.group(f).count)
            group = player.active.group(face)
            await alice.select(panel, one(panel, r":x\.fc$"), [str(face)])
            await alice.click(panel, one(panel, rf":x\.rs\.{face}$"))
            prompt = t("en", "hellqueue.hand.reroll_prompt", dice=dice_text(group))
            assert prompt in panel.text
            # Every die but the resting group is offered, one option each.
            offered = RULES.view(state, 0)
            pool = rerollable(offered, 0, face)
            values = [
                o["value"] for o in panel.component(one(panel, rf":x\.rd\.{face}$"))["options"]
            ]
            assert (
                len(values)
                == sum(pool.values())
                == player.active.count + len(player.sleep) - group.count
            )
            # Two kinds at once: all sleeping dice of one face and one large die.
            sleeping = min(set(player.sleep))
            large = next(f for f in player.active.large if f != face)
            chosen = tuple(
                sorted([("z", sleeping)] * player.sleep.count(sleeping) + [("l", large)])
            )
            await alice.select(panel, one(panel, rf":x\.rd\.{face}$"), die_values(chosen))
            dice_shown = f"{KEYCAP[large]} + {sleep_text([sleeping] * (len(chosen) - 1))}"
            assert t("en", "hellqueue.hand.reroll_chosen", dice=dice_shown) in panel.text
            go = one(panel, rf":x\.rg\.{face}\.\w+$")
            assert t("en", "hellqueue.hand.reroll_go", n=len(chosen)) in panel.text
            version = session.record.version
            await alice.click(panel, go)
            # One click: Reroll, a Mark per kind (2), the roll, and the chance roll of the dice.
            assert session.record.version == version + 5
            after = session.state
            assert after.phase == "play" and after.turn == 1
            assert (
                after.players[0].rest_large + after.players[0].rest_small + after.rest_black
                == group.count
            )
            assert len(after.players[0].sleep) == len(player.sleep)
            chose = t(
                "en", "hellqueue.event.reroll_chosen", seat=name(0, ["alice"]), count=len(chosen)
            )
            await emu.wait_for(lambda: chose in table.text)


# Refusals --------------------------------------------------------------------------------------


async def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        users = {0: alice, 1: bob}
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            bot.service._seed_source = lambda: SEED
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, first="0", command=COMMAND
            )
            panels = {seat: await open_hand(user, table) for seat, user in users.items()}

            def snapshot() -> tuple[int, Any]:
                return session.record.version, session.state

            # Out of turn: bob's panel has no controls to play, and a tampered one is refused.
            assert t("en", "hellqueue.hand.waiting", name=name(0, ["alice"])) in panels[1].text
            assert not custom_ids(panels[1], r":x\.")
            before = snapshot()
            refresh = one(panels[1], r":refresh$")
            res = await bob.click(panels[1], forge(panels[1], refresh, "x.rc"))
            assert res.text == t("en", "error.not_your_turn")
            assert snapshot() == before
            # A face group alice does not have.
            panel = panels[0]
            faces = session.state.players[0].active.faces()
            missing = next(f for f in range(1, 7) if f not in faces)
            await alice.select(panel, one(panel, r":x\.fc$"), [str(faces[0])])
            queue = custom_ids(panel, rf":x\.q\.{faces[0]}\.")[0]
            res = await alice.click(panel, forge(panel, queue, f"x.q.{missing}.0"))
            assert res.text == t("en", "hellqueue.error.illegal_move.no_such_face", face=missing)
            assert snapshot() == before

            # A Queue that would overflow a card: play on until one card has less room than
            # one of alice's face groups.
            def overflow(state: State) -> bool:
                return (
                    to_move_seat(state) == 0
                    and state.phase == "play"
                    and any(
                        state.shown[slot] is not None
                        and state.players[0].active.group(face).count > room(state, slot)
                        for slot in SLOTS
                        for face in state.players[0].active.faces()
                    )
                )

            await play_until(emu, session, users, panels, overflow)
            state = session.state
            face, slot = next(
                (face, slot)
                for slot in SLOTS
                for face in state.players[0].active.faces()
                if state.shown[slot] is not None
                and state.players[0].active.group(face).count > room(state, slot)
            )
            await wait_current(emu, panel, session)
            before = snapshot()
            await alice.select(panel, one(panel, r":x\.fc$"), [str(face)])
            assert not custom_ids(panel, rf":x\.q\.{face}\.{slot}$")  # never offered
            tampered = forge(panel, one(panel, rf":x\.rs\.{face}$"), f"x.q.{face}.{slot}")
            res = await alice.click(panel, tampered)
            assert res.text == t("en", "hellqueue.error.illegal_move.card_overflow")
            assert snapshot() == before
            # A pick of a colour that is no longer on the card.
            await play_until(emu, session, users, panels, user_pick_due(users))
            seat = to_move_seat(session.state)
            state = session.state
            gone = next(s for s in STONES if s not in state.card_stones[state.payout.slot])
            picker = panels[seat]
            await wait_current(emu, picker, session)
            before = snapshot()
            button = custom_ids(picker, r":x\.pk\.")[0]
            res = await users[seat].click(picker, forge(picker, button, f"x.pk.{gone}"))
            assert res.text == t("en", "hellqueue.error.illegal_move.stone_gone")
            assert snapshot() == before
            # A control from before the last move is stale.
            stale = await open_hand(users[seat], table)
            last = state.card_stones[state.payout.slot][-1]  # its button was not tampered with
            await click_move(users[seat], picker, TakeStone(stone=last))
            before = snapshot()
            res = await users[seat].click(stale, custom_ids(stale, r":x\.pk\.")[0])
            assert "This table has changed" in res.text
            assert snapshot() == before


# Languages -------------------------------------------------------------------------------------


async def test_rules_and_screens_in_both_languages(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=QUICK) as emu:
        hana = emu.add_user("hana", locale="ja", admin=True)
        bob, carol = emu.add_user("bob"), emu.add_user("carol")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            # Its Japanese command name, as the Japanese client lists it.
            res = await hana.slash(emu.general, "地獄キュー部 ルール")
            assert res.ephemeral and res.message.components_v2 and "地獄Queue部" in res.text
            scoring = await rules_page(hana, emu.general, "hellqueue", "scoring")
            assert "地獄Queue部" in scoring and "n × (n − 1)" in scoring
            assert "RBYGAW · RRGGBW · YYBGAW" in await rules_page(
                hana, emu.general, "hellqueue", "setup"
            )
            rulings = await rules_page(bob, emu.general, "hellqueue", "rulings")
            for ruling in (
                "3–4 players, the published count",
                "bring no black die when none is left anywhere",
                "an Awaken that wakes nothing is legal",
                "RRW · BBR · YYB · GGY · AAG",
                "n × (n − 1)",
                "black dice on your active card count",
                "**Still tied** — a shared win",
                "the bot asks each player which stone to take",
                "only when the stones depend on it.",  # the last line: nothing was cut
            ):
                assert ruling in rulings, ruling
            await hana.slash(emu.general, "settings", language="ja")
            _, table = await start_game(
                emu, bot, hana, joiners=(bob, carol), first="0", command=COMMAND
            )
            to_move = t("ja", "hellqueue.table.to_move", marker="🔴", name="hana")
            await emu.wait_for(lambda: to_move in table.text)
            assert t("ja", "hellqueue.table.legend") in table.text
            panel = await open_hand(hana, table)
            assert t("ja", "hellqueue.hand.title") in panel.text
            assert t("ja", "hellqueue.hand.your_turn") in panel.text
            assert t("ja", "hellqueue.hand.choose_face") in panel.text
            panel = await open_hand(bob, table)
            assert t("en", "hellqueue.hand.waiting", name="🔴 hana") in panel.text


# Screens, controls and picture, checked directly ------------------------------------------------


def _context(
    state: State, lang: str = "en", names: list[str] | None = None, recent: tuple[Any, ...] = ()
) -> Context:
    players = state.config.players
    record = SessionRecord(
        id="0123abcd",
        game_id="hellqueue",
        rules_version=1,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale=lang,
        options={},
        seed=0,
        status=Status.ACTIVE,
        version=12345,
    )
    session = Session(record=record, rules=RULES, config=state.config, state=state)
    ui = HellQueueUI()
    return Context(
        session=session,
        lang=lang,
        names=names or [f"p{i}" for i in range(players)],
        recent=recent,
        describe=lambda event, ctx: ui.event_text(event, ctx),
    )


def _text(layout: Any) -> str:
    return text_of({"flags": FLAG_COMPONENTS_V2, "components": build(layout).components})


def _ids(layout: Any) -> list[str]:
    components = build(layout).components
    return [c["custom_id"] for c in walk_components(components) if "custom_id" in c]


def test_dice_and_stones_read_the_same_everywhere() -> None:
    """Large dice are keycaps, black dice ⚫ keycaps, small dice a code span, by face."""
    assert dice_text(dice("L5 S3 B5 L5 S5 S3")) == "`3 3` 5️⃣5️⃣⚫5️⃣`5`"
    assert sleep_text((1, 1, 4)) == "`1 1` `4`"
    assert stones_row(("red", "red", "white")) == "🟥🟥⬜"
    assert stone_counts_text((2, 0, 0, 0, 1, 3)) == "🟥2 💠1 ⬜3"
    assert KEYCAP[6] == "6\ufe0f\u20e3"


def test_the_table_shows_every_public_piece() -> None:
    state = table(
        3,
        turn=1,
        active={0: "L5 L5 S5 B2", 1: "L1 S4", 2: ""},
        sleep={0: "1 1 6", 1: "2"},
        rest={1: (2, 1)},
        owned={0: "RRA", 2: "W"},
        queues={0: {0: "L3 S3", 1: "B6"}, 2: {2: "L4 L4 S4"}},
        shown=(0, None, 9),
        decks=((1, 2), (), (10,)),
        black_supply=3,
        rest_black=1,
    )
    view = RULES.view(state, None)
    names = ["alice", "bob", "carol"]
    text = _text(HellQueueUI().table(_context(state, names=names)))
    assert t("en", "hellqueue.table.to_move", marker="🔵", name="bob") in text
    card = t("en", "hellqueue.table.card", number=8, total=3, stones="🟥🟥⬜", deck=2)
    assert f"{card}\n🔴 3️⃣`3` · 🔵 ⚫6️⃣" in text
    assert t("en", "hellqueue.table.card_done", number=10) in text
    card = t(
        "en",
        "hellqueue.table.card",
        number=12,
        total=3,
        stones=stones_row(view.card_stones[2]),
        deck=1,
    )
    assert f"{card}\n🟡 4️⃣4️⃣`4`" in text
    score = view.scores[0]
    assert (
        t("en", "hellqueue.table.player", marker="🔴", name="alice", score=score, stones="🟥2 💠1")
        in text
    )
    assert t("en", "hellqueue.table.area", active="⚫2️⃣ 5️⃣5️⃣`5`", sleep="`1 1` `6`", rest=0) in text
    assert (
        "▶ " + t("en", "hellqueue.table.player", marker="🔵", name="bob", score=0, stones="—")
        in text
    )
    assert t("en", "hellqueue.table.area", active="1️⃣ `4`", sleep="`2`", rest=3) in text
    assert t("en", "hellqueue.table.area", active="—", sleep="—", rest=0) in text
    supply = t(
        "en",
        "hellqueue.table.supply",
        black=3,
        rest_black=1,
        stones=stone_counts_text(view.stone_supply),
    )
    assert supply in text


def test_a_payout_shows_who_picks_and_the_picks_left() -> None:
    state = table(
        3,
        turn=2,
        phase="resolve",
        queues={1: {0: "L1 L1", 1: "S4 S4", 2: "L6"}},
        card_stones={1: "AWBY"},
        payout=Payout(slot=1, ranking=((0,), (1,), (2,)), picks=(0, 0, 1, 2)),
    )
    ctx = _context(state, names=["alice", "bob", "carol"])
    text = _text(HellQueueUI().table(ctx))
    assert t("en", "hellqueue.table.picking", marker="🔴", name="alice", number=10) in text
    picks = t("en", "hellqueue.table.still_to_pick", names="🔴 alice ×2, 🔵 bob, 🟡 carol")
    assert picks in text
    assert (
        "💰 " + t("en", "hellqueue.table.card", number=10, total=5, stones="🟦🟨💠⬜", deck=3)
        in text
    )
    panel = HellQueueUI().hand(ctx, 0, None)
    assert t("en", "hellqueue.hand.your_pick", number=10, n=2) in _text(panel)
    assert [i.rsplit(".", 1)[1] for i in _ids(panel) if ":x.pk." in i] == [
        "blue",
        "yellow",
        "aqua",
        "white",
    ]
    waiting = _text(HellQueueUI().hand(ctx, 1, None))
    assert t("en", "hellqueue.hand.waiting_pick", name="🔴 alice") in waiting
    assert not [i for i in _ids(HellQueueUI().hand(ctx, 1, None)) if ":x." in i]


def _crowded() -> State:
    """Four players with more dice and stones than a real game ever holds: the biggest table
    and panels."""
    return table(
        4,
        active={s: "L1 L2 L3 L4 L5 B6 B1" if s < 2 else "L1 L2 L3 L4 L5 B6" for s in range(4)},
        sleep={s: "1 2 3 4 5 6 1 2 3 4" for s in range(4)},
        rest={s: (3, 4) for s in range(4)},
        owned={s: "RRRRRBBBBBYYYYYGGGGGAAAAAWWWWW" for s in range(4)},
        queues={
            0: {0: "S6", 1: "S6", 2: "S6", 3: "S5"},
            1: {0: "S2 S2", 1: "S3 S3", 2: "B4 B4", 3: "S1"},
            2: {0: "S1 S1 S1", 1: "L2 L2", 2: "S3 S3 S3", 3: "S4 S4"},
        },
        black_supply=0,
        rest_black=0,
    )


def test_a_crowded_table_and_every_panel_step_fit_discord_limits() -> None:
    state = _crowded()
    names = [f"{'x' * 29}{i:03d}" for i in range(4)]
    ui = HellQueueUI()
    # The log at its longest: the six longest event texts of real games.
    wordy = _context(state, names=names)
    events = [e for _, e in _events_of_random_games() if ui.event_text(e, wordy)]
    longest = sorted(events, key=lambda e: len(ui.event_text(e, wordy) or ""))[-6:]
    ctx = _context(state, names=names, recent=tuple(longest))
    ctx.picture = table_picture(RULES.view(state, None))
    panels = [
        ui.hand(ctx, 0, pick)
        for pick in (None, "f1", "f6", "r1.", "r6." + "l1l2l3l4l5b1z1z1z2z2z3z3z4z4z5z6")
    ]
    for layout in (ui.table(ctx), *panels, ui.hand(ctx, 2, None)):
        message = build(layout)
        payload = {"flags": FLAG_COMPONENTS_V2, "components": message.components}
        uploads = [p.filename for p in message.pictures]
        validate_message(payload, attachments=len(uploads), uploads=uploads)
        assert not message.notes, message.notes
    assert len(build(ui.table(ctx)).pictures) == 1
    reroll = build(panels[-1])
    select = next(c for c in walk_components(reroll.components) if c["type"] == 3)
    assert len(select["options"]) == 16 and select["max_values"] == 16


def test_a_reroll_click_plays_the_reroll_a_mark_per_kind_and_the_roll() -> None:
    state = table(3, active={0: "L2 L2 L5 S5 B1"}, sleep={0: "3 3 4"})
    ui, ctx = HellQueueUI(), _context(state)
    picked = ui.control(ctx, 0, "rd", ["2"], ["z30", "z31", "l50", "b10"])
    assert picked == Pick("r2.b1l5z3z3")
    assert ui.control(ctx, 0, "rg", ["2", "b1l5z3z3"], []) == (
        Reroll(face=2),
        Mark(where="active", size="black", face=1, count=1),
        Mark(where="active", size="large", face=5, count=1),
        Mark(where="sleep", size="small", face=3, count=2),
        RollMarked(),
    )
    # A die that is not there (the resting group itself) refuses the whole click: its
    # actions are one move (`submit_all`), and the Reroll before the bad Mark is not played.
    with pytest.raises(GameError) as refused:
        advance_all(RULES, state, 0, 0, ui.control(ctx, 0, "rg", ["2", "l2"], []), 1)
    assert refused.value.detail == "no_such_die"
    # In the `reroll` phase (a Reroll begun before a restart) the same controls finish it.
    begun = RULES.apply(state, 0, Reroll(face=2)).state
    ctx = _context(begun)
    panel = ui.hand(ctx, 0, None)
    assert t("en", "hellqueue.hand.reroll_phase") in _text(panel)
    assert any(i.endswith(":x.rd.m") for i in _ids(panel))
    assert ui.control(ctx, 0, "rg", ["m", "z4"], []) == (
        Mark(where="sleep", size="small", face=4, count=1),
        RollMarked(),
    )


def test_controls_refuse_out_of_turn_and_malformed_clicks() -> None:
    state = table(3, active={0: "L2 L2 S5", 1: "L1"}, queues={0: {1: "L6 L6 L6 L6 L6"}})
    ui, ctx = HellQueueUI(), _context(state)
    for verb, args, values in (("fc", [], ["1"]), ("q", ["1", "0"], []), ("pk", ["red"], [])):
        with pytest.raises(GameError) as refused:
            ui.control(ctx, 1, verb, args, values)
        assert refused.value.reason is Reason.NOT_YOUR_TURN
    for verb, args, values in (
        ("fc", [], ["x"]),
        ("q", ["7", "0"], []),
        ("pk", ["purple"], []),
        ("rg", ["2", "q9"], []),
        ("zzz", [], []),
    ):
        with pytest.raises(GameError) as refused:
            ui.control(ctx, 0, verb, args, values)
        assert refused.value.reason is Reason.BAD_OPTION, verb
    with pytest.raises(GameError) as refused:
        ui.control(ctx, 0, "fc", [], ["6"])
    assert refused.value.detail == "no_such_face"
    assert ui.control(ctx, 0, "fc", [], ["2"]) == Pick("f2")
    # Only the cards that can take the group are offered (the 8 has room for 3, then 1).
    ids = _ids(ui.hand(ctx, 0, "f2"))
    assert [i.split(":x.")[1] for i in ids if ":x.q." in i] == ["q.2.0", "q.2.1", "q.2.2"]
    fuller = table(3, active={0: "L2 L2 S5"}, queues={0: {1: "L6 L6 L6 L6 L6 L6 L6"}})
    ids = _ids(ui.hand(_context(fuller), 0, "f2"))
    assert [i.split(":x.")[1] for i in ids if ":x.q." in i] == ["q.2.1", "q.2.2"]
    # A pick naming dice that are not there is shown without them.
    assert any(i.endswith(":x.rg.2.s5") for i in _ids(ui.hand(ctx, 0, "r2.s5s5l5z6")))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_awaken_that_wakes_nothing_says_so(lang: str) -> None:
    # Two 2s rested may wake the sleeping 5s, or the 2s, of which none sleeps (allowed).
    state = table(3, active={0: "L2 L2"}, sleep={0: "5 5"})
    ui, ctx = HellQueueUI(), _context(state, lang)
    panel = _text(ui.hand(ctx, 0, "f2"))
    assert t(lang, "hellqueue.hand.awaken", wake=5, n=2) in panel
    assert t(lang, "hellqueue.hand.awaken_none") in panel
    assert "×0" not in panel
    nothing = Awaken(face=2, wake=2)
    assert ui.action_text(ctx, 0, nothing) == t(
        lang, "hellqueue.action.awaken_none", dice=dice_text(state.players[0].active.group(2))
    )
    [event] = [e for e in RULES.apply(state, 0, nothing).events if e.key.endswith("awakened")]
    assert ui.event_text(event, ctx) == t(
        lang, "hellqueue.event.awakened_none", seat="🔴 p0", dice=group_text(2, 2), wake="**2**"
    )


@lru_cache(maxsize=1)
def _events_of_random_games() -> tuple[tuple[State, Any], ...]:
    """(state after, event) for every event of a few random and AI games."""
    from games.hellqueue.ai_policies import random_policy

    events: list[tuple[State, Any]] = []
    for players, seed in ((3, 0), (4, 1), (3, 2), (4, 3)):
        config = RULES.make_config(players, {})
        rng = random.Random(seed)
        step = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
        state, version = step.state, len(step.logged)
        events += [(state, e) for e in step.events]
        while not RULES.is_over(state):
            seat = min(RULES.to_move(state).seats)
            view = RULES.view(state, seat)
            policy = random_policy if seed % 2 == 0 else AI.normal
            step = advance(RULES, state, version, seat, policy(view, rng), seed)
            state, version = step.state, version + len(step.logged)
            events += [(state, e) for e in step.events]
    return tuple(events)


SILENT = {"hellqueue.shuffled", "hellqueue.rolled_setup", "hellqueue.marked"}
"""Events the table's log leaves out (the table itself shows their result)."""


def test_every_event_has_text_in_both_languages() -> None:
    ui = HellQueueUI()
    keys = set()
    for state, event in _events_of_random_games():
        keys.add(event.key)
        for lang in ("en", "ja"):
            text = ui.event_text(event, _context(state, lang))
            if event.key in SILENT:
                assert text is None
                continue
            assert text and "hellqueue." not in text and "{" not in text, (event, text)
    for key in (
        "queued",
        "awakened",
        "reroll_chosen",
        "recalled",
        "payout",
        "placed",
        "picked",
        "revealed",
        "deck_done",
        "winner",
        "scored",
        "black_taken",
    ):
        assert f"hellqueue.{key}" in keys, key


def test_every_illegal_reason_of_the_rules_has_text() -> None:
    package = Path(__file__).resolve().parents[2] / "games" / "hellqueue"
    source = "".join(p.read_text() for p in package.glob("*.py"))
    codes = set(re.findall(r'illegal\("(\w+)"', source))
    assert {"no_such_face", "card_overflow", "stone_gone"} <= codes
    for code in codes:
        english, japanese = (error_text(lang, illegal(code), "hellqueue") for lang in ("en", "ja"))
        assert english != t("en", "error.illegal_move"), code
        assert english != japanese, code


def test_the_picture_is_drawn_from_the_public_view_only() -> None:
    state = _crowded()
    view = RULES.view(state, None)
    png = table_picture(view)
    assert png.startswith(b"\x89PNG")
    # The decks' hidden order changes nothing; any seat's view draws the same picture.
    shuffled = RULES.resample_hidden(state, None, random.Random(5))
    assert shuffled.decks != state.decks
    assert table_picture(RULES.view(shuffled, None)) == png
    assert table_picture(RULES.view(state, 2)) == png
    # The dice under a card do change it.
    moved = table(4, queues={0: {0: "S6"}})
    assert table_picture(RULES.view(moved, None)) != table_picture(RULES.view(table(4), None))
