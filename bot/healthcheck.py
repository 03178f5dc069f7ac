"""`python -m bot.healthcheck`: the container's health check (the Dockerfile's HEALTHCHECK,
compose's `healthcheck`). It asks the bot's own /healthz on METRICS_PORT, prints the answer
(Docker keeps it: `docker inspect`), and exits 0 when the bot is healthy, 1 otherwise.

It reads METRICS_PORT and METRICS_HOST as the bot does (environment, then `.env`) and needs
nothing else: no token, no database."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.failures import settings_lines

TIMEOUT = 4.0
"""Seconds to wait for /healthz: under Docker's default `--timeout` of 5 s, so the check says
why it failed rather than being cut off."""

WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}
"""A bot listening on every address is asked on this machine's own."""


class Endpoint(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"

    @property
    def url(self) -> str:
        host = WILDCARDS.get(self.metrics_host, self.metrics_host)
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.metrics_port}/healthz"


def check(endpoint: Endpoint) -> tuple[bool, str]:
    """Whether the bot at `endpoint` is healthy, and what it (or the attempt) said."""
    if endpoint.metrics_port is None:
        return False, "METRICS_PORT is not set: the bot serves no /healthz to check"
    try:
        with urllib.request.urlopen(endpoint.url, timeout=TIMEOUT) as answer:
            return True, answer.read().decode("utf-8", "replace").strip()
    except urllib.error.HTTPError as refused:
        return False, refused.read().decode("utf-8", "replace").strip()
    except (urllib.error.URLError, OSError) as error:
        why = getattr(error, "reason", error)
        return False, f"no answer from {endpoint.url}: {why}"


def main() -> int:
    try:
        endpoint = Endpoint()
    except ValidationError as error:
        print("; ".join(f"Bad setting: {line}" for line in settings_lines(error)))
        return 1
    healthy, said = check(endpoint)
    print(said)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
