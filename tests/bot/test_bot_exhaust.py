"""Exhaust played through the real discord.py client against the local Discord emulator.

The tests read the engine state (`bot.service`) only to decide what to click; every move goes
through clicks and selects like a Discord client's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.context import Context
from bot.errors import error_text
from bot.game_ui import Pick
from bot.games.exhaust.choice import ALPHABET, decode, encode
from bot.games.exhaust.pieces import COLOUR_EMOJI
from bot.games.exhaust.prefs import SOLO_LEVEL_KEY, SoloLevels
from bot.games.exhaust.ui import ExhaustUI
from bot.i18n import t
from bot.playground.emulator import Emulator, EmuMessage, EmuUser, InvalidInteraction, RateLimit
from bot.playground.emulator.models import FLAG_COMPONENTS_V2, walk_components
from bot.playground.emulator.validation import validate_message
from bot.ui.v2 import V2Message, build
from games.engine import GameError, Reason, Seat, Session, SessionRecord, Status
from games.engine.contract import CHANCE
from games.engine.errors import illegal
from games.engine.step import advance
from games.exhaust import AI, RULES, legal_plays
from games.exhaust.cards import card_id, is_copy
from games.exhaust.models import (
    Action,
    FlipDepletion,
    NextGame,
    PlayCards,
    State,
    UseTime,
    View,
)
from storage import open_storage
from tests.botkit import (
    custom_ids,
    open_hand,
    open_lobby,
    rules_page,
    running_bot,
    session_in,
    start_game,
    table_message,
)

FAST = {"table_edit_interval": 0.2}
LABEL = re.compile("(" + "|".join(map(re.escape, COLOUR_EMOJI)) + r")(\d+)")
CARDS_IN_ID = re.compile(r":x\.(?:pc|cpy|crd)\.\d+\.([\w-]*)")
Policy = Callable[[View, random.Random], Action]

# Seeing ------------------------------------------------------------------------------------


def cards_in(messages: list[EmuMessage]) -> set[int]:
    """Every number card shown as a card label, or carried by a play control's custom_id."""
    cards: set[int] = set()
    for message in messages:
        for emoji, number in LABEL.findall(message.text):
            if 1 <= int(number) <= 15:
                cards.add(card_id(COLOUR_EMOJI.index(emoji), int(number)))
        for custom_id in custom_ids(message):
            for code in CARDS_IN_ID.findall(custom_id):
                cards |= {c for c in decode(code) if not is_copy(c)}
    return cards


def assert_hidden(
    session: Session,
    users: dict[int, EmuUser],
    messages: dict[int, list[EmuMessage]] | None = None,
) -> None:
    """Nobody sees a card of another hand, of the refill pile or of the NPC's face-down pile.

    Looks at everything each user can see from this session's table on (older messages belong
    to earlier sessions, whose cards are dealt again), or at `messages` when given.
    """
    state: State = session.state
    secret = RULES.secret_cards(state)
    since = session.record.table_message_id or 0
    for seat, user in users.items():
        shown = (
            messages[seat] if messages else [m for m in user.visible_messages() if m.id >= since]
        )
        leaked = cards_in(shown) & (secret - set(state.hands[seat]))
        assert not leaked, f"{user.name} sees hidden cards {sorted(leaked)}"


def custom_ids_of(message: V2Message) -> list[str]:
    return [c["custom_id"] for c in walk_components(message.components) if "custom_id" in c]


def select_values(message: EmuMessage, pattern: str) -> list[str]:
    component = message.component(custom_ids(message, pattern)[0])
    assert component is not None
    return [o["value"] for o in component["options"]]


# Clicking ------------------------------------------------------------------------------------


async def play_by_clicks(
    user: EmuUser, hand: EmuMessage, action: PlayCards, targets: dict[int, int] | None = None
) -> None:
    """Combo select, card select, one copy-target select per copy (if asked), then Play."""
    await user.select(hand, custom_ids(hand, r":x\.cmb$")[0], [str(action.combo)])
    await user.select(hand, custom_ids(hand, r":x\.crd\.")[0], [ALPHABET[c] for c in action.cards])
    wanted = dict(action.copies) | (targets or {})
    copies = sorted(c for c in action.cards if is_copy(c))
    while step := custom_ids(hand, r":x\.cpy\."):
        chosen = step[0].split(":")[3].split(".")[4:]
        index = len(decode(chosen[0])) if chosen else 0
        await user.select(hand, step[0], [ALPHABET[wanted[copies[index]]]])
    await user.click(hand, custom_ids(hand, r":x\.pc\.")[0])


async def act(
    emu: Emulator, session: Session, user: EmuUser, hand: EmuMessage, action: Action
) -> None:
    version = session.record.version
    match action:
        case PlayCards():
            await play_by_clicks(user, hand, action)
        case UseTime():
            await user.click(hand, custom_ids(hand, r":x\.time$")[0])
        case FlipDepletion():
            await user.click(hand, custom_ids(hand, r":x\.flip$")[0])
        case NextGame():
            await user.click(hand, custom_ids(hand, r":x\.next$")[0])
    assert session.record.version > version, action


def random_policy(view: View, rng: random.Random) -> Action:
    """Any legal action: plays with copy cards and passes get extra weight."""
    actions = legal_plays(view)
    passes = [a for a in actions if not isinstance(a, PlayCards)]
    with_copies = [a for a in actions if isinstance(a, PlayCards) and a.copies]
    if passes and rng.random() < 0.2:
        return rng.choice(passes)
    if with_copies and rng.random() < 0.5:
        return rng.choice(with_copies)
    return rng.choice(actions)


def thrifty_policy(view: View, rng: random.Random) -> Action:
    """Spend as few cards as possible (beats a small NPC pile)."""
    actions = legal_plays(view)
    plays = [a for a in actions if isinstance(a, PlayCards)]
    if plays:
        return min(plays, key=lambda a: (len(a.cards), a.combo, a.cards))
    return actions[0]


def reckless_policy(view: View, rng: random.Random) -> Action:
    """Spend as many cards as possible (loses to the NPC)."""
    actions = legal_plays(view)
    plays = [a for a in actions if isinstance(a, PlayCards)]
    if plays:
        return max(plays, key=lambda a: (len(a.cards), a.combo, a.cards))
    return actions[0]


def flip_first(view: View, rng: random.Random) -> Action:
    """Flip a face-up depletion card at once, else play thriftily."""
    flip = [a for a in legal_plays(view) if isinstance(a, FlipDepletion)]
    return flip[0] if flip else thrifty_policy(view, rng)


async def play_to_the_end(
    emu: Emulator,
    session: Session,
    table: EmuMessage,
    users: dict[int, EmuUser],
    policy: Policy,
    *,
    check_hidden: bool = True,
    on_turn: Callable[[int, EmuMessage], Any] | None = None,
    in_dms: frozenset[int] = frozenset(),
) -> None:
    """Every turn of the seats in `users`: open the hand (or get it in DMs), then click."""
    rng = random.Random(7)
    while session.record.status is Status.ACTIVE:
        await emu.wait_for(
            lambda: session.record.status is not Status.ACTIVE or session.state.turn in users
        )
        if session.record.status is not Status.ACTIVE:
            break
        seat = session.state.turn
        if seat in in_dms:
            res = await users[seat].click(table, custom_ids(table, ":dm$")[0])
            assert "in your DMs" in res.text
            hand = users[seat].dms()[-1]
        else:
            hand = await open_hand(users[seat], table)
        if on_turn is not None:
            await on_turn(seat, hand)
        await act(emu, session, users[seat], hand, policy(RULES.view(session.state, seat), rng))
        if check_hidden:
            assert_hidden(session, users)


def simulate(players: int, options: dict[str, Any], policy: Policy, seed: int) -> State:
    """The game the bot would run with `seed`: seat 0 by `policy`, other seats by the AI."""
    config = RULES.make_config(players, {**options, "first_player": 0})
    rng = random.Random(7)
    step = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, version = step.state, len(step.logged)
    while not RULES.is_over(state):
        seat = min(RULES.to_move(state).seats)
        view = RULES.view(state, seat)
        if seat == 0:
            action = policy(view, rng)
        else:
            action = AI.normal(view, random.Random(f"{seed}:ai:{version}"))
        step = advance(RULES, state, version, seat, action, seed)
        state, version = step.state, version + len(step.logged)
    return state


def seed_where(
    players: int, options: dict[str, Any], policy: Policy, wanted: Callable[[State], bool]
) -> int:
    """A seed whose game, with seat 0 played by `policy`, ends as `wanted`."""
    for seed in range(300):
        if wanted(simulate(players, options, policy, seed)):
            return seed
    raise AssertionError("no seed found")


def title(game: int) -> str:
    """The long variant's table title in game `game`."""
    return t("en", "exhaust.table.title_long", name=t("en", "exhaust.name"), game=game)


def solo_result(result: str) -> Callable[[State], bool]:
    return lambda state: RULES.outcome(state).result == result


# Full games -----------------------------------------------------------------------------------


async def test_three_players_with_an_ai_seat_play_a_whole_game_by_clicks(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), ai=1, command="exhaust new"
            )
            users = {0: alice, 1: bob}
            assert session.config.players == 3 and session.config.hand_size == 15
            single = t("en", "exhaust.combo.single")
            await emu.wait_for(lambda: f"{single} 🔥🌪️" in table.text)
            assert f"{single} 💧🌱" in table.text
            assert_hidden(session, users)
            await play_to_the_end(emu, session, table, users, random_policy, in_dms=frozenset({1}))
            assert session.record.status is Status.FINISHED
            assert bob.dms() and not alice.can_see(bob.dms()[-1])
            outcome = RULES.outcome(session.state)
            assert outcome is not None and outcome.result == "loser"
            loser = outcome.details["loser"]
            names = ["alice", "bob", "🤖 AI 3"]
            winners = ", ".join(n for i, n in enumerate(names) if i != loser)
            result = t("en", "exhaust.result.game", loser=names[loser], winners=winners)
            await emu.wait_for(lambda: result in table.text)
            assert custom_ids(table, ":rematch$") and not custom_ids(table, ":hand$")
            await emu.wait_for(lambda: t("en", "records.title") in table.text)
            assert not emu.rate_limit_hits


async def test_copy_targets_are_chosen_explicitly(tmp_path: Path) -> None:
    """A play with a copy card asks which card it copies; the stack shows the choice."""
    config = RULES.make_config(2, {"first_player": 0})
    seed = next(
        s
        for s in range(500)
        if any(
            isinstance(a, PlayCards)
            and a.copies
            and len({c for c in a.cards if not is_copy(c)}) > 1
            for a in legal_plays(
                RULES.view(advance(RULES, RULES.setup(config), 0, CHANCE, None, s).state, 0)
            )
        )
    )
    async with Emulator.running() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command="exhaust new"
            )
            hand = await open_hand(alice, table)
            action = next(
                a
                for a in legal_plays(RULES.view(session.state, 0))
                if isinstance(a, PlayCards)
                and a.copies
                and len({c for c in a.cards if not is_copy(c)}) > 1
            )
            reals = [c for c in action.cards if not is_copy(c)]
            await alice.select(hand, custom_ids(hand, r":x\.cmb$")[0], [str(action.combo)])
            res = await alice.select(
                hand, custom_ids(hand, r":x\.crd\.")[0], [ALPHABET[c] for c in action.cards]
            )
            copies = len(action.copies)
            assert t("en", "exhaust.hand.copy_prompt", n=1, of=copies) in res.text
            assert not custom_ids(hand, r":x\.pc\.")  # no Play before every copy has a target
            targets = {copy: reals[-1] for copy, _ in action.copies}
            await play_by_clicks(alice, hand, action, targets)
            played = session.state.stacks[action.combo][-1]
            assert played.by == 0 and dict(played.copies) == targets
            assert_hidden(session, {0: alice, 1: bob})


async def test_solo_win_raises_the_remembered_level(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            prefs = bot.storage.prefs.user
            assert await prefs.get(alice.id, SOLO_LEVEL_KEY) is None
            # A first lobby without npc_size offers the default level 15.
            session, table = await open_lobby(emu, bot, alice, "exhaust new")
            assert session.record.options["npc_size"] == 15
            assert t("en", "exhaust.option.npc_size", count=15) in table.text
            await alice.click(table, custom_ids(table, ":cancel$")[0])

            seed = seed_where(1, {"npc_size": 5}, thrifty_policy, solo_result("win"))
            bot.service._seed_source = lambda: seed
            session, table = await start_game(emu, bot, alice, command="exhaust new", npc_size=5)
            assert session.config.solo and session.state.npc is not None
            npc = t("en", "exhaust.npc")
            await emu.wait_for(lambda: f"**{npc}**" in table.text)
            await play_to_the_end(emu, session, table, {0: alice}, thrifty_policy)
            assert RULES.outcome(session.state).result == "win"
            pile, upcoming = (t("en", "exhaust.table.cards", count=n) for n in (5, 6))
            won = t("en", "exhaust.result.solo_win", pile=pile, next=upcoming)
            await emu.wait_for(lambda: won in table.text)
            assert t("en", "exhaust.event.npc_lost") in table.text
            assert await prefs.get(alice.id, SOLO_LEVEL_KEY) == "6"

            # The next lobby defaults to the new level; a loss keeps it.
            seed = seed_where(1, {"npc_size": 6}, reckless_policy, solo_result("loss"))
            bot.service._seed_source = lambda: seed
            session, table = await start_game(emu, bot, alice, command="exhaust new")
            assert session.record.options["npc_size"] == 6 and session.config.npc_size == 6
            await play_to_the_end(emu, session, table, {0: alice}, reckless_policy)
            assert RULES.outcome(session.state).result == "loss"
            pile = t("en", "exhaust.table.cards", count=6)
            lost = t("en", "exhaust.result.solo_loss", pile=pile, next=pile)
            await emu.wait_for(lambda: lost in table.text)
            assert await prefs.get(alice.id, SOLO_LEVEL_KEY) == "6"
            assert custom_ids(table, ":rematch$")


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_lobby_tells_the_npc_pile_only_while_one_seat_is_taken(
    tmp_path: Path, lang: str
) -> None:
    locale = {"en": "en-US", "ja": "ja"}[lang]
    async with Emulator.running(guild_locale=locale) as emu:
        alice, bob = emu.add_user("alice", locale=locale), emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            _, table = await open_lobby(emu, bot, alice, "exhaust new")
            solo = t(lang, "exhaust.option.npc_size", count=15)
            assert solo in table.text  # alone, Start plays solo against the NPC
            await bob.click(table, custom_ids(table, ":join$")[0])
            assert solo not in table.text and t(lang, "lobby.no_options") in table.text
            await bob.click(table, custom_ids(table, ":leave$")[0])
            assert solo in table.text


async def test_long_variant_deals_new_games_until_two_depletion_cards(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            # A match where alice loses the first game, flips her depletion card, and more.
            seed = seed_where(
                2,
                {"long_game": True},
                flip_first,
                lambda state: state.losers[0] == 0 and state.flipped[0] == 1,
            )
            bot.service._seed_source = lambda: seed
            session, table = await start_game(
                emu, bot, alice, ai=1, first="0", command="exhaust new", long_game=True
            )
            assert session.config.long_game
            await emu.wait_for(lambda: title(1) in table.text)
            seen_next: list[int] = []

            async def on_turn(seat: int, hand: EmuMessage) -> None:
                state = session.state
                # Only what this game can see: the table (once redrawn for this game) and the
                # hand just opened; earlier hands show cards that were dealt again.
                await emu.wait_for(lambda: title(state.game_no) in table.text)
                assert_hidden(session, {0: alice}, {0: [table_message(emu, session), hand]})
                if state.phase == "next":
                    seen_next.append(state.game_no)
                    game, later = state.game_no, state.game_no + 1
                    text = t("en", "exhaust.table.next", name="alice", game=game, next=later)
                    await emu.wait_for(lambda: text in table.text)
                    assert t("en", "exhaust.hand.next_button", next=later) in hand.text

            await play_to_the_end(
                emu, session, table, {0: alice}, flip_first, check_hidden=False, on_turn=on_turn
            )
            assert seen_next and seen_next[0] == 1
            assert session.state.flipped[0] == 1
            state: State = session.state
            outcome = RULES.outcome(state)
            assert outcome is not None and outcome.result == "match_loser"
            assert max(state.depletion) == 2 and state.game_no >= 2
            loser = outcome.details["loser"]
            names = ["alice", t("en", "seat.ai", n=2)]
            result = t(
                "en",
                "exhaust.result.match",
                loser=names[loser],
                winners=names[1 - loser],
                count=state.game_no,
                tally=", ".join(f"{names[s]} {state.depletion[s]}" for s in (0, 1)),
            )
            await emu.wait_for(lambda: result in table.text)
            assert t("en", "exhaust.depletion.flipped", n=1) in table.text
            assert state.losers.count(loser) == 2


async def test_a_solo_rematch_after_a_win_is_played_at_the_next_level(tmp_path: Path) -> None:
    async with Emulator.running(rate_limit=RateLimit(5, 1.0)) as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            seed = seed_where(1, {"npc_size": 5}, thrifty_policy, solo_result("win"))
            bot.service._seed_source = lambda: seed
            session, table = await start_game(emu, bot, alice, command="exhaust new", npc_size=5)
            await play_to_the_end(emu, session, table, {0: alice}, thrifty_policy)
            await emu.wait_for(lambda: bool(custom_ids(table, ":rematch$")))
            res = await alice.click(table, custom_ids(table, ":rematch$")[0])
            assert "Rematch started" in res.text
            new = await session_in(bot, emu)
            assert new.id != session.id and new.config.npc_size == 6


async def test_a_solo_rematch_clicked_before_the_new_level_is_stored_is_at_the_next_level(
    tmp_path: Path,
) -> None:
    """The Rematch button shows with the end of the game, before `after_finish` has stored
    the level a win earned: the rematch's options come from the finished game itself."""
    seed = seed_where(1, {"npc_size": 5}, thrifty_policy, solo_result("win"))
    state = simulate(1, {"npc_size": 5}, thrifty_policy, seed)
    session = _context(state).session
    session.record = session.record.model_copy(update={"seats": (Seat(user_id=7, name="a"),)})
    async with await open_storage(tmp_path / "db.sqlite3") as storage:
        await SoloLevels(storage.prefs.user).set(7, 5)  # the level this game was played at
        options = await ExhaustUI().rematch_options(session, storage.prefs.user)
    assert options["npc_size"] == 6


# Refusals -------------------------------------------------------------------------------------


async def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice, bob, carol = emu.add_user("alice"), emu.add_user("bob"), emu.add_user("carol")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            session, table = await start_game(
                emu, bot, alice, joiners=(bob,), first="0", command="exhaust new"
            )
            users = {0: alice, 1: bob}

            def snapshot() -> tuple[int, Any]:
                return session.record.version, session.state

            before = snapshot()
            # A non-player.
            res = await carol.click(table, custom_ids(table, ":hand$")[0])
            assert res.ephemeral and "not playing in this game" in res.text
            assert snapshot() == before
            # Out of turn: bob's hand has no play controls at all.
            bob_hand = await open_hand(bob, table)
            assert t("en", "exhaust.hand.waiting", name="alice") in bob_hand.text
            assert not custom_ids(bob_hand, r":x\.(cmb|crd|cpy|pc|time|flip|next)\b")
            # An illegal selection: two cards on Any (needs 3) → the reason, no Play button.
            old = await open_hand(alice, table)
            hand = await open_hand(alice, table)
            any_combo = len(session.state.stacks) - 1
            await alice.select(hand, custom_ids(hand, r":x\.cmb$")[0], [str(any_combo)])
            two = sorted(session.state.hands[0])[:2]
            res = await alice.select(
                hand, custom_ids(hand, r":x\.crd\.")[0], [ALPHABET[c] for c in two]
            )
            assert "Too few cards: this combo needs at least 3." in res.text
            assert not custom_ids(hand, r":x\.pc\.")
            assert custom_ids(hand, r":x\.clr\.")  # and a way to start over
            # Two different numbers on Pair.
            combos = RULES.view(session.state, 0).combos
            pair = next(cv.index for cv in combos if cv.combo.kind.value == "pair")
            reals = sorted(c for c in session.state.hands[0] if not is_copy(c))
            a = reals[0]
            b = next(c for c in reals if c % 15 != a % 15)
            offered = select_values(hand, r":x\.cmb$")
            if str(pair) in offered:
                await alice.select(hand, custom_ids(hand, r":x\.cmb$")[0], [str(pair)])
                cards = select_values(hand, r":x\.crd\.")
                if ALPHABET[a] in cards and ALPHABET[b] in cards:
                    res = await alice.select(
                        hand, custom_ids(hand, r":x\.crd\.")[0], [ALPHABET[a], ALPHABET[b]]
                    )
                    assert "must show the same number" in res.text
                    assert not custom_ids(hand, r":x\.pc\.")
            assert snapshot() == before
            # A real play, then a click on the older copy of the hand: stale.
            action = thrifty_policy(RULES.view(session.state, 0), random.Random(0))
            await act(emu, session, alice, hand, action)
            before = snapshot()
            res = await alice.select(old, custom_ids(old, r":x\.cmb$")[0], [str(any_combo)])
            assert "This table has changed" in res.text
            assert snapshot() == before
            assert f":{before[0]}:" in " ".join(custom_ids(res.message))  # redrawn current
            assert t("en", "exhaust.hand.waiting", name="bob") in res.text
            assert_hidden(session, users)


async def test_npc_size_outside_the_rules_is_refused_by_the_command(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        alice = emu.add_user("alice")
        async with running_bot(emu, tmp_path / "db.sqlite3"):
            for size in (4, 50):
                with pytest.raises(InvalidInteraction):
                    await alice.slash(emu.general, "exhaust new", npc_size=size)
            rulings = await rules_page(alice, emu.general, "exhaust", "rulings")
            for ruling in (
                "only 1 is left in the pile, you take that 1",
                "several copies in one play are allowed",
                "5 players 12",
                "random (the host may pick one when starting)",
                "stays flipped for the rest of the match",
                "previous game's loser starts the next game",
                "it plays the minimum count needed",
                "a copy card only when nothing else can be played",
                "the bot picks at random.",  # the last line: nothing was cut
            ):
                assert ruling in rulings, ruling


# Languages ------------------------------------------------------------------------------------


async def test_japanese_users_get_japanese(tmp_path: Path) -> None:
    async with Emulator.running() as emu:
        hana = emu.add_user("hana", locale="ja", admin=True)
        bob = emu.add_user("bob")
        async with running_bot(emu, tmp_path / "db.sqlite3", **FAST) as bot:
            variants = await rules_page(hana, emu.general, "exhaust", "options")
            assert "イグゾースト" in variants and "枯渇カード" in variants
            assert "depletion card" in await rules_page(bob, emu.general, "exhaust", "options")
            await hana.slash(emu.general, "settings", language="ja")
            session, table = await start_game(
                emu, bot, hana, joiners=(bob,), first="0", command="exhaust new"
            )
            await emu.wait_for(lambda: t("ja", "exhaust.combo.single") in table.text)
            hand = await open_hand(hana, table)
            assert t("ja", "exhaust.hand.title") in hand.text
            assert t("ja", "exhaust.hand.your_turn") in hand.text
            any_combo = len(session.state.stacks) - 1
            await hana.select(hand, custom_ids(hand, r":x\.cmb$")[0], [str(any_combo)])
            card = sorted(session.state.hands[0])[0]
            res = await hana.select(hand, custom_ids(hand, r":x\.crd\.")[0], [ALPHABET[card]])
            assert "枚数が足りません" in res.text
            hand = await open_hand(bob, table)
            assert t("en", "exhaust.hand.title") in hand.text
            assert t("en", "exhaust.hand.waiting", name="hana") in hand.text


# Rendering limits and catalog -------------------------------------------------------------------


def _context(state: State, lang: str = "en", names: list[str] | None = None) -> Context:
    players = state.config.players
    record = SessionRecord(
        id="0123abcd",
        game_id="exhaust",
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
    return Context(session=session, lang=lang, names=names or [f"p{i}" for i in range(players)])


def test_a_huge_hand_fits_discord_limits() -> None:
    """Hands never exceed 15 in play, but even 40 cards with 4 copies fit the message."""
    config = RULES.make_config(2, {"first_player": 0})
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, 1).state
    everything = tuple(range(64))
    big = (*everything[:36], 60, 61, 62, 63)
    state = state.model_copy(update={"hands": (big, tuple(c for c in everything if c not in big))})
    ui = ExhaustUI()
    ctx = _context(state)
    any_combo = len(state.stacks) - 1
    picks = [None, str(any_combo), f"{any_combo}.{encode(big)}", f"{any_combo}.{encode(big)}.00"]
    for pick in picks:
        message = build(ui.hand(ctx, 0, pick))
        validate_message(
            {"flags": FLAG_COMPONENTS_V2, "components": message.components}, attachments=0
        )
        assert not [n for n in message.notes if n.startswith(("left out", "dropped"))], pick
    message = build(ui.hand(ctx, 0, f"{any_combo}.{encode(big)}"))
    selects = [c for c in walk_components(message.components) if c["type"] == 3]
    offered = sum(len(s["options"]) for s in selects if ":x.crd." in s["custom_id"])
    assert offered == 40  # split over two selects, nothing left out


def _events_of_random_games() -> list[tuple[State, Any]]:
    """(state after, event) for every event of a few random games of each kind."""
    events: list[tuple[State, Any]] = []
    for players, options in ((1, {"npc_size": 20}), (3, {}), (2, {"long_game": True}), (5, {})):
        config = RULES.make_config(players, options)
        for seed in range(4):
            rng = random.Random(seed)
            step = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
            state, version = step.state, len(step.logged)
            events += [(state, e) for e in step.events]
            while not RULES.is_over(state):
                seat = min(RULES.to_move(state).seats)
                action = random_policy(RULES.view(state, seat), rng)
                step = advance(RULES, state, version, seat, action, seed)
                state, version = step.state, version + len(step.logged)
                events += [(state, e) for e in step.events]
    return events


def test_every_event_has_text_in_both_languages() -> None:
    ui = ExhaustUI()
    keys = set()
    for state, event in _events_of_random_games():
        keys.add(event.key)
        for lang in ("en", "ja"):
            ctx = _context(state, lang)
            text = ui.event_text(event, ctx) if event.public else ui.private_event_text(event, ctx)
            if event.key == "exhaust.hand":
                assert text is None
                continue
            assert text and "exhaust." not in text and "{" not in text, (event, text)
    for key in ("npc_filled", "npc_played", "loser", "match_loser", "depletion", "reward_time"):
        assert f"exhaust.{key}" in keys


def test_every_illegal_reason_of_the_rules_has_text() -> None:
    package = Path(__file__).resolve().parents[2] / "games" / "exhaust"
    source = "".join(p.read_text() for p in package.glob("*.py"))
    codes = set(re.findall(r'illegal\("(\w+)"', source))
    assert {"copy_alone", "number_too_low", "too_few_cards", "no_cards"} <= codes
    for code in codes:
        english, japanese = (error_text(lang, illegal(code), "exhaust") for lang in ("en", "ja"))
        assert english != t("en", "error.illegal_move"), code
        assert english != japanese, code
    assert "12" in error_text("en", illegal("number_too_low", need=12), "exhaust")


def test_controls_refuse_out_of_turn_and_malformed_clicks() -> None:
    config = RULES.make_config(2, {"first_player": 0})
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, 3).state
    ui, ctx = ExhaustUI(), _context(state)
    assert state.turn == 0
    for verb, args, values in (("cmb", [], ["0"]), ("time", [], []), ("pc", ["0", "0"], [])):
        with pytest.raises(GameError) as refused:
            ui.control(ctx, 1, verb, args, values)
        assert refused.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(GameError) as refused:
        ui.control(ctx, 0, "next", [], [])
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    for verb, args, values in (("cmb", [], ["x"]), ("pc", ["0", "!"], []), ("zzz", [], [])):
        with pytest.raises(GameError) as refused:
            ui.control(ctx, 0, verb, args, values)
        assert refused.value.reason is Reason.BAD_OPTION
    # A copy without a chosen target is not a play.
    with pytest.raises(GameError):
        ui.control(ctx, 0, "pc", ["3", encode((0, 60))], [])
    assert ui.control(ctx, 0, "cmb", [], ["3"]) == Pick("3")
    # A pick naming cards that are not offered is shown without them.
    other = state.hands[1][0]
    hand = build(ui.hand(ctx, 0, f"{len(state.stacks) - 1}.{encode((other,))}"))
    assert not any(":x.pc." in i for i in custom_ids_of(hand))
