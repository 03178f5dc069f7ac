"""A fast model of solo Exhaust for the search: bare tuples instead of the rules' models.

The strong AI plays many thousands of turns per decision, which the rules' frozen models
(rebuilt combo views, events) make too slow. `Solo` holds only what solo play depends on, and
`play_human` / `npc_turn` follow the rules step for step, using the rules' own pieces
(`check_play`'s combos, `npc.choose_on`, `npc.pick`); tests/games/exhaust/test_exhaust_solo.py
plays whole games through both and checks that every step agrees."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from games.exhaust.cards import NUMBER_CARDS
from games.exhaust.combos import REWARDS, ComboKind, Play, iter_plays, table
from games.exhaust.fastnpc import fast_play
from games.exhaust.models import NPC_HAND, Action, PlayCards, State, UseTime
from games.exhaust.npc import Bar, Choice, choose_on
from games.exhaust.plays import combo_views

COMBOS = table(1)
KINDS = tuple(combo.kind for combo in COMBOS)
NUMBER_RULE = tuple(combo.number_rule for combo in COMBOS)
SINGLE = 0
"""The solo table's one Single combo (any colour) comes first."""
TIME = -1
"""The move index of action B (spend a time card) in `Move`."""
RUNNING, WON, LOST = 0, 1, -1


class Move(NamedTuple):
    """A human move: `cards` on combo `combo`, or a time card when `combo` is TIME."""

    combo: int
    cards: tuple[int, ...] = ()
    copies: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, action: Action) -> Move:
        """The move of a human's PlayCards or UseTime."""
        if isinstance(action, UseTime):
            return cls(TIME)
        if not isinstance(action, PlayCards):
            raise ValueError(f"not a solo human move: {action!r}")
        return cls(action.combo, action.cards, action.copies)

    def action(self) -> PlayCards | UseTime:
        if self.combo == TIME:
            return UseTime()
        return PlayCards(combo=self.combo, cards=self.cards, copies=self.copies)


class Solo(NamedTuple):
    """Solo Exhaust with the human to move (or over: `result` WON or LOST for the human).

    `bars` holds per combo the top number (number rule) or the last play's card count (count
    rule), 0 while the combo is empty. Piles list their top card first.
    """

    hand: tuple[int, ...]
    time: int
    bars: tuple[int, ...]
    time_pile: int
    refill: tuple[int, ...]
    npc_hand: tuple[int, ...]
    npc_pile: tuple[int, ...]
    npc_time: int
    result: int = RUNNING

    @classmethod
    def of(cls, state: State) -> Solo:
        """The model of a solo rules state whose human is to move (or that is over)."""
        assert state.npc is not None
        bars = []
        for cv in combo_views(state.config, state.stacks):
            if cv.combo.number_rule:
                bars.append(cv.top or 0)
            else:
                bars.append(cv.last or 0)
        result = RUNNING
        if state.phase == "over":
            result = LOST if state.losers[-1] == 0 else WON
        return cls(
            hand=state.hands[0],
            time=state.time_cards[0],
            bars=tuple(bars),
            time_pile=state.time_pile,
            refill=state.refill,
            npc_hand=state.npc.hand,
            npc_pile=state.npc.pile,
            npc_time=state.npc.time_cards,
            result=result,
        )

    def top_last(self, combo: int) -> tuple[int | None, int | None]:
        """The rules' (top, last) of a combo: None for an empty stack or the other rule."""
        bar = self.bars[combo] or None
        return (bar, None) if NUMBER_RULE[combo] else (None, bar)

    def table(self) -> list[Bar]:
        return [(i, COMBOS[i], *self.top_last(i)) for i in range(len(COMBOS))]

    def moves(self) -> Iterator[Move]:
        """The human's legal moves as the rules list them (plays canonical, Any capped)."""
        for i, combo in enumerate(COMBOS):
            top, last = self.top_last(i)
            for play in iter_plays(combo, top, last, self.hand):
                yield Move(i, play.cards, play.copies)
        if self.time:
            yield Move(TIME)

    def can_act(self) -> bool:
        """Whether the human may do anything (`plays.can_act` on the solo table, fast)."""
        return bool(self.time) or can_play_any(self.bars, self.hand)


def can_play_any(bars: tuple[int, ...], hand: tuple[int, ...]) -> bool:
    """Whether some play fits the solo table (`combos.can_play` on every combo, in one pass:
    playouts ask this after every turn)."""
    counts = [0] * 17
    colours = [0] * 4
    copies = 0
    for c in hand:
        if c >= NUMBER_CARDS:
            copies += 1
        else:
            counts[c % 15 + 1] += 1
            colours[c // 15] += 1
    reals = len(hand) - copies
    if not reals:
        return False
    single, pair, three, four, straight, flush, anything = bars
    if any(counts[single + 1 :]) or len(hand) >= max(3, anything + 1):
        return True
    for size, bar in ((2, pair), (3, three), (4, four)):
        extra = min(copies, size - 1)
        if any(counts[n] and counts[n] + extra >= size for n in range(bar + 1, 16)):
            return True
    need = max(3, flush + 1)
    if any(k and k + copies >= need for k in colours):
        return True
    run, need = 0, max(3, straight + 1)
    for n in range(1, 16):
        run = run + 1 if counts[n] else 0
        if run >= need:
            return True
    return False


def _raised(bars: tuple[int, ...], combo: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The combo's bar after a play: its number (number rule) or its card count."""
    number = max(c % 15 + 1 for c in cards if c < NUMBER_CARDS)
    value = number if NUMBER_RULE[combo] else len(cards)
    return (*bars[:combo], value, *bars[combo + 1 :])


def play_human(solo: Solo, move: Move, rng: random.Random) -> Solo:
    """The human's move (assumed legal), then the NPC's turn, then the human's stuck check."""
    return npc_turn(human_move(solo, move), rng)


def human_move(solo: Solo, move: Move) -> Solo:
    """The human's move alone (it never ends the game: the NPC moves next)."""
    hand, time, refill, time_pile = solo.hand, solo.time, solo.refill, solo.time_pile
    bars = solo.bars
    if move.combo == TIME:
        time, time_pile = time - 1, time_pile + 1
    else:
        gone = set(move.cards)
        hand = tuple(c for c in hand if c not in gone)
        bars = _raised(bars, move.combo, move.cards)
        kind = KINDS[move.combo]
        if kind is ComboKind.PAIR:
            if refill:
                hand, refill = tuple(sorted((*hand, refill[0]))), refill[1:]
        elif kind in REWARDS:
            got = min(REWARDS[kind][1], time_pile)
            time, time_pile = time + got, time_pile - got
    return Solo(hand, time, bars, time_pile, refill, solo.npc_hand, solo.npc_pile, solo.npc_time)


class NpcPlan(NamedTuple):
    """The NPC's turn up to its decision (as `npc.plan_turn`): hand filled, stuck draws made."""

    hand: tuple[int, ...]
    pile: tuple[int, ...]
    choice: Choice | None


def npc_plan(solo: Solo) -> NpcPlan:
    hand, pile = list(solo.npc_hand), solo.npc_pile
    fill = max(0, min(NPC_HAND - len(hand), len(pile)))
    hand.extend(pile[:fill])
    pile = pile[fill:]
    bars = solo.table()
    choice = choose_on(bars, hand)
    while choice is None and pile:
        hand.append(pile[0])
        pile = pile[1:]
        choice = choose_on(bars, hand)
    return NpcPlan(tuple(hand), pile, choice)


def npc_turn(solo: Solo, rng: random.Random) -> Solo:
    """The NPC's turn by its procedure (ties at random with `rng`), then the human's check.

    Plays out through `fast_play` (what `npc_plan` and `pick` do, without listing options)."""
    hand, pile = list(solo.npc_hand), solo.npc_pile
    fill = max(0, min(NPC_HAND - len(hand), len(pile)))
    hand.extend(pile[:fill])
    pile = pile[fill:]
    found = fast_play(solo.bars, hand, rng)
    while found is None and pile:
        hand.append(pile[0])
        pile = pile[1:]
        found = fast_play(solo.bars, hand, rng)
    return _npc_end(solo, tuple(hand), pile, found)


def npc_finish(solo: Solo, plan: NpcPlan, play: Play | None) -> Solo:
    """The NPC's turn with `play` (one of `plan.choice`'s options, None if there is none)."""
    found = None if play is None or plan.choice is None else (plan.choice.combo, play)
    return _npc_end(solo, plan.hand, plan.pile, found)


def _npc_end(
    solo: Solo, hand: tuple[int, ...], pile: tuple[int, ...], found: tuple[int, Play] | None
) -> Solo:
    """The NPC's turn after its draws: the play `found` (combo, cards) or, if None, a time
    card or its loss; then the human's stuck check."""
    npc_time, time_pile, refill, bars = solo.npc_time, solo.time_pile, solo.refill, solo.bars
    if found is not None:
        combo, play = found
        gone = set(play.cards)
        hand = tuple(c for c in hand if c not in gone)
        bars = _raised(bars, combo, play.cards)
        kind = KINDS[combo]
        if kind is ComboKind.PAIR:
            if refill:
                pile, refill = (refill[0], *pile), refill[1:]
        elif kind in REWARDS:
            got = min(REWARDS[kind][1], time_pile)
            npc_time, time_pile = npc_time + got, time_pile - got
    elif npc_time:
        npc_time, time_pile = npc_time - 1, time_pile + 1
    else:
        return solo._replace(npc_hand=hand, npc_pile=pile, result=WON)
    human, time = solo.hand, solo.time
    stuck = not time and not can_play_any(bars, human)
    return Solo(
        human, time, bars, time_pile, refill, hand, pile, npc_time, LOST if stuck else RUNNING
    )
