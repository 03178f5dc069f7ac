"""`Rules.sample_state(view, rng)`: a whole state consistent with a view, for the AI's search.

For The Game and Exhaust (Hell Queue Club and Rummy test theirs with their rules), over
random legal playouts: the sampled state shows the viewer exactly its view, holds every card
once, is drawn from the view alone (two states that look the same to the viewer give the same
sample for the same rng), and does draw the hidden cards at random.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.contract import CHANCE
from games.engine.step import advance
from games.exhaust.cards import DECK
from games.registry import GAMES
from games.thegame.models import CARDS

SAMPLED = ("exhaust", "thegame")

CASES = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id in SAMPLED
    for players in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1)
]


def playout_states(game_id: str, players: int, seeds: int = 6) -> Iterator[Any]:
    """Every state of a few random legal games (variants on for half of them)."""
    rules = GAMES[game_id]
    variant = {"exhaust": "long_game", "thegame": "on_fire"}[game_id]
    for seed in range(seeds):
        config = rules.make_config(players, {variant: seed % 2 == 1})
        state, version = rules.setup(config), 0
        rng = random.Random(seed)
        while True:
            yield state
            if rules.is_over(state):
                break
            to_move = rules.to_move(state)
            if to_move.chance:
                result = advance(rules, state, version, CHANCE, None, seed)
            else:
                seat = min(to_move.seats)
                action = rng.choice(list(rules.legal_actions(state, seat)))
                result = advance(rules, state, version, seat, action, seed)
            state, version = result.state, version + len(result.logged)


def all_cards(game_id: str, state: Any) -> Counter[int]:
    """Every card the state holds, wherever it is."""
    if game_id == "thegame":  # the state keeps each pile's top and count, not the cards under
        held = [*state.draw, *(c for h in state.hands for c in h)]
        held += [top for top, count in zip(state.tops, state.counts, strict=True) if count]
        under = sum(state.counts) - sum(1 for count in state.counts if count)
        return Counter(held + sorted(set(CARDS) - set(held))[:under])
    held = [*state.refill, *(c for h in state.hands for c in h)]
    held += [c for stack in state.stacks for played in stack for c in played.cards]
    if state.npc is not None:
        held += [*state.npc.hand, *state.npc.pile]
    return Counter(held)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_sample_shows_the_viewer_exactly_its_view(game_id: str, players: int) -> None:
    rules = GAMES[game_id]
    rng = random.Random(1)
    for state in playout_states(game_id, players):
        for seat in [*range(players), None]:
            view = rules.view(state, seat)
            assert rules.view(rules.sample_state(view, rng), seat) == view


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_sample_holds_every_card_once(game_id: str, players: int) -> None:
    rules = GAMES[game_id]
    deck = Counter(CARDS if game_id == "thegame" else DECK)
    rng = random.Random(2)
    for state in playout_states(game_id, players, seeds=3):
        if all_cards(game_id, state) != deck:
            continue  # before the first deal nothing is dealt yet
        for seat in [*range(players), None]:
            sampled = rules.sample_state(rules.view(state, seat), rng)
            assert all_cards(game_id, sampled) == deck


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_sample_is_drawn_from_the_view_alone(game_id: str, players: int) -> None:
    """Re-dealing what the viewer cannot see gives the same sample for the same rng."""
    rules = GAMES[game_id]
    rng = random.Random(3)
    for state in playout_states(game_id, players, seeds=3):
        seat = rng.randrange(players)
        other = rules.resample_hidden(state, seat, rng)
        seed = rng.random()
        mine = rules.sample_state(rules.view(state, seat), random.Random(seed))
        theirs = rules.sample_state(rules.view(other, seat), random.Random(seed))
        assert mine == theirs


@pytest.mark.parametrize("game_id", SAMPLED)
def test_the_hidden_cards_are_drawn_at_random(game_id: str) -> None:
    rules = GAMES[game_id]
    states = playout_states(game_id, 2, seeds=1)
    state = next(s for s in states if len(rules.secret_cards(s)) > 20)
    view = rules.view(state, 0)
    samples = {rules.sample_state(view, random.Random(seed)) for seed in range(5)}
    assert len(samples) == 5


def test_the_game_keeps_numbers_between_the_piles_out_from_under_the_tops() -> None:
    """Nobody can have played a number above both ascending tops and below both descending
    ones (barring ±10 tricks), so the sample puts those in hands and the draw pile."""
    rules = GAMES["thegame"]
    rng = random.Random(4)
    for state in playout_states("thegame", 3, seeds=3):
        if state.phase.value != "play":
            continue
        view = rules.view(state, 0)
        sampled = rules.sample_state(view, rng)
        low = max(sampled.top(0), sampled.top(1))
        high = min(sampled.top(2), sampled.top(3))
        fresh = {c for c in CARDS if low < c < high} - set(view.hand or ())
        if len(fresh) > view.cards_left - len(view.hand or ()):
            continue  # tricks buried some of them: then they cannot all be hidden
        held = set(sampled.draw).union(*sampled.hands)  # what is not held lies under the tops
        assert fresh <= held
