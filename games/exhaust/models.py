"""Exhaust's config, state, actions and view: frozen pydantic models with tuples only."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.engine.contract import Frozen
from games.exhaust.combos import Combo

NPC = 1
"""Solo only: the NPC's position in the turn order and in `losers` (seat 0 is the human)."""
TIME_CARDS = 16
DEPLETION_CARDS = 6
NPC_HAND = 5
"""The NPC's hand space is filled up to this many face-up cards before each NPC turn."""
MATCH_DEPLETION = 2
"""Long variant: a player holding this many depletion cards loses the match."""


class Config(Frozen):
    """`players` 1 is solo against the NPC; `npc_size` is the NPC pile (solo only)."""

    players: int = Field(ge=1, le=5)
    long_game: bool = False
    npc_size: int = Field(default=15, ge=5, le=49)
    first_player: int | None = None

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def hand_size(self) -> int:
        """(R) 2–4 players 15 each, 5 players 12; solo: the human gets 15."""
        return 12 if self.players == 5 else 15

    @property
    def positions(self) -> int:
        """Places in the turn order: the seats, plus the NPC in solo."""
        return 2 if self.solo else self.players


class Played(Frozen):
    """One play on a combo's stack. `by` is a seat (or NPC in solo); `high` its top number."""

    by: int
    cards: tuple[int, ...]
    copies: tuple[tuple[int, int], ...] = ()
    high: int


class NpcState(Frozen):
    """Solo: the NPC's face-up hand space, its face-down pile (top first), its time cards."""

    hand: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    time_cards: int = 0


Phase = Literal["deal", "first", "play", "next", "over"]
"""`next`: long variant, between games, waiting for the last loser to deal the next one."""


class State(Frozen):
    """The whole table. `losers` holds each finished game's loser (NPC in solo), in order."""

    config: Config
    phase: Phase = "deal"
    game_no: int = 0
    turn: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    refill: tuple[int, ...] = ()
    time_pile: int = TIME_CARDS
    time_cards: tuple[int, ...] = ()
    stacks: tuple[tuple[Played, ...], ...] = ()
    depletion: tuple[int, ...] = ()
    flipped: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    npc: NpcState | None = None


# Actions ---------------------------------------------------------------------------------


class PlayCards(Frozen):
    """Action A: play `cards` (copy cards included) to combo `combo`.

    `copies` pairs each copy card in `cards` with the number card of the same play it copies.
    """

    kind: Literal["play"] = "play"
    combo: int
    cards: tuple[int, ...]
    copies: tuple[tuple[int, int], ...] = ()


class UseTime(Frozen):
    """Action B: return one of your time cards to the pile."""

    kind: Literal["time"] = "time"


class FlipDepletion(Frozen):
    """Action C (long variant): flip your face-up depletion card face down, once."""

    kind: Literal["flip"] = "flip"


class NextGame(Frozen):
    """Long variant: the last game's loser deals the next game (so each game's end is seen)."""

    kind: Literal["next"] = "next"


class Deal(Frozen):
    """Chance: the shuffled deck; hands seat by seat (solo: then the NPC pile), then refill."""

    kind: Literal["deal"] = "deal"
    order: tuple[int, ...]


class PickFirst(Frozen):
    """Chance: the first player of the first game when the host left it to random."""

    kind: Literal["first"] = "first"
    seat: int


class NpcPlay(Frozen):
    """Chance in solo: the NPC's play, picked by its procedure (random among equals)."""

    kind: Literal["npc_play"] = "npc_play"
    combo: int
    cards: tuple[int, ...]
    copies: tuple[tuple[int, int], ...] = ()


class NpcUseTime(Frozen):
    """Chance in solo: the NPC, stuck with an empty pile, spends a time card."""

    kind: Literal["npc_time"] = "npc_time"


class NpcOut(Frozen):
    """Chance in solo: the NPC can do nothing at all and loses."""

    kind: Literal["npc_out"] = "npc_out"


Action = Annotated[
    PlayCards
    | UseTime
    | FlipDepletion
    | NextGame
    | Deal
    | PickFirst
    | NpcPlay
    | NpcUseTime
    | NpcOut,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


# Views -----------------------------------------------------------------------------------


class ComboView(Frozen):
    """A combo and its face-up stack, with what the next play must beat.

    `need_number` (number rule) is the lowest number allowed next; `need_count` (count rule)
    the fewest cards allowed next.
    """

    index: int
    combo: Combo
    plays: tuple[Played, ...]
    top: int | None
    last: int | None
    need_number: int | None
    need_count: int | None


class NpcView(Frozen):
    hand: tuple[int, ...]
    pile: int
    time_cards: int


class View(Frozen):
    """What one seat (or the public, `seat` None) sees. `hand` is only the viewer's own.

    `turn` is the seat to act (NPC in solo for the NPC; the last loser in phase `next`),
    or None while chance deals and once the game is over.
    """

    seat: int | None
    players: int
    solo: bool
    long_game: bool
    phase: Phase
    game_no: int
    turn: int | None
    combos: tuple[ComboView, ...]
    refill: int
    time_pile: int
    hand_sizes: tuple[int, ...]
    time_cards: tuple[int, ...]
    depletion: tuple[int, ...]
    flipped: tuple[int, ...]
    depletion_pile: int
    losers: tuple[int, ...]
    hand: tuple[int, ...] | None = None
    npc: NpcView | None = None

    @property
    def my_turn(self) -> bool:
        return self.phase in ("play", "next") and self.seat is not None and self.turn == self.seat
