"""`python -m bot`: start the bot with settings from the environment and `.env`."""

from __future__ import annotations

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set.\n"
    "Create an application at https://discord.com/developers/applications,\n"
    "open Bot → Reset Token, and put the token in the environment or in a .env file:\n"
    "DISCORD_TOKEN=...\n"
    "(see .env.example and README.md)."
)


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        if any(e["loc"] == ("discord_token",) for e in error.errors()):
            print(MISSING_TOKEN, file=sys.stderr)
        else:
            print(f"Invalid settings:\n{error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.client import run

    asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
