"""Click → response latency of the real bot, as players feel it.

    python bench/clicks.py --users 10 --moves 300

The bot runs as `python -m bot` in a process of its own; the test emulator and its users run
here, so the emulator's CPU is not the bot's. Each user plays solo games of The Game in a
channel of their own, all at once: open the hand, pick a card, play it on a pile it fits (or
end the turn), a new game when one is over, until `moves` plays and turn ends are made in
all. Every click and select counts, from sending it to the bot's answer. The emulator's own
garbage collection is off while the users play (it is not the bot's time).

By default users click again the moment they are answered, so 10 users keep the bot and the
emulator saturated and the figure is mostly queueing (the line adds `in_flight=`, the mean
number of clicks waiting, by Little's law). `--think-ms T` gives each user a pause of 0.5–1.5 T
between clicks, as people playing have.

`--bot-root DIR` starts the bot from another checkout (an older commit, to compare), with
this checkout's emulator and users.

Prints one line: users=N moves=M clicks=C p50_ms=A p99_ms=B in_flight=F [think_ms=T]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.figures import percentile  # noqa: E402
from bot.playground.emulator import Emulator, InteractionResult  # noqa: E402
from bot.playground.emulator.models import EmuChannel, EmuMessage, EmuUser  # noqa: E402
from tests.botkit import custom_ids  # noqa: E402


class Player:
    def __init__(
        self, emu: Emulator, user: EmuUser, channel: EmuChannel, seed: int, think: float
    ) -> None:
        self.emu, self.user, self.channel = emu, user, channel
        self.rng = random.Random(seed)
        self.think = think
        self.spans: list[tuple[float, float]] = []
        self.table: EmuMessage | None = None

    async def timed(self, click: Awaitable[InteractionResult]) -> EmuMessage:
        """The message a click or select is answered with, its latency recorded."""
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        started = time.perf_counter()
        result = await click
        self.spans.append((started, time.perf_counter()))
        assert result.message is not None, result
        return result.message

    def lobby(self) -> EmuMessage | None:
        with contextlib.suppress(LookupError):
            return self.find_table(":start$")
        return None

    def find_table(self, pattern: str) -> EmuMessage:
        for message in reversed(self.emu.channel_messages(self.channel)):
            if custom_ids(message, pattern):
                return message
        raise LookupError(pattern)

    async def new_game(self) -> None:
        await self.user.slash(self.channel, "thegame new")
        # Answered at once, or deferred while the table's post waits out the channel's limit.
        await self.emu.wait_for(lambda: self.lobby() is not None, timeout=30)
        table = self.find_table(":start$")
        started = await self.timed(self.user.click(table, custom_ids(table, ":start$")[0]))
        first = custom_ids(started, ":first$")
        if first:
            await self.timed(self.user.select(started, first[0], ["0"]))
        await self.emu.wait_for(lambda: bool(custom_ids(table, ":hand$")), timeout=30)
        self.table = table

    async def play(self, budget: list[int]) -> None:
        await self.new_game()
        while budget[0] > 0:
            assert self.table is not None
            hand_ids = custom_ids(self.table, ":hand$")
            if not hand_ids:
                await self.new_game()
                continue
            hand = await self.timed(self.user.click(self.table, hand_ids[0]))
            if not await self.turn(hand, budget):
                await self.new_game()

    async def turn(self, hand: EmuMessage, budget: list[int]) -> bool:
        """Moves on one hand message until the game ends (False) or the hand is stale."""
        while budget[0] > 0:
            picks = custom_ids(hand, r":x\.pick$")
            ends = custom_ids(hand, r":x\.end$")
            if not picks and not ends:
                return False  # the game is over
            pick = hand.component(picks[0]) if picks else None
            cards = [o["value"] for o in pick["options"]] if pick is not None else []
            self.rng.shuffle(cards)
            played = False
            for card in cards[:4]:
                hand = await self.timed(self.user.select(hand, picks[0], [card]))
                plays = custom_ids(hand, rf":x\.play\.{re.escape(card)}\.\d$")
                if plays and not (ends and self.rng.random() < 0.3):
                    hand = await self.timed(self.user.click(hand, self.rng.choice(plays)))
                    played = True
                    break
            if not played:
                ends = custom_ids(hand, r":x\.end$")
                if not ends:
                    return False  # stuck: the game is over
                hand = await self.timed(self.user.click(hand, ends[0]))
            budget[0] -= 1
        return True


async def run(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="bench-clicks-") as tmp:
        return await measure(args, Path(tmp))


async def measure(args: argparse.Namespace, work: Path) -> str:
    async with Emulator.running() as emu:
        emu.rate_limit_headers = True
        env = {
            **os.environ,
            "PYTHONPATH": str(args.bot_root),
            "DISCORD_TOKEN": emu.bot_token,
            "DISCORD_API_BASE": emu.api_base,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
            "DATABASE_PATH": str(work / "bot.sqlite3"),
            "LOG_LEVEL": "WARNING",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=work, env=env, stdin=asyncio.subprocess.DEVNULL
        )
        try:
            await emu.wait_for(lambda: bool(emu.gateway.connections and emu.commands()), timeout=60)
            players = [
                Player(
                    emu,
                    emu.add_user(f"u{i}"),
                    emu.add_channel(f"t{i}"),
                    args.seed + i,
                    args.think_ms / 1e3,
                )
                for i in range(args.users)
            ]
            budget = [args.moves]
            # This process is only the measuring stick (Discord and its users): its garbage
            # collector, walking every payload the emulator keeps, would stall all clicks in
            # flight for up to ~0.1 s and count that against the bot (timeit does the same).
            gc.disable()
            try:
                await asyncio.gather(*(p.play(budget) for p in players))
            finally:
                gc.enable()
        finally:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
            await process.wait()
    spans = [span for p in players for span in p.spans]
    values = sorted(ended - started for started, ended in spans)
    p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
    wall = max(ended for _, ended in spans) - min(started for started, _ in spans)
    think = f" think_ms={args.think_ms:g}" if args.think_ms else ""
    return (
        f"users={args.users} moves={args.moves} clicks={len(values)} "
        f"p50_ms={p50 * 1e3:.1f} p99_ms={p99 * 1e3:.1f} in_flight={sum(values) / wall:.1f}{think}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=0.0, help="pause between clicks")
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="checkout the bot runs from")
    print(asyncio.run(run(parser.parse_args())), flush=True)


if __name__ == "__main__":
    main()
