"""The shared search behind the strong AI level: pure, no I/O, deterministic given its rng.

An AI seat knows only its view. The search draws whole states consistent with that view
(`Rules.sample_state`: everything the seat cannot see dealt at random), tries each candidate
move in each of them and plays the rest of the game out with the game's own heuristic, and
takes the candidate with the best mean result. Because the continuation after the first move
is the heuristic deciding from its own view, the search never assumes it will know the
hidden cards later (the flaw of searching each sample with full knowledge), so it improves on
the heuristic by as much as one step of policy improvement can.

The budget counts playouts, never seconds, so the same rng gives the same move on any machine:
the service seeds the rng from the session's seed and version, so a replay or a restart gives
the same AI move. Candidates are narrowed by successive halving: each round spends an equal
share of the budget on the candidates still in, every candidate on the same sampled states
with the same playout seeds (common random numbers, so that differences come from the moves,
not the deals), and keeps the better half; ties go to the heuristic's order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from games.engine.contract import AiDecision
from games.engine.rng import Rng

W = TypeVar("W")
M = TypeVar("M")

WINS_MOST_SAMPLES = "wins_most_samples"
"""Reason of a searched decision; its params say how well the move did and on what."""


@dataclass(frozen=True)
class Budget:
    """How much one decision may search."""

    playouts: int
    """Playouts per decision, shared by all candidates."""
    candidates: int = 128
    """At most this many candidates (the heuristic's first) enter the search."""


class Candidate(NamedTuple, Generic[M]):
    """A move the search may choose, with the reason code of the move itself."""

    move: M
    reason: str


class Sampler(Protocol):
    """What the search needs of the rules: whole states drawn from a view."""

    def sample_state(self, view: Any, rng: random.Random) -> Any: ...


class Model(Protocol[W, M]):
    """What a game gives the search.

    `candidates` lists the viewer's moves best first by the game's heuristic (the search's
    move ordering); `world` turns a state drawn from the view into whatever the game plays
    out fastest; `playout` makes the move in that world, plays on with the heuristic to the
    end (or a horizon) and returns how well it went for the viewer, from 0 to 1.
    """

    def candidates(self, view: Any) -> Sequence[Candidate[M]]: ...

    def world(self, state: Any) -> W: ...

    def playout(self, world: W, move: M, rng: random.Random) -> float: ...

    def action(self, move: M) -> Any: ...


class Searched(NamedTuple, Generic[M]):
    """The search's pick: its candidate, mean result, playouts on it, candidates weighed."""

    candidate: Candidate[M]
    mean: float
    playouts: int
    considered: int


def search(
    rules: Sampler,
    model: Model[W, M],
    view: Any,
    rng: random.Random,
    budget: Budget,
) -> Searched[M]:
    """The candidate with the best mean playout from `view` (see the module docstring)."""
    candidates = list(model.candidates(view))[: budget.candidates]
    if not candidates:
        raise ValueError("no candidate move to search")
    # Every round plays each candidate still in at least once: keep as many as that allows.
    while len(candidates) > 2 and len(candidates) * _rounds(len(candidates)) > budget.playouts:
        candidates.pop()
    if len(candidates) == 1:
        return Searched(candidates[0], math.nan, 0, 1)
    worlds: list[tuple[W, int]] = []
    """Per sampled state: the world and the seed of every playout in it."""

    def world(j: int) -> tuple[W, int]:
        while len(worlds) <= j:
            state = rules.sample_state(view, Rng(rng.getrandbits(64)))
            worlds.append((model.world(state), rng.getrandbits(64)))
        return worlds[j]

    alive = list(range(len(candidates)))
    total = [0.0] * len(candidates)
    done = 0
    rounds = _rounds(len(candidates))
    for _ in range(rounds):
        share = max(1, budget.playouts // (rounds * len(alive)))
        for i in alive:
            for j in range(done, done + share):
                sampled, seed = world(j)
                total[i] += model.playout(sampled, candidates[i].move, Rng(seed))
        done += share
        alive.sort(key=lambda i: (-total[i], i))
        alive = alive[: (len(alive) + 1) // 2]
        if len(alive) == 1:
            break
    best = alive[0]
    return Searched(candidates[best], total[best] / done, done, len(candidates))


def _rounds(candidates: int) -> int:
    """Rounds of halving that take `candidates` down to one."""
    return max(1, math.ceil(math.log2(candidates)))


def decision(
    rules: Sampler,
    model: Model[W, M],
    view: Any,
    rng: random.Random,
    budget: Budget,
) -> AiDecision:
    """`search` as an AI decision: the action, reason `wins_most_samples`, and params for
    /hint: the move's own reason, its mean result in percent and the playouts behind it (a
    lone candidate is played without searching, with its own reason)."""
    found = search(rules, model, view, rng, budget)
    action = model.action(found.candidate.move)
    if found.considered == 1:
        return AiDecision(action=action, reason=found.candidate.reason)
    return AiDecision(
        action=action,
        reason=WINS_MOST_SAMPLES,
        params={
            "move": found.candidate.reason,
            "score": round(100 * found.mean),
            "playouts": found.playouts,
        },
    )
