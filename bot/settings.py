"""Settings from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    # env_ignore_empty: `.env.example` leaves optional settings as `NAME=`, meaning "unset".
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: str = Field(min_length=1)
    database_path: Path = Path("data/bot.sqlite3")
    database_synchronous: Literal["FULL", "NORMAL"] = "FULL"
    """FULL: a move is on disk before anyone sees it, even through a power loss. NORMAL is
    faster, and still safe if only the bot crashes, but a power loss may undo the last moves
    players already saw."""
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    default_locale: Literal["ja", "en"] = "en"
    discord_api_base: str | None = None
    """Point the client at a Discord-compatible server (tests use a local emulator)."""
    discord_gateway_url: str | None = None
    ai_delay: float = 1.2
    """Seconds an AI seat waits before each action, so people can follow its turn."""
    table_edit_interval: float = 1.1
    """Minimum seconds between edits of one message: Discord allows about 5 edits per 5 s."""
