"""Cold start: a fresh `python -m bot` against the test emulator, over a big database.

    python bench/coldstart.py --stored 100000 --live 10000

Builds (or reuses, under the system's temp directory) a database of `stored` sessions of The
Game made of real games (the AI playing every seat): `live` of them in play, the rest
finished with whole logs.
A tenth of the games in play have an AI seat, a fifth a turn timer with its deadlines (some
already due). Then it starts the bot in a process of its own and times it from the start to
ready: the gateway connected and a slash command answered. `rss_mb` is the bot's resident
memory at that moment.

`--bot-root DIR` starts the bot from another checkout (an older commit of the same schema
version, to compare) over the same database.

Prints one line: stored=… live=… ready_s=X rss_mb=Y
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.playground.emulator import Emulator  # noqa: E402
from games.engine import advance  # noqa: E402
from games.registry import AIS, GAMES  # noqa: E402
from storage import open_storage  # noqa: E402

GAME = "thegame"
TEMPLATES = 48
SNAPSHOT_EVERY = 20


@dataclass
class Template:
    """One real game of The Game, stopped at some point: what its rows hold."""

    config: dict[str, Any]
    log: list[tuple[int, int, str]]
    snapshot: tuple[int, str]
    status: str
    to_move: list[int]


def play(seed: int, stop: int | None) -> Template:
    """The game's AI plays every seat until the end, or `stop` actions in."""
    rules, rng = GAMES[GAME], random.Random(seed)
    config = rules.make_config(2, {"first_player": 0})
    step = advance(rules, rules.setup(config), 0, 0, None, seed)
    state, log = step.state, list(step.logged)
    snapshot = (len(log), json.dumps(state.model_dump(mode="json")))
    while not rules.is_over(state) and (stop is None or len(log) < stop):
        seat = min(rules.to_move(state).seats)
        action = AIS[GAME].normal(rules.view(state, seat), rng)
        step = advance(rules, state, len(log), seat, action, seed)
        state, log = step.state, log + list(step.logged)
        if len(log) // SNAPSHOT_EVERY != snapshot[0] // SNAPSHOT_EVERY or rules.is_over(state):
            snapshot = (len(log), json.dumps(state.model_dump(mode="json")))
    entries = [(e.seq, e.actor, json.dumps(e.action, separators=(",", ":"))) for e in log]
    return Template(
        config=config.model_dump(mode="json"),
        log=entries,
        snapshot=snapshot,
        status="finished" if rules.is_over(state) else "active",
        to_move=sorted(rules.to_move(state).seats),
    )


async def build(path: Path, stored: int, live: int) -> None:
    """Fill a freshly migrated file with `stored` sessions, `live` of them in play."""
    rng = random.Random(7)
    finished = [play(seed, None) for seed in range(TEMPLATES)]
    playing = [play(1000 + seed, rng.randrange(5, 120)) for seed in range(TEMPLATES)]
    playing = [t for t in playing if t.status == "active"]
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA synchronous = OFF")
        columns = {row[1] for row in await conn.execute_fetchall("PRAGMA table_info(sessions)")}
        keeps_to_move = "to_move" in columns
        now = time.time()
        for start in range(0, stored, CHUNK):
            rows = Rows()
            for n in range(start, min(start + CHUNK, stored)):
                template = rng.choice(playing if n < live else finished)
                rows.add(n, template, rng, now=now, stored=stored, live=live)
            await rows.insert(conn, keeps_to_move)
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


CHUNK = 10_000
"""Sessions written in one transaction."""


@dataclass
class Rows:
    """The rows of a chunk of sessions, table by table."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[tuple[Any, ...]] = field(default_factory=list)
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    snapshots: list[tuple[Any, ...]] = field(default_factory=list)
    deadlines: list[tuple[Any, ...]] = field(default_factory=list)

    def add(
        self, n: int, template: Template, rng: random.Random, *, now: float, stored: int, live: int
    ) -> None:
        in_play = n < live
        session_id = f"{n:08x}"
        ai = in_play and rng.random() < 0.1
        timer = 600 if in_play and rng.random() < 0.2 else None
        host = 10**6 + n
        self.sessions.append(
            {
                "id": session_id,
                "game_id": GAME,
                "rules_version": 1,
                "guild_id": 1 + n % 50,
                "channel_id": 10**7 + n,
                "host_id": host,
                "locale": "en",
                "options": "{}",
                "seed": n,
                "status": template.status,
                "version": len(template.log),
                "config": json.dumps(template.config),
                "table_message_id": 10**8 + n,
                "created_at": now - (stored - n),
                "updated_at": now,
                "turn_timer": timer,
                "to_move": json.dumps(template.to_move),
            }
        )
        self.seats += [
            (session_id, 0, host, "host"),
            (session_id, 1, None if ai else host + 1, "guest"),
        ]
        self.actions += [(session_id, seq, actor, payload) for seq, actor, payload in template.log]
        self.snapshots.append((session_id, *template.snapshot))
        if timer is not None:
            seat = template.to_move[0]
            due = now + rng.uniform(-300, 3000)
            self.deadlines += [
                (session_id, "turn", seat, due),
                (session_id, "warn", seat, due - timer / 2),
            ]

    async def insert(self, conn: aiosqlite.Connection, keeps_to_move: bool) -> None:
        """One transaction, one statement a table."""
        names = [name for name in self.sessions[0] if keeps_to_move or name != "to_move"]
        marks = ", ".join(f":{name}" for name in names)
        await conn.execute("BEGIN")
        await conn.executemany(
            f"INSERT INTO sessions ({', '.join(names)}) VALUES ({marks})", self.sessions
        )
        await conn.executemany(
            "INSERT INTO seats (session_id, seat, user_id, name) VALUES (?, ?, ?, ?)", self.seats
        )
        await conn.executemany(
            "INSERT INTO actions (session_id, seq, actor, payload) VALUES (?, ?, ?, ?)",
            self.actions,
        )
        await conn.executemany(
            "INSERT INTO snapshots (session_id, version, state) VALUES (?, ?, ?)", self.snapshots
        )
        await conn.executemany(
            "INSERT INTO deadlines (session_id, kind, seat, due) VALUES (?, ?, ?, ?)",
            self.deadlines,
        )
        await conn.execute("COMMIT")


async def database(stored: int, live: int) -> Path:
    """The database for these figures, built once per schema version and reused."""
    directory = Path(tempfile.gettempdir()) / "tablebot-coldstart"
    scratch = directory / f"new-{os.getpid()}.sqlite3"
    storage = await open_storage(scratch)  # the schema of the code under test
    schema = await storage.db.fetchval("PRAGMA user_version")
    await storage.close()
    path = directory / f"stored{stored}-live{live}-v{schema}.sqlite3"
    if path.exists():
        for leftover in directory.glob(f"new-{os.getpid()}.sqlite3*"):
            leftover.unlink()
        return path
    await build(scratch, stored, live)
    scratch.rename(path)
    return path


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def time_start(path: Path, timeout: float, bot_root: Path) -> tuple[float, float]:
    """Seconds from starting `python -m bot` to its first answered slash command, and its RSS."""
    with tempfile.TemporaryDirectory(prefix="bench-coldstart-") as tmp:
        work = Path(tmp)
        copy = work / "bot.sqlite3"
        shutil.copyfile(path, copy)  # each start gets the same untouched file
        return await _time_start(work, copy, timeout, bot_root)


async def _time_start(
    work: Path, copy: Path, timeout: float, bot_root: Path
) -> tuple[float, float]:
    async with Emulator.running() as emu:
        user = emu.add_user("probe")
        env = {
            **os.environ,
            "PYTHONPATH": str(bot_root),
            "DISCORD_TOKEN": emu.bot_token,
            "DISCORD_API_BASE": emu.api_base,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
            "DATABASE_PATH": str(copy),
            "LOG_LEVEL": "CRITICAL",
        }
        started = time.perf_counter()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=work, env=env, stdin=asyncio.subprocess.DEVNULL
        )
        try:
            while True:
                if process.returncode is not None:
                    raise SystemExit(f"the bot exited with {process.returncode}")
                if time.perf_counter() - started > timeout:
                    raise SystemExit("the bot was not ready in time")
                if emu.gateway.connections and emu.commands():
                    try:
                        await user.slash(emu.general, "thegame rules")
                        break
                    except Exception:
                        pass
                await asyncio.sleep(0.005)
            ready = time.perf_counter() - started
            return ready, rss_mb(process.pid)
        finally:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
            await process.wait()


async def run(args: argparse.Namespace) -> str:
    path = await database(args.stored, args.live)
    ready, rss = await time_start(path, args.timeout, args.bot_root)
    return f"stored={args.stored} live={args.live} ready_s={ready:.2f} rss_mb={rss:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--live", type=int, default=10_000)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--bot-root", type=Path, default=ROOT, help="checkout the bot runs from")
    args = parser.parse_args()
    if args.live > args.stored:
        parser.error("--live cannot exceed --stored")
    print(asyncio.run(run(args)), flush=True)


if __name__ == "__main__":
    main()
