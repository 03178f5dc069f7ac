"""AI decisions at each level, the STRONG ones off the event loop in a small process pool.

A NORMAL decision is the game's heuristic (p99 50 ms): it runs in place. A STRONG one searches
for up to about a second of pure-Python work; in a thread it would hold the GIL and stall every
session on the loop, so it goes to a worker process. The job is small and exact: the rules
and the game's AI (pickled as references to their class and functions), the view's model
(likewise) with the view as JSON, the rng's seed and the level; the worker rebuilds the view and
asks the AI, so the decision is the same as in process for the same seed, and a restart gives
the same move.

The pool (`runtime.workers`) starts on the first STRONG decision: a bot whose tables play
NORMAL never starts one. The service keeps two: one for the AI seats, whose workers run at a
lower priority (`SEAT_NICENESS`: a seat's move is paced by the AI delay anyway), and one of
its own for /hint, so a player waiting for a hint never queues behind tables of STRONG seats
thinking, nor shares the CPU with them on equal terms. If a pool cannot take or finish a job
(a worker died, the job would not pickle), that decision falls back to NORMAL in process,
logged, and a broken pool is replaced on the next STRONG decision.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from games.engine.ai import GameAI
from games.engine.contract import AI_LEVELS, NORMAL, AiDecision, Rules
from runtime.workers import process_pool

log = logging.getLogger(__name__)

Decided = tuple[dict[str, Any], str, dict[str, Any]]
"""A worker's answer: the action dumped as JSON, the reason code and its params."""

SEAT_NICENESS = 5
"""How far below the bot the AI seats' workers run: on a busy machine the event loop and the
hints' worker get the CPU first."""

Timed = Callable[[str, float], None]
"""Told of each decision made: its level and the seconds it took (a STRONG one's wait for a
worker included: the time its table waited)."""


def level_of(level: str, offered: tuple[str, ...] = AI_LEVELS) -> str:
    """A stored level as the AI plays it: anything unknown, or not among the game's `offered`
    levels (a seat stored before its game stopped offering it), plays NORMAL."""
    return level if level in AI_LEVELS and level in offered else NORMAL


def decide(
    rules: Rules[Any, Any, Any, Any],
    ai: GameAI[Any, Any],
    view_model: type[Any],
    view: Any,
    seed: str,
    level: str,
) -> Decided:
    """The worker's job: the AI's decision on the view rebuilt from JSON (runs in the pool)."""
    rebuilt = view_model.model_validate(view)
    made = ai.decide(rebuilt, random.Random(seed), level)
    return rules.dump_action(made.action), made.reason, dict(made.params)


class Thinker:
    """Makes AI decisions: NORMAL in place, STRONG in a process pool of `workers` (run
    `niceness` steps below this process)."""

    def __init__(self, workers: int = 1, timed: Timed | None = None, niceness: int = 0) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.workers = workers
        self.niceness = niceness
        self._timed = timed
        self._pool: Executor | None = None

    def now(self, ai: GameAI[Any, Any], view: Any, seed: str) -> AiDecision:
        """A NORMAL decision, made in place."""
        started = time.perf_counter()
        decision = ai.decide(view, random.Random(seed), NORMAL)
        self._took(NORMAL, started)
        return decision

    def _took(self, level: str, started: float) -> None:
        if self._timed is not None:
            self._timed(level, time.perf_counter() - started)

    async def decide(
        self,
        rules: Rules[Any, Any, Any, Any],
        ai: GameAI[Any, Any],
        view: Any,
        seed: str,
        level: str,
    ) -> AiDecision:
        """The decision at `level`: STRONG in a worker process (the loop runs on meanwhile),
        NORMAL in place, and NORMAL in place when the pool fails."""
        if level_of(level) == NORMAL:
            return self.now(ai, view, seed)
        job = (rules, ai, type(view), view.model_dump(mode="json"), seed, level)
        pool = self._executor()
        started = time.perf_counter()
        try:
            action, reason, params = await asyncio.get_running_loop().run_in_executor(
                pool, decide, *job
            )
            made = AiDecision(action=rules.parse_action(action), reason=reason, params=params)
            self._took(level, started)
            return made
        except Exception as error:
            log.error("strong AI decision failed; playing normal", exc_info=error)
            if isinstance(error, BrokenProcessPool) and self._pool is pool:
                self._pool = None  # replaced on the next strong decision
                pool.shutdown(wait=False, cancel_futures=True)
            return self.now(ai, view, seed)

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(self.workers, self.niceness)
        return self._pool

    async def close(self) -> None:
        """Stop the pool (if one started), dropping queued jobs, waiting for running ones."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
