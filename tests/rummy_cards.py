"""Angels & Demons Rummy test shorthand: `H3` is a black Human 3, `H3'` and `H3''` the other
black copies, `H3*` the red one; `A` Angel, `D` Demon; Items are `Is` sword, `Ih` shield,
`Ip` potion, `Ir` ring (same marks)."""

from games.rummy.cards import ANGEL, DEMON, HUMAN, ITEM, card_id

ATTRS = {"H": HUMAN, "A": ANGEL, "D": DEMON}
ITEMS = {"s": "sword", "h": "shield", "p": "potion", "r": "ring"}


def c(spec: str) -> int:
    body = spec.rstrip("'*")
    marks = spec[len(body) :]
    copy = 0 if marks == "*" else 1 + len(marks)
    if body[0] == "I":
        return card_id(ITEM, ITEMS[body[1]], copy)
    return card_id(ATTRS[body[0]], int(body[1:]), copy)


def cs(specs: str) -> tuple[int, ...]:
    return tuple(c(s) for s in specs.split())
