"""A short run of the crash bench: SIGKILL at random moments loses no acknowledged move."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_acknowledged_moves_survive_sigkill_once_and_in_order() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--cycles", "4", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    line = run.stdout.strip().splitlines()[-1]
    figures = dict(re.findall(r"(\w+)=(\d+)", line))
    assert int(figures["acked"]) > 0, line
    assert figures["lost"] == "0" and figures["doubled"] == "0", line
    assert figures["resume_failures"] == "0", line
