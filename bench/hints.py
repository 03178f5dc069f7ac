"""/hint latency through the real session service while STRONG AI seats think.

    python bench/hints.py --hints 30
    python bench/hints.py --hints 30 --bot-root ../old-checkout

Two tables of Hell Queue Club (`--game rummy`: Angels & Demons Rummy) play on their own, each
with one STRONG AI seat, so `strong_seats` STRONG decisions are always under way or waiting
(the AI pool's default single worker; a finished table is replaced by a new one). Their hosts
leave at the start: an AI plays their seats at NORMAL. At a third table a player asks for a
hint each time it is their turn, then plays the move hinted (the other seats are NORMAL AIs;
a finished game is replaced by a rematch). Each hint counts from the call to its answer. One
hint before the figures starts the pools (a fresh bot pays that once). SQLite store in a
temporary directory; `ai_delay` 0. `--bot-root DIR` runs the service and store of another
checkout (an older commit, to compare).

Prints one line:
hint p50_ms=A p99_ms=B max_ms=C hints=N strong_seats=2 seat_decisions=D
(D: the STRONG seats' decisions made while the hints were asked.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.figures import percentile  # noqa: E402
from bench.service import AI_ARGS, GAMES, SessionService  # noqa: E402
from games.engine import NORMAL, STRONG, GameError, Status  # noqa: E402
from storage import open_storage  # noqa: E402

PLAYERS = {"hellqueue": 3, "rummy": 2}
"""Seats at each table: the fewest the game takes."""

THINKING = 2
"""Tables playing on their own, one STRONG seat each."""


class Hints:
    def __init__(self, service: SessionService, game: str) -> None:
        self.service = service
        self.game = game
        self.users = itertools.count(1)
        self.channels = itertools.count(100)
        self.thinking: set[str] = set()
        self.asking = ""
        self.moved = asyncio.Event()
        self.spawned: set[asyncio.Task[Any]] = set()

    async def table(self, strong: bool) -> tuple[str, int]:
        """A started table: its host at seat 0 and to move first, then a STRONG seat (if
        `strong`) and NORMAL ones; its id and its host."""
        host = next(self.users)
        lobby = await self.service.create(
            self.game,
            guild_id=1,
            channel_id=next(self.channels),
            host_id=host,
            host_name=f"u{host}",
            locale="en",
            options={},
        )
        levels = [STRONG] if strong else []
        levels += [NORMAL] * (PLAYERS[self.game] - 1 - len(levels))
        for level in levels:
            await self.service.add_ai(lobby.id, host, level)
        await self.service.start(lobby.id, host, 0)
        return lobby.id, host

    async def think(self) -> None:
        """Open a table that plays on its own: its host leaves, the AI takes their seat."""
        session_id, host = await self.table(strong=True)
        self.thinking.add(session_id)
        await self.service.leave(session_id, host)

    async def heard(self, change: Any) -> None:
        """Replace a finished thinking table; wake the player at the asking one."""
        session = change.session
        if session.id == self.asking:
            self.moved.set()
        elif session.id in self.thinking and not session.record.status.live:
            self.thinking.discard(session.id)
            task = asyncio.get_running_loop().create_task(self.think())
            self.spawned.add(task)
            task.add_done_callback(self.spawned.discard)

    async def ask(self, player: int) -> float:
        """Wait for the player's turn, ask for a hint and play it; the hint's seconds."""
        while True:
            session = await self.service.get(self.asking)
            if session.record.status is not Status.ACTIVE:
                change = await self.service.rematch(self.asking, player)
                self.asking = change.session.id
                continue
            seat = session.seat_of(player)
            if seat in session.waiting.seats:
                break
            self.moved.clear()
            await self.moved.wait()
        started = time.perf_counter()
        hint = await self.service.hint(self.asking, player)
        took = time.perf_counter() - started
        # Refused when the table moved on meanwhile (a window closed): ask at the next turn.
        with contextlib.suppress(GameError):
            await self.service.submit(self.asking, player, hint.decision.action, hint.version)
        return took


async def run(args: argparse.Namespace, directory: Path) -> str:
    storage = await open_storage(directory / "bench.db")
    seeds = itertools.count(args.seed)
    strong: list[float] = []

    def decided(level: str, seconds: float) -> None:
        if level == STRONG:
            strong.append(seconds)

    service = SessionService(
        storage.sessions,
        GAMES,
        *AI_ARGS,
        ai_delay=0,
        seed_source=lambda: next(seeds),
        on_decision=decided,
    )
    hints = Hints(service, args.game)
    service.subscribe(hints.heard)
    try:
        for _ in range(THINKING):
            await hints.think()
        hints.asking, player = await hints.table(strong=False)
        await hints.ask(player)  # starts the pools
        before = len(strong)
        took = [await hints.ask(player) for _ in range(args.hints)]
        seats = len(strong) - before - len(took)
    finally:
        hints.thinking.clear()
        await service.close()
        await storage.close()
    values = sorted(took)
    return (
        f"hint p50_ms={percentile(values, 0.5) * 1e3:.0f} "
        f"p99_ms={percentile(values, 0.99) * 1e3:.0f} max_ms={values[-1] * 1e3:.0f} "
        f"hints={len(values)} strong_seats={THINKING} seat_decisions={seats}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=30)
    parser.add_argument("--game", choices=sorted(PLAYERS), default="hellqueue")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="checkout whose code runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-hints-") as tmp:
        print(asyncio.run(run(args, Path(tmp))), flush=True)


if __name__ == "__main__":
    main()
