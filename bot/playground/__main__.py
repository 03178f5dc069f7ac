"""`python -m bot.playground`: the bot and every game in a browser, with no Discord account,
token or settings. Prints the page's address; Ctrl-C stops it."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import signal
import sys
from pathlib import Path

from bot.playground.playground import DEFAULT_PORT, Playground
from bot.playground.web import is_loopback


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot.playground",
        description="Play the bot's games in a browser, against a local Discord emulator.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the page's port (default {DEFAULT_PORT}; 0: any free port)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="a loopback address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--database",
        type=Path,
        metavar="FILE",
        help="keep the games in this SQLite file (default: a temporary one, removed at exit)",
    )
    parser.add_argument(
        "--ai-delay",
        type=float,
        metavar="SECONDS",
        help="seconds an AI seat waits before each move (default: the bot's own)",
    )
    parser.add_argument("--log-level", default="WARNING", metavar="LEVEL", help="default WARNING")
    args = parser.parse_args(argv)
    if not is_loopback(args.host):
        parser.error(
            f"--host {args.host} is not a loopback address: the playground has no accounts, "
            "so it serves this machine only (127.0.0.1, ::1 or localhost)"
        )
    return args


async def run(args: argparse.Namespace) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    settings = {} if args.ai_delay is None else {"ai_delay": args.ai_delay}
    async with Playground.running(
        host=args.host, port=args.port, database=args.database, **settings
    ) as playground:
        print(f"Playground: {playground.url}", flush=True)
        print("Open it in a browser (?user=bob for bob's view); Ctrl-C stops it.", flush=True)
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    level = logging.getLevelName(args.log_level.upper())
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if level == logging.WARNING:
        # discord.py warns that voice needs extra packages: nothing here uses voice.
        logging.getLogger("discord.client").setLevel(logging.ERROR)
    try:
        asyncio.run(run(args))
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        print(
            f"Port {args.port} is taken: choose another with --port (0: any free port).",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
