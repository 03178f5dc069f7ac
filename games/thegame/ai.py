"""The Game AI: plans the whole turn from the seat's view, then returns its next action.

Why it plays well:
- A play's cost is the *live* cards it skips: numbers between the old and the new top that
  may still be in someone's hand or the draw pile (estimated from the view), and our own hand
  cards it strands, weighted down when the card still fits another pile. A ±10 trick is a gain:
  it gives the skipped numbers back. Jumps of several plays on one pile telescope, so the search
  compares whole turns, tricks and trick chains included (play 67, then 57, then 47 ...).
- The turn plan (a depth-first search over the plays, in a canonical pile order) meets the
  minimum at the smallest cost and adds extra plays only while each is cheaper than a bonus.
- Signals: other players' "no_play" piles cost a big penalty (used only when nothing else
  meets the minimum), "no_jump" piles cost extra per skipped number. With several players it
  asks others not to play on a pile where it keeps a trick card, and clears a "no_play" just
  before it plays on that pile itself; at the end of its turn it asks "no big jump" where it
  holds a card at most `near` numbers from the top, and clears such a signal where it holds
  none (with two players that one is its own). Every signal it wants is computed from its
  hand and the tops alone, so a turn sets or clears each at most once: there is no loop.
- On Fire: a burning blue top must be covered this turn (plans that don't are dropped); a blue
  card left on top costs the estimated chance that the next player cannot cover it.

`decide` is a pure function of the view (memoised), so the same view gives the same action.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import mul

from games.thegame.models import (
    ASCENDING,
    BLUE_NUMBERS,
    EndTurn,
    Play,
    Signal,
    SignalKind,
    TheGameAction,
    TheGameView,
)

INF = float("inf")
NO_GAP = 102
OTHER = (1, 0, 3, 2)
"""The other pile of the same direction (piles 0, 1 go up; 2, 3 go down)."""


@dataclass(frozen=True)
class Params:
    """Weights of the turn evaluation, tuned on bench/thegame_ai.py."""

    density: bool = False
    """Weight skipped numbers by the estimated chance they are still live."""
    density_endgame: bool = True
    """...but only once the draw pile is empty (when unseen cards are other players' hands)."""
    endgame_extra: float = 0.6
    """Extra-play bonus once the draw pile is empty (negative: same as `extra`)."""
    alt_floor: float = 0.35
    """Skip weight of a live number that still fits another pile right next to it..."""
    alt_span: float = 50.0
    """...rising linearly to 1 when the other pile is this far away (or none takes it)."""
    own: float = 1.3
    """Weight of one of our own hand cards skipped (it certainly exists)."""
    dead: float = 6.0
    """Extra cost of a hand card left fitting no pile."""
    extra: float = 1.2
    """Bonus per card beyond the minimum: an extra play is made when it costs less."""
    no_play: float = 60.0
    """Penalty per non-trick play on a pile another player asked us to avoid."""
    close_skip: int = -1
    """A card that skips at most this many numbers counts as close, like a trick card: the AI
    asks the others not to play where it holds one (-1: trick cards only)."""
    close_draw: int = 98
    """...but only once the draw pile is down to this many cards."""
    no_play_skip: int = 0
    """The penalty for playing on a "no_play" pile grows to `no_play` over this many skipped
    numbers (0: the full penalty for any non-trick play)."""
    no_jump: float = 1.0
    """Penalty per skipped number beyond `no_jump_free` on a "no big jump" pile."""
    near: int = 3
    """The AI asks "no big jump" where it holds a card skipping at most this many numbers
    (and clears its stale ones at the end of its turn; -1: it never asks)."""
    no_jump_free: int = 2
    fire: float = 300.0
    """Cost of losing the game by a burning blue card, times its estimated chance."""
    save_tricks: bool = False
    save_tricks_endgame: bool = False
    """Multiplayer: keep a trick card for the next turn (with a signal) instead of an extra play."""
    max_extra: int = 5
    width: int = 6
    """Costly plays tried per step of the search (cheapest first)."""
    extra_width: int = 2
    """Cheap extra plays tried per step once the minimum is met."""
    max_nodes: int = 3000
    endgame_nodes: int = 20000
    """Budget (memoised states) of the exact search once we alone hold cards."""


PARAMS = Params()


def fits(top: int, card: int, ascending: bool) -> bool:
    """The placement rule (same as rules.fits, kept local for speed)."""
    if ascending:
        return card > top or card == top - 10
    return card < top or card == top + 10


def decide(view: TheGameView, rng: random.Random) -> TheGameAction:
    """The next action of the seat to move (deterministic; `rng` is unused)."""
    del rng
    piles = view.piles
    key = _Key(
        hand=tuple(view.hand or ()),
        tops=tuple(p.top for p in piles),
        burning=tuple(p.burns_at_turn_end for p in piles),
        signals=tuple(frozenset(p.signals) for p in piles),
        required=view.still_required,
        players=view.config.players,
        signalling=view.config.signals and view.config.players > 1,
        on_fire=view.config.on_fire,
        draw=view.draw_count,
        unseen=view.cards_left - len(view.hand or ()),
        next_hand=_next_hand_size(view),
        hand_size=view.config.hand_size,
        params=PARAMS,
    )
    return _decide(key)


@dataclass(frozen=True)
class _Key:
    """Everything a decision depends on (hashable, for the memo)."""

    hand: tuple[int, ...]
    tops: tuple[int, ...]
    burning: tuple[bool, ...]
    signals: tuple[frozenset[SignalKind], ...]
    required: int
    players: int
    signalling: bool
    """Signals are in play (a variant may switch them off): the AI sets and reads them."""
    on_fire: bool
    draw: int
    unseen: int
    next_hand: int
    """Cards held by whoever takes the next turn; 0 when that is ourselves (solo)."""
    hand_size: int
    params: Params


def _next_hand_size(view: TheGameView) -> int:
    players = len(view.hand_sizes)
    seat = view.seat if view.seat is not None else view.turn
    for offset in range(1, players):
        size = view.hand_sizes[(seat + offset) % players]
        if size:
            return size
    return 0


@lru_cache(maxsize=2048)
def _decide(key: _Key) -> TheGameAction:
    plan = None
    if key.draw == 0 and key.next_hand == 0:
        # Nobody else holds a card and nothing is left to draw: the longest run of plays wins.
        blue = BLUE_NUMBERS if key.on_fire else frozenset()
        plan = _longest_run(key.hand, key.tops, key.burning, blue, key.params.endgame_nodes)
    if plan is None:
        plan = _Planner(key).search()
    multi = key.signalling
    if plan:
        card, pile = plan[0]
        if multi and key.signals[pile]:
            clear = _signal_to_clear(key, plan, pile)
            if clear is not None:
                return Signal(pile=pile, signal=clear, on=False)
        return Play(card=card, pile=pile)
    if multi:
        stale = _stale_jump(key)
        if stale is not None:
            return Signal(pile=stale, signal=SignalKind.NO_JUMP, on=False)
        target = _signal_target(key)
        if target is not None and target[1] not in key.signals[target[0]]:
            return Signal(pile=target[0], signal=target[1], on=True)
        near = _jump_target(key)
        if near is not None:
            return Signal(pile=near, signal=SignalKind.NO_JUMP, on=True)
    return EndTurn()


def _signal_to_clear(key: _Key, plan: tuple[tuple[int, int], ...], pile: int) -> SignalKind | None:
    """A "don't play here" on `pile` that our plays there are about to make void."""
    if SignalKind.NO_PLAY not in key.signals[pile]:
        return None
    final = list(key.tops)
    for c, p in plan:
        final[p] = c
    rest = set(key.hand) - {c for c, _ in plan}
    close = _holds_close(rest, final[pile], pile, key.params, key.draw)
    return None if close else SignalKind.NO_PLAY


def _longest_run(
    hand: tuple[int, ...],
    tops: tuple[int, ...],
    burning: tuple[bool, ...],
    blue: frozenset[int],
    limit: int,
) -> tuple[tuple[int, int], ...] | None:
    """The longest sequence of plays from here (exact, memoised); None past `limit` states.

    On Fire, a sequence that puts a non-blue card on every burning pile beats any that doesn't.
    """
    Run = tuple[bool, tuple[tuple[int, int], ...]]
    memo: dict[tuple[int, int, tuple[int, ...]], Run] = {}
    n = len(hand)

    def run(mask: int, hot: int, state: tuple[int, ...]) -> Run:
        key = (mask, hot, state)
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= limit:
            raise _TooBig
        best: Run = (hot == 0, ())
        remaining = n - mask.bit_count()
        for i in range(n):
            if mask >> i & 1:
                continue
            card = hand[i]
            for p in range(4):
                if fits(state[p], card, ASCENDING[p]):
                    nxt = list(state)
                    nxt[p] = card
                    cooled = hot if card in blue else hot & ~(1 << p)
                    safe, rest = run(mask | 1 << i, cooled, tuple(nxt))
                    if (safe, len(rest) + 1) > (best[0], len(best[1])):
                        best = (safe, ((card, p), *rest))
                        if safe and len(best[1]) == remaining:
                            memo[key] = best
                            return best
        memo[key] = best
        return best

    hot = sum(1 << p for p in range(4) if burning[p])
    try:
        return run(0, hot, tops)[1]
    except _TooBig:
        return None


class _TooBig(Exception):
    """The endgame search went past its budget."""


def _holds_trick(hand: set[int] | tuple[int, ...], top: int, pile: int) -> bool:
    return (top - 10 if ASCENDING[pile] else top + 10) in hand


def _holds_close(
    hand: set[int] | tuple[int, ...], top: int, pile: int, params: Params, draw: int
) -> bool:
    """A trick card, or a card that skips at most `close_skip` numbers on the pile."""
    if _holds_trick(hand, top, pile):
        return True
    if draw > params.close_draw:
        return False
    step = 1 if ASCENDING[pile] else -1
    return any(top + step * d in hand for d in range(1, params.close_skip + 2))


def _holds_near(hand: set[int] | tuple[int, ...], top: int, pile: int, span: int) -> bool:
    """A card that skips at most `span` numbers on the pile."""
    step = 1 if ASCENDING[pile] else -1
    return any(top + step * d in hand for d in range(1, span + 2))


def _stale_jump(key: _Key) -> int | None:
    """A "no big jump" pile where we hold no near card, at the end of our turn: with two
    players it is ours (the other player re-asks at the end of its own turn if it still
    wants it)."""
    span = key.params.near
    if span < 0:
        return None
    for pile, top in enumerate(key.tops):
        if SignalKind.NO_JUMP in key.signals[pile] and not _holds_near(key.hand, top, pile, span):
            return pile
    return None


def _jump_target(key: _Key) -> int | None:
    """A pile to ask "no big jump" on: we hold a card skipping at most `near` numbers there
    (not already asked, nor asked "don't play")."""
    span = key.params.near
    if span < 0:
        return None
    for pile, top in enumerate(key.tops):
        signals = key.signals[pile]
        if SignalKind.NO_JUMP in signals or SignalKind.NO_PLAY in signals:
            continue
        if _holds_near(key.hand, top, pile, span):
            return pile
    return None


def _signal_target(key: _Key) -> tuple[int, SignalKind] | None:
    """The one signal worth setting at the end of our turn: "don't play here" where we keep a
    trick card. Only one, and computed from the hand and tops alone, so it never toggles."""
    for pile, top in enumerate(key.tops):
        if SignalKind.NO_PLAY not in key.signals[pile] and _holds_close(
            key.hand, top, pile, key.params, key.draw
        ):
            return pile, SignalKind.NO_PLAY
    return None


class _Planner:
    """Depth-first search over this turn's plays with an incrementally updated score."""

    def __init__(self, key: _Key) -> None:
        params = key.params
        self.key = key
        self.params = params
        hand, tops = key.hand, key.tops
        self.hand = hand
        self.start = tops
        self.blue = BLUE_NUMBERS if key.on_fire else frozenset()
        endgame = key.draw == 0
        density = params.density or (endgame and params.density_endgame)
        self.weights = weights = _live_weights(hand, tops, key.unseen, density)
        self.live = weights if density else None
        self.bonus = params.extra
        if endgame and params.endgame_extra >= 0:
            self.bonus = params.endgame_extra
        floor, slope = params.alt_floor, (1.0 - params.alt_floor) / params.alt_span
        table = [min(1.0, floor + slope * (g - 1)) for g in range(NO_GAP)] + [1.0]
        # value[p][t]: live weight still reachable on pile p when its top is t, each number
        # weighted by how badly it needs pile p (less when another pile takes it cheaply).
        self.value = []
        self.alt = []
        for pile, gaps in enumerate(_alt_gaps(tops)):
            alt = list(map(table.__getitem__, gaps))
            self.alt.append(alt)
            contrib = list(map(mul, weights, alt))
            if ASCENDING[pile]:
                v = [*reversed(list(accumulate(reversed(contrib[1:])))), 0.0]
            else:
                v = [0.0, *accumulate(contrib[:-1])]
            self.value.append(v)
        own = params.own
        self.own = [[own * self.alt[pile][x] for pile in range(4)] for x in hand]
        multi = key.signalling
        self.play_pen = tuple(
            params.no_play
            if multi
            and SignalKind.NO_PLAY in s
            and not _holds_close(hand, tops[i], i, params, key.draw)
            else 0.0
            for i, s in enumerate(key.signals)
        )
        self.jump_pen = tuple(
            params.no_jump
            if multi
            and SignalKind.NO_JUMP in s
            and not (params.near >= 0 and _holds_near(hand, tops[i], i, params.near))
            else 0.0
            for i, s in enumerate(key.signals)
        )

    def search(self) -> tuple[tuple[int, int], ...]:
        """The best plan of plays (card, pile) for the rest of this turn; () ends the turn.

        Plans are sets of plays: they are searched in pile order (plays on one pile in their
        own order), with at most `required` plays that cost more than the extra-play bonus;
        cheap plays, tricks and the setup of a trick may come on top.
        """
        key, params = self.key, self.params
        hand = self.hand
        n = len(hand)
        tops = list(self.start)
        fitcount = [sum(1 for p in range(4) if fits(tops[p], x, ASCENDING[p])) for x in hand]
        alive0 = [c > 0 for c in fitcount]
        used = [False] * n
        index = {x: i for i, x in enumerate(hand)}
        value, own, blue = self.value, self.own, self.blue
        play_pen, jump_pen = self.play_pen, self.jump_pen
        burning = key.burning
        required = key.required
        max_depth = required + params.max_extra
        bonus, dead_w, width = self.bonus, params.dead, params.width
        save_tricks = key.signalling and (
            params.save_tricks or (params.save_tricks_endgame and key.draw == 0)
        )
        jump_free = params.no_jump_free
        same = [
            False,
            play_pen[0] == play_pen[1] and jump_pen[0] == jump_pen[1] and not any(burning[:2]),
            False,
            play_pen[2] == play_pen[3] and jump_pen[2] == jump_pen[3] and not any(burning[2:]),
        ]
        moves: list[tuple[int, int]] = []
        best_score, best_depth = INF, -1
        best_plan: tuple[tuple[int, int], ...] = ()
        nodes = [0]

        def score_of(base: float, depth: int) -> float:
            score = base - bonus * (depth - required)
            if blue:
                for p in range(4):
                    top = tops[p]
                    if top in blue:
                        if burning[p]:
                            return INF  # no non-blue card on the old blue one
                        score += params.fire * self._burn_chance(tops, p, used)
            return score

        def rec(last: int, base: float, acc: list[float], counts: list[int]) -> None:
            nonlocal best_score, best_plan, best_depth
            depth = len(moves)
            nodes[0] += 1
            if depth >= required:
                score = score_of(base, depth)
                if best_depth < required or score < best_score:
                    best_score, best_plan, best_depth = score, tuple(moves), depth
            elif depth > best_depth:
                best_score, best_plan, best_depth = INF, tuple(moves), depth
            if depth >= max_depth or nodes[0] > params.max_nodes:
                return
            extra = depth >= required
            candidates = []
            for i in range(n):
                if used[i]:
                    continue
                card = hand[i]
                for p in range(last, 4):
                    top = tops[p]
                    if p in (1, 3) and tops[p - 1] == top and same[p]:
                        continue  # identical to the pile before it
                    up = ASCENDING[p]
                    if up:
                        trick = card == top - 10
                        if not trick:
                            if card <= top:
                                continue
                            other = OTHER[p]
                            if (
                                top < tops[other] < card
                                and not play_pen[other]
                                and not (burning[p] and top in blue)
                            ):
                                continue
                        lo, hi = (top, card) if card > top else (card, top)
                        flips = (top - 10, card - 10)
                    else:
                        trick = card == top + 10
                        if not trick:
                            if card >= top:
                                continue
                            other = OTHER[p]
                            if (
                                card < tops[other] < top
                                and not play_pen[other]
                                and not (burning[p] and top in blue)
                            ):
                                continue
                        lo, hi = (card, top) if card < top else (top, card)
                        flips = (top + 10, card + 10)
                    if trick and save_tricks and depth >= required:
                        continue
                    cost = value[p][top] - value[p][card] - acc[i]
                    if not trick:
                        if play_pen[p]:
                            skip = (card - top if up else top - card) - 1
                            spread = params.no_play_skip
                            cost += play_pen[p] * (min(1.0, skip / spread) if spread else 1.0)
                        if jump_pen[p]:
                            skipped = (card - top if up else top - card) - 1
                            if skipped > jump_free:
                                cost += jump_pen[p] * (skipped - jump_free)
                    setup = covers = False
                    if not trick:
                        partner = card - 10 if up else card + 10
                        setup = partner in index and not used[index[partner]]
                        covers = top in blue and card not in blue
                        if extra and cost > bonus and not setup and not covers:
                            continue  # skipping more of our cards only adds to the cost
                    # Our other cards whose place on this pile changes (skipped or regained).
                    changes = None
                    js = list(range(bisect_right(hand, lo), bisect_left(hand, hi)))
                    for f in flips:
                        j = index.get(f)
                        if j is not None and not lo < f < hi:
                            js.append(j)
                    for j in js:
                        if used[j] or j == i:
                            continue
                        x = hand[j]
                        if up:
                            after = x > card or x == card - 10
                            before = x > top or x == top - 10
                        else:
                            after = x < card or x == card + 10
                            before = x < top or x == top + 10
                        if before == after:
                            continue
                        delta = own[j][p] if before else -own[j][p]
                        c = counts[j] + (1 if after else -1)
                        cost += delta
                        if alive0[j]:
                            if c == 0:
                                cost += dead_w
                            elif c == 1 and after:
                                cost -= dead_w
                        if changes is None:
                            changes = [(j, delta, c)]
                        else:
                            changes.append((j, delta, c))
                    cheap = trick or cost <= bonus
                    if extra and not cheap and not setup and not covers:
                        continue
                    candidates.append((cost, i, p, card, top, cheap, setup or covers, changes))
            if not candidates:
                return
            candidates.sort(key=_first)
            # The cheapest few plays (fewer once the minimum is met), and the best trick setup.
            chosen = candidates[: params.extra_width if extra else width]
            for cand in candidates[len(chosen) :]:
                if cand[6]:
                    chosen.append(cand)
                    break
            for cost, i, p, card, top, _, _, changes in chosen:
                new_acc = acc[:]
                new_counts = counts[:]
                new_acc[i] = 0.0
                if changes:
                    for j, delta, c in changes:
                        new_acc[j] += delta
                        new_counts[j] = c
                used[i] = True
                tops[p] = card
                moves.append((card, p))
                rec(p, base + cost, new_acc, new_counts)
                moves.pop()
                tops[p] = top
                used[i] = False

        rec(0, 0.0, [0.0] * n, fitcount)
        return best_plan

    def _burn_chance(self, tops: list[int], pile: int, used: list[bool]) -> float:
        """Chance that the blue card left on `pile` is not covered by the end of the next turn."""
        key = self.key
        top, up, blue = tops[pile], ASCENDING[pile], self.blue
        if key.next_hand == 0:
            # The next turn is our own: a remaining non-blue card that fits will do, else a draw.
            remaining = 0
            for i, card in enumerate(self.hand):
                if not used[i]:
                    remaining += 1
                    if card not in blue and fits(top, card, up):
                        return 0.0
            tries = min(key.draw, key.hand_size - remaining)
        else:
            tries = key.next_hand
        unseen = key.unseen
        if unseen <= 0 or tries <= 0:
            return 1.0
        if self.live is None:
            self.live = _live_weights(self.hand, self.start, unseen, True)
        live = self.live
        fitting = sum(
            live[x] for x in range(2, 100) if live[x] and x not in blue and fits(top, x, up)
        )
        # Drawn without replacement from the unseen cards: the chance that none of them fits.
        chance = 1.0
        for i in range(min(tries, unseen)):
            chance *= max(0.0, (unseen - fitting - i) / (unseen - i))
        return chance


def _live_weights(
    hand: tuple[int, ...], tops: tuple[int, ...], unseen: int, density: bool
) -> list[float]:
    """Chance that each number is still live in someone else's hand or the draw pile.

    Numbers beyond every pile top cannot have been played yet; the others share what is left.
    """
    held = set(hand)
    held.update(tops)
    weights = [0.0] * 102
    if not density:
        for x in range(2, 100):
            if x not in held:
                weights[x] = 1.0
        return weights
    hi_up = max(tops[0], tops[1])
    lo_down = min(tops[2], tops[3])
    fresh = [x for x in range(max(2, hi_up + 1), min(100, lo_down)) if x not in held]
    stale = [x for x in range(2, 100) if x not in held and not hi_up < x < lo_down]
    w_fresh = min(1.0, unseen / len(fresh)) if fresh else 0.0
    w_stale = min(1.0, max(0, unseen - len(fresh)) / len(stale)) if stale else 0.0
    for x in fresh:
        weights[x] = w_fresh
    for x in stale:
        weights[x] = w_stale
    return weights


def _alt_gaps(tops: tuple[int, ...]) -> list[list[int]]:
    """gaps[p][x]: the smallest jump with which a pile other than p takes x normally.

    NO_GAP when no other pile takes x.
    """
    per_pile = []
    for q in range(4):
        top = tops[q]
        if ASCENDING[q]:
            per_pile.append([NO_GAP] * (top + 1) + list(range(1, 102 - top)))
        else:
            per_pile.append(list(range(top, 0, -1)) + [NO_GAP] * (102 - top))
    return [list(map(min, *(per_pile[q] for q in range(4) if q != p))) for p in range(4)]


def _first(item: tuple[float, *tuple[object, ...]]) -> float:
    return item[0]
