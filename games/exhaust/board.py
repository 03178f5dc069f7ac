"""A fast model of Exhaust at a table of 2–5 players for the search: bare tuples.

The strong AI plays tens of thousands of turns per decision, which the rules' frozen models make
too slow. `Board` holds only what a game at a table depends on (the long variant's face-up
depletion cards included, as the flips each seat has left), and `Board.after` follows the rules
step for step with the rules' own combos; tests/games/exhaust/test_exhaust_board.py plays whole
games through both and checks that every step agrees. A board models one game: it ends with its
loser (the long variant's next game is not modelled)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import NamedTuple, TypeVar

from games.exhaust.cards import HIGHEST, NUMBER_CARDS
from games.exhaust.combos import REWARDS, Combo, ComboKind, canonical, iter_plays, table
from games.exhaust.models import Action, FlipDepletion, PlayCards, State, UseTime
from games.exhaust.npc import Bar
from games.exhaust.plays import combo_views

TIME, FLIP = -1, -2
"""The move indices of action B (spend a time card) and C (flip a depletion card)."""
RUNNING = -1
"""`Board.loser` while the game goes on."""


class Move(NamedTuple):
    """A seat's move: `cards` on combo `combo`, or TIME, or FLIP."""

    combo: int
    cards: tuple[int, ...] = ()
    copies: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, action: Action) -> Move:
        if isinstance(action, UseTime):
            return cls(TIME)
        if isinstance(action, FlipDepletion):
            return cls(FLIP)
        if not isinstance(action, PlayCards):
            raise ValueError(f"not a move at the table: {action!r}")
        return cls(action.combo, action.cards, action.copies)

    def action(self) -> PlayCards | UseTime | FlipDepletion:
        if self.combo == TIME:
            return UseTime()
        if self.combo == FLIP:
            return FlipDepletion()
        return PlayCards(combo=self.combo, cards=self.cards, copies=self.copies)


class Layout(NamedTuple):
    """What a player count fixes: the combos, and per combo its kind, rule and Single colours."""

    combos: tuple[Combo, ...]
    kinds: tuple[ComboKind, ...]
    number_rule: tuple[bool, ...]
    singles: tuple[tuple[int, frozenset[int]], ...]
    """(combo index, colours) of every Single combo."""
    sets: tuple[tuple[int, int], ...]
    """(combo index, size) of Pair, Three and Four."""
    straight: int
    flush: int
    any: int


@cache
def layout(players: int) -> Layout:
    combos = table(players)
    kinds = tuple(c.kind for c in combos)
    sizes = {ComboKind.PAIR: 2, ComboKind.THREE: 3, ComboKind.FOUR: 4}
    return Layout(
        combos=combos,
        kinds=kinds,
        number_rule=tuple(c.number_rule for c in combos),
        singles=tuple(
            (i, frozenset(c.colours)) for i, c in enumerate(combos) if c.kind is ComboKind.SINGLE
        ),
        sets=tuple((i, sizes[k]) for i, k in enumerate(kinds) if k in sizes),
        straight=kinds.index(ComboKind.STRAIGHT),
        flush=kinds.index(ComboKind.FLUSH),
        any=kinds.index(ComboKind.ANY),
    )


class Board(NamedTuple):
    """One game at a table with `turn` to move (or over: `loser` is the seat that lost).

    `bars` holds per combo the top number (number rule) or the last play's card count (count
    rule), 0 while the combo is empty. `flips` are each seat's face-up depletion cards
    (always 0 outside the long variant). The refill pile lists its top card first.
    """

    players: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    time: tuple[int, ...]
    flips: tuple[int, ...]
    bars: tuple[int, ...]
    time_pile: int
    refill: tuple[int, ...]
    loser: int = RUNNING

    @classmethod
    def of(cls, state: State) -> Board:
        """The model of a rules state in phase `play` (or `over`) at a table."""
        cfg = state.config
        bars = []
        for cv in combo_views(cfg, state.stacks):
            bars.append((cv.top if cv.combo.number_rule else cv.last) or 0)
        flips = (0,) * cfg.players
        if cfg.long_game:
            flips = tuple(d - f for d, f in zip(state.depletion, state.flipped, strict=True))
        return cls(
            players=cfg.players,
            turn=state.turn,
            hands=state.hands,
            time=state.time_cards,
            flips=flips,
            bars=tuple(bars),
            time_pile=state.time_pile,
            refill=state.refill,
            loser=state.losers[-1] if state.phase == "over" else RUNNING,
        )

    def bar_list(self) -> list[Bar]:
        """The table as the NPC procedure reads it (`npc.choose_on`)."""
        rule = layout(self.players).number_rule
        return [
            (i, combo, (b or None) if rule[i] else None, None if rule[i] else (b or None))
            for i, (combo, b) in enumerate(zip(layout(self.players).combos, self.bars, strict=True))
        ]

    def moves(self) -> Iterator[Move]:
        """The seat to move's legal moves as the rules list them (plays canonical, Any capped)."""
        hand = self.hands[self.turn]
        for i, combo, top, last in self.bar_list():
            for play in iter_plays(combo, top, last, hand):
                yield Move(i, play.cards, play.copies)
        if self.time[self.turn]:
            yield Move(TIME)
        if self.flips[self.turn]:
            yield Move(FLIP)

    def can_act(self, seat: int) -> bool:
        """Whether `seat` may do anything at all (`plays.can_act`, fast)."""
        return bool(self.time[seat] or self.flips[seat]) or can_play_any(
            self.players, self.bars, self.hands[seat]
        )

    def after(self, move: Move) -> Board:
        """The move of the seat to move (assumed legal), then the next seat's stuck check."""
        board = self.moved(move)
        return board if board.can_act(board.turn) else board._replace(loser=board.turn)

    def moved(self, move: Move) -> Board:
        """The move of the seat to move (assumed legal), the next seat to move, unchecked."""
        seat = self.turn
        hands, time, flips = self.hands, self.time, self.flips
        time_pile, refill, bars = self.time_pile, self.refill, self.bars
        if move.combo == TIME:
            time, time_pile = _put(time, seat, time[seat] - 1), time_pile + 1
        elif move.combo == FLIP:
            flips = _put(flips, seat, flips[seat] - 1)
        else:
            gone = set(move.cards)
            hand = tuple(c for c in hands[seat] if c not in gone)
            lay = layout(self.players)
            number = max(c % HIGHEST + 1 for c in move.cards if c < NUMBER_CARDS)
            bar = number if lay.number_rule[move.combo] else len(move.cards)
            bars = _put(bars, move.combo, bar)
            kind = lay.kinds[move.combo]
            if kind is ComboKind.PAIR:
                if refill:
                    hand, refill = tuple(sorted((*hand, refill[0]))), refill[1:]
            elif kind in REWARDS:
                got = min(REWARDS[kind][1], time_pile)
                time, time_pile = _put(time, seat, time[seat] + got), time_pile - got
            hands = _put(hands, seat, hand)
        return self._replace(
            turn=(seat + 1) % self.players,
            hands=hands,
            time=time,
            flips=flips,
            bars=bars,
            time_pile=time_pile,
            refill=refill,
        )


T = TypeVar("T")


def _put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def can_play_any(players: int, bars: tuple[int, ...], hand: tuple[int, ...]) -> bool:
    """Whether some play on the table fits `hand` (`combos.can_play` on every combo, in one
    pass: playouts ask this after every turn)."""
    lay = layout(players)
    if len(hand) >= 3 and len(hand) > bars[lay.any] and min(hand) < NUMBER_CARDS:
        return True  # Any takes the whole hand (the usual case, answered without counting)
    counts = [0] * (HIGHEST + 1)
    colours = [0] * 4
    copies = 0
    best = [0] * 4
    for c in hand:
        if c >= NUMBER_CARDS:
            copies += 1
        else:
            n, colour = c % HIGHEST + 1, c // HIGHEST
            counts[n] += 1
            colours[colour] += 1
            best[colour] = max(best[colour], n)
    reals = len(hand) - copies
    if not reals:
        return False
    if len(hand) >= max(3, bars[lay.any] + 1):
        return True
    for index, fits in lay.singles:
        if any(best[colour] > bars[index] for colour in fits):
            return True
    for index, size in lay.sets:
        extra = min(copies, size - 1)
        if any(counts[n] + extra >= size for n in range(bars[index] + 1, HIGHEST + 1) if counts[n]):
            return True
    need = max(3, bars[lay.flush] + 1)
    if any(k and k + copies >= need for k in colours):
        return True
    run, need = 0, max(3, bars[lay.straight] + 1)
    for n in range(1, HIGHEST + 1):
        run = run + 1 if counts[n] else 0
        if run >= need:
            return True
    return False


NUMBER = tuple(c % HIGHEST + 1 if c < NUMBER_CARDS else 0 for c in range(NUMBER_CARDS + 4))
COLOUR = tuple(c // HIGHEST if c < NUMBER_CARDS else -1 for c in range(NUMBER_CARDS + 4))


def rollout_move(board: Board) -> Move | None:
    """The playouts' cheap policy for the seat to move, None if it is stuck (it loses).

    The solo NPC's preferences (`npc.choose_on`) in a fast form: the lowest Single that fits,
    else the lowest Four, Three or Pair, else the lowest minimum-count Straight, Flush or Any;
    a copy card only when nothing else fits; then a time card, then a flip.
    """
    seat = board.turn
    hand, bars, lay = board.hands[seat], board.bars, layout(board.players)
    reals = [c for c in hand if c < NUMBER_CARDS]
    copies = [c for c in hand if c >= NUMBER_CARDS]
    best: tuple[int, int, int] | None = None
    for index, fits in lay.singles:
        for c in reals:
            if COLOUR[c] in fits and NUMBER[c] > bars[index]:
                if best is None or NUMBER[c] < best[0]:
                    best = (NUMBER[c], index, c)
                break  # reals are sorted: the first that fits is the lowest of its colours
    if best is not None:
        return Move(best[1], (best[2],))
    by_number: list[list[int]] = [[] for _ in range(HIGHEST + 1)]
    by_colour: list[list[int]] = [[], [], [], []]
    for c in reals:
        by_number[NUMBER[c]].append(c)
        by_colour[COLOUR[c]].append(c)
    for spare in (0, len(copies)) if copies else (0,):
        for index, size in sorted(lay.sets, key=lambda item: -item[1]):
            for n in range(bars[index] + 1, HIGHEST + 1):
                group = by_number[n]
                if group and len(group) + spare >= size:
                    return _move(index, group[:size], copies, size)
        if not spare:
            need = max(3, bars[lay.straight] + 1)
            run = 0
            for n in range(1, HIGHEST + 1):
                run = run + 1 if by_number[n] else 0
                if run >= need:
                    cards = tuple(by_number[m][0] for m in range(n - need + 1, n + 1))
                    return Move(lay.straight, cards)
        need = max(3, bars[lay.flush] + 1)
        for group in by_colour:
            if group and len(group) + spare >= need:
                return _move(lay.flush, group[:need], copies, need)
        need = max(3, bars[lay.any] + 1)
        if reals and len(reals) + spare >= need:
            return _move(lay.any, sorted(reals, key=NUMBER.__getitem__)[:need], copies, need)
    if board.time[seat]:
        return Move(TIME)
    if board.flips[seat]:
        return Move(FLIP)
    return None


def _move(combo: int, reals: list[int], copies: list[int], size: int) -> Move:
    """A play of `reals` topped up to `size` cards with copies (each copying a real card)."""
    if len(reals) >= size:
        return Move(combo, tuple(reals))
    play = canonical((*reals, *copies[: size - len(reals)]))
    return Move(combo, play.cards, play.copies)
