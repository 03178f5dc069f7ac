"""Exhaust AI: picks the action that leaves the seat the most future turns, from its view only.

How it decides (`scored_actions`, then `decide` takes the best that `legal_plays` lists):
- Every action costs this turn, so actions are compared by what they leave: `Evaluator.value`
  estimates how many more turns the hand is worth on the table the action leaves behind, plus
  the time cards (one sure turn each), the earned reward (time cards; a Pair's spell card at
  a fraction of a turn) and a face-up depletion card.
- The hand is split, number by number, into units: a Four/Three/Pair (worth its turn plus its
  reward) or Single cards (one turn), copies joining a set where that gains most. The rest is
  fuel for Any: each `need` fuel cards make a play worth a turn plus a time card, later plays
  discounted as the count rises.
- Units perish: a unit is passed once another player plays a higher number on its combo.
  `Threats` counts, from the cards the seat can't see (and the solo NPC's face-up hand), how
  many of the others' cards or sets could pass each number. Units are played one per turn,
  most threatened first, and each survives to its turn with exp(-hazard × position); a unit
  that is passed falls back to fuel. A card nobody can pass is as sure as a time card.
- So a play costs what it spends plus the units of our own hand it strands by raising a bar
  (playing 15 on a Single strands our 9 and 12), minus what it earns: the lowest number that
  fits, the minimum count, the most threatened card first, and dead cards dumped on Any for a
  time card all come out of that one sum, as does how much a play escalates for ourselves.
- Time cards never perish, cards do: action B wins only when every play costs more than a
  sure turn (rare), when nothing else is legal, or on a tie with a card nobody can pass (a
  spent time card goes back to the pile, where the others may earn it, so the card is played).
  Action C (long variant) is worth a little more than a time card: unlike a time card it
  survives the game, so it comes last. A play that leaves the seat with nothing it could do
  next turn is penalised.
- Phase `next`: the last loser sends NextGame.

Candidates: every Single, every Pair/Three/Four card choice, minimum-count Straights, and the
Flushes and Anys made of the cards the hand misses least (Any restricted to the plays
`legal_plays` lists: one-colour plays and the lowest-ranked ones). Each is checked with
`check_play` and the chosen one against the listing, so the AI only returns legal actions.
Weights are in `Params`, tuned on bench/exhaust_ai.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice, product

from games.engine.errors import GameError, Reason
from games.exhaust.cards import HIGHEST, NUMBER_CARDS
from games.exhaust.combos import ANY_CAP, SET_SIZE, ComboKind, canonical, check_play, iter_plays
from games.exhaust.models import (
    Action,
    ComboView,
    FlipDepletion,
    NextGame,
    PlayCards,
    UseTime,
    View,
)
from games.exhaust.plays import face_up_depletion, legal_plays


@dataclass(frozen=True)
class Params:
    """Weights of the evaluation, tuned on bench/exhaust_ai.py."""

    time: float = 1.0
    """A time card in hand: one sure turn."""
    flip: float = 1.2
    """A face-up depletion card: a sure turn that also survives the game (kept longest)."""
    spell: float = 0.35
    """The Pair reward: one unknown card from the refill pile."""
    hazard_single: float = 0.15
    """Chance per round and per threatening card that a Single unit gets passed..."""
    hazard_single_one: float = 0.4
    """...with 1–2 players, whose one Single combo takes every colour..."""
    hazard_set: float = 0.5
    """...and per threatening set of others, that a Pair/Three/Four unit gets passed."""
    fuel_discount: float = 0.6
    """Each further Any play of the fuel is worth this much of the one before."""
    partial: float = 0.5
    """Credit for fuel short of the next Any play, per missing fraction."""
    fallback: float = 1.0
    """Weight of the fuel a passed unit leaves behind."""
    feed: float = 0.02
    """A spent time card goes back to the pile, where the others may earn it: between a sure
    card and a time card, play the card."""
    stuck: float = 3.0
    """Penalty for leaving the seat with nothing it could do on the current bars."""


PARAMS = Params()
COLOURS = 4
NUMBER = tuple(c % HIGHEST + 1 for c in range(NUMBER_CARDS))
COLOUR = tuple(c // HIGHEST for c in range(NUMBER_CARDS))


class Table:
    """The bars of the table in a form the evaluation reads fast."""

    __slots__ = (
        "any_need",
        "flush_need",
        "players",
        "refill",
        "set_need",
        "single_need",
        "single_of",
        "straight_need",
        "time_left",
    )

    def __init__(
        self, combos: Sequence[ComboView], refill: int, time_pile: int, players: int
    ) -> None:
        self.single_of = [0] * COLOURS
        self.single_need: list[int] = []
        self.set_need = {2: 99, 3: 99, 4: 99}
        self.straight_need = self.flush_need = self.any_need = 99
        for cv in combos:
            kind = cv.combo.kind
            if kind is ComboKind.SINGLE:
                for colour in cv.combo.colours:
                    self.single_of[colour] = len(self.single_need)
                self.single_need.append(cv.need_number or 1)
            elif kind in SET_SIZE:
                self.set_need[SET_SIZE[kind]] = cv.need_number or 1
            elif kind is ComboKind.STRAIGHT:
                self.straight_need = cv.need_count or 3
            elif kind is ComboKind.FLUSH:
                self.flush_need = cv.need_count or 3
            else:
                self.any_need = cv.need_count or 3
        self.refill = refill
        self.time_left = time_pile
        self.players = players

    def after(self, cv: ComboView, high: int, count: int, time_gain: int, spell: bool) -> Table:
        """This table after a play of `count` cards with top number `high` on `cv`."""
        new = Table.__new__(Table)
        new.single_of = self.single_of
        new.single_need = list(self.single_need)
        new.set_need = dict(self.set_need)
        new.straight_need, new.flush_need = self.straight_need, self.flush_need
        new.any_need, new.players = self.any_need, self.players
        new.refill = self.refill - 1 if spell else self.refill
        new.time_left = self.time_left - time_gain
        kind = cv.combo.kind
        if kind is ComboKind.SINGLE:
            index = self.single_of[cv.combo.colours[0]]
            new.single_need[index] = max(new.single_need[index], high + 1)
        elif kind in SET_SIZE:
            size = SET_SIZE[kind]
            new.set_need[size] = max(new.set_need[size], high + 1)
        elif kind is ComboKind.STRAIGHT:
            new.straight_need = max(3, count + 1)
        elif kind is ComboKind.FLUSH:
            new.flush_need = max(3, count + 1)
        else:
            new.any_need = max(3, count + 1)
        return new


class Threats:
    """What the other players could do to our units, estimated from the cards we can't see.

    `single[j][n]`: expected number of others' cards that fit Single combo `j` with number n
    or more (each could pass our n); `sets[size][n]`: expected number of sets of `size` of
    number n or more the others could make. The NPC's face-up cards count fully; each unseen
    card counts with the chance that it sits in another player's hand (not the refill pile).
    """

    __slots__ = ("sets", "single")

    def __init__(self, view: View, single_colours: Sequence[Sequence[int]]) -> None:
        assert view.hand is not None and view.seat is not None
        seen = set(view.hand)
        for cv in view.combos:
            for played in cv.plays:
                seen.update(played.cards)
        visible = set(view.npc.hand) if view.npc is not None else set()
        unseen = [c for c in range(NUMBER_CARDS + 4) if c not in seen and c not in visible]
        others = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
        opponents = view.players - 1
        if view.npc is not None:
            others += view.npc.pile
            opponents = 1
        share = min(1.0, others / len(unseen)) if unseen else 0.0
        weight = dict.fromkeys(unseen, share) | dict.fromkeys(visible, 1.0)
        copies = [w for c, w in weight.items() if c >= NUMBER_CARDS]
        self.single = []
        for colours in single_colours:
            suffix, acc = [0.0] * (HIGHEST + 2), 0.0
            for n in range(HIGHEST, 0, -1):
                acc += sum(weight.get(col * HIGHEST + n - 1, 0.0) for col in colours)
                suffix[n] = acc
            suffix[0] = acc
            self.single.append(suffix)
        self.sets = {}
        spread = max(1, opponents)
        per_number = []
        for n in range(1, HIGHEST + 1):
            ws = [weight.get(col * HIGHEST + n - 1, 0.0) for col in range(COLOURS)]
            ws = [w for w in ws if w > 0.0]
            # elementary symmetric sums e_0..e_4 of the weights, copies included
            e = [1.0, 0.0, 0.0, 0.0, 0.0]
            for w in ws + copies:
                for k in range(4, 0, -1):
                    e[k] += e[k - 1] * w
            # a set needs a real card: drop the all-copies terms (rare; ignored beyond pairs)
            per_number.append(e)
        for size in (2, 3, 4):
            suffix, acc = [0.0] * (HIGHEST + 2), 0.0
            for n in range(HIGHEST, 0, -1):
                acc += per_number[n - 1][size] / spread ** (size - 1)
                suffix[n] = acc
            suffix[0] = acc
            self.sets[size] = suffix


class Evaluator:
    """`value(hand, table, threats)`: the future turns a hand is worth (time cards aside)."""

    def __init__(self, params: Params = PARAMS) -> None:
        self.p = params

    def _fuel(self, fuel: int, t: Table) -> float:
        """Turns worth of `fuel` cards spent on Any plays of the rising count."""
        p = self.p
        reward = 1.0 + (p.time if t.time_left > 0 else 0.0)
        need, weight, total = t.any_need, 1.0, 0.0
        while fuel >= need:
            total += weight
            fuel -= need
            need += 1
            weight *= p.fuel_discount
        total += weight * p.partial * fuel / need
        return reward * total

    def value(self, hand: Sequence[int], t: Table, threats: Threats) -> float:
        p = self.p
        by_number: list[list[int]] = [[] for _ in range(HIGHEST + 1)]
        copies = 0
        for c in hand:
            if c >= NUMBER_CARDS:
                copies += 1
            else:
                by_number[NUMBER[c]].append(COLOUR[c])
        time_reward = p.time if t.time_left > 0 else 0.0
        fuel_each = (1.0 + time_reward) / t.any_need * p.partial
        set_worth = (
            0.0,
            0.0,
            1.0 + (p.spell if t.refill > 0 else 0.0),
            1.0 + time_reward,
            1.0 + p.time * min(2, t.time_left),
        )
        units: list[tuple[float, float, int]] = []
        """(hazard per round, worth, real cards) of every number-combo unit we mean to play."""
        fuel, spare = 0, copies
        single_need, single_of = t.single_need, t.single_of
        set_need = t.set_need
        single_threat, set_threat = threats.single, threats.sets
        h_single = p.hazard_single_one if len(single_need) == 1 else p.hazard_single
        h_set = p.hazard_set
        exp = math.exp
        lowest_set = min(set_need.values())
        for n in range(1, HIGHEST + 1):
            cols = by_number[n]
            if not cols:
                continue
            r = len(cols)
            # The least threatened single card per Single combo (all hazards of one combo
            # and number are equal); the other cards are fuel unless a set takes them.
            ranked: list[tuple[float, float]] = []
            seen = 0
            for col in cols:
                index = single_of[col]
                bit = 1 << index
                if n >= single_need[index] and not seen & bit:
                    seen |= bit
                    hazard = h_single * single_threat[index][n]
                    keep = exp(-hazard)
                    if keep > fuel_each:
                        ranked.append((keep, hazard))
            if r + spare < 2 or n < lowest_set:
                units.extend((h, 1.0, 1) for _, h in ranked)
                fuel += r - len(ranked)
                continue
            if len(ranked) > 1:
                ranked.sort(reverse=True)
            best = sum(k for k, _ in ranked) + (r - len(ranked)) * fuel_each
            best_size = best_copies = 0
            best_kept = len(ranked)
            best_hazard = 0.0
            for size in (2, 3, 4):
                if n < set_need[size] or r + spare < size:
                    continue
                hazard = h_set * set_threat[size][n]
                sv = set_worth[size] * exp(-hazard)
                for used in range(max(0, size - r), min(spare, size - 1) + 1):
                    left = r - (size - used)
                    kept = ranked[:left]
                    v = sv + sum(k for k, _ in kept) + (left - len(kept) + used) * fuel_each
                    if v > best + 1e-9:
                        best, best_size, best_copies, best_kept = v, size, used, len(kept)
                        best_hazard = hazard
            if best_size:
                units.append((best_hazard, set_worth[best_size], best_size - best_copies))
                spare -= best_copies
                fuel += r - (best_size - best_copies) - best_kept
            else:
                fuel += r - best_kept
            units.extend((h, 1.0, 1) for _, h in ranked[:best_kept])
        # One unit per turn, most threatened first: the later it comes, the likelier it's passed.
        units.sort(reverse=True)
        total = 0.0
        # A unit that gets passed leaves its cards as fuel for Any.
        fallback = fuel_each * p.fallback
        for position, (hazard, worth, cards) in enumerate(units, 1):
            survive = exp(-hazard * position)
            total += worth * survive + (1.0 - survive) * cards * fallback
        fuel += spare
        total += self._fuel(fuel, t)
        return total


def _longest_run(numbers: set[int]) -> int:
    best = run = 0
    for n in range(1, HIGHEST + 1):
        run = run + 1 if n in numbers else 0
        best = max(best, run)
    return best


def _can_act_on(hand: Sequence[int], t: Table) -> bool:
    """Whether some play on the table fits `hand` (ignoring time and flip)."""
    reals = [c for c in hand if c < NUMBER_CARDS]
    if not reals:
        return False
    copies = len(hand) - len(reals)
    if len(hand) >= t.any_need:
        return True
    counts = [0] * (HIGHEST + 1)
    cols = [0] * COLOURS
    for c in reals:
        n = NUMBER[c]
        counts[n] += 1
        cols[COLOUR[c]] += 1
        if n >= t.single_need[t.single_of[COLOUR[c]]]:
            return True
    for n in range(1, HIGHEST + 1):
        if counts[n]:
            for size, need in t.set_need.items():
                if n >= need and counts[n] + min(copies, size - 1) >= size:
                    return True
    if any(k and k + copies >= t.flush_need for k in cols):
        return True
    return _longest_run({NUMBER[c] for c in reals}) >= t.straight_need


# Candidate plays ------------------------------------------------------------------------------


def _cheapest(ordered: Sequence[int], need: int) -> tuple[int, ...] | None:
    """The `need` first cards of `ordered` (cheapest first), at least one of them real."""
    if len(ordered) < need:
        return None
    chosen = list(ordered[:need])
    if all(c >= NUMBER_CARDS for c in chosen):
        real = next((c for c in ordered[need:] if c < NUMBER_CARDS), None)
        if real is None:
            return None
        chosen[-1] = real
    return tuple(chosen)


def candidates(
    combos: Sequence[ComboView], hand: Sequence[int], loss: dict[int, float]
) -> list[tuple[int, tuple[int, ...]]]:
    """(combo index, cards) of the plays worth evaluating (not yet checked)."""
    out: list[tuple[int, tuple[int, ...]]] = []
    reals = [c for c in hand if c < NUMBER_CARDS]
    copies = sorted(c for c in hand if c >= NUMBER_CARDS)
    by_number: dict[int, list[int]] = {}
    for c in reals:
        by_number.setdefault(NUMBER[c], []).append(c)
    cheap = sorted(hand, key=lambda c: (loss[c], c))
    for cv in combos:
        kind, index = cv.combo.kind, cv.index
        if kind is ComboKind.SINGLE:
            need = cv.need_number or 1
            out.extend(
                (index, (c,)) for c in reals if COLOUR[c] in cv.combo.colours and NUMBER[c] >= need
            )
        elif kind in SET_SIZE:
            size, need = SET_SIZE[kind], cv.need_number or 1
            for n, group in by_number.items():
                if n < need or len(group) + len(copies) < size:
                    continue
                for j in range(max(0, size - len(group)), min(len(copies), size - 1) + 1):
                    picks = combinations(group, size - j)
                    out.extend((index, (*chosen, *copies[:j])) for chosen in picks)
        elif kind is ComboKind.STRAIGHT:
            need = cv.need_count or 3
            for start in range(1, HIGHEST - need + 2):
                run = range(start, start + need)
                if all(n in by_number for n in run):
                    pools = [sorted(by_number[n], key=loss.__getitem__)[:2] for n in run]
                    out.extend((index, chosen) for chosen in islice(product(*pools), 8))
        elif kind is ComboKind.FLUSH:
            need = cv.need_count or 3
            for col in range(COLOURS):
                group = [c for c in cheap if c >= NUMBER_CARDS or COLOUR[c] == col]
                chosen = _cheapest(group, need)
                if chosen is not None:
                    out.append((index, chosen))
        else:
            # Any lists every one-colour play and the first few in rank order (`iter_plays`).
            need = cv.need_count or 3
            for col in range(COLOURS):
                group = [c for c in cheap if c >= NUMBER_CARDS or COLOUR[c] == col]
                chosen = _cheapest(group, need)
                if chosen is not None:
                    out.append((index, chosen))
            firsts = list(islice(_subsets(sorted(reals, key=_rank), copies, need), ANY_CAP))
            if firsts:
                out.append((index, firsts[0]))
                out.append(
                    (index, min(firsts, key=lambda cards: sum(map(loss.__getitem__, cards))))
                )
    return [(index, _lowest_copies(cards, copies)) for index, cards in out]


def _rank(card: int) -> tuple[int, int]:
    return (NUMBER[card], card)


def _subsets(reals: Sequence[int], copies: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    """Plays of `size` cards from `reals` (rank order) and the lowest copies, in the order in
    which `iter_plays` lists them."""
    for j in range(max(0, size - len(reals)), min(len(copies), size - 1) + 1):
        for chosen in combinations(reals, size - j):
            yield (*chosen, *copies[:j])


def _lowest_copies(cards: tuple[int, ...], copies: Sequence[int]) -> tuple[int, ...]:
    """The same play with the copy cards of lowest id (copies are interchangeable; the
    listing of legal plays uses the lowest ones)."""
    used = sum(1 for c in cards if c >= NUMBER_CARDS)
    if not used:
        return cards
    return (*(c for c in cards if c < NUMBER_CARDS), *copies[:used])


def listed(view: View, action: PlayCards) -> bool:
    """Whether `action` is one of the plays `legal_plays(view)` lists (the contract's legal
    actions): exact for every combo but Any, whose listing is capped."""
    cv = view.combos[action.combo]
    assert view.hand is not None
    return any(
        play.cards == action.cards and play.copies == action.copies
        for play in iter_plays(cv.combo, cv.top, cv.last, view.hand)
    )


# Deciding ---------------------------------------------------------------------------------------


_EVALUATORS: dict[Params, Evaluator] = {}


def evaluator(params: Params = PARAMS) -> Evaluator:
    found = _EVALUATORS.get(params)
    if found is None:
        found = _EVALUATORS[params] = Evaluator(params)
    return found


def _without(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def scored_actions(view: View, params: Params = PARAMS) -> list[tuple[float, Action]]:
    """Every action the AI considers in phase `play`, with the value it leaves the seat."""
    assert view.hand is not None and view.seat is not None
    p, ev = params, evaluator(params)
    hand, seat = view.hand, view.seat
    t = Table(view.combos, view.refill, view.time_pile, view.players)
    singles = [cv.combo.colours for cv in view.combos if cv.combo.kind is ComboKind.SINGLE]
    threats = Threats(view, singles)
    time = view.time_cards[seat]
    flip = face_up_depletion(view, seat)
    reserve = time * p.time + flip * p.flip
    base = ev.value(hand, t, threats)
    loss = {c: base - ev.value(_without(hand, (c,)), t, threats) for c in hand}
    out: list[tuple[float, Action]] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    for index, cards in candidates(view.combos, hand, loss):
        play = canonical(cards)
        if (index, play.cards) in seen:
            continue
        seen.add((index, play.cards))
        cv = view.combos[index]
        try:
            faces = check_play(cv.combo, cv.top, cv.last, hand, play.cards, play.copies)
        except GameError:
            continue
        kind = cv.combo.kind
        reward = REWARD_TIME.get(kind, 0)
        gained = min(reward, view.time_pile)
        spell = kind is ComboKind.PAIR and view.refill > 0
        after = t.after(cv, max(n for _, n in faces), len(cards), gained, spell)
        rest = _without(hand, play.cards)
        v = ev.value(rest, after, threats) + reserve + gained * p.time + (p.spell if spell else 0.0)
        if not (time or gained or flip or spell or _can_act_on(rest, after)):
            v -= p.stuck
        out.append((v, PlayCards(combo=index, cards=play.cards, copies=play.copies)))
    stuck = 0.0 if _can_act_on(hand, t) else p.stuck
    if time:
        v = base + reserve - p.time - p.feed
        if time == 1 and not flip:
            v -= stuck
        out.append((v, UseTime()))
    if flip:
        out.append((base + reserve - p.flip - (0.0 if time else stuck), FlipDepletion()))
    return out


REWARD_TIME = {ComboKind.THREE: 1, ComboKind.FOUR: 2, ComboKind.STRAIGHT: 1}
REWARD_TIME |= {ComboKind.FLUSH: 1, ComboKind.ANY: 1}


def decide(view: View, rng: random.Random, params: Params = PARAMS) -> Action:
    """The AI seat's action; always one of the legal actions of the view."""
    if not view.my_turn or view.hand is None or view.seat is None:
        raise GameError(Reason.NOT_YOUR_TURN)
    if view.phase == "next":
        return NextGame()
    scored = scored_actions(view, params)
    scored.sort(key=lambda item: -item[0])
    for _, action in scored:
        if not isinstance(action, PlayCards) or listed(view, action):
            return action
    actions = legal_plays(view)
    if not actions:
        raise GameError(Reason.ILLEGAL_MOVE, "no_action")
    return rng.choice(actions)
