"""A database the previous store wrote (sqlite3 on a thread of its own, schema version 6)
opens with this one and its games play on. `fixtures/schema6.sqlite3` was made by that
store's own code at commit e826f85: a finished game of The Game with its record and seat
results, one in play with a DM hand, one in play with a turn timer (its deadlines long past
now), a lobby, preferences."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from games.engine import Status
from games.registry import AIS, GAMES
from runtime import SessionService
from storage import open_storage
from storage.migrations import MIGRATIONS
from tests.stores import scalar

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "schema6.sqlite3"
FINISHED, LIVE, TIMED, LOBBY = (
    "0ec4f7ead87d51b4",
    "f8c3d5afd409de4d",
    "0ab8135d3ced5438",
    "8bdac2c962e4a29e",
)


async def test_a_database_of_the_previous_store_opens_and_its_games_play_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURE, path)
    async with await open_storage(path) as storage:
        assert await scalar(storage, "PRAGMA user_version") == len(MIGRATIONS)
        assert await storage.prefs.user.get(1010, "locale") == "ja"
        assert await storage.prefs.guild.get(1, "turn_timer") == "120"
        assert await storage.hand_messages.get(LIVE, 1011) is not None
        stats = await storage.records.stats(1, "thegame")
        assert stats.games == 1 and stats.best is not None and stats.best.session_id == FINISHED
        [tally, _] = await storage.players.totals(1, 1010, "thegame")
        assert tally.games == 1 and tally.best_loss == 12
        service = SessionService(storage.sessions, GAMES, AIS, ai_delay=0)
        await service.resume()  # the timed game's turn ran out long ago: an AI plays it
        await service.settle()
        live = {s.id: s for s in await service.live_sessions(1)}
        assert set(live) == {LIVE, TIMED, LOBBY}
        assert live[TIMED].record.version > 4
        rng = random.Random(1)
        for session_id in (LIVE, TIMED):
            session = await service.get(session_id)
            rules, state = session.rules, session.state
            seat = min(rules.to_move(state).seats)
            user = session.record.seats[seat].user_id
            assert user is not None and session.record.status is Status.ACTIVE
            action = rng.choice([a for a in rules.legal_actions(state, seat) if a.kind != "signal"])
            version = session.record.version
            after = await service.submit(session_id, user, action, version)
            assert after.session.record.version > version
            assert len(await storage.sessions.log(session_id)) == after.session.record.version
        await service.join(LOBBY, 4242, "Dave")
        started = await service.start(LOBBY, 77, 0)
        assert started.session.record.status is Status.ACTIVE
        await service.close()
    async with await open_storage(path) as reopened:  # and it all stays
        assert (await reopened.sessions.load(LOBBY)).record.status is Status.ACTIVE  # type: ignore[union-attr]
