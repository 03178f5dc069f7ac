"""The Game: config, state, actions and views."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal, Self

from pydantic import Field, TypeAdapter, model_validator

from games.engine.built import built
from games.engine.contract import Frozen

CARDS = tuple(range(2, 100))
BLUE_NUMBERS = frozenset({22, 33, 44, 55, 66, 77})
PILES = 4
ASCENDING = (True, True, False, False)
"""Piles 0 and 1 go up from 1, piles 2 and 3 go down from 100."""
BASES = (1, 1, 100, 100)
"""Each pile's top card while it is empty."""
NO_BLUE = (None, None, None, None)
"""`TheGameState.blue_since` while no pile shows an uncovered blue card."""


def base_of(pile: int) -> int:
    return BASES[pile]


def fits(top: int, card: int, ascending: bool) -> bool:
    """The placement rule, with the exact ±10 trick."""
    if ascending:
        return card > top or card == top - 10
    return card < top or card == top + 10


class SignalKind(StrEnum):
    NO_PLAY = "no_play"
    NO_JUMP = "no_jump"


class Phase(StrEnum):
    DEAL = "deal"
    CHOOSE_FIRST = "choose_first"
    PLAY = "play"
    OVER = "over"


class EndReason(StrEnum):
    STUCK = "stuck"
    BURNED = "burned"
    ALL_PLAYED = "all_played"


class TheGameConfig(Frozen):
    players: int = Field(ge=1, le=5)
    on_fire: bool = False
    min_three: bool = False
    smaller_hand: bool = False
    first_player: int | None = None
    signals: bool = True
    """False: the no-communication variant; no pile signals at all (seed 000 §7 forbids
    revealing numbers; a table may also choose to say nothing)."""

    @property
    def hand_size(self) -> int:
        size = 8 if self.players == 1 else 7 if self.players == 2 else 6
        return size - 1 if self.smaller_hand else size

    def is_blue(self, card: int) -> bool:
        return self.on_fire and card in BLUE_NUMBERS


# Actions -------------------------------------------------------------------------------------


class Deal(Frozen):
    """Chance: the shuffled order of the 98 cards (first the hands, seat by seat, then the pile)."""

    kind: Literal["deal"] = "deal"
    order: tuple[int, ...]


class ChooseFirst(Frozen):
    """Chance: the first player when the host left it to random."""

    kind: Literal["choose_first"] = "choose_first"
    seat: int


class Play(Frozen):
    kind: Literal["play"] = "play"
    card: int
    pile: int = Field(ge=0, lt=PILES)


class EndTurn(Frozen):
    kind: Literal["end_turn"] = "end_turn"


class Signal(Frozen):
    """Set or clear a pile signal; any player, any time (seed §7 allows it)."""

    kind: Literal["signal"] = "signal"
    pile: int = Field(ge=0, lt=PILES)
    signal: SignalKind
    on: bool


TheGameAction = Annotated[Deal | ChooseFirst | Play | EndTurn | Signal, Field(discriminator="kind")]
ACTION_ADAPTER: TypeAdapter[TheGameAction] = TypeAdapter(TheGameAction)

PLAYS_OF = {card: tuple(Play(card=card, pile=pile) for pile in range(PILES)) for card in CARDS}
PLAYS = {(card, pile): PLAYS_OF[card][pile] for card in CARDS for pile in range(PILES)}
END_TURN = EndTurn()
SIGNALS = {
    (pile, kind, on): Signal(pile=pile, signal=kind, on=on)
    for pile in range(PILES)
    for kind in SignalKind
    for on in (True, False)
}
"""Every play, end of turn and signal, built once: actions are frozen, so `legal_actions`
hands out these instead of validating new ones on every call."""


# State ---------------------------------------------------------------------------------------


class TheGameState(Frozen):
    config: TheGameConfig
    phase: Phase = Phase.DEAL
    deck: tuple[int, ...] = ()
    """The cards in the order dealt (the hands first, then the draw pile): the draw pile is
    those from `drawn` on, next card first. Kept whole, not cut down at every draw, so every
    state of a game shares the deal's one tuple."""
    drawn: int = Field(default=0, ge=0)
    """How many cards of `deck` have left it (dealt into the hands or drawn since)."""
    hands: tuple[tuple[int, ...], ...] = ()
    tops: tuple[int, int, int, int] = BASES
    """Each pile's top card (its start, 1 or 100, while the pile is empty)."""
    counts: tuple[int, int, int, int] = (0, 0, 0, 0)
    """How many cards each pile holds. The cards under a top are never read again (play goes
    on the top; the view shows top and count), so the state keeps no more than these: a pile's
    every card, kept before, was most of a state's size late in a game."""
    blue_since: tuple[int | None, ...] = NO_BLUE
    """On Fire: per pile, the turn in which the oldest blue card not yet covered by a non-blue
    card was placed (None when the top card is not blue)."""
    signals: tuple[tuple[SignalKind, ...], ...] = ((), (), (), ())
    turn: int = 0
    turn_number: int = 0
    played_this_turn: int = 0
    end_reason: EndReason | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_earlier_form(cls, data: Any) -> Any:
        """A state stored in the earlier form, as snapshots of games begun before hold it:
        `piles` (every card placed, top card last) made into tops and counts, `draw` (the draw
        pile alone) into the deck, none of it drawn yet."""
        if isinstance(data, dict) and "draw" in data:  # a draw pile of its own: its deck
            data = dict(data)
            data["deck"] = data.pop("draw")
        if isinstance(data, dict) and "piles" in data:
            data = dict(data)
            piles = data.pop("piles")
            data["tops"] = tuple(
                cards[-1] if cards else base_of(pile) for pile, cards in enumerate(piles)
            )
            data["counts"] = tuple(len(cards) for cards in piles)
        return data

    def top(self, pile: int) -> int:
        return self.tops[pile]

    @property
    def draw(self) -> tuple[int, ...]:
        """The draw pile, next card first."""
        return self.deck[self.drawn :]

    @property
    def draw_count(self) -> int:
        return len(self.deck) - self.drawn

    @property
    def minimum(self) -> int:
        """Cards the player to move must play this turn."""
        if self.drawn >= len(self.deck):
            return 1
        return 3 if self.config.min_three else 2

    @cached_property
    def cards_left(self) -> int:
        """Cards not played yet (kept with the state; the rules carry it from one to the next)."""
        return len(self.deck) - self.drawn + sum(len(hand) for hand in self.hands)

    @cached_property
    def moves(self) -> tuple[Play | EndTurn, ...]:
        """What the player to move may do besides signals: each play that fits, then the end
        of the turn once the minimum is met (kept with the state: asked more than once)."""
        if self.phase is not Phase.PLAY:
            return ()
        up1, up2, down1, down2 = self.tops
        moves: list[Play | EndTurn] = []
        for card in self.hands[self.turn]:  # `fits`, written out: this runs on every move
            plays = PLAYS_OF[card]
            if card > up1 or card == up1 - 10:
                moves.append(plays[0])
            if card > up2 or card == up2 - 10:
                moves.append(plays[1])
            if card < down1 or card == down1 + 10:
                moves.append(plays[2])
            if card < down2 or card == down2 + 10:
                moves.append(plays[3])
        if self.played_this_turn >= self.minimum:
            moves.append(END_TURN)
        return tuple(moves)

    @cached_property
    def signal_moves(self) -> tuple[Signal, ...]:
        """The signals any player may send now: each one set or cleared, whichever it is not
        (none when the table plays without signals)."""
        if self.phase is not Phase.PLAY or not self.config.signals:
            return ()
        return tuple(
            SIGNALS[pile, kind, kind not in self.signals[pile]]
            for pile in range(PILES)
            for kind in SignalKind
        )

    def evolve(self, changes: dict[str, Any], cards_left: int | None = None) -> TheGameState:
        """This state with `changes`, not validated again: the rules' own transitions, whose
        every value is valid by construction (the engine's checked mode re-validates them in
        the tests). A derived value stays only while none of the fields it reads change;
        `cards_left` gives the count when the transition knows it."""
        # A table built anew, not `.copy()`, which clones the old one with the slots of the
        # derived values deleted from it: a few moves on, the table doubled (832 bytes, not
        # 464), past what Python's small-object allocator serves, and every session's state
        # went back and forth between the two allocators, each keeping its high-water mark.
        fields = dict(self.__dict__)
        fields.update(changes)
        if cards_left is not None:
            fields["cards_left"] = cards_left
        elif "cards_left" in fields and not CARDS_LEFT_READS.isdisjoint(changes):
            del fields["cards_left"]
        if "moves" in fields and not MOVES_READS.isdisjoint(changes):
            del fields["moves"]
        if "signal_moves" in fields and not SIGNAL_MOVES_READS.isdisjoint(changes):
            del fields["signal_moves"]
        # Every field counted as given, as in a state loaded from storage: pydantic's own
        # set (the fields `setup` named, joined with each change) was a new set per change
        # until a game had changed every field once, and The Game's games are short.
        return built(TheGameState, fields)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy, without the derived values (they may not fit the update)."""
        copied = super().model_copy(update=update, deep=deep)
        for name in DERIVED:
            copied.__dict__.pop(name, None)
        return copied


CARDS_LEFT_READS = frozenset({"deck", "drawn", "hands"})
MOVES_READS = frozenset(
    {"config", "phase", "deck", "drawn", "hands", "tops", "turn", "played_this_turn"}
)
SIGNAL_MOVES_READS = frozenset({"config", "phase", "signals"})
DERIVED = {
    "cards_left": CARDS_LEFT_READS,
    "moves": MOVES_READS,
    "signal_moves": SIGNAL_MOVES_READS,
}
"""The state's cached values and the fields each is computed from (`evolve` drops each one
whose fields change)."""


# Views ---------------------------------------------------------------------------------------


class PileView(Frozen):
    ascending: bool
    top: int
    count: int
    top_blue: bool
    burns_at_turn_end: bool
    """A blue card from an earlier turn is still uncovered: cover it before this turn ends."""
    signals: tuple[SignalKind, ...]


class TheGameView(Frozen):
    seat: int | None
    config: TheGameConfig
    phase: Phase
    piles: tuple[PileView, ...]
    draw_count: int
    hand_sizes: tuple[int, ...]
    hand: tuple[int, ...] | None
    """The viewer's own hand; None for the public."""
    turn: int
    turn_number: int
    played_this_turn: int
    minimum: int
    cards_left: int
    end_reason: EndReason | None

    @property
    def still_required(self) -> int:
        return max(0, self.minimum - self.played_this_turn)
