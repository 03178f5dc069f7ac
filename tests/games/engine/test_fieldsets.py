"""Copies of a frozen model share one fields-set per combination of names (a session record is
copied several times a move; pydantic gave each copy a set of its own, over a kilobyte for a
record), and still count the fields an update gave, as pydantic does."""

from __future__ import annotations

from games.engine.session import SessionRecord, Status


def record() -> SessionRecord:
    return SessionRecord.model_validate(
        {
            "id": "0123456789abcdef",
            "game_id": "thegame",
            "rules_version": 1,
            "guild_id": 1,
            "channel_id": 2,
            "host_id": 3,
            "locale": "en",
            "options": {},
            "seed": 4,
        }
    )


def test_copies_of_a_record_share_one_fields_set() -> None:
    first = record().model_copy(update={"version": 1})
    second = first.model_copy(update={"version": 2, "status": Status.ACTIVE})
    third = record().model_copy(update={"status": Status.ACTIVE, "version": 3})
    assert second.__pydantic_fields_set__ is third.__pydantic_fields_set__
    assert first.model_copy().__pydantic_fields_set__ is first.__pydantic_fields_set__


def test_a_copy_counts_the_fields_its_update_gave_and_leaves_the_original_alone() -> None:
    original = record()
    given = set(original.model_fields_set)
    copied = original.model_copy(update={"quarantine": "broken", "version": 7})
    assert copied.model_fields_set == given | {"quarantine", "version"}
    assert original.model_fields_set == given
    assert (copied.quarantine, copied.version) == ("broken", 7)
    assert (original.quarantine, original.version) == (None, 0)


def test_a_deep_copy_holds_values_of_its_own() -> None:
    original = record().model_copy(update={"options": {"signals": True}})
    copied = original.model_copy(deep=True)
    assert copied == original
    assert copied.options is not original.options
