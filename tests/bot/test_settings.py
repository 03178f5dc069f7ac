"""Settings read as `.env.example` writes them, and bad ones refused with a line naming them."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from bot.failures import settings_lines
from bot.settings import Settings


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, discord_token="token", **values)


def refusal(**values: Any) -> str:
    with pytest.raises(ValidationError) as refused:
        settings(**values)
    [line] = settings_lines(refused.value)
    return line


def test_a_shard_listed_twice_is_refused_naming_it() -> None:
    line = refusal(shard_count=2, shard_ids="0,0")
    assert line.startswith("SHARD_IDS: ") and "shard 0 more than once" in line


def test_shard_ids_that_are_not_numbers_are_refused() -> None:
    assert refusal(shard_count=2, shard_ids="zero").startswith("SHARD_IDS: ")


def test_a_shard_beyond_the_count_is_refused_naming_both_settings() -> None:
    line = refusal(shard_count=2, shard_ids="2")
    assert "SHARD_IDS" in line and "SHARD_COUNT=2" in line


@pytest.mark.parametrize("port", ["0", "99999", "abc"])
def test_a_database_url_port_that_is_no_port_is_refused(port: str) -> None:
    line = refusal(database_url=f"postgresql://bot:pw@db:{port}/bot")
    assert line.startswith(f"DATABASE_URL: port '{port}'")
    assert "pw" not in line


def test_postgresql_is_waited_for_a_minute_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_WAIT", "")  # as `.env.example` leaves it
    assert settings().database_wait == 60
    assert settings(database_wait=5).database_wait == 5


def test_log_level_and_format_are_read_in_any_case() -> None:
    read = settings(log_level="debug", log_format="JSON")
    assert (read.log_level, read.log_format) == ("DEBUG", "json")


def test_a_log_format_neither_text_nor_json_is_refused_naming_both() -> None:
    line = refusal(log_format="yaml")
    assert line.startswith("LOG_FORMAT: ") and "'text'" in line and "'json'" in line
