"""The container keeps its games: the settings `docker run --env-file .env` gives the bot put
its database on the /data volume; compose builds one image; the image's health check asks the
bot's /healthz, and compose's Prometheus scrapes each bot.
(No Docker engine here: the Dockerfile and compose.yaml are read as Docker reads them.)"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import sys
from pathlib import Path, PurePosixPath

import pytest
import yaml

from bot.healthcheck import Endpoint
from bot.playground.emulator import Emulator
from bot.settings import Settings
from tests.botprocess import ROOT, bot_env, bot_process

VOLUME = PurePosixPath("/data")
PORT = 8080
"""The image's METRICS_PORT."""


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


def in_container(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's environment as the container's, given `env`."""
    for name in list(os.environ):
        if name.isupper():
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)


def where_in_container(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> PurePosixPath:
    """The database file the bot opens in the container given `env`: its setting, resolved
    against the working directory and through the image's links."""
    in_container(env, monkeypatch)
    settings = Settings(_env_file=None)
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


def bots() -> dict[str, dict[str, object]]:
    return {name: s for name, s in compose_services().items() if name.startswith("shard")}


def image_health_check() -> list[str]:
    """The command of the image's HEALTHCHECK (its exec form)."""
    [line] = [line for line in runtime_stage() if line.startswith("HEALTHCHECK ")]
    command: list[str] = json.loads(line.split(" CMD ", 1)[1])
    return command


def test_compose_checks_the_bots_health_with_the_images_command() -> None:
    checks = {tuple(s["healthcheck"]["test"]) for s in bots().values()}  # type: ignore[index]
    assert checks == {("CMD", *image_health_check())}


def test_a_copy_of_env_example_leaves_the_health_endpoint_on_for_every_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = {**image_env(), **env_file(copy_of_env_example())}
    in_container(env, monkeypatch)
    settings = Settings(_env_file=None)
    assert (settings.metrics_port, settings.metrics_host) == (PORT, "0.0.0.0")
    assert Endpoint(_env_file=None).url == f"http://127.0.0.1:{PORT}/healthz"
    assert f"EXPOSE {PORT}" in runtime_stage()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def health_check(port: int) -> tuple[int, str]:
    """The image's health check, run as Docker runs it in a container whose bot serves
    METRICS_PORT `port` (on every address, as in the image): its status and what it said."""
    python, *args = image_health_check()
    assert python == "python"
    env = bot_env(metrics_port=port, metrics_host=image_env()["METRICS_HOST"])
    check = await asyncio.create_subprocess_exec(
        sys.executable, *args, env=env, stdout=asyncio.subprocess.PIPE
    )
    said, _ = await check.communicate()
    return check.returncode or 0, said.decode()


async def test_the_health_check_passes_for_a_connected_bot_and_fails_in_a_gateway_outage(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with Emulator.running() as emu:
        settings = {
            "discord_token": emu.bot_token,
            "discord_api_base": emu.api_base,
            "discord_gateway_url": emu.gateway_url,
            "database_path": tmp_path / "db.sqlite3",
            "metrics_port": port,
            "metrics_host": image_env()["METRICS_HOST"],
        }
        async with bot_process(tmp_path, **settings) as bot:
            await bot.line("Ready: logged in")
            said = await emu.wait_for(lambda: said_on_exit(port, 0))
            assert said.startswith("ok\n") and "gateway connected" in said
            async with emu.gateway_outage():
                said = await emu.wait_for(lambda: said_on_exit(port, 1))
                assert "gateway: disconnected (shard 0)" in said


async def said_on_exit(port: int, status: int) -> str | None:
    """What the health check said, if it exits with `status`."""
    exited, said = await health_check(port)
    return said if exited == status else None


async def test_the_health_check_fails_naming_the_address_no_bot_answers_on() -> None:
    port = free_port()
    status, said = await health_check(port)
    assert status == 1
    assert said.startswith(f"no answer from http://127.0.0.1:{port}/healthz")


def test_the_monitoring_profile_scrapes_each_bot_on_the_images_port() -> None:
    prometheus = compose_services()["prometheus"]
    assert prometheus["profiles"] == ["monitoring"]
    mounted = [str(volume).split(":")[0] for volume in prometheus["volumes"]]  # type: ignore[attr-defined]
    files = [ROOT / path for path in mounted if path.startswith("./")]
    assert files and all(path.is_file() for path in files)
    config = yaml.safe_load((ROOT / "monitoring/prometheus.yml").read_text(encoding="utf-8"))
    [job] = config["scrape_configs"]
    [targets] = [group["targets"] for group in job["static_configs"]]
    assert sorted(targets) == sorted(f"{name}:{PORT}" for name in bots())
