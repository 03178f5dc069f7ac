"""The container keeps its games: the settings `docker run --env-file .env` gives the bot put
its database on the /data volume; compose builds one image and checks the bots' health.
(No Docker engine here: the Dockerfile and compose.yaml are read as Docker reads them.)"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path, PurePosixPath

import pytest
import yaml

from bot.settings import Settings
from tests.botprocess import ROOT, bot_process

VOLUME = PurePosixPath("/data")


def runtime_stage() -> list[str]:
    """The Dockerfile's last stage (the image that runs), one instruction a line."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n\s*", " ", text)
    stage = joined.split("\nFROM ")[-1]
    return [line for line in stage.splitlines() if line and not line.startswith("#")]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for line in runtime_stage():
        if line.startswith("ENV "):
            for name, value in re.findall(r'(\w+)=("[^"]*"|\S+)', line):
                env[name] = value.strip('"')
    return env


def image_workdir() -> PurePosixPath:
    [workdir] = [line.split()[1] for line in runtime_stage() if line.startswith("WORKDIR ")]
    return PurePosixPath(workdir)


def image_links() -> dict[PurePosixPath, PurePosixPath]:
    """The image's symbolic links made with `ln -s TARGET LINK`: link → target."""
    found = re.findall(r"ln -s (\S+) (\S+)", " ".join(runtime_stage()))
    return {PurePosixPath(link): PurePosixPath(target) for target, link in found}


def env_file(lines: list[str]) -> dict[str, str]:
    """`docker run --env-file`: `NAME=value` sets value as written (empty too); comments,
    blank lines and a bare `NAME` (taken from the host, unset here) set nothing."""
    env: dict[str, str] = {}
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            name, value = line.split("=", 1)
            env[name.strip()] = value
    return env


def where_in_container(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> PurePosixPath:
    """The database file the bot opens in the container given `env`: its setting, resolved
    against the working directory and through the image's links."""
    for name in list(os.environ):
        if name.isupper():
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    path = image_workdir() / PurePosixPath(settings.database_path)
    for link, target in image_links().items():
        if path.is_relative_to(link):
            path = target / path.relative_to(link)
    return path


def copy_of_env_example() -> list[str]:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    return [("DISCORD_TOKEN=token" if line == "DISCORD_TOKEN=" else line) for line in lines]


def test_a_copy_of_env_example_keeps_the_database_on_the_volume(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = {**image_env(), **env_file(copy_of_env_example())}
    assert where_in_container(env, monkeypatch) == VOLUME / "bot.sqlite3"


@pytest.mark.parametrize("line", ["DATABASE_PATH=", "DATABASE_PATH=data/bot.sqlite3"])
def test_an_empty_or_relative_database_path_still_lands_on_the_volume(
    monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """An empty line means the default, and an old .env's relative path: both resolve in
    the image's working directory, whose data/ is the volume."""
    env = {**image_env(), **env_file([*copy_of_env_example(), line])}
    assert where_in_container(env, monkeypatch) == VOLUME / "bot.sqlite3"


def compose_services() -> dict[str, dict[str, object]]:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return compose["services"]


def test_compose_builds_one_image_that_both_shards_run() -> None:
    services = compose_services()
    bots = {name: s for name, s in services.items() if "SHARD_IDS" in str(s.get("environment"))}
    assert set(bots) == {"shard0", "shard1"}
    assert {s["image"] for s in bots.values()} == {"tablebot"}
    assert [name for name, s in services.items() if "build" in s] == ["shard0"]


def health_check(pid: int) -> str:
    """The bots' compose health check, as compose runs it, looking at process `pid`."""
    bots = [s for name, s in compose_services().items() if name != "db"]
    [(kind, command)] = {tuple(s["healthcheck"]["test"]) for s in bots}  # type: ignore[index]
    assert kind == "CMD-SHELL"
    dockerfile = " ".join(runtime_stage())
    assert command.replace("$$", "$") in dockerfile  # the image's HEALTHCHECK is the same
    return command.replace("$$", "$").replace("/proc/1/", f"/proc/{pid}/")


async def test_the_health_check_passes_for_a_running_bot_and_fails_for_anything_else(
    tmp_path: Path,
) -> None:
    waiting = {  # a bot that waits for PostgreSQL: up, as `python -m bot`, for the test
        "discord_token": "token",
        "database_url": "postgresql://tablebot@127.0.0.1:1/tablebot",
        "database_wait": 600,
    }
    async with bot_process(tmp_path, **waiting) as bot:
        await bot.line("is not reachable yet")
        check = health_check(bot.process.pid)
        assert subprocess.run(["sh", "-c", check], check=False).returncode == 0
    not_a_bot = health_check(os.getpid())
    assert subprocess.run(["sh", "-c", not_a_bot], check=False).returncode != 0
