"""Worker processes die with the process that started them, even one killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from runtime.workers import process_pool

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import os, sys
from runtime.workers import process_pool
pool = process_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
os.kill(os.getpid(), 9)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_worker_exits_once_its_parent_was_killed() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.run(
        [sys.executable, "-c", PARENT], env=env, capture_output=True, text=True, timeout=60
    )
    assert parent.returncode == -signal.SIGKILL
    worker = int(parent.stdout.split()[0])
    deadline = time.monotonic() + 30
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker)


def test_a_pools_workers_run_niceness_steps_below_this_process() -> None:
    pool = process_pool(1, niceness=3)
    try:
        assert pool.submit(os.nice, 0).result(timeout=120) == min(os.nice(0) + 3, 19)
    finally:
        pool.shutdown()
