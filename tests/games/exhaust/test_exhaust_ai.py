"""Exhaust AI (games/exhaust/ai.py): one behaviour per test, from hand-built states.

Cards are written like `r7` (red 7), `b12`, `y3`, `g1`; `x0`..`x3` are the copy cards. With
1–2 players the table is: 0 Single, 1 Pair, 2 Three, 3 Four, 4 Straight, 5 Flush, 6 Any.
The AI decides from the seat's view only: every test hands it `RULES.view(state, seat)`.
"""

from __future__ import annotations

import random

import pytest

from games.engine.contract import NORMAL
from games.engine.step import advance
from games.exhaust import AI, RULES
from games.exhaust.ai import decide
from games.exhaust.ai_policies import npc_policy, random_policy
from games.exhaust.cards import DECK, is_copy, number
from games.exhaust.combos import table
from games.exhaust.explain import reason_of
from games.exhaust.models import (
    NPC,
    Action,
    FlipDepletion,
    NextGame,
    NpcState,
    PlayCards,
    Played,
    State,
    UseTime,
)
from tests.games.exhaust.exhaust_cards import ANY, FLUSH, FOUR, PAIR, SINGLE, STRAIGHT, THREE, cs


def played(specs: str, by: int = 1) -> tuple[Played, ...]:
    cards = cs(specs)
    return (Played(by=by, cards=cards, high=max(number(x) for x in cards if not is_copy(x))),)


def make(
    hands: tuple[str, ...],
    *,
    players: int = 2,
    stacks: dict[int, tuple[Played, ...]] | None = None,
    refill: str = "r1 r2 r3 r4 r5",
    time_cards: tuple[int, ...] | None = None,
    time_pile: int = 16,
    long_game: bool = False,
    depletion: tuple[int, ...] | None = None,
) -> State:
    """A state in play, seat 0 to move, with exactly these hands."""
    config = RULES.make_config(players, {"long_game": long_game, "first_player": 0})
    zeros = (0,) * players
    piles = [()] * len(table(players))
    for index, plays in (stacks or {}).items():
        piles[index] = plays
    return State(
        config=config,
        phase="play",
        game_no=1,
        turn=0,
        hands=tuple(cs(h) if h else () for h in hands) + ((),) * (players - len(hands)),
        refill=cs(refill) if refill else (),
        time_pile=time_pile,
        time_cards=time_cards or zeros,
        stacks=tuple(piles),
        depletion=depletion or zeros,
        flipped=zeros,
    )


def is_legal(state: State, seat: int, action: Action) -> bool:
    """Listed among the seat's legal actions, and accepted by the rules."""
    RULES.apply(state, seat, action)
    return action in RULES.legal_actions(state, seat)


def ai(state: State, seat: int = 0) -> Action:
    """The AI's action for `seat`; it must be legal."""
    action = decide(RULES.view(state, seat), random.Random(0))
    assert is_legal(state, seat, action), action
    return action


def cards_of(action: Action) -> set[int]:
    assert isinstance(action, PlayCards), action
    return set(action.cards)


DEAD_NUMBERS = {SINGLE: played("r15"), PAIR: played("r15 b15"), THREE: played("r15 b15 y15")}
"""Stacks on which no further Single, Pair or Three can be played."""
DEAD_FOUR = {FOUR: played("g14 r14 b14 y14")}
DEAD_COUNTS = {
    STRAIGHT: played("r1 b2 y3 g4 r5 b6 y7 g8 r9 b10 y11"),
    FLUSH: played("g1 g2 g3 g5 g6 g7 g8 g9 g10 g11 g12"),
}
"""Stacks that need 12+ cards next: nothing in these tests can be played there."""


# Never illegal ---------------------------------------------------------------------------


def play_out(players: int, seed: int, long_game: bool, others) -> int:
    """A whole game (or match) with the AI in seat 0; every AI action must be legal."""
    config = RULES.make_config(players, {"long_game": long_game, "npc_size": 10 + seed % 20})
    state = advance(RULES, RULES.setup(config), 0, -1, None, seed).state
    version, rng, checked = 0, random.Random(seed), 0
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        view = RULES.view(state, seat)
        if seat == 0:
            action = decide(view, rng)
            assert is_legal(state, seat, action), action
            checked += 1
        else:
            action = others(view, rng)
        step = advance(RULES, state, version, seat, action, seed)
        state, version = step.state, version + len(step.logged)
    return checked


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("others", [npc_policy, random_policy], ids=["npc", "random"])
def test_never_returns_an_illegal_action_in_whole_games(players, others):
    for seed in range(12):
        assert play_out(players, seed, long_game=False, others=others) > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_never_returns_an_illegal_action_in_long_variant_matches(players):
    for seed in range(4):
        assert play_out(players, seed, long_game=True, others=random_policy) > 0


def random_position(rng: random.Random) -> State:
    """Random hands, bars, time cards and depletion cards, seat 0 to move."""
    players = rng.choice([1, 2, 3, 4, 5])
    long_game = players > 1 and rng.random() < 0.5
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [tuple(sorted(deck.pop() for _ in range(rng.randint(0, 9)))) for _ in range(players)]
    hands[0] = tuple(sorted(set(hands[0]) | {deck.pop()}))
    stacks = []
    for combo in table(players):
        plays: tuple[Played, ...] = ()
        if rng.random() < 0.6:
            reals = [x for x in deck if not is_copy(x)]
            if combo.number_rule:
                card = rng.choice(reals)
                plays = (Played(by=1, cards=(card,), high=number(card)),)
            else:
                size = rng.randint(3, 8)
                cards = tuple(rng.sample(reals, size))
                plays = (Played(by=1, cards=cards, high=max(number(x) for x in cards)),)
            deck = [x for x in deck if x not in plays[0].cards]
        stacks.append(plays)
    time_cards = tuple(rng.choice([0, 0, 1, 2]) for _ in range(players))
    depletion = tuple(rng.choice([0, 1]) if long_game else 0 for _ in range(players))
    npc = None
    if players == 1:
        npc = NpcState(hand=tuple(deck[:3]), pile=tuple(deck[3:8]), time_cards=1)
        deck = deck[8:]
    config = RULES.make_config(players, {"long_game": long_game, "first_player": 0})
    return State(
        config=config,
        phase="play",
        game_no=1,
        turn=0,
        hands=tuple(hands),
        refill=tuple(deck[: rng.randint(0, len(deck))]),
        time_pile=max(0, 16 - sum(time_cards) - rng.randint(0, 6)),
        time_cards=time_cards,
        stacks=tuple(stacks),
        depletion=depletion,
        flipped=(0,) * players,
        npc=npc,
    )


def test_never_returns_an_illegal_action_in_random_positions():
    rng = random.Random(7)
    checked = 0
    for _ in range(600):
        state = random_position(rng)
        if not RULES.legal_actions(state, 0):
            continue
        ai(state)
        checked += 1
    assert checked > 300


def test_the_games_normal_ai_plays_the_heuristic_with_its_reason():
    state = make(("r3 r9 b14 y2 y7", "g5"))
    view = RULES.view(state, 0)
    made = AI.decide(view, random.Random(1), NORMAL)
    assert made.action == decide(view, random.Random(1))
    assert made.reason == reason_of(view, made.action)


# Phase `next` ----------------------------------------------------------------------------


def test_sends_next_game_when_it_lost_the_last_game_of_a_long_match():
    state = make(("", "g5"), long_game=True, depletion=(1, 0))
    state = state.model_copy(update={"phase": "next", "turn": 0, "losers": (0,)})
    assert ai(state) == NextGame()


# Time cards and the depletion card -----------------------------------------------------


def test_uses_a_time_card_instead_of_losing():
    stacks = {**DEAD_NUMBERS, **DEAD_FOUR, **DEAD_COUNTS, ANY: played("r1 r2 r3 r4")}
    state = make(("r2 b7 g9", "g5"), stacks=stacks, time_cards=(1, 0))
    assert ai(state) == UseTime()


def test_uses_a_time_card_before_flipping_its_depletion_card():
    stacks = {**DEAD_NUMBERS, **DEAD_FOUR, **DEAD_COUNTS, ANY: played("r1 r2 r3 r4")}
    state = make(
        ("r2 b7 g9", "g5"), stacks=stacks, time_cards=(1, 0), long_game=True, depletion=(1, 0)
    )
    assert ai(state) == UseTime()


def test_flips_its_depletion_card_when_nothing_else_is_left():
    stacks = {**DEAD_NUMBERS, **DEAD_FOUR, **DEAD_COUNTS, ANY: played("r1 r2 r3 r4")}
    state = make(("r2 b7 g9", "g5"), stacks=stacks, long_game=True, depletion=(1, 0))
    assert ai(state) == FlipDepletion()


def test_plays_a_cheap_single_rather_than_spend_a_time_card():
    state = make(("r3 r9 b14 y2 y7", "g5"), time_cards=(2, 0), stacks={SINGLE: played("g1")})
    assert cards_of(ai(state)) == set(cs("y2"))


def test_plays_a_card_nobody_can_pass_rather_than_a_time_card_of_equal_worth():
    # green 15 is as sure a turn as a time card, and a spent time card feeds the others
    stacks = {0: played("r15"), 1: played("b15"), 2: played("y15"), 3: played("g13")}
    state = make(("r11 g15", "b3", "y3", "g3"), players=4, stacks=stacks, time_cards=(2, 0, 0, 0))
    assert cards_of(ai(state)) == set(cs("g15"))


def test_keeps_its_time_cards_while_a_threatened_card_can_still_be_played():
    stacks = {0: played("r15"), 1: played("b15"), 2: played("y15"), 3: played("g9")}
    state = make(("g11 g14", "b3", "y3", "g3"), players=4, stacks=stacks, time_cards=(3, 0, 0, 0))
    assert cards_of(ai(state)) == set(cs("g11"))


# Rewards ---------------------------------------------------------------------------------


def test_prefers_four_for_two_time_cards_over_any_with_the_same_cards():
    stacks = {**DEAD_NUMBERS, **DEAD_COUNTS}
    state = make(("r7 b7 y7 g7", "g5"), stacks=stacks)
    action = ai(state)
    assert isinstance(action, PlayCards) and action.combo == FOUR


def test_dumps_dead_cards_on_any_for_a_time_card_rather_than_spend_one():
    stacks = {**DEAD_NUMBERS, **DEAD_FOUR, **DEAD_COUNTS}
    state = make(("r2 b4 y6 g13 g14", "g5"), stacks=stacks, time_cards=(1, 0))
    action = ai(state)
    assert isinstance(action, PlayCards) and action.combo == ANY and len(action.cards) == 3


# Escalation --------------------------------------------------------------------------------


def test_plays_the_lowest_number_that_fits_on_a_single():
    stacks = {SINGLE: played("g8"), PAIR: played("r15 b15"), THREE: played("r15 b15 y15")}
    state = make(("r9 b12 y14", "g5"), stacks=stacks)
    assert cards_of(ai(state)) == set(cs("r9"))


def test_plays_the_lowest_pair_that_fits():
    stacks = {SINGLE: played("r15"), PAIR: played("r4 b4")}
    state = make(("r6 b6 y11 g11 r13 b13", "g5"), stacks=stacks)
    action = ai(state)
    assert isinstance(action, PlayCards) and action.combo == PAIR
    assert {number(x) for x in action.cards} == {6}


def test_plays_the_minimum_count_on_any():
    stacks = {**DEAD_NUMBERS, **DEAD_FOUR, **DEAD_COUNTS, ANY: played("r1 r2 r3")}
    state = make(("r5 b7 y9 g11 r13 b14", "g5"), stacks=stacks)
    action = ai(state)
    assert isinstance(action, PlayCards) and action.combo == ANY and len(action.cards) == 4


def test_does_not_raise_a_single_it_still_needs_for_its_lower_cards():
    # green 15 would pass every other green card in the hand; the 3 is the one to play
    counts = {7 + k: plays for k, plays in enumerate(DEAD_COUNTS.values())}
    state = make(("g3 g7 g9 g12 g15", "r5"), players=4, stacks={**counts, 9: played("r1 r2 r3 r4")})
    action = ai(state)
    assert cards_of(action) == set(cs("g3"))


# Solo ----------------------------------------------------------------------------------------


def test_acts_in_solo_from_the_human_seat():
    config = RULES.make_config(1, {"npc_size": 15})
    state = advance(RULES, RULES.setup(config), 0, -1, None, 5).state
    assert state.turn == 0 and state.turn != NPC
    ai(state)
