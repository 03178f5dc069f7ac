"""`python -m bot` as an admin runs it: a process of its own with settings in its environment,
its log read line by line as it goes."""

from __future__ import annotations

import asyncio
import ctypes
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CAP_DAC_OVERRIDE = 1
CAP_DAC_READ_SEARCH = 2
PR_CAPBSET_DROP = 24


def bot_env(**settings: object) -> dict[str, str]:
    """This environment without any setting of the bot's (upper-case names), plus
    `settings` (given in lower case, as in `Settings`)."""
    env = {k: v for k, v in os.environ.items() if not k.isupper() or k in ("PATH", "HOME")}
    env["PYTHONPATH"] = str(ROOT)
    env.update({name.upper(): str(value) for name, value in settings.items()})
    return env


def _drop_permission_override() -> None:
    """In the child, before exec: leave the capabilities that let root ignore file
    permissions (kept out of the bounding set, so exec does not give them back)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def bound_by_permissions() -> dict[str, Any]:
    """`subprocess` options under which file permissions stop the command as they stop any
    user: as root, without the capabilities that override them (the same uid, so it still
    reaches the interpreter under /root); otherwise nothing is needed."""
    return {"preexec_fn": _drop_permission_override} if os.geteuid() == 0 else {}


def start_failure(
    cwd: Path, *, options: dict[str, Any] | None = None, **settings: object
) -> tuple[int, str]:
    """Run `python -m bot` until it exits (it is expected to fail at start): its exit status
    and everything it logged."""
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=bot_env(**settings),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        **(options or {}),
    )
    return done.returncode, done.stdout + done.stderr


async def eventually(
    predicate: Callable[[], Awaitable[bool]], timeout: float = 60.0, every: float = 0.05
) -> None:
    """Wait until `predicate()` holds (checked every `every` s), failing after `timeout` s."""
    async with asyncio.timeout(timeout):
        while not await predicate():
            await asyncio.sleep(every)


def cannot_start_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "Cannot start:" in line]


class BotProcess:
    """A running `python -m bot`; `lines` is its log so far (stdout and stderr together)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._grown = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            async with self._grown:
                self.lines.append(raw.decode(errors="replace").rstrip("\n"))
                self._grown.notify_all()
        async with self._grown:
            self._grown.notify_all()

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    async def line(self, pattern: str, timeout: float = 120.0) -> str:
        """The first line matching `pattern`, once the process has logged it."""

        def found() -> str | None:
            return next((line for line in self.lines if re.search(pattern, line)), None)

        async def seen() -> str:
            async with self._grown:
                while (line := found()) is None:
                    if self._reader.done():
                        raise AssertionError(f"exited without {pattern!r}:\n{self.output}")
                    await self._grown.wait()
                return line

        return await asyncio.wait_for(seen(), timeout)

    async def exit_status(self, timeout: float = 120.0) -> int:
        status = await asyncio.wait_for(self.process.wait(), timeout)
        await self._reader
        return status

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as in a crash."""
        self.process.kill()


@asynccontextmanager
async def bot_process(cwd: Path, **settings: object) -> AsyncIterator[BotProcess]:
    """`python -m bot` in `cwd` with `settings`; killed at the end if still running."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=bot_env(**settings),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    bot = BotProcess(process)
    try:
        yield bot
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()
        await bot._reader
