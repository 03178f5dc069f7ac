"""Moves through the real session service and store, over a temporary database.

    python bench/service.py --sessions 1000 --seconds 10 --mode closed
    python bench/service.py --game rummy --sessions 1000 --seconds 8 --mode closed
    python bench/service.py --sessions 1000 --seconds 10 --mode open --rate 1000
    python bench/service.py ... --database-url postgresql://user@host/postgres
    python bench/service.py ... --bot-root ../old-checkout

SQLite by default (a temporary file); with `--database-url`, PostgreSQL: the bench creates a
temporary database on that server (the URL's own database is only used to create and drop
it, so its role needs CREATEDB) and drops it at the end. `--bot-root DIR` runs the service and
store of another checkout (an older commit, to compare) under this bench.

`sessions` games of `--game` (The Game by default; `--players` each, by default two or the
game's minimum) are played with random legal moves: a seat the game waits for (one at random
when several are, as in a claim window) plays one of its `legal_actions` at random, leaving out
free actions (signals) that a player may send at any time; a finished game is replaced by a
rematch. Solo NPCs are the game's chance actions, which the service plays itself. Closed
loop: one move in flight per session, the next sent as soon as the last is acknowledged. Open
loop: moves are sent at `rate` a second to idle sessions, whatever the answers do, and each
latency counts from the moment its move was due, so a stall shows in full. Every acknowledged
move is checked in the database (its log row, on a connection of its own) after its answer.
`us_per_move` is the process's CPU time (every thread: the loop's, the store's) while the
moves are played, less the bench's own choosing of moves (`legal_actions`, timed on the loop's
thread), over the moves committed: what the service spends on a move, whatever else the machine
runs. The verifier checks the log rows after the play, outside that time.
`raw_commits_per_s` is the rate, in the same run, of single-row INSERT+COMMIT
transactions on a file with the same settings (on PostgreSQL: on one connection to the same
database): the floor a store doing one transaction per move can reach.

Prints one line:
game=G mode=… sessions=N moves=M moves_per_s=X us_per_move=U p50_ms=A p99_ms=B max_ms=C
synchronous=S raw_commits_per_s=R
(on PostgreSQL, `backend=postgresql` is added and S is the server's synchronous_commit, with
its fsync setting: `on/fsync=on`).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def bot_root(argv: list[str]) -> Path:
    """`--bot-root DIR`, read before the service and store are imported: the checkout they
    come from (this one by default)."""
    if "--bot-root" in argv[:-1]:
        return Path(argv[argv.index("--bot-root") + 1]).resolve()
    return ROOT


sys.path[:0] = list(dict.fromkeys([str(bot_root(sys.argv)), str(ROOT)]))

from bench.figures import percentile  # noqa: E402
from bench.service_store import (  # noqa: E402
    Verifier,
    pg_raw_commits_per_s,
    pg_synchronous,
    raw_commits_per_s,
    temporary_database,
)
from games import registry  # noqa: E402
from games.engine import GameError, Reason, Status  # noqa: E402
from storage import Storage, open_storage  # noqa: E402

# An older tree (`--bot-root`) may have its service in games.engine and no AIS: the same bench
# measures it.
try:
    from runtime import SessionService
except ImportError:
    from games.engine import SessionService  # type: ignore[attr-defined,no-redef]
GAMES = registry.GAMES
AI_ARGS = (registry.AIS,) if hasattr(registry, "AIS") else ()

FREE = {"thegame": frozenset({"signal"})}
"""Per game, the kinds of action any seat may send at any time (they change no turn): a random
player would mostly send those, which players seldom do."""
LEVELS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


async def synchronous_of(storage: Storage) -> str:
    """The store's `synchronous` level (read from its connection on a store that predates the
    setting, so the same bench measures the code before and after it)."""
    level = getattr(storage.db, "synchronous", None)
    if level is not None:
        return str(level)
    # Only an older tree's store (aiosqlite, one connection) gets here: not today's Database.
    async with storage.db.conn.execute("PRAGMA synchronous") as cursor:  # type: ignore[attr-defined]
        row = await cursor.fetchone()
    return LEVELS[int(row[0])]


class Bench:
    def __init__(
        self, service: SessionService, verifier: Verifier, game: str, players: int, seed: int
    ) -> None:
        self.service = service
        self.verifier = verifier
        self.game = game
        self.players = players
        self.rng = random.Random(seed)
        self.rules = GAMES[game]
        self.free = FREE.get(game, frozenset())
        self.latencies: list[float] = []
        self.choosing = 0.0
        """CPU seconds the bench spent choosing moves: not the service's."""
        self.ids = itertools.count(1)

    async def new_session(self, channel: int) -> str:
        host = next(self.ids)
        lobby = await self.service.create(
            self.game,
            guild_id=1,
            channel_id=channel,
            host_id=host,
            host_name=f"u{host}",
            locale="en",
            options={},
        )
        for _ in range(self.players - 1):
            guest = next(self.ids)
            await self.service.join(lobby.id, guest, f"u{guest}")
        await self.service.start(lobby.id, host, 0)
        return lobby.id

    async def move(self, session_id: str) -> tuple[str, bool]:
        """One random legal move (a finished game is replaced by a rematch): the session id,
        and whether the move was committed (not when a timed window closed first)."""
        session = await self.service.get(session_id)
        if session.record.status is not Status.ACTIVE:
            change = await self.service.rematch(session_id, session.record.host_id)
            session = change.session
        state, record, rules = session.state, session.record, self.rules
        choosing = time.thread_time()
        seat = self.rng.choice(sorted(session.waiting.seats))
        moves = [a for a in rules.legal_actions(state, seat) if a.kind not in self.free]
        action = self.rng.choice(moves)
        # Not held across the move's await: a thousand sessions' lists of actions kept alive
        # would be promoted by the collector, whose full collections then land in the
        # service's time (Exhaust lists about 80 plays a turn).
        del moves
        self.choosing += time.thread_time() - choosing
        version, user = record.version, record.seats[seat].user_id
        assert user is not None  # every seat is a player's: no AI seats here
        try:
            await self.service.submit(session.id, user, action, version)
        except GameError as error:  # the clock moved the session on (a window closed): again
            if error.reason is not Reason.STALE_VERSION:
                raise
            return session.id, False
        self.verifier.check((session.id, version + 1, rules.dump_action(action)))
        return session.id, True

    async def closed(self, sessions: list[str], seconds: float) -> float:
        end = time.perf_counter() + seconds

        async def player(session_id: str) -> None:
            while time.perf_counter() < end:
                sent = time.perf_counter()
                session_id, committed = await self.move(session_id)
                if committed:
                    self.latencies.append(time.perf_counter() - sent)

        start = time.perf_counter()
        await asyncio.gather(*(player(s) for s in sessions))
        return time.perf_counter() - start

    async def open(self, sessions: list[str], seconds: float, rate: float) -> float:
        idle = list(sessions)
        self.rng.shuffle(idle)
        backlog: list[float] = []
        pending: set[asyncio.Task[None]] = set()

        async def send(session_id: str, due: float) -> None:
            session_id, committed = await self.move(session_id)
            if committed:
                self.latencies.append(time.perf_counter() - due)
            if backlog:  # a move waited for an idle session: it goes now, late
                self.spawn(send(session_id, backlog.pop(0)), pending)
            else:
                idle.append(session_id)

        start = time.perf_counter()
        for n in range(int(seconds * rate)):
            due = start + n / rate
            if (wait := due - time.perf_counter()) > 0:
                await asyncio.sleep(wait)
            if idle:
                self.spawn(send(idle.pop(), due), pending)
            else:
                backlog.append(due)
        while pending:
            await asyncio.gather(*list(pending))
        return time.perf_counter() - start

    @staticmethod
    def spawn(coro: Any, pending: set[asyncio.Task[None]]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        pending.add(task)
        task.add_done_callback(pending.discard)


async def run(args: argparse.Namespace) -> str:
    if args.database_url:
        async with temporary_database(args.database_url) as url:
            return await measure_postgres(args, url)
    with tempfile.TemporaryDirectory(prefix="bench-service-", dir=args.dir) as tmp:
        return await measure(args, Path(tmp))


async def measure(args: argparse.Namespace, directory: Path) -> str:
    path = directory / "bench.db"
    storage = await open_storage(path)
    synchronous = await synchronous_of(storage)
    raw = await raw_commits_per_s(directory, synchronous)
    verifier = Verifier(str(path))
    line = await play(args, storage, verifier)
    return f"{line} synchronous={synchronous} raw_commits_per_s={raw:.0f}"


async def measure_postgres(args: argparse.Namespace, url: str) -> str:
    storage = await open_storage(url)
    synchronous = await pg_synchronous(url)
    raw = await pg_raw_commits_per_s(url)
    verifier = Verifier(url)
    line = await play(args, storage, verifier)
    return f"{line} synchronous={synchronous} raw_commits_per_s={raw:.0f} backend=postgresql"


async def play(args: argparse.Namespace, storage: Storage, verifier: Verifier) -> str:
    """Open the sessions, play the moves, check them; the figures of the summary line."""
    seeds = itertools.count(args.seed)
    service = SessionService(
        storage.sessions, GAMES, *AI_ARGS, ai_delay=0, seed_source=lambda: next(seeds)
    )
    players = args.players or max(2, GAMES[args.game].min_players)
    bench = Bench(service, verifier, args.game, players, args.seed)
    sessions: list[str] = []
    for start in range(0, args.sessions, 100):
        chunk = range(start, min(start + 100, args.sessions))
        sessions += await asyncio.gather(*(bench.new_session(10_000 + c) for c in chunk))
    cpu = time.process_time()
    if args.mode == "closed":
        elapsed = await bench.closed(sessions, args.seconds)
    else:
        elapsed = await bench.open(sessions, args.seconds, args.rate)
    cpu = time.process_time() - cpu - bench.choosing
    await service.close()
    await storage.close()
    verifier.start()
    await verifier.finish()
    if verifier.missing or verifier.checked != len(bench.latencies):
        raise SystemExit(f"{len(verifier.missing)} acknowledged moves not in the database")
    values = sorted(bench.latencies)
    return (
        f"game={args.game} mode={args.mode} sessions={args.sessions} moves={len(values)} "
        f"moves_per_s={len(values) / elapsed:.0f} us_per_move={cpu / len(values) * 1e6:.0f} "
        f"p50_ms={percentile(values, 0.5) * 1e3:.1f} p99_ms={percentile(values, 0.99) * 1e3:.1f} "
        f"max_ms={values[-1] * 1e3:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="thegame")
    parser.add_argument(
        "--players", type=int, default=0, help="seats per session (default: 2, or the minimum)"
    )
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--mode", choices=("closed", "open"), default="closed")
    parser.add_argument("--rate", type=float, default=1000.0, help="moves a second (open loop)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dir", default=None, help="where the temporary database goes (a real disk, not tmpfs)"
    )
    parser.add_argument(
        "--bot-root", type=Path, default=ROOT, help="checkout whose service and store run"
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="postgresql://… of a server to bench PostgreSQL on (a temporary database is made)",
    )
    print(asyncio.run(run(parser.parse_args())), flush=True)


if __name__ == "__main__":
    main()
