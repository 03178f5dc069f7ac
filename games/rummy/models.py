"""Angels & Demons Rummy's config, state, actions and view: frozen models, tuples only."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, field_validator, model_validator

from games.engine.contract import Frozen

MATCH_GAMES = {2: 6, 3: 6, 4: 8}
"""Short games in a match, by player count (seed: 勝利条件 (1))."""
TARGET = {2: 24, 3: 18, 4: 12}
"""Points that end the match, by player count (seed: 勝利条件 (2))."""
DEAL = 7
CLAIM_SECONDS = 20
CLAIM_BOUNDS = (5, 300)

Card = Annotated[int, Field(ge=0, le=99)]


ClaimAsks = Literal["everyone", "eligible"]
"""Who a claim window asks: `eligible`, the players who can goal or gain with the discard
(rules version 2, RULINGS' claim window); `everyone`, every other player (version 1)."""


class Config(Frozen):
    """Options: the advanced rules, the claim window's seconds, the match length.

    `claim_asks` is no option: `make_config` always sets `eligible`. A config stored before
    it existed (rules version 1) reads as `everyone`, so those games replay as they were played.
    """

    players: int = Field(ge=2, le=4)
    advanced: bool = False
    claim_seconds: int = Field(default=CLAIM_SECONDS, ge=CLAIM_BOUNDS[0], le=CLAIM_BOUNDS[1])
    claim_asks: ClaimAsks = "everyone"
    match_games: int = Field(ge=1, le=50)
    target: int = Field(ge=1, le=999)
    first_player: int | None = None

    @property
    def field_size(self) -> int:
        return self.players + 1


Phase = Literal["deal", "first", "take", "act", "window", "bonus", "ended", "over"]
"""`take`/`act`: the turn's two steps; `window`: the claim window after a discard; `bonus`:
the bonus checks of a goal; `ended`: a short game is over, waiting for the next to be dealt."""


class Answer(Frozen):
    """One player's answer in a claim window; `cards` are the two hand cards of a Gain."""

    choice: Literal["pass", "goal", "gain"]
    cards: tuple[int, ...] = ()


class Window(Frozen):
    """The claim window on `card`, discarded by `discarder`; `asked` the seats it waits for
    (hidden: who can claim follows from their hands), `answers` by seat."""

    discarder: int
    card: int
    asked: tuple[int, ...]
    answers: tuple[Answer | None, ...]

    @model_validator(mode="before")
    @classmethod
    def _everyone_asked_before_version_2(cls, data: Any) -> Any:
        """A window stored by rules version 1 has no `asked`: it asked every other seat."""
        answers = data.get("answers") if isinstance(data, dict) else None
        if isinstance(answers, list | tuple) and "asked" not in data:
            others = [s for s in range(len(answers)) if s != data.get("discarder")]
            return {**data, "asked": tuple(others)}
        return data


class RedScore(Frozen):
    """A red card at a goal. `condition` is `red` (basic: 1 point) or, advanced, the card's
    condition: `ends` (1/7), `no_ends` (2/6), `three_open` (3/5), `one_attribute` (4),
    `item` (red Item, no condition)."""

    card: int
    condition: str
    met: bool
    points: int


class BonusFlip(Frozen):
    """A bonus check: the card turned up and the points it scored."""

    card: int
    points: int


class ShortResult(Frozen):
    """How a short game ended, for the table: a goal with its full score, a deck-out, or an
    Item victory (advanced; ends the match).

    `from_seat` is the discarder when the goal was on a discard; `loss` the points that
    player actually lost (advanced, never below 0). `split` is the hand as its goal form (the
    split scoring best), `opened` the winner's open sets.
    """

    game_no: int
    kind: Literal["goal", "deck_out", "item_victory"]
    seat: int | None = None
    from_seat: int | None = None
    card: int | None = None
    hand: tuple[int, ...] = ()
    split: tuple[tuple[int, ...], ...] = ()
    opened: tuple[tuple[int, ...], ...] = ()
    set_points: int = 0
    red: tuple[RedScore, ...] = ()
    bonus: tuple[BonusFlip, ...] = ()
    total: int = 0
    loss: int = 0

    @property
    def red_points(self) -> int:
        return sum(r.points for r in self.red)

    @property
    def bonus_points(self) -> int:
        return sum(b.points for b in self.bonus)


class State(Frozen):
    """The whole table.

    Every card is in exactly one of: `deck` (top first), `field`, `hands`, `rows` (each
    player's discard row, oldest first), `opened` (each player's open sets) or `out` (the
    winning hand and the bonus-check cards of the short game just ended). `known` holds, per
    seat, the hand cards everyone saw going in (taken from the face-up field): public.
    """

    config: Config
    phase: Phase = "deal"
    game_no: int = 0
    first: int = 0
    turn: int = 0
    deck: tuple[int, ...] = ()
    field: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    known: tuple[tuple[int, ...], ...] = ()
    rows: tuple[tuple[int, ...], ...] = ()
    opened: tuple[tuple[tuple[int, ...], ...], ...] = ()
    ready: tuple[bool, ...] = ()
    taken: int | None = None
    window: Window | None = None
    out: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    result: ShortResult | None = None


# Actions ---------------------------------------------------------------------------------


class Deal(Frozen):
    """Chance: the shuffled 100 cards; 7 to each seat in turn, then the field, then the deck."""

    kind: Literal["deal"] = "deal"
    order: tuple[int, ...]


class PickFirst(Frozen):
    """Chance: the first player of the first short game when the host left it to random."""

    kind: Literal["first"] = "first"
    seat: int


class Flip(Frozen):
    """Chance: a bonus check turns up the deck's top card (named, so the log shows it)."""

    kind: Literal["flip"] = "flip"
    card: Card


class Take(Frozen):
    kind: Literal["take"] = "take"
    card: Card


class Goal(Frozen):
    """Goal: after a take (own turn), or on the discard in a claim window (Ready only)."""

    kind: Literal["goal"] = "goal"


class Open(Frozen):
    """Open one big set from the hand and draw 2 (instead of discarding)."""

    kind: Literal["open"] = "open"
    cards: tuple[Card, Card, Card]

    @field_validator("cards")
    @classmethod
    def _sorted(cls, cards: tuple[int, int, int]) -> tuple[int, int, int]:
        low, middle, high = sorted(cards)
        return low, middle, high


class Discard(Frozen):
    """Discard one card; `ready` declares Ready with it."""

    kind: Literal["discard"] = "discard"
    card: Card
    ready: bool = False


class Pass(Frozen):
    """Claim window: no claim."""

    kind: Literal["pass"] = "pass"


class Gain(Frozen):
    """Claim window: open the discard with these two hand cards as a big set, draw 2."""

    kind: Literal["gain"] = "gain"
    cards: tuple[Card, Card]

    @field_validator("cards")
    @classmethod
    def _sorted(cls, cards: tuple[int, int]) -> tuple[int, int]:
        low, high = sorted(cards)
        return low, high


class Close(Frozen):
    """SYSTEM: the claim window's deadline passed; whoever has not answered passes."""

    kind: Literal["close"] = "close"


class NextGame(Frozen):
    """After a short game: its next first player deals the next one (so the end is seen)."""

    kind: Literal["next"] = "next"


Action = Annotated[
    Deal | PickFirst | Flip | Take | Goal | Open | Discard | Pass | Gain | Close | NextGame,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
CHANCE_TYPES = (Deal, PickFirst, Flip)


# View ------------------------------------------------------------------------------------


class WindowView(Frozen):
    """The open claim window: the card, who discarded it and its length. Neither who is asked
    nor who has answered: both follow from hidden hands."""

    discarder: int
    card: int
    seconds: int


class View(Frozen):
    """What one seat (or the public, `seat` None) sees.

    `hand` is the viewer's own, sorted; `my_answer` the viewer's own answer in the window;
    `legal` the viewer's legal actions now (in a window: empty unless the viewer is asked and
    has not answered). `turn` is the seat whose turn it is (None between short games and once
    the match is over). `result` is the last short game's end.
    """

    seat: int | None
    config: Config
    phase: Phase
    game_no: int
    first: int
    turn: int | None
    field: tuple[int, ...]
    deck: int
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[int, ...], ...]
    opened: tuple[tuple[tuple[int, ...], ...], ...]
    ready: tuple[bool, ...]
    taken: int | None
    window: WindowView | None
    out: tuple[int, ...]
    scores: tuple[int, ...]
    result: ShortResult | None
    hand: tuple[int, ...] | None = None
    my_answer: Answer | None = None
    legal: tuple[Action, ...] = ()
