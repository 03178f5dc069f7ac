"""The code type-checks: mypy, as configured in pyproject.toml ([tool.mypy]), reports nothing."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CEILING = 1200
"""Seconds: a first run (no .mypy_cache yet) on a loaded machine; with the cache, seconds."""


def test_mypy_reports_no_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=CEILING,
    )
    assert result.returncode == 0, result.stdout + result.stderr
