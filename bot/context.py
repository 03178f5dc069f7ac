"""What a render needs to know about a session: seat names, recent events, links."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from games.engine import Event, Session, SessionRecord, Status
from storage import GameStats, RatingChange


def seat_names(record: SessionRecord, lang: str) -> list[str]:
    """Each seat as players read it: the member's name, or an AI label. A player who is away
    keeps their plain name: events name them as they are (`Context.seat_label` marks the
    seat list)."""
    names = []
    for index, seat in enumerate(record.seats):
        if seat.user_id is not None:
            names.append(seat.name)
        elif seat.name:
            names.append(t(lang, "seat.taken_over", name=seat.name))
        else:
            names.append(t(lang, "seat.ai", n=index + 1))
    return names


def message_url(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """A link to a message (or to its channel when there is no message id)."""
    base = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return base if message_id is None else f"{base}/{message_id}"


def jump_url(session: Session) -> str:
    """A link to the session's table message (or its channel before one is posted)."""
    record = session.record
    return message_url(record.guild_id, record.channel_id, record.table_message_id)


@dataclass(frozen=True)
class Records:
    """A game's records in a finished session's server and channel, for its end table."""

    server: GameStats
    channel: GameStats
    ratings: Sequence[RatingChange] = ()
    """Each rated seat's change in this game (none when the game is not rated)."""


@dataclass
class Context:
    """Everything a render needs: the session, the language, seat names, recent events."""

    session: Session
    lang: str
    names: list[str]
    recent: Sequence[Event] = ()
    records: Records | None = None
    """This server's and channel's records, on the table of a finished game."""
    notice: str | None = None
    picture: bytes | None = None
    """The table's picture (`GameUI.table_picture` of the public view), when the server wants
    pictures and the game draws one."""
    describe: Callable[[Event, Context], str | None] = lambda event, ctx: None
    """An event in words for the table's log (shared session events included)."""

    @classmethod
    def of(cls, session: Session, lang: str, **fields: Any) -> Context:
        return cls(session=session, lang=lang, names=seat_names(session.record, lang), **fields)

    def t(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    @property
    def closed(self) -> bool:
        """Whether the table was closed before the game's end (abandoned): no one is to move,
        whatever the state says. (A replay's step of a finished game is not closed.)"""
        return self.session.record.status is Status.ABANDONED

    def seat_label(self, seat: int) -> str:
        """A seat as the table's seat list shows it: its name, marked while the game is played
        and an AI holds the seat for its away player. Only the seat list carries the mark,
        never an event."""
        seats = self.session.record.seats
        playing = self.session.record.status is Status.ACTIVE
        if playing and seat < len(seats) and seats[seat].away:
            return self.t("seat.away", name=self.names[seat])
        return self.names[seat]

    @property
    def sid(self) -> str:
        return self.session.id

    @property
    def version(self) -> int:
        return self.session.record.version

    def log_lines(self, events: Sequence[Event] | None = None) -> list[str]:
        """The recent events (or `events`) in words, oldest first, leaving out silent ones."""
        chosen = self.recent if events is None else events
        return [text for event in chosen if (text := self.describe(event, self))]
