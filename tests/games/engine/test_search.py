"""The shared search (games/engine/search.py) and the AI levels of every game's `AI.decide`.

The search is checked on a small counting model (its budget, ties, which candidate wins) and
on Exhaust, solo and at a table: a decision is deterministic given the rng, depends on the
view only, is always legal, and stays within its budget.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from games.engine.contract import AI_LEVELS, NORMAL, STRONG
from games.engine.errors import GameError, Reason
from games.engine.search import WINS_MOST_SAMPLES, Budget, Candidate, decision, search
from games.engine.step import advance
from games.exhaust import AI as EXHAUST_AI
from games.exhaust import RULES as EXHAUST
from games.exhaust.models import NextGame
from games.exhaust.strong import SoloModel, TableModel
from games.registry import AIS, GAMES


@dataclass
class Biased:
    """A model whose candidates are numbers; a playout of `m` wins with probability `m`.

    The 'world' is the sampled state's seed-driven draw, so playouts depend on the world and
    the playout rng only, as in a real game.
    """

    odds: tuple[float, ...]
    calls: list[tuple[int, float]] = field(default_factory=list)

    def candidates(self, view: object) -> list[Candidate[int]]:
        return [Candidate(i, f"c{i}") for i in range(len(self.odds))]

    def world(self, state: float) -> float:
        return state

    def playout(self, world: float, move: int, rng: random.Random) -> float:
        self.calls.append((move, world))
        return 1.0 if rng.random() < self.odds[move] else 0.0

    def action(self, move: int) -> int:
        return move


class Draws:
    """Stands in for the rules in these unit tests: a 'state' drawn from a view is a number."""

    def sample_state(self, view: object, rng: random.Random) -> float:
        return rng.random()


def test_the_search_picks_the_candidate_that_wins_most() -> None:
    model = Biased((0.2, 0.3, 0.9, 0.1, 0.25))
    found = search(Draws(), model, None, random.Random(1), Budget(playouts=400))
    assert found.candidate.move == 2
    assert found.considered == 5


def test_ties_go_to_the_heuristics_order() -> None:
    model = Biased((0.0, 0.0, 0.0))
    found = search(Draws(), model, None, random.Random(1), Budget(playouts=60))
    assert found.candidate.move == 0


@pytest.mark.parametrize("playouts", [1, 7, 50, 301])
def test_the_search_never_plays_more_than_its_budget(playouts: int) -> None:
    model = Biased(tuple(i / 40 for i in range(40)))
    search(Draws(), model, None, random.Random(3), Budget(playouts=playouts))
    assert 0 < len(model.calls) <= max(playouts, 2)


def test_every_candidate_is_played_on_the_same_worlds() -> None:
    model = Biased((0.5, 0.5, 0.5, 0.5))
    search(Draws(), model, None, random.Random(4), Budget(playouts=40))
    worlds = {m: [w for move, w in model.calls if move == m] for m in range(4)}
    shortest = min(worlds.values(), key=len)
    assert all(ws[: len(shortest)] == shortest for ws in worlds.values())


def test_a_lone_candidate_is_played_without_searching() -> None:
    model = Biased((0.5,))
    found = search(Draws(), model, None, random.Random(1), Budget(playouts=100))
    assert found.candidate.move == 0 and not model.calls


def test_the_candidate_cap_keeps_the_heuristics_first() -> None:
    model = Biased((0.1, 0.1, 0.1, 0.99))
    found = search(Draws(), model, None, random.Random(1), Budget(playouts=200, candidates=3))
    assert found.candidate.move in (0, 1, 2)
    assert {move for move, _ in model.calls} == {0, 1, 2}


def test_a_searched_decision_says_why() -> None:
    model = Biased((0.1, 0.8))
    made = decision(Draws(), model, None, random.Random(2), Budget(playouts=100))
    assert made.action == 1
    assert made.reason == WINS_MOST_SAMPLES
    assert made.params["move"] == "c1"
    assert 50 <= made.params["score"] <= 100
    assert made.params["playouts"] > 0


# Exhaust solo: the STRONG level ----------------------------------------------------------------


def solo_states(count: int, size: int = 18) -> list:
    """Solo states with the human to move, from games the NORMAL AI plays (a few each)."""
    states = []
    for seed in range(count):
        config = EXHAUST.make_config(1, {"npc_size": size})
        result = advance(EXHAUST, EXHAUST.setup(config), 0, -1, None, seed)
        state, version = result.state, len(result.logged)
        rng = random.Random(seed)
        while not EXHAUST.is_over(state) and len(states) < (seed + 1) * 3:
            if rng.random() < 0.5:
                states.append(state)
            action = EXHAUST_AI.normal(EXHAUST.view(state, 0), rng)
            result = advance(EXHAUST, state, version, 0, action, seed)
            state, version = result.state, version + len(result.logged)
    return states


SMALL = Budget(playouts=40)
TABLE_SMALL = Budget(playouts=24, candidates=4)


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches here use a small budget: the behaviours do not depend on its size."""
    monkeypatch.setattr("games.exhaust.strong.budget_for", lambda view: SMALL)
    monkeypatch.setattr("games.exhaust.strong.TABLE_BUDGET", TABLE_SMALL)
    monkeypatch.setattr("games.hellqueue.strong.BUDGET", Budget(playouts=12, candidates=4))


def test_a_strong_decision_is_deterministic_given_the_rng() -> None:
    for state in solo_states(4):
        view = EXHAUST.view(state, 0)
        first = EXHAUST_AI.decide(view, random.Random(7), STRONG)
        assert EXHAUST_AI.decide(view, random.Random(7), STRONG) == first


def test_a_strong_decision_depends_on_the_view_only() -> None:
    """Re-dealing everything the human cannot see (NPC pile, refill) changes nothing."""
    for i, state in enumerate(solo_states(4)):
        other = EXHAUST.resample_hidden(state, 0, random.Random(i))
        assert other != state
        mine = EXHAUST_AI.decide(EXHAUST.view(state, 0), random.Random(i), STRONG)
        theirs = EXHAUST_AI.decide(EXHAUST.view(other, 0), random.Random(i), STRONG)
        assert mine == theirs


def test_a_strong_decision_is_always_legal() -> None:
    for i, state in enumerate(solo_states(8)):
        made = EXHAUST_AI.decide(EXHAUST.view(state, 0), random.Random(i), STRONG)
        assert made.action in EXHAUST.legal_actions(state, 0)


def test_a_strong_decision_searches_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    playout = SoloModel.playout

    def counted(self: SoloModel, world, move, rng):
        played.append(1)
        return playout(self, world, move, rng)

    monkeypatch.setattr(SoloModel, "playout", counted)
    for i, state in enumerate(solo_states(3)):
        played.clear()
        made = EXHAUST_AI.decide(EXHAUST.view(state, 0), random.Random(i), STRONG)
        assert len(played) <= SMALL.playouts
        if made.reason == WINS_MOST_SAMPLES:
            assert played and made.params["move"] in EXHAUST_AI.reasons


# Exhaust at a table: the STRONG level -----------------------------------------------------------


def table_states(players: int, count: int, long_game: bool = False) -> list:
    """States of games the NORMAL AI plays at a table, with a seat to move (a few each)."""
    states = []
    seed = 0
    while len(states) < count:
        config = EXHAUST.make_config(players, {"long_game": long_game})
        result = advance(EXHAUST, EXHAUST.setup(config), 0, -1, None, seed)
        state, version = result.state, len(result.logged)
        rng = random.Random(seed)
        while not EXHAUST.is_over(state) and len(states) < count:
            if rng.random() < 0.3:
                states.append(state)
            view = EXHAUST.view(state, state.turn)
            action = EXHAUST_AI.normal(view, rng)
            result = advance(EXHAUST, state, version, state.turn, action, seed)
            state, version = result.state, version + len(result.logged)
        seed += 1
    return states


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_strong_decision_at_a_table_is_legal_and_searched(players: int) -> None:
    reasons = set()
    for i, state in enumerate(table_states(players, 6)):
        made = EXHAUST_AI.decide(EXHAUST.view(state, state.turn), random.Random(i), STRONG)
        assert made.action in EXHAUST.legal_actions(state, state.turn)
        reasons.add(made.reason)
    assert WINS_MOST_SAMPLES in reasons


def test_a_strong_decision_at_a_table_is_deterministic_given_the_rng() -> None:
    for state in table_states(4, 4):
        view = EXHAUST.view(state, state.turn)
        first = EXHAUST_AI.decide(view, random.Random(7), STRONG)
        assert EXHAUST_AI.decide(view, random.Random(7), STRONG) == first


def test_a_strong_decision_at_a_table_depends_on_the_view_only() -> None:
    """Re-dealing everything the seat cannot see (other hands, refill) changes nothing."""
    for i, state in enumerate(table_states(3, 4)):
        seat = state.turn
        other = EXHAUST.resample_hidden(state, seat, random.Random(i))
        assert other != state
        assert EXHAUST.view(other, seat) == EXHAUST.view(state, seat)
        mine = EXHAUST_AI.decide(EXHAUST.view(state, seat), random.Random(i), STRONG)
        theirs = EXHAUST_AI.decide(EXHAUST.view(other, seat), random.Random(i), STRONG)
        assert mine == theirs


def test_a_strong_decision_at_a_table_searches_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[int] = []
    playout = TableModel.playout

    def counted(self: TableModel, world, move, rng):
        played.append(1)
        return playout(self, world, move, rng)

    monkeypatch.setattr(TableModel, "playout", counted)
    for i, state in enumerate(table_states(4, 3)):
        played.clear()
        made = EXHAUST_AI.decide(EXHAUST.view(state, state.turn), random.Random(i), STRONG)
        assert len(played) <= TABLE_SMALL.playouts
        if made.reason == WINS_MOST_SAMPLES:
            assert played and made.params["move"] in EXHAUST_AI.reasons


def test_strong_searches_the_long_variant_and_deals_the_next_game_as_normal() -> None:
    states = table_states(3, 40, long_game=True)
    playing = [s for s in states if s.phase == "play"][:3]
    for i, state in enumerate(playing):
        made = EXHAUST_AI.decide(EXHAUST.view(state, state.turn), random.Random(i), STRONG)
        assert made.action in EXHAUST.legal_actions(state, state.turn)
    between = [s for s in states if s.phase == "next"]
    assert between
    made = EXHAUST_AI.decide(EXHAUST.view(between[0], between[0].turn), random.Random(1), STRONG)
    assert made.action == NextGame()


# Levels of every game ------------------------------------------------------------------------


def some_views(game_id: str) -> list:
    return [view for view, _ in some_positions(game_id)]


def some_positions(game_id: str) -> list:
    """(view, legal actions) of the seat to move in the first steps of a few games."""
    rules = GAMES[game_id]
    views = []
    for players in sorted({rules.min_players, min(rules.min_players + 1, rules.max_players)}):
        config = rules.make_config(players, {})
        result = advance(rules, rules.setup(config), 0, -1, None, players)
        state, version = result.state, len(result.logged)
        rng = random.Random(players)
        for _ in range(12):
            if rules.is_over(state):
                break
            seat = min(rules.to_move(state).seats)
            view = rules.view(state, seat)
            views.append((view, rules.legal_actions(state, seat)))
            action = AIS[game_id].normal(view, rng)
            result = advance(rules, state, version, seat, action, players)
            state, version = result.state, version + len(result.logged)
    return views


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_normal_level_is_the_normal_action_with_a_reason_the_game_declares(
    game_id: str,
) -> None:
    ai = AIS[game_id]
    for i, view in enumerate(some_views(game_id)):
        made = ai.decide(view, random.Random(i), NORMAL)
        assert made.action == ai.normal(view, random.Random(i))
        assert made.reason in ai.reasons


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_unknown_level_is_refused(game_id: str) -> None:
    view = some_views(game_id)[0]
    with pytest.raises(GameError) as info:
        AIS[game_id].decide(view, random.Random(1), "grandmaster")
    assert info.value.reason is Reason.BAD_OPTION
    assert "grandmaster" not in AI_LEVELS


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_plays_a_legal_action_at_the_strong_level(game_id: str) -> None:
    for i, (view, legal) in enumerate(some_positions(game_id)):
        made = AIS[game_id].decide(view, random.Random(i), STRONG)
        assert made.action in legal
