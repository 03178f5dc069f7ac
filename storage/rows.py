"""What both backends' stores share to turn values into columns and rows into values."""

from __future__ import annotations

import json
from typing import Any, Protocol


class Row(Protocol):
    """A result row by column name: `sqlite3.Row`, or asyncpg's `Record`."""

    def __getitem__(self, key: str, /) -> Any: ...


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as is (a JSON column in either database)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
