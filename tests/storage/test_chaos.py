"""A short run of the crash bench: SIGKILL at random moments loses no acknowledged move."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def chaos(*options: str) -> str:
    """The summary line of a short run of bench/chaos.py."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--cycles", "4", *options],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return run.stdout.strip().splitlines()[-1]


def assert_nothing_lost_or_doubled(line: str) -> None:
    figures = dict(re.findall(r"(\w+)=(\d+)", line))
    assert int(figures["acked"]) > 0, line
    assert figures["lost"] == "0" and figures["doubled"] == "0", line
    assert figures["resume_failures"] == "0", line


def test_acknowledged_moves_survive_sigkill_once_and_in_order() -> None:
    assert_nothing_lost_or_doubled(chaos("--seed", "3"))


def test_acknowledged_moves_survive_sigkill_once_and_in_order_on_postgresql(
    pg_url: str,
) -> None:
    assert_nothing_lost_or_doubled(chaos("--seed", "5", "--database-url", pg_url))
