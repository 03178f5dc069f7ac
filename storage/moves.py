"""How moves are written: a batch of `SessionWrite`s in one transaction, a statement per
table, on either database.

A move writes only what it changes: its log rows, and the session row's version, status and
seats to move (seats and options only when they changed). Moves that arrive together are
written together (`Move`, a `Grouped` write of the group commit): one statement puts the
sessions still at their moves' old versions in a temporary table (locking those rows on
PostgreSQL, where other processes write too); a move whose session is no longer at its version
is refused (VersionConflict) and writes nothing; then one statement per table writes the rows
of all the others. The `(session_id, seq)` primary key makes a second entry at one version
impossible anyway.

The rows of a statement travel as one JSON list of lists, which the database unpacks
(`Dialect.rows`), so a batch costs one call however many moves it holds. On PostgreSQL the
whole transaction is one script (`Conn.script`): one round trip. On SQLite it is one INSERT
into a temporary view whose trigger runs the statements (`BATCH`): one hand-over to SQLite's
thread, of a statement prepared once (a script is parsed anew every batch, and its thread
waits for the interpreter lock after every statement while the loop is busy). Either expects
every move to pass the version check, and fails before writing anything if one did not
(`STALE`); only then is the batch written again as a script, the refused moves left out, and
the sessions that moved read back: a second call. (Each call handed to SQLite's thread costs
a turn of the event loop to come back.) On SQLite, a new session is written with the moves
too (`NewSession`, of their kind): in their statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.session import SessionRecord
from storage.database import Grouped, Outcome
from storage.move_batch import NewRow, write_batch
from storage.move_rows import MOVED, STALE, script
from storage.new_rows import refusal
from storage.session_store import SessionWrite, VersionConflict
from storage.sql import Conn, clash


async def _write(conn: Conn, changes: list[SessionWrite], news: list[NewRow]) -> set[str] | None:
    """Commit `changes` (of distinct sessions) and `news` (SQLite's alone: see `NewSession`);
    the ids of the sessions that moved, or None when all of them did. When a move failed its
    version check, the new sessions are written after the others, each alone."""
    sqlite = conn.dialect.name == "sqlite"
    try:
        if sqlite:
            await write_batch(conn, changes, news)
        else:
            await conn.script(script(conn.dialect, changes, strict=True))
        return None
    except Exception as error:
        if STALE not in str(error) and MOVED not in str(error):
            raise  # not a refused move, nor a connection yet to make its `MOVED`
    if not sqlite:
        await conn.execute("ROLLBACK")  # the script stopped before its COMMIT
    await conn.script(script(conn.dialect, changes, strict=False))
    return {row[0] for row in await conn.fetch(f"SELECT id FROM {MOVED}")}


async def write_begun(conn: Conn, change: SessionWrite) -> None:
    """Write `change` in the transaction `conn` has begun, on PostgreSQL (a script there
    commits nothing; SQLite's would): VersionConflict if its session is not at its old
    version."""
    await conn.script(script(conn.dialect, [change], strict=False, transaction=False))
    if not await conn.fetchval(f"SELECT COUNT(*) FROM {MOVED}"):
        raise VersionConflict(f"session {change.after.id}: not at {change.before.version}")


_STORED: Outcome = (True, None)


@dataclass(slots=True)
class Move(Grouped):
    """One `SessionWrite` in the group commit."""

    change: SessionWrite

    @classmethod
    async def commit(cls, conn: Conn, writes: list[Any]) -> list[Outcome]:
        """Each session once per transaction (its next move may follow in the same batch);
        the new sessions (`NewSession`) in the first."""
        outcomes: list[Outcome] = [_STORED] * len(writes)
        todo = [i for i, write in enumerate(writes) if not isinstance(write, NewSession)]
        new = [i for i, write in enumerate(writes) if isinstance(write, NewSession)]
        while todo or new:
            seen: set[str] = set()
            now: list[int] = []
            later: list[int] = []
            for i in todo:
                session_id = writes[i].change.after.id
                (later if session_id in seen else now).append(i)
                seen.add(session_id)
            changes = [writes[i].change for i in now]
            news = [writes[i].row for i in new]
            moved = await _write(conn, changes, news)
            if moved is not None:
                for i, change in zip(now, changes, strict=True):
                    if change.after.id not in moved:
                        conflict = f"session {change.after.id}: not at {change.before.version}"
                        outcomes[i] = (False, VersionConflict(conflict))
                for i in new:  # not written yet: a move failed the statement's version check
                    outcomes[i] = await writes[i].alone(conn)
            todo, new = later, []
        return outcomes

    def failed(self, error: Exception) -> Exception:
        """A log row that exists already: the session moved on meanwhile."""
        if clash(error) == "key":
            return VersionConflict(f"session {self.change.after.id}: seq taken")
        return error


class NewSession(Grouped):
    """A new session on SQLite (`SessionStore.create`), with its first change if any (`row`),
    written in the statement of the moves of its batch (`Move.commit`)."""

    def __init__(
        self, record: SessionRecord, first: SessionWrite | None, created_at: float
    ) -> None:
        self.row: NewRow = (record, first, created_at)

    async def alone(self, conn: Conn) -> Outcome:
        """Write this session in a statement of its own: its outcome."""
        try:
            await write_batch(conn, [], [self.row])
        except Exception as error:
            return (False, self.failed(error))
        return _STORED

    def failed(self, error: Exception) -> Exception:
        return refusal(error, self.row[0].id)

    @classmethod
    def kind(cls) -> type[Grouped]:
        return Move
