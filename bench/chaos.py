"""Crash safety: acknowledged moves survive SIGKILL at any moment, once and in order.

    python bench/chaos.py --cycles 200
    python bench/chaos.py --cycles 200 --database-url postgresql://user@host/empty_database

Each cycle starts a child process that resumes the service over one database and plays
random legal moves in several sessions at once, printing each move as soon as `submit` has
returned; it is killed with SIGKILL at a random moment. Then a fresh process checks every
printed move: stored at its place in its session's log with the same payload (else lost),
acknowledged at one place only (else doubled), and every session loads, replays and takes
one more move (else a resume failure). SQLite by default (a temporary file); with
`--database-url`, that PostgreSQL database (empty, or one this bench used before), where
the killed child's connections die with it.

Prints one line: cycles=… acked=… lost=0 doubled=0 resume_failures=0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import Status  # noqa: E402
from games.registry import AIS, GAMES  # noqa: E402
from runtime import SessionService  # noqa: E402
from storage import open_storage  # noqa: E402

GAME = "thegame"
SESSIONS = 6


def legal_move(session: Any, rng: random.Random) -> tuple[int, Any]:
    """A random legal move (no signals) of the seat to move: its user and the action."""
    rules, state = session.rules, session.state
    seat = min(rules.to_move(state).seats)
    moves = [a for a in rules.legal_actions(state, seat) if a.kind != "signal"]
    return session.record.seats[seat].user_id, rng.choice(moves)


async def child(location: str, seed: int) -> None:
    """Play until killed, printing `sid seq payload` for every acknowledged move."""
    rng = random.Random(seed)
    storage = await open_storage(location)
    service = SessionService(storage.sessions, GAMES, AIS, ai_delay=0)
    await service.resume()
    out = sys.stdout

    async def player(channel: int) -> None:
        host = 2 * channel
        session = await service.live_in_channel(channel)
        if session is None:
            session = await service.create(
                GAME,
                guild_id=1,
                channel_id=channel,
                host_id=host,
                host_name="a",
                locale="en",
                options={},
            )
        if session.record.status is Status.LOBBY:  # a kill may have stopped it right here
            if len(session.record.seats) < 2:
                await service.join(session.id, host + 1, "b")
            session = (await service.start(session.id, host, 0)).session
        while True:
            if session.record.status is not Status.ACTIVE:
                session = (await service.rematch(session.id, session.record.host_id)).session
                continue
            user, action = legal_move(session, rng)
            version = session.record.version
            session = (await service.submit(session.id, user, action, version)).session
            payload = json.dumps(session.rules.dump_action(action), separators=(",", ":"))
            out.write(f"{session.id} {version + 1} {payload}\n")
            out.flush()

    out.write("ready\n")
    out.flush()
    await asyncio.gather(*(player(100 + n) for n in range(SESSIONS)))


async def check(location: str, acks: Path) -> dict[str, int]:
    """Every acknowledged move stored once, in place; every session replays and plays on."""
    lines = [line.split(" ", 2) for line in acks.read_text().splitlines()]
    acked = [(sid, int(seq), json.loads(payload)) for sid, seq, payload in lines]
    places = Counter((sid, seq) for sid, seq, _ in acked)
    doubled = sum(1 for count in places.values() if count > 1)
    storage = await open_storage(location)
    lost = 0
    logs: dict[str, dict[int, Any]] = {}
    for sid, seq, payload in acked:
        if sid not in logs:
            logs[sid] = {e.seq: e.action for e in await storage.sessions.log(sid)}
        if logs[sid].get(seq) != payload:
            lost += 1
    failures = 0
    service = SessionService(storage.sessions, GAMES, AIS, ai_delay=0)
    rng = random.Random(0)
    for sid in logs:
        try:
            session = await service.get(sid)
            if session.record.status is Status.ACTIVE:
                user, action = legal_move(session, rng)
                await service.submit(sid, user, action, session.record.version)
        except Exception:
            failures += 1
    await service.close()
    await storage.close()
    return {"acked": len(acked), "lost": lost, "doubled": doubled, "resume_failures": failures}


def cycle(location: str, acks: Path, seed: int, rng: random.Random) -> None:
    """One child, killed with SIGKILL a random moment after it started playing."""
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", location, "--seed", str(seed)],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    if first.strip() != "ready":
        process.kill()
        raise SystemExit(f"the child did not start: {first!r}")
    time.sleep(rng.uniform(0.0, 0.4))
    process.send_signal(signal.SIGKILL)
    out, _ = process.communicate()
    whole = out[: out.rfind("\n") + 1]  # a line cut by the kill was never acknowledged
    with acks.open("a") as file:
        file.write(whole)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database-url", default=None, help="postgresql://… of an empty database to play on"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--check", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        asyncio.run(child(args.child, args.seed))
        return
    if args.check is not None:
        print(json.dumps(asyncio.run(check(args.check[0], Path(args.check[1])))))
        return
    with tempfile.TemporaryDirectory(prefix="bench-chaos-") as tmp:
        location, acks = args.database_url or str(Path(tmp) / "chaos.db"), Path(tmp) / "acks.txt"
        acks.touch()
        rng = random.Random(args.seed)
        for n in range(args.cycles):
            cycle(location, acks, args.seed * 10_000 + n, rng)
        checker = subprocess.run(
            [sys.executable, __file__, "--check", location, str(acks)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    result = json.loads(checker.stdout.strip().splitlines()[-1])
    print(
        f"cycles={args.cycles} acked={result['acked']} lost={result['lost']} "
        f"doubled={result['doubled']} resume_failures={result['resume_failures']}",
        flush=True,
    )


if __name__ == "__main__":
    main()
