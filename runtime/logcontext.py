"""Which session the running code is about, for its log lines.

The session runtime sets it where a session's work runs (its AI seats, timers, listeners), and
the bot where a click's or a command's does; a log filter of the bot reads it, so every line
logged inside — the bot's, the service's, discord.py's — names the session, its game and its
guild. A context variable: each asyncio task has its own copy, so tasks never see each
other's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from games.engine.session import SessionRecord


@dataclass(frozen=True, slots=True)
class About:
    session: str
    game: str | None = None
    guild: int | None = None

    @classmethod
    def of(cls, record: SessionRecord) -> About:
        return cls(record.id, record.game_id, record.guild_id)


CURRENT: ContextVar[About | None] = ContextVar("session_about", default=None)


def current() -> About | None:
    return CURRENT.get()


def bind(record: SessionRecord) -> None:
    """The rest of this task is about `record`'s session (a task that serves one session)."""
    CURRENT.set(About.of(record))


@contextmanager
def about(record: SessionRecord | None = None, *, session: str | None = None) -> Iterator[None]:
    """The block is about `record`'s session (or the session of id `session`, not yet loaded):
    for code that serves several sessions in turn."""
    what = About.of(record) if record is not None else About(session or "")
    token = CURRENT.set(what)
    try:
        yield
    finally:
        CURRENT.reset(token)
