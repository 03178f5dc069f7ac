"""Ready-made pytest fixtures; in a conftest: `from tests.emulator.fixtures import emu`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .emulator import Emulator


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    """A running emulator with discord.py pointed at it (restored afterwards)."""
    async with Emulator.running() as emulator:
        yield emulator
