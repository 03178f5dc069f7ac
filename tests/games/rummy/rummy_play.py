"""Angels & Demons Rummy through the emulator, as a player clicks it: the controls a move
takes, waiting until a screen shows the table as it is now, a whole game clicked by a policy
and the same game simulated through the rules alone (to pick a seed that reaches a situation),
and a screen's context for checking layouts directly."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from bot.context import Context
from bot.games.rummy.controls import discard_choices, one_per_kinds
from bot.games.rummy.pieces import WINDOW, card_label, card_text, cards_text
from bot.games.rummy.ui import RummyUI
from bot.playground.emulator import Emulator, EmuMessage, EmuUser
from games.engine import Seat, Session, SessionRecord, Status
from games.engine.contract import CHANCE
from games.engine.deadlines import Deadline
from games.engine.step import advance
from games.rummy import AI, RULES
from games.rummy.cards import is_red, kind, kinds_of
from games.rummy.models import (
    Action,
    Discard,
    Gain,
    Goal,
    NextGame,
    Open,
    Pass,
    State,
    Take,
    View,
)
from runtime import ManualClock
from tests.botkit import custom_ids

COMMAND = "rummy new"
START = 1_800_000_000.0
AI_DELAY = 0.5
SEED = 7
"""The session seed of games that need no particular deal (so each run plays the same)."""
Choose = Callable[[View, int], Action]


# What a player clicks -----------------------------------------------------------------------


def as_offered(view: View, action: Action) -> Action:
    """`action` as the hand offers it: one Open or Gain per kind of set (red cards first), one
    discard per kind and colour."""
    if isinstance(action, Open | Gain):
        offered = one_per_kinds(a.cards for a in view.legal if isinstance(a, type(action)))
        cards = next(s for s in offered if kinds_of(s) == kinds_of(action.cards))
        return type(action).model_validate({"cards": cards})
    if isinstance(action, Discard) and view.seat is not None and not view.ready[view.seat]:
        same = (kind(action.card), is_red(action.card))
        card = next(x for x in discard_choices(view) if (kind(x), is_red(x)) == same)
        return Discard(card=card, ready=action.ready)
    return action


def ai_like(view: View, version: int) -> Action:
    """What the AI would play, as the hand offers it (deterministic by version)."""
    return as_offered(view, AI.normal(view, random.Random(f"user:{version}")))


def greedy_claimer(view: View, version: int) -> Action:
    """Like the AI, but claims every discard it can (a goal first, else the first Gain)."""
    if view.phase == "window":
        if Goal() in view.legal:
            return Goal()
        gains = one_per_kinds(a.cards for a in view.legal if isinstance(a, Gain))
        if gains:
            return Gain.model_validate({"cards": gains[0]})
    return ai_like(view, version)


def one(message: EmuMessage, pattern: str) -> str:
    found = custom_ids(message, pattern)
    assert len(found) == 1, (pattern, message.custom_ids())
    return found[0]


async def click(user: EmuUser, hand: EmuMessage, view: View, action: Action) -> None:
    """Make `action` with the hand's controls."""
    window = view.window
    tag = f"{view.game_no}.{window.card}" if window is not None else ""
    match action:
        case Take(card=card):
            await user.click(hand, one(hand, rf":x\.tk\.{card}$"))
        case Goal() if window is not None:
            await user.click(hand, one(hand, rf":x\.wg\.{tag}$"))
        case Goal():
            await user.click(hand, one(hand, r":x\.gl$"))
        case Open(cards=cards):
            await user.click(hand, one(hand, r":x\.op\." + r"\.".join(map(str, cards)) + "$"))
        case Discard(card=card, ready=ready):
            if not custom_ids(hand, rf":x\.ds\.{card}$"):
                await user.select(hand, one(hand, r":x\.dc$"), [str(card)])
            await user.click(hand, one(hand, rf":x\.{'dr' if ready else 'ds'}\.{card}$"))
        case Pass():
            await user.click(hand, one(hand, rf":x\.wp\.{tag}$"))
        case Gain(cards=(a, b)):
            await user.click(hand, one(hand, rf":x\.wn\.{tag}\.{a}\.{b}$"))
        case NextGame():
            await user.click(hand, one(hand, r":x\.nx$"))
        case _:
            raise AssertionError(f"no control for {action}")


def next_seat(state: State, users: dict[int, EmuUser]) -> int:
    """The seat that moves next: the users' seats in order, then an AI seat (in a claim window
    the users answer first, the AI after its delay)."""
    seats = RULES.to_move(state).seats
    mine = sorted(s for s in seats if s in users)
    return mine[0] if mine else min(seats)


def drawn_now(message: EmuMessage, session: Session) -> bool:
    """Whether a hand or the table shows the session as it is now: drawn at its version or,
    in a claim window (whose screens carry no version), drawn for that window: the table's
    status names its card, an asked hand has its buttons."""
    state = session.state
    if session.record.status is not Status.ACTIVE:
        return True
    if state.phase != "window":
        return any(f":{session.record.version}:" in i for i in custom_ids(message))
    window = state.window
    card = card_text(context(state), window.card)
    tag = rf":x\.w[pgn]\.{state.game_no}\.{window.card}(\.|$)"
    lines = message.text.split("\n")
    return bool(custom_ids(message, tag)) or any(
        line.startswith(WINDOW) and card in line for line in lines
    )


async def wait_drawn(emu: Emulator, message: EmuMessage, session: Session) -> None:
    """Wait until a hand or the table shows the session as it is now (see `drawn_now`)."""
    await emu.wait_for(lambda: drawn_now(message, session))


def moved_on(session: Session, version: int) -> Callable[[], bool]:
    return lambda: session.record.version != version or session.record.status is not Status.ACTIVE


async def run_clock(clock: ManualClock, until: Callable[[], bool], limit: int = 400) -> None:
    """Move the clock in steps of the AI's delay (letting AI seats act) until `until()`."""
    for _ in range(limit):
        if until():
            return
        clock.advance(AI_DELAY)
        await asyncio.sleep(0.01)
    assert until(), "the condition never came true"


async def play(
    emu: Emulator,
    session: Session,
    users: dict[int, EmuUser],
    hands: dict[int, EmuMessage],
    choose: Choose,
    *,
    clock: ManualClock | None = None,
    stop: Callable[[State], bool] = lambda state: False,
    seen: Callable[[int, EmuMessage], None] | None = None,
    table: EmuMessage | None = None,
) -> list[tuple[int, Action]]:
    """Click every move of the users' seats until `stop` or the end (AI seats move as the
    clock goes on); `seen(seat, hand)` looks at each hand before its click, once the hand and
    the `table` are drawn as they are now."""
    played: list[tuple[int, Action]] = []
    while session.record.status is Status.ACTIVE and not stop(session.state):
        seat = next_seat(session.state, users)
        version = session.record.version
        if seat not in users:
            assert clock is not None
            await run_clock(clock, moved_on(session, version))
            continue
        hand = hands[seat]
        await wait_drawn(emu, hand, session)
        if seen is not None:
            if table is not None:
                await wait_drawn(emu, table, session)
            seen(seat, hand)
        view = RULES.view(session.state, seat)
        action = choose(view, version)
        await click(users[seat], hand, view, action)
        assert session.record.version > version, action
        played.append((seat, action))
    return played


def before(
    session: Session,
    users: dict[int, EmuUser],
    choose: Choose,
    wanted: Callable[[State, int, Action], bool],
) -> Callable[[State], bool]:
    """A `stop` for `play`: true just before the users' next move that `wanted(state, seat,
    action)` picks out (the action `choose` makes there)."""

    def stop(state: State) -> bool:
        seat = next_seat(state, users)
        if seat not in users:
            return False
        return wanted(state, seat, choose(RULES.view(state, seat), session.record.version))

    return stop


def simulate(
    players: int, options: dict[str, Any], users: frozenset[int], choose: Choose, seed: int
) -> tuple[State, list[Any]]:
    """The game the bot plays with `seed` when the users' seats `choose` and answer a window
    before the AI: its end and every event."""
    config = RULES.make_config(players, {**options, "first_player": 0})
    step = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, version, events = step.state, len(step.logged), list(step.events)
    while not RULES.is_over(state):
        seats = RULES.to_move(state).seats
        mine = sorted(s for s in seats if s in users)
        seat = mine[0] if mine else min(seats)
        view = RULES.view(state, seat)
        if seat in users:
            action = choose(view, version)
        else:
            action = AI.normal(view, random.Random(f"{seed}:ai:{version}"))
        step = advance(RULES, state, version, seat, action, seed)
        state, version = step.state, version + len(step.logged)
        events += step.events
    return state, events


# Seeing ---------------------------------------------------------------------------------------


def red_tokens(state: State, card: int) -> tuple[str, ...]:
    """How a red card reads in a message and on a control (English)."""
    ctx = context(state)
    return card_text(ctx, card), card_label(ctx, card)


def assert_hidden(session: Session, seen: dict[int, list[EmuMessage]]) -> None:
    """Nobody sees another player's hidden cards: no red card of another hand or of the deck
    (red cards are unique) and no other hand as a whole shows in what each user sees."""
    state: State = session.state
    secret = RULES.secret_cards(state)
    ctx = context(state)
    for seat, messages in seen.items():
        text = "\n".join(m.text for m in messages)
        for card in secret - set(state.hands[seat]):
            if is_red(card):
                shown = [
                    line
                    for line in text.split("\n")
                    for tk in red_tokens(state, card)
                    if tk in line
                ]
                assert not shown, (seat, card, state.phase, shown)
        for other, hand in enumerate(state.hands):
            if other != seat and len(hand) > 1:
                assert cards_text(ctx, hand) not in text, (seat, other)


@cache
def first_discards(players: int, seed: int) -> dict[int, frozenset[int]]:
    """Alice's first turn (she is first) when she takes the first field card: each card her
    hand then offers to discard, with the seats a window on it would ask (none: no window)."""
    config = RULES.make_config(players, {"first_player": 0})
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state
    state = RULES.apply(state, 0, Take(card=state.field[0])).state
    asked = {}
    for card in discard_choices(RULES.view(state, 0)):
        after = RULES.apply(state, 0, Discard(card=card)).state
        asked[card] = RULES.to_move(after).seats if after.phase == "window" else frozenset()
    return asked


def seed_where(found: Callable[[int], bool]) -> int:
    """The first session seed (of 300) whose game `found` likes."""
    return next(seed for seed in range(300) if found(seed))


async def first_discard(
    emu: Emulator, session: Session, alice: EmuUser, hand: EmuMessage, card: int
) -> None:
    """Alice takes the first field card and discards `card` (see `first_discards`)."""
    await wait_drawn(emu, hand, session)
    view = RULES.view(session.state, 0)
    await click(alice, hand, view, Take(card=session.state.field[0]))
    await wait_drawn(emu, hand, session)
    await click(alice, hand, RULES.view(session.state, 0), Discard(card=card))


def forge(message: EmuMessage, custom_id: str, action: str) -> str:
    """Make a control of `message` send another action (a tampered client); returns the id."""
    component = message.component(custom_id)
    assert component is not None
    sid, version = custom_id.split(":")[1:3]
    component["custom_id"] = f"{custom_id[0]}:{sid}:{version}:{action}"
    return str(component["custom_id"])


def offer(message: EmuMessage, custom_id: str, card: int) -> str:
    """Add `card` to the options of a select of `message` (a tampered client); its value."""
    component = message.component(custom_id)
    assert component is not None
    component["options"].append({"value": str(card), "label": "forged"})
    return str(card)


def context(
    state: State,
    lang: str = "en",
    recent: tuple[Any, ...] = (),
    due: float | None = None,
    names: list[str] | None = None,
    version: int = 321,
) -> Context:
    """What a screen of `state` is drawn with, in a session at `version` (its window closing
    at `due`)."""
    names = (names or NAMES)[: state.config.players]
    record = SessionRecord(
        id="0123abcd",
        game_id="rummy",
        rules_version=RULES.rules_version,
        guild_id=1,
        channel_id=2,
        host_id=3,
        locale=lang,
        options={},
        seed=0,
        status=Status.ACTIVE,
        version=version,
        seats=tuple(Seat(user_id=10 + i, name=name) for i, name in enumerate(names)),
    )
    session = Session(record=record, rules=RULES, config=state.config, state=state)
    if due is not None:
        deadline = Deadline(session_id=record.id, kind="window", due=due)
        session.deadlines = {deadline.key: deadline}
    ui = RummyUI()
    return Context(
        session=session,
        lang=lang,
        names=names,
        recent=recent,
        describe=lambda event, ctx: ui.event_text(event, ctx),
    )


NAMES = ["alice", "bob", "carol", "dave"]
