"""Settings from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, Self
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from games.engine import Shards


class Settings(BaseSettings):
    # env_ignore_empty: `.env.example` leaves optional settings as `NAME=`, meaning "unset".
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: str = Field(min_length=1)
    database_url: str | None = Field(default=None, pattern=r"^postgres(ql)?://")
    """`postgresql://user:password@host:port/dbname`: PostgreSQL, the store that several shard
    processes share. Unset: the SQLite file `database_path`."""
    database_wait: float = Field(default=60.0, ge=0)
    """Seconds to keep trying to reach PostgreSQL at start (it may still be starting: compose,
    a reboot) before giving up."""
    database_path: Path = Path("data/bot.sqlite3")
    database_synchronous: Literal["FULL", "NORMAL"] = "FULL"
    """FULL: a move is on disk before anyone sees it, even through a power loss. NORMAL is
    faster, and still safe if only the bot crashes, but a power loss may undo the last moves
    players already saw."""
    dev_guild_id: int | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_format: Literal["text", "json"] = "text"
    """text: one line per record, with the session, game and guild it is about; json: one
    JSON object per line (for a log collector)."""
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    """Serve /healthz and /metrics (Prometheus) on this port; unset: not served. 0 picks a
    free port (tests)."""
    metrics_host: str = "127.0.0.1"
    """The address /healthz and /metrics listen on: this machine only by default; 0.0.0.0 in a
    container, for Prometheus and the health check to reach it."""
    default_locale: Literal["ja", "en"] = "en"
    """The tables' language where neither /settings nor the server's own Discord language
    tells one (see `bot.languages`)."""
    discord_api_base: str | None = None
    """Point the client at a Discord-compatible server (tests use a local emulator)."""
    discord_gateway_url: str | None = None
    ai_delay: float = 1.2
    """Seconds an AI seat waits before each action, so people can follow its turn."""
    ai_workers: int = Field(default=1, ge=1)
    """Processes that make strong AI decisions (about a second of CPU each), off the event
    loop; started on the first one."""
    table_edit_interval: float = 1.1
    """Minimum seconds between edits of one message: Discord allows about 5 edits per 5 s."""
    shard_count: int | None = Field(default=None, ge=1)
    """The bot's shards in all (Discord requires sharding above 2,500 servers). Unset: one
    unsharded connection."""
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """The shards this process runs, as `0,1` (unset: all `shard_count` of them). Each
    process of a bot gets its own ids and the same `database_url`."""

    @field_validator("database_url")
    @classmethod
    def _ports_are_ports(cls, value: str | None) -> str | None:
        """A port PostgreSQL cannot listen on is a typo: say so now, not as a driver error."""
        if value is not None:
            hosts = urlsplit(value).netloc.rpartition("@")[2]
            for host in hosts.split(","):
                port = host.rpartition("]")[2].partition(":")[2]
                if port and not (port.isdigit() and 1 <= int(port) <= 65535):
                    raise ValueError(f"port {port!r} is not a number from 1 to 65535")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _level_in_any_case(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _format_in_any_case(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",") if part.strip()]
            if not all(part.isdigit() for part in parts):
                raise ValueError("expected shard ids separated by commas, such as 0,1")
            return tuple(int(part) for part in parts)
        return value

    @field_validator("shard_ids")
    @classmethod
    def _each_once(cls, value: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if value is not None:
            twice = sorted({i for i in value if value.count(i) > 1})
            if twice:
                listed = ", ".join(map(str, twice))
                raise ValueError(f"lists shard {listed} more than once: name each shard once")
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT, the bot's shards in all")
            outside = [i for i in self.shard_ids if i >= self.shard_count]
            if outside or not self.shard_ids:
                raise ValueError(
                    f"SHARD_IDS must name shards from 0 to {self.shard_count - 1} "
                    f"(SHARD_COUNT={self.shard_count})"
                )
        return self

    @property
    def database(self) -> str | Path:
        """Where `storage.open_storage` finds the database."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs, or None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        return Shards.of(self.shard_count, self.shard_ids)
