"""Hell Queue Club AI (games/hellqueue/ai.py) and the bench's reference seats, one behaviour
per test, from hand-built tables. Every test hands the AI `RULES.view(state, seat)` only.

Dice are written `L4` (large 4), `S4` (small), `B4` (black); stones `RRW`. Slot 0 is the "8"
card, 1 the "10", 2 the "12". `USED_UP` takes the "8" deck out so empty cards do not tempt.
"""

from __future__ import annotations

import random

import pytest

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.hellqueue import RULES
from games.hellqueue.ai import decide
from games.hellqueue.ai_policies import greedy_policy, random_policy, stones_won
from games.hellqueue.models import Action, Awaken, Pick, Queue, Recall, Reroll, RollMarked, State
from tests.games.hellqueue.hellqueue_tables import table

USED_UP = {"shown": (None, 5, 9), "decks": ((), (6, 7, 8), (10, 11))}


def ai(state: State, seat: int = 0, seed: int = 0) -> Action:
    return decide(RULES.view(state, seat), random.Random(seed))


def picking(owned: str, card: str, picks: tuple[int, ...] = (0,)) -> State:
    """Seat 0 picks from the "12" card holding `card`, then `picks[1:]` pick."""
    state = table(
        active={0: "L6"},
        queues={2: {0: "L5 L5 L5 L5 L5 L5 L5 L5 L5 L5", 1: "L1"}},
        card_stones={2: card},
        owned={0: owned},
    )
    state = RULES.apply(state, 0, Queue(face=6, slot=2)).state
    assert state.payout is not None
    return state.model_copy(update={"payout": state.payout.model_copy(update={"picks": picks})})


def test_picks_the_stone_that_adds_most_to_its_best_split():
    assert ai(picking(owned="RRR", card="RBW")) == Pick(stone="red")


def test_among_equal_stones_takes_the_one_the_next_picker_wants():
    state = picking(owned="", card="BW", picks=(0, 1))
    players = list(state.players)
    players[1] = players[1].model_copy(update={"stones": (0, 0, 0, 0, 0, 3)})  # three white
    state = state.model_copy(update={"players": tuple(players)})
    assert ai(state) == Pick(stone="white")


def test_completes_a_card_where_it_comes_first():
    state = table(
        active={0: "L3 L3 L3 L1 L2 L4"},
        queues={2: {0: "L5 L5 L5 L5 L5", 1: "L2 L2 L2 L2"}},
        **USED_UP,
    )
    assert ai(state) == Queue(face=3, slot=2)


def test_queues_where_it_can_still_reach_first_place():
    # Under the "10" it would stay second to seat 1; under the "12" it leads 6 to 2.
    state = table(
        active={0: "L3 L3 L3"},
        queues={1: {1: "L5 L5 L5 L5 L5"}, 2: {1: "L2 L2", 0: "L1 L1 L1"}},
        **USED_UP,
    )
    assert ai(state) == Queue(face=3, slot=2)


def test_recalls_when_its_dice_wait_in_the_rest_area():
    state = table(active={0: "L2"}, rest={0: (4, 6)})
    assert ai(state) == Recall()


def test_awakens_the_biggest_sleeping_group():
    state = table(
        active={0: "L1 L1 L3 L3 L3"},
        sleep={0: "5 5 5 5 2 2"},
        queues={1: {1: "L6"}, 2: {1: "L6"}},
        **USED_UP,
    )
    assert ai(state) == Awaken(face=1, wake=5)


def test_does_not_start_a_reroll_and_rolls_nothing_when_choosing_one():
    state = table(active={0: "L1 L4"})
    assert not isinstance(ai(state), Reroll)
    choosing = RULES.apply(state, 0, Reroll(face=1)).state
    assert ai(choosing) == RollMarked()


def test_decides_from_the_view_alone():
    state = table(active={0: "L1 L1 L3", 1: "L2"}, sleep={0: "4 4"}, queues={1: {1: "L2"}})
    other = RULES.resample_hidden(state, 0, random.Random(5))
    assert other.decks != state.decks
    assert ai(state, seed=3) == ai(other, seed=3)


@pytest.mark.parametrize("players", [3, 4])
def test_every_choice_is_legal_through_whole_games(players):
    config = RULES.make_config(players, {})
    seed = 17
    adv = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed)
    state, version = adv.state, len(adv.logged)
    rng = random.Random(seed)
    while not RULES.is_over(state):
        seat = next(iter(RULES.to_move(state).seats))
        action = decide(RULES.view(state, seat), rng)
        assert action in RULES.legal_actions(state, seat)
        adv = advance(RULES, state, version, seat, action, seed)
        state, version = adv.state, version + len(adv.logged)
    assert RULES.outcome(state) is not None


# The bench's reference seats ---------------------------------------------------------------------


def test_greedy_queues_for_the_most_stones_now():
    state = table(
        active={0: "L3 L3 L3 L1 L1 L1 L1", 1: "L2"},
        queues={2: {0: "L5 L5 L5 L5 L5", 1: "L2 L2 L2 L2"}},
        **USED_UP,
    )
    action = greedy_policy(RULES.view(state, 0), random.Random(0))
    assert action == Queue(face=3, slot=2)
    assert stones_won(RULES.view(state, 0), 0, Queue(face=3, slot=2)) == 3


def test_greedy_otherwise_queues_the_most_dice():
    state = table(active={0: "L3 L3 L1 L1 L1"}, queues={2: {1: "L2"}}, **USED_UP)
    action = greedy_policy(RULES.view(state, 0), random.Random(0))
    assert isinstance(action, Queue) and action.face == 1


def test_greedy_recalls_when_it_cannot_queue():
    state = table(active={0: ""}, rest={0: (2, 0)})
    assert greedy_policy(RULES.view(state, 0), random.Random(0)) == Recall()


def test_random_seat_plays_a_legal_action():
    state = table(active={0: "L3 L3 L1"}, sleep={0: "2"})
    for seed in range(10):
        action = random_policy(RULES.view(state, 0), random.Random(seed))
        assert action in RULES.legal_actions(state, 0)
