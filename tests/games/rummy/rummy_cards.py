"""Angels & Demons Rummy test shorthand: `H3` is a black Human 3, `H3'` and `H3''` the other
black copies, `H3*` the red one; `A` Angel, `D` Demon; Items are `Is` sword, `Ih` shield,
`Ip` potion, `Ir` ring (same marks). `make` builds a table from such cards."""

from collections.abc import Sequence
from typing import Any

from games.rummy import RULES
from games.rummy.cards import ANGEL, DEMON, HUMAN, ITEM, card_id
from games.rummy.models import Config, State

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


def make(
    hands: Sequence[str],
    *,
    players: int | None = None,
    phase: str = "take",
    turn: int = 0,
    field: str = "Is",
    deck: str = "Ir* Ip* Ih* A1* D7*",
    rows: Sequence[str] = (),
    opened: Sequence[Sequence[str]] = (),
    ready: Sequence[bool] = (),
    known: Sequence[str] = (),
    scores: Sequence[int] = (),
    game_no: int = 1,
    first: int = 0,
    **options: Any,
) -> State:
    """A state in play with exactly these cards (missing seats have empty hands)."""
    n = players or len(hands)
    config = RULES.make_config(n, {"first_player": 0, **options})

    def pad(values: Sequence[Any], default: Any) -> tuple[Any, ...]:
        return (*values, *(default,) * (n - len(values)))

    return State(
        config=config,
        phase=phase,  # type: ignore[arg-type]
        game_no=game_no,
        first=first,
        turn=turn,
        deck=cs(deck),
        field=cs(field),
        hands=pad([tuple(sorted(cs(h))) for h in hands], ()),
        known=pad([cs(k) for k in known], ()),
        rows=pad([cs(r) for r in rows], ()),
        opened=pad([tuple(tuple(sorted(cs(s))) for s in sets) for sets in opened], ()),
        ready=pad(list(ready), False),
        scores=pad(list(scores), 0),
    )


def as_stored_by_version_1(state: State) -> State:
    """`state` with its config as rules version 1 stored it, without `claim_asks`: a claim
    window then asks every other player."""
    stored = state.config.model_dump(mode="json")
    del stored["claim_asks"]
    return state.model_copy(update={"config": Config.model_validate(stored)})
