"""Hell Queue Club's config, state, actions and view: frozen pydantic models, tuples only.

Dice are kept as sorted tuples of faces per kind (large, small, black): dice of one kind and
face are interchangeable for every rule. Dice in the rest area keep no face (they are rerolled
before they are used again), so the rest area is counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Annotated, Any, Literal, Self

from pydantic import Field, TypeAdapter

from games.engine.built import every_field
from games.engine.contract import Frozen, made
from games.hellqueue.cards import (
    BLACK_DICE,
    DECKS,
    SLOTS,
    STONES,
    STONES_PER_COLOUR,
    Stone,
)

Face = Annotated[int, Field(ge=1, le=6)]
Size = Literal["large", "small", "black"]
Phase = Literal["setup", "play", "reroll", "resolve", "over"]
"""`setup`: chance shuffles, rolls and picks the first player. `play`: the seat to move picks
one of the four actions. `reroll`: that seat chooses the dice of its Reroll. `resolve`: the
action is done; rolls, a payout (roll-off, stone picks) are pending before the turn passes."""
Purpose = Literal["setup", "black", "reroll", "recall"]


class Config(Frozen):
    players: int = Field(ge=3, le=4)
    first_player: int | None = None


class Dice(Frozen):
    """Some dice, as sorted faces per kind. Black dice count as large for every rule."""

    large: tuple[Face, ...] = ()
    small: tuple[Face, ...] = ()
    black: tuple[Face, ...] = ()

    @cached_property
    def count(self) -> int:
        """Kept with the dice (the rules, views and AI search ask it of every seat's dice under
        every card): the rules' own dice are built with it (`dice_of`); a copy must be built from
        the fields (`with_faces`), never from `__dict__`, or it keeps a count that is no longer
        its own."""
        return len(self.large) + len(self.small) + len(self.black)

    @property
    def big(self) -> int:
        """Large dice, black included (the ranking's second key)."""
        return len(self.large) + len(self.black)

    @property
    def total(self) -> int:
        """Sum of the faces (the ranking's third key)."""
        return sum(self.large) + sum(self.small) + sum(self.black)

    def faces(self) -> tuple[int, ...]:
        """The faces showing, each once, in order."""
        return tuple(sorted(set(self.large) | set(self.small) | set(self.black)))

    def group(self, face: int) -> Dice:
        """All dice showing `face` (a face group)."""
        return dice_of(
            (face,) * self.large.count(face),
            (face,) * self.small.count(face),
            (face,) * self.black.count(face),
        )

    def without(self, face: int, small: tuple[int, ...] = ()) -> Dice:
        """These dice minus the face group of `face`, plus the `small` dice (an Awaken's woken
        dice, in the same copy)."""
        return dice_of(
            _minus(self.large, face),
            _merge(_minus(self.small, face), small),
            _minus(self.black, face),
        )

    def plus(self, other: Dice) -> Dice:
        return self.adding(other.large, other.small, other.black)

    def adding(
        self, large: tuple[int, ...] = (), small: tuple[int, ...] = (), black: tuple[int, ...] = ()
    ) -> Dice:
        """These dice and more, given as faces per kind (sorted or not)."""
        return dice_of(
            _merge(self.large, large), _merge(self.small, small), _merge(self.black, black)
        )

    def of(self, size: Size) -> tuple[int, ...]:
        faces: tuple[int, ...] = getattr(self, size)
        return faces

    def with_faces(self, size: Size, faces: tuple[int, ...]) -> Dice:
        """These dice with the faces of kind `size` replaced by `faces` (sorted)."""
        if size == "large":
            return dice_of(faces, self.small, self.black)
        if size == "small":
            return dice_of(self.large, faces, self.black)
        return dice_of(self.large, self.small, faces)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy, without the kept count (it may not fit the update)."""
        copied = super().model_copy(update=update, deep=deep)
        copied.__dict__.pop("count", None)
        return copied


def dice_of(large: tuple[int, ...], small: tuple[int, ...], black: tuple[int, ...]) -> Dice:
    """Dice of these sorted faces, not validated, with their count kept from the start: the
    count a `cached_property` works out on first asking costs as much again as the model."""
    count = len(large) + len(small) + len(black)
    values = {"large": large, "small": small, "black": black, "count": count}
    return made(Dice, values, _DICE_FIELDS)


_DICE_FIELDS = every_field(Dice)


def _minus(faces: tuple[int, ...], face: int) -> tuple[int, ...]:
    return tuple([f for f in faces if f != face]) if face in faces else faces


def _merge(faces: tuple[int, ...], more: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(faces + more)) if more else faces


class Player(Frozen):
    """One seat's own area: the active card (right), the sleep card (left, small dice only),
    its dice in the rest area (counts) and its stones (counts in STONES order)."""

    active: Dice = Dice()
    sleep: tuple[Face, ...] = ()
    rest_large: int = 0
    rest_small: int = 0
    stones: tuple[int, ...] = (0,) * len(STONES)


class Rolling(Frozen):
    """Dice in the air for `seat`: the next chance action rolls them (large, small, black in
    that order); then large and black go to the active card, small to the sleep card."""

    seat: int
    purpose: Purpose
    large: int = 0
    small: int = 0
    black: int = 0

    @property
    def count(self) -> int:
        return self.large + self.small + self.black


class Payout(Frozen):
    """A card paying out. `ranking` groups the seats with dice under it, best first; a group of
    2+ seats is tied and rolls off (chance) while one of its places earns stones. `picks` is
    None until the ranking is settled, then one seat per stone still to pick, in order."""

    slot: int
    ranking: tuple[tuple[int, ...], ...]
    picks: tuple[int, ...] | None = None


class State(Frozen):
    """The whole table. `decks` are the face-down cards per slot (top first); `shown` the
    face-up card per slot (None once the deck is used up); `queues[slot][seat]` the dice each
    seat has under that card; `removed` the cards paid out, in order."""

    config: Config
    phase: Phase = "setup"
    turn: int = 0
    decks: tuple[tuple[int, ...], ...] = DECKS
    shown: tuple[int | None, ...] = (None,) * len(SLOTS)
    card_stones: tuple[tuple[Stone, ...], ...] = ((),) * len(SLOTS)
    queues: tuple[tuple[Dice, ...], ...] = ()
    players: tuple[Player, ...] = ()
    black_supply: int = BLACK_DICE
    rest_black: int = 0
    stone_supply: tuple[int, ...] = (STONES_PER_COLOUR,) * len(STONES)
    removed: tuple[int, ...] = ()
    rolling: Rolling | None = None
    marked: Dice | None = None
    """Phase `reroll`: the dice chosen so far (taken off the active and sleep cards)."""
    payout: Payout | None = None

    @property
    def shuffled(self) -> bool:
        return self.phase != "setup" or any(card is not None for card in self.shown)


# Actions -----------------------------------------------------------------------------------


class Queue(Frozen):
    """Place the face group `face` of your active card under the card in `slot`.

    When the card had no dice and the supply has no black die, `steal_seat`/`steal_face` name
    the opponent's black die taken (its active card, that face); left None, the black die
    comes from the rest area (or, with none anywhere, none comes: R)."""

    kind: Literal["queue"] = "queue"
    face: Face
    slot: int
    steal_seat: int | None = None
    steal_face: Face | None = None


class Awaken(Frozen):
    """Rest the face group `face`; wake the sleeping dice showing `wake` (which must be `face`
    unless 2+ dice were rested, then any face on the sleep card)."""

    kind: Literal["awaken"] = "awaken"
    face: Face
    wake: Face


class Reroll(Frozen):
    """Rest the face group `face`, then choose the dice to reroll (phase `reroll`)."""

    kind: Literal["reroll"] = "reroll"
    face: Face


class Mark(Frozen):
    """Phase `reroll`: add `count` dice of this kind and face to the reroll (a face group may be
    split). `where` is the card they lie on; the sleep card holds small dice only."""

    kind: Literal["mark"] = "mark"
    where: Literal["active", "sleep"]
    size: Size
    face: Face
    count: int = Field(default=1, ge=1)


class RollMarked(Frozen):
    """Phase `reroll`: roll the chosen dice (none chosen: nothing is rolled)."""

    kind: Literal["roll_marked"] = "roll_marked"


class Recall(Frozen):
    """Take back your dice (and black dice) from the rest area, or, with none of them there and
    an empty active card, all your dice from the distribution cards; they are rerolled."""

    kind: Literal["recall"] = "recall"


class Pick(Frozen):
    """Payout: take one stone of `stone` from the card (seats pick in rank order)."""

    kind: Literal["pick"] = "pick"
    stone: Stone


class Shuffle(Frozen):
    """Chance at setup: each deck's order, top card first."""

    kind: Literal["shuffle"] = "shuffle"
    orders: tuple[tuple[int, ...], ...]


class Roll(Frozen):
    """Chance: the faces of the dice in the air (State.rolling), or of the tied seats' dice
    under the paying card (a roll-off: seat by seat, each seat's large, small, black)."""

    kind: Literal["roll"] = "roll"
    faces: tuple[int, ...]


class PickFirst(Frozen):
    """Chance at setup: the first player when the config leaves it to chance."""

    kind: Literal["first"] = "first"
    seat: int


Action = Annotated[
    Queue | Awaken | Reroll | Mark | RollMarked | Recall | Pick | Shuffle | Roll | PickFirst,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
SEAT_ACTIONS = (Queue, Awaken, Reroll, Mark, RollMarked, Recall, Pick)
CHANCE_ACTIONS = (Shuffle, Roll, PickFirst)


# View ----------------------------------------------------------------------------------------


class View(Frozen):
    """The table as everyone sees it (nothing is private; only the decks' order is hidden).

    The state's public fields under the same names, plus what the table shows derived from
    them: `deck_sizes` (face-down cards left per slot), `totals` (dice under each face-up
    card), `scores` (each seat's best split now) and `dice_left` (own dice on active + sleep
    cards, black dice on the active card included: the final tie-break). `seat` is the viewer
    (None: the public).
    """

    seat: int | None
    config: Config
    phase: Phase
    turn: int
    shown: tuple[int | None, ...]
    card_stones: tuple[tuple[Stone, ...], ...]
    queues: tuple[tuple[Dice, ...], ...]
    players: tuple[Player, ...]
    black_supply: int
    rest_black: int
    stone_supply: tuple[int, ...]
    removed: tuple[int, ...]
    rolling: Rolling | None
    marked: Dice | None
    payout: Payout | None
    deck_sizes: tuple[int, ...]
    totals: tuple[int, ...]
    scores: tuple[int, ...]
    dice_left: tuple[int, ...]
