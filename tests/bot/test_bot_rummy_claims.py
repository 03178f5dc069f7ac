"""Angels & Demons Rummy's claim window and the claims a person makes, by clicks through the
real discord.py client against the emulator: who is asked (and who is not, and what each user
sees), Ready, a goal right after a take, a goal on another's discard from the claim prompt, and
the discarder's loss in the advanced rules.

Each game's seed is picked by simulating it through the rules (`rummy_play.simulate`), so the
clicked game reaches the situation a test is about; the tests read the engine state only to
know what to click and what to expect.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.rummy.pieces import READY, WINDOW, card_label, card_text
from bot.i18n import t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from games.engine import Session, Status
from games.rummy import RULES
from games.rummy.models import Action, Discard, Goal, Pass, ShortResult, State
from runtime import ManualClock
from tests.botkit import FAST, QUICK, custom_ids, open_hand, running_bot, start_game
from tests.games.rummy.rummy_play import (
    COMMAND,
    START,
    before,
    click,
    context,
    first_discard,
    first_discards,
    forge,
    greedy_claimer,
    next_seat,
    one,
    play,
    seed_where,
    simulate,
    wait_drawn,
)

NAMES = ["alice", "bob", "carol"]
USERS = frozenset({0, 1})
"""The two users' seats of the games played to a claim (no AI seat: the clicks decide all)."""


def window_line(session: Session, key: str) -> str:
    """A screen's line about the open window (`key` in the catalog), as it reads now."""
    window = session.state.window
    due = session.due("window")
    assert window is not None and due is not None
    card = card_text(context(session.state), window.card)
    when = f"<t:{math.ceil(due)}:R>"
    name = NAMES[window.discarder]
    return f"{WINDOW} " + t("en", key, card=card, name=name, when=when)


def goal_on_a_discard(events: list[Any]) -> bool:
    return any(e.key == "rummy.goal" and "to_seat" in e.params for e in events)


def goal_after_take(event: Any) -> bool:
    return event.key == "rummy.goal" and "to_seat" not in event.params


def lines(message: EmuMessage) -> list[str]:
    return message.text.split("\n")


def three_users(emu: Emulator) -> tuple[EmuUser, EmuUser, EmuUser]:
    return emu.add_user("alice"), emu.add_user("bob"), emu.add_user("carol")


# Who is asked ----------------------------------------------------------------------------------


async def test_a_discard_nobody_can_claim_opens_no_window(tmp_path: Path) -> None:
    seed = seed_where(lambda s: frozenset() in first_discards(3, s).values())
    card = next(x for x, asked in first_discards(3, seed).items() if not asked)
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob, carol = three_users(emu)
        clock = ManualClock(START)
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob, carol), first="0", command=COMMAND
            )
            hands = {0: await open_hand(alice, table)}
            hands |= {1: await open_hand(bob, table), 2: await open_hand(carol, table)}
            version = session.record.version
            await first_discard(emu, session, alice, hands[0], card)
            # Play passed at once: bob takes; no window, no deadline, nothing to answer.
            state = session.state
            assert (state.phase, state.turn, state.window) == ("take", 1, None)
            assert state.rows[0] == (card,) and session.record.version == version + 2
            assert session.due("window") is None
            to_take = t("en", "rummy.table.to_take", name="bob")
            await emu.wait_for(lambda: to_take in table.text)
            assert not custom_ids(table, r":L:") and t("en", "rummy.table.answer") not in table.text
            for hand in hands.values():
                await wait_drawn(emu, hand, session)
                assert not custom_ids(hand, r":x\.w[pgn]\.")
            assert custom_ids(hands[1], r":x\.tk\.")
            assert t("en", "rummy.hand.waiting", name="bob") in hands[2].text
            for user in (alice, bob, carol):
                assert not any(WINDOW in m.text for m in user.visible_messages())


async def test_a_discard_one_player_can_claim_asks_only_that_player(tmp_path: Path) -> None:
    def one_asked(seed: int) -> bool:
        return any(len(asked) == 1 for asked in first_discards(3, seed).values())

    seed = seed_where(one_asked)
    card, asked = next((x, a) for x, a in first_discards(3, seed).items() if len(a) == 1)
    (claimant,) = asked
    other = 3 - claimant  # the player of seats 1 and 2 who cannot claim
    async with Emulator.running(rate_limit=QUICK) as emu:
        users = dict(enumerate(three_users(emu)))
        clock = ManualClock(START)
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, users[0], joiners=(users[1], users[2]), first="0", command=COMMAND
            )
            hands = {seat: await open_hand(user, table) for seat, user in users.items()}
            await first_discard(emu, session, users[0], hands[0], card)
            assert RULES.to_move(session.state).seats == {claimant}
            assert session.due("window") == START + 20
            # The table: the window and its deadline, the same button for all, nobody named.
            status = window_line(session, "rummy.table.window")
            await emu.wait_for(lambda: status in lines(table))
            assert one(table, ":hand$").split(":")[2] == "L"
            assert t("en", "rummy.table.answer") in table.text
            # The claimant is asked: Pass and a claim, in the hand already open.
            prompt = hands[claimant]
            await wait_drawn(emu, prompt, session)
            assert custom_ids(prompt, r":x\.wp\.") and custom_ids(prompt, r":x\.w[gn]\.")
            assert window_line(session, "rummy.hand.window") in lines(prompt)
            # The other has nothing to answer: in the open hand, from the table's button, and a
            # tampered claim is told so; nothing changes.
            version, state = session.record.version, session.state
            await wait_drawn(emu, hands[other], session)
            reply = await users[other].click(table, one(table, ":hand$"))
            nothing = window_line(session, "rummy.hand.window_not_asked")
            for hand in (hands[other], reply.message):
                assert nothing in lines(hand) and not custom_ids(hand, r":x\.")
            assert reply.ephemeral and not users[claimant].can_see(reply.message)
            tag = f"{state.game_no}.{card}"
            forged = forge(hands[other], one(hands[other], ":refresh$"), f"x.wp.{tag}")
            res = await users[other].click(hands[other], forged)
            assert res.text == t("en", "rummy.error.illegal_move.not_asked")
            assert (session.record.version, session.state) == (version, state)
            # The discarder waits without a choice; no one else sees the claimant's prompt.
            await wait_drawn(emu, hands[0], session)
            assert not custom_ids(hands[0], r":x\.")
            assert not any(users[s].can_see(prompt) for s in (0, other))
            # The claimant's answer closes the window at once: play goes on.
            await click(users[claimant], prompt, RULES.view(state, claimant), Pass())
            assert session.state.window is None and session.due("window") is None
            assert session.state.turn == 1 and session.record.version == version + 1


# A person's claims, from the start of a game ---------------------------------------------------


@dataclass
class Game:
    """Two users (alice first, bob) at a table, each with their hand open, clicking what
    `greedy_claimer` would (so the game is the one `simulate` plays)."""

    emu: Emulator
    session: Session
    table: EmuMessage
    users: dict[int, EmuUser]
    hands: dict[int, EmuMessage]

    async def play_until(self, wanted: Callable[[State, int, Action], bool]) -> tuple[int, Action]:
        """Click on until a user is about to make a move `wanted` picks out; that seat and move
        (its hand drawn as the table is now)."""
        session = self.session
        stop = before(session, self.users, greedy_claimer, wanted)
        await play(self.emu, session, self.users, self.hands, greedy_claimer, stop=stop)
        assert session.record.status is Status.ACTIVE
        seat = next_seat(session.state, self.users)
        await wait_drawn(self.emu, self.hands[seat], session)
        return seat, greedy_claimer(RULES.view(session.state, seat), session.record.version)


def user_seed(options: dict[str, Any], found: Callable[[list[Any]], bool]) -> int:
    """A seed whose two-user game has events that `found` likes."""
    return seed_where(lambda s: found(simulate(2, options, USERS, greedy_claimer, s)[1]))


@asynccontextmanager
async def two_users(tmp_path: Path, seed: int, options: dict[str, Any]) -> AsyncIterator[Game]:
    async with Emulator.running(rate_limit=QUICK) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        clock = ManualClock(START)
        async with running_bot(emu, tmp_path / "db.sqlite3", clock=clock, **FAST) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command=COMMAND, **options
            )
            users = {0: alice, 1: bob}
            hands = {seat: await open_hand(user, table) for seat, user in users.items()}
            yield Game(emu, session, table, users, hands)


def claims_goal(state: State, seat: int, action: Action) -> bool:
    return state.phase == "window" and action == Goal()


async def claim_goal(game: Game, seat: int) -> tuple[int, ShortResult]:
    """The user at `seat` goals on the discard from the prompt; the discarder and the result."""
    session, hand = game.session, game.hands[seat]
    window = session.state.window
    assert window is not None
    goal = one(hand, rf":x\.wg\.{session.state.game_no}\.{window.card}$")
    assert t("en", "rummy.hand.claim_goal") in hand.text
    discarder = window.discarder  # a user with nothing to choose in this window
    await wait_drawn(game.emu, game.hands[discarder], session)
    assert not custom_ids(game.hands[discarder], r":x\.")
    await game.users[seat].click(hand, goal)
    result = session.state.result
    assert result is not None and (result.kind, result.seat) == ("goal", seat)
    assert result.from_seat == discarder and result.card == window.card
    text = t(
        "en",
        "rummy.result.goal_discard",
        name=NAMES[seat],
        card=card_text(context(session.state), window.card),
        from_name=NAMES[discarder],
    )
    await game.emu.wait_for(lambda: text in game.table.text)
    return discarder, result


async def test_a_user_declares_ready_then_goals_on_a_discard_from_the_claim_prompt(
    tmp_path: Path,
) -> None:
    options = {"match_games": 1}
    seed = user_seed(options, goal_on_a_discard)
    async with two_users(tmp_path, seed, options) as game:
        # Ready: the discard select marks the cards that allow it, then a button declares it.
        seat, ready = await game.play_until(
            lambda state, seat, action: isinstance(action, Discard) and action.ready
        )
        assert isinstance(ready, Discard)
        user, hand, name = game.users[seat], game.hands[seat], NAMES[seat]
        select = one(hand, r":x\.dc$")
        component = hand.component(select)
        assert component is not None
        option = next(o for o in component["options"] if o["value"] == str(ready.card))
        assert option["description"] == t("en", "rummy.hand.ready_possible")
        await user.select(hand, select, [str(ready.card)])
        label = card_label(context(game.session.state), ready.card)
        assert t("en", "rummy.hand.discard_ready", card=label) in hand.text
        await user.click(hand, one(hand, rf":x\.dr\.{ready.card}$"))
        assert game.session.state.ready[seat]
        declared = t("en", "rummy.event.ready", seat=name)
        await game.emu.wait_for(lambda: declared in game.table.text)
        mark = f"{READY} {t('en', 'rummy.ready')}"
        assert any(line.startswith(f"**{name}**") and mark in line for line in lines(game.table))
        other = game.hands[1 - seat]
        await wait_drawn(game.emu, other, game.session)
        assert any(line.startswith(f"**{name}**") and mark in line for line in lines(other))
        # Later a Ready user (this one or the other) goals on a discard from the prompt; in
        # the basic rules the discarder loses nothing.
        seat, _ = await game.play_until(claims_goal)
        scores = game.session.state.scores
        discarder, result = await claim_goal(game, seat)
        assert result.loss == 0 and game.session.state.scores[discarder] == scores[discarder]
        assert "loses" not in game.table.text


async def test_a_user_goals_right_after_a_take(tmp_path: Path) -> None:
    options = {"match_games": 1}
    seed = user_seed(options, lambda events: any(goal_after_take(e) for e in events))
    async with two_users(tmp_path, seed, options) as game:
        seat, _ = await game.play_until(
            lambda state, seat, action: state.phase == "act" and action == Goal()
        )
        session, hand = game.session, game.hands[seat]
        taken = session.state.taken
        assert taken is not None
        ready = session.state.ready[seat]
        status = "rummy.hand.your_act_ready_goal" if ready else "rummy.hand.your_act_goal"
        assert t("en", status, card=card_text(context(session.state), taken)) in hand.text
        assert t("en", "rummy.hand.goal") in hand.text
        await game.users[seat].click(hand, one(hand, r":x\.gl$"))
        result = session.state.result
        assert result is not None and (result.seat, result.from_seat) == (seat, None)
        text = t(
            "en",
            "rummy.result.goal_take",
            name=NAMES[seat],
            card=card_text(context(session.state), taken),
        )
        await game.emu.wait_for(lambda: text in game.table.text)


async def test_advanced_a_goal_on_a_discard_costs_the_discarder_by_clicks(tmp_path: Path) -> None:
    options = {"match_games": 2, "advanced": True}
    seed = user_seed(options, lambda events: any(e.key == "rummy.lost_points" for e in events))
    async with two_users(tmp_path, seed, options) as game:
        seat, _ = await game.play_until(
            lambda state, seat, action: (
                claims_goal(state, seat, action) and state.scores[1 - seat] > 0
            )
        )
        scores = game.session.state.scores
        discarder, result = await claim_goal(game, seat)
        after = game.session.state.scores
        assert 0 < result.loss == scores[discarder] - after[discarder]
        assert after[seat] == scores[seat] + result.total
        loss = t("en", "rummy.result.loss", name=NAMES[discarder], count=result.loss)
        await game.emu.wait_for(lambda: loss in game.table.text)
        lost = t(
            "en",
            "rummy.event.lost_points",
            seat=NAMES[discarder],
            count=result.loss,
            score=after[discarder],
        )
        assert lost in game.table.text
