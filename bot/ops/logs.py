"""The bot's log: each line about a game names its session, game, guild and shard.

The session service and the bot say which session the running code is about
(`runtime.logcontext`); `SessionContext`, a filter on the handler, puts that on every
record, whoever logs it (the bot, the service, discord.py). `LOG_FORMAT=text` (the default)
writes one line per record with the context after the message; `json` one JSON object per
line, for a log collector. A traceback is written once, after its line (text) or in the
object's `exception` field (json)."""

from __future__ import annotations

import datetime
import json
import logging
import sys
from typing import TextIO

from games.engine import shard_of
from runtime import logcontext

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
CONTEXT = ("session", "game", "guild", "shard")


class SessionContext(logging.Filter):
    """Sets `session`, `game`, `guild` and `shard` on each record (None when it is about no
    session); `shard_count`: the bot's shards in all (None: unsharded, shard 0)."""

    def __init__(self, shard_count: int | None = None) -> None:
        super().__init__()
        self.shard_count = shard_count or 1

    def filter(self, record: logging.LogRecord) -> bool:
        about = logcontext.current()
        if about is None:
            record.session = record.game = record.guild = record.shard = None
        else:
            record.session, record.game, record.guild = about.session, about.game, about.guild
            record.shard = shard_of(about.guild, self.shard_count)
        return True


class TextFormatter(logging.Formatter):
    """The usual line, then what it is about: `[session=… game=… guild=… shard=…]`."""

    def __init__(self) -> None:
        super().__init__(TEXT)

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        about = [
            f"{name}={value}"
            for name in CONTEXT
            if (value := getattr(record, name, None)) is not None
        ]
        return f"{line} [{' '.join(about)}]" if about else line


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, session,
    game, guild (a string: a snowflake overflows a JSON reader's doubles), shard, and
    `exception` (its traceback) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        guild = getattr(record, "guild", None)
        entry: dict[str, object] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "session": getattr(record, "session", None),
            "game": getattr(record, "game", None),
            "guild": None if guild is None else str(guild),
            "shard": getattr(record, "shard", None),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


def handler(
    log_format: str, shard_count: int | None = None, stream: TextIO | None = None
) -> logging.Handler:
    """A handler writing to `stream` (stderr) in `log_format` ("text" or "json"), each record
    with what it is about."""
    made = logging.StreamHandler(stream or sys.stderr)
    made.addFilter(SessionContext(shard_count))
    made.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    return made


def configure(level: str, log_format: str, shard_count: int | None = None) -> None:
    """The process's logging: one handler on the root logger, replacing any other."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler(log_format, shard_count))
    root.setLevel(level.upper())
