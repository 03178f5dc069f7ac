"""`seeded` is `Rng(text)` made faster: every chance action of every stored game depends on
it drawing exactly what `Rng(text)` draws."""

from __future__ import annotations

from games.engine.rng import Rng, seeded
from games.engine.step import chance_rng


def test_seeded_starts_in_the_state_rng_of_the_same_text_starts_in() -> None:
    for n in range(500):
        text = f"{n * 104_729 + 17}:{n % 97}"
        assert seeded(text).getstate() == Rng(text).getstate()


def test_seeded_draws_what_rng_of_the_same_text_draws() -> None:
    mine, theirs = seeded("9001:42"), Rng("9001:42")
    cards = list(range(104))
    shuffled = list(cards)
    mine.shuffle(shuffled)
    theirs.shuffle(cards)
    assert shuffled == cards
    assert [mine.random() for _ in range(20)] == [theirs.random() for _ in range(20)]
    assert mine.gauss(0, 1) == theirs.gauss(0, 1)


def test_chance_rng_is_the_rng_of_the_seed_and_sequence_number() -> None:
    assert chance_rng(123_456_789, 7).getstate() == Rng("123456789:7").getstate()
