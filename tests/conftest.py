"""Fixtures every test file may use: a PostgreSQL cluster for the test session, `database`,
the location of a fresh empty database of each backend (tests that take it run once on SQLite
and once on PostgreSQL), `storage` opened on it, and `sqlite_storage` on SQLite alone.

The whole suite runs in the engine's checked mode: every state `advance` and `replay` produce
is validated through its game's state model, so a rule that builds an invalid state fails."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from games.engine.step import check_states
from storage import Storage, open_storage
from tests.pgserver import Cluster, fresh_database

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    check_states()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server, started once (on first use) for the whole session."""
    cluster = Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def stoppable_cluster() -> Iterator[Cluster]:
    """A second throwaway server, for the tests that stop and restart it (an outage) without
    disturbing the others' server."""
    cluster = Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
async def stoppable_url(stoppable_cluster: Cluster) -> AsyncIterator[str]:
    """A fresh migrated database on the stoppable server."""
    async with fresh_database(stoppable_cluster, migrated=True) as url:
        yield url


@pytest.fixture
async def pg_url(pg_cluster: Cluster) -> AsyncIterator[str]:
    """A fresh empty PostgreSQL database."""
    async with fresh_database(pg_cluster) as url:
        yield url


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """A fresh database to give `open_storage`: a SQLite file path, or a PostgreSQL URL (of a
    database already migrated, which `open_storage` finds up to date)."""
    if request.param == "sqlite":
        yield tmp_path / "bot.db"
        return
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    async with fresh_database(cluster, migrated=True) as url:
        yield url


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_storage(database)
    yield opened
    await opened.close()


@pytest.fixture
async def sqlite_storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await open_storage(tmp_path / "bot.db")
    yield opened
    await opened.close()
