"""Hell Queue Club test shorthand: dice like `L4 S4 B4` (large, small, black showing 4),
stones like `RRW` (R red, B blue, Y yellow, G green, A aqua, W white), and `table(...)`, a state
in play built exactly as a test needs it (seat 0 to move unless told)."""

from __future__ import annotations

from games.hellqueue import RULES
from games.hellqueue.cards import LETTER, SLOTS, STONES, STONES_OF, Stone
from games.hellqueue.models import Dice, Payout, Player, State

KINDS = {"L": "large", "S": "small", "B": "black"}


def dice(spec: str = "") -> Dice:
    parts: dict[str, list[int]] = {"large": [], "small": [], "black": []}
    for token in spec.split():
        parts[KINDS[token[0]]].append(int(token[1:]))
    return Dice(**{kind: tuple(sorted(faces)) for kind, faces in parts.items()})


def stones(spec: str = "") -> tuple[Stone, ...]:
    return tuple(sorted((LETTER[x] for x in spec), key=STONES.index))


def counts(spec: str = "") -> tuple[int, ...]:
    picked = stones(spec)
    return tuple(picked.count(s) for s in STONES)


def faces(spec: str) -> tuple[int, ...]:
    return tuple(sorted(int(x) for x in spec.split()))


def table(
    players: int = 4,
    *,
    turn: int = 0,
    active: dict[int, str] | None = None,
    sleep: dict[int, str] | None = None,
    rest: dict[int, tuple[int, int]] | None = None,
    owned: dict[int, str] | None = None,
    queues: dict[int, dict[int, str]] | None = None,
    shown: tuple[int | None, ...] = (0, 5, 9),
    decks: tuple[tuple[int, ...], ...] = ((1, 2, 3, 4), (6, 7, 8), (10, 11)),
    card_stones: dict[int, str] | None = None,
    black_supply: int = 5,
    rest_black: int = 0,
    phase: str = "play",
    payout: Payout | None = None,
) -> State:
    """A state in play with exactly these pieces (anything not given is empty).

    `rest` gives a seat's (large, small) dice in the rest area, `owned` its stones; the cards
    shown carry their printed stones unless `card_stones` says otherwise.
    """
    config = RULES.make_config(players, {"first_player": 0})
    seats = range(players)
    card_stones = card_stones or {}
    return State(
        config=config,
        phase=phase,  # type: ignore[arg-type]
        turn=turn,
        decks=decks,
        shown=shown,
        card_stones=tuple(
            stones(card_stones[slot])
            if slot in card_stones
            else (STONES_OF[card] if (card := shown[slot]) is not None else ())
            for slot in SLOTS
        ),
        queues=tuple(
            tuple(dice((queues or {}).get(slot, {}).get(seat, "")) for seat in seats)
            for slot in SLOTS
        ),
        players=tuple(
            Player(
                active=dice((active or {}).get(seat, "")),
                sleep=faces((sleep or {}).get(seat, "")),
                rest_large=(rest or {}).get(seat, (0, 0))[0],
                rest_small=(rest or {}).get(seat, (0, 0))[1],
                stones=counts((owned or {}).get(seat, "")),
            )
            for seat in seats
        ),
        black_supply=black_supply,
        rest_black=rest_black,
        payout=payout,
    )
