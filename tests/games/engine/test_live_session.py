"""`Session`'s seat lookups, read from an index of the record's seats, follow the record."""

from __future__ import annotations

from games.engine.live import Session
from games.engine.session import Seat, SessionRecord
from games.registry import GAMES

RULES = GAMES["thegame"]


def record(*seats: Seat) -> SessionRecord:
    return SessionRecord(
        id="0123456789abcdef",
        game_id="thegame",
        rules_version=1,
        guild_id=1,
        channel_id=2,
        host_id=10,
        locale="en",
        options={},
        seed=7,
        seats=seats,
    )


def test_seat_of_answers_as_the_record_does_for_players_ais_and_strangers() -> None:
    held = record(
        Seat(user_id=10, name="a"), Seat(user_id=None, name=""), Seat(user_id=11, name="b")
    )
    session = Session(held, RULES)
    for user in (10, 11, 12, None):
        assert session.seat_of(user) == held.seat_of(user)  # type: ignore[arg-type]


def test_seat_of_follows_a_new_record_with_other_seats() -> None:
    session = Session(record(Seat(user_id=10, name="a"), Seat(user_id=11, name="b")), RULES)
    assert session.seat_of(11) == 1
    session.record = record(Seat(user_id=11, name="b"))
    assert session.seat_of(11) == 0
    assert session.seat_of(10) is None


def test_autoplays_names_ai_and_away_seats_and_follows_the_record() -> None:
    session = Session(record(Seat(user_id=10, name="a"), Seat(user_id=None, name="")), RULES)
    assert session.autoplays(frozenset({1}))
    assert not session.autoplays(frozenset({0}))
    session.record = record(Seat(user_id=10, name="a", away=True), Seat(user_id=11, name="b"))
    assert session.autoplays(frozenset({0}))
    assert not session.autoplays(frozenset({1}))
    assert not session.autoplays(frozenset())
