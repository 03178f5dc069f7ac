"""The engine's `Rng` draws exactly what `random.Random` draws: its cheaper `shuffle` leaves
every seeded deal, chance action and AI decision as it was."""

from __future__ import annotations

import random

import pytest

from games.engine.rng import Rng
from games.engine.step import chance_rng


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 32, 33, 52, 98, 130, 1000])
def test_shuffle_orders_as_random_shuffle_does(length: int) -> None:
    for seed in range(60):
        expected, got = list(range(length)), list(range(length))
        random.Random(seed).shuffle(expected)
        Rng(seed).shuffle(got)
        assert got == expected


def test_shuffle_leaves_the_generator_where_random_shuffle_does() -> None:
    for seed in range(60):
        plain, ours = random.Random(f"{seed}:1"), Rng(f"{seed}:1")
        plain.shuffle(list(range(98)))
        ours.shuffle(list(range(98)))
        assert [ours.random() for _ in range(5)] == [plain.random() for _ in range(5)]


def test_chance_rng_draws_what_a_string_seeded_random_draws() -> None:
    rng = chance_rng(1234, 5)
    assert isinstance(rng, Rng)
    assert rng.getrandbits(64) == random.Random("1234:5").getrandbits(64)
