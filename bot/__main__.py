"""`python -m bot`: start the bot with settings from the environment and `.env`.

Exit status 2 when it cannot start for a reason the admin can fix (a setting, the database,
the token, a shard another process runs), or must stop (a shard lease another process took),
told in one line; 0 after a clean stop (Ctrl-C, SIGTERM)."""

from __future__ import annotations

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.failures import EXIT_STATUS, Failure, settings_lines
from bot.settings import Settings

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set.\n"
    "Create an application at https://discord.com/developers/applications,\n"
    "open Bot → Reset Token, and put the token in the environment or in a .env file:\n"
    "DISCORD_TOKEN=...\n"
    "(see .env.example and README.md)."
)

log = logging.getLogger("bot")


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        if any(e["loc"] == ("discord_token",) for e in error.errors()):
            print(MISSING_TOKEN, file=sys.stderr)
        else:
            for line in settings_lines(error):
                print(f"Bad setting: {line} (see .env.example)", file=sys.stderr)
        return EXIT_STATUS
    from bot.ops.logs import configure

    configure(settings.log_level, settings.log_format, settings.shard_count)
    from bot.client import run

    try:
        asyncio.run(run(settings))
    except Failure as failure:
        log.error("%s: %s", "Stopped" if failure.running else "Cannot start", failure)
        return EXIT_STATUS
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
