"""Exhaust test shorthand: `r7` is red 7, `x2` the third copy card; combo indexes by name."""

from games.exhaust.cards import COPY_CARDS, card_id

SINGLE, PAIR, THREE, FOUR, STRAIGHT, FLUSH, ANY = range(7)
LETTERS = {"r": 0, "b": 1, "y": 2, "g": 3}


def c(spec: str) -> int:
    if spec[0] == "x":
        return COPY_CARDS[int(spec[1:])]
    return card_id(LETTERS[spec[0]], int(spec[1:]))


def cs(specs: str) -> tuple[int, ...]:
    return tuple(c(s) for s in specs.split())
