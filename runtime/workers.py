"""Worker processes for CPU-bound work that must not hold the event loop's GIL.

A worker is started with `spawn` (it inherits no threads, sockets or database handles of the
bot) and exits on its own once the process that started it is gone: a bot killed with SIGKILL
never runs its shutdown, and an orphaned worker would live on, holding the bot's stdout. A
pool may run its workers at a lower priority than the bot (a higher `niceness`), so that work
that can wait leaves the CPU to the event loop and to other pools.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_S = 1.0
"""How often a worker looks whether its parent is still there."""


def process_pool(workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    """A pool of `workers` spawned processes that die with this one, each `niceness` steps
    below this process's priority."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(), niceness),
    )


def _start_worker(parent: int, niceness: int) -> None:
    if niceness:
        os.nice(niceness)
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="parent-watch").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)
