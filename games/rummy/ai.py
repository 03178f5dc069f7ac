"""Angels & Demons Rummy AI: builds toward the goal form, deciding from its view only.

How it decides (`decide`, always returning one of `view.legal`):
- What it has seen: its hand, the field, every discard row and open set, and the cards
  others took from the face-up field (still known to be in their hands). Every other copy
  is *unseen*, and only unseen copies can still come (`unseen_counts`).
- A 7-card hand is worth `-deficiency + outs_weight * outs` (`games.rummy.shape`): the cards
  it lacks for the goal form, then how many unseen cards would bring it closer.
- Goal whenever a goal is legal (after a take, or on a discard when Ready).
- Take: the field card whose best follow-up (a discard or an open) leaves the best hand;
  Ready, the card safest to discard (it must be discarded) unless one completes the goal.
- After a take: every discard and every open is scored; an open is worth its expected hand
  after the 2 drawn cards (sampled from the unseen cards) plus the set itself (much more for
  the first set, which a goal needs; more for an Item-only set in the advanced rules).
- Discards lose `danger`: the chance others use the card, by a Gain (someone holding two
  cards that make a big set with it, estimated from the unseen cards and the known ones) or
  by a goal (a Ready player; the cards in that player's row are safe; `read_waits`,
  STRONG's, tells the other kinds apart), the advanced rules making a goal on our discard
  cost us its points too. Advanced, an Item that could give a player its third Item-only
  set costs the match: the AI keeps it, and takes such an Item
  off the field before that player can (`denial`).
- Ready is declared with the chosen discard when the waits have at least `ready_min_outs`
  unseen cards (advanced: and none of our waits is in our own discard row).
- Claim window: Goal when legal; a Gain when its expected hand plus the set beats passing.
Weights are in `Params` (set by hand; bench/rummy_ai.py measures them, `--opponents normal`
compares a change against the defaults).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, exp
from typing import TypeVar

from games.rummy.cards import COPIES, KINDS, NUMBER_KINDS, NUMBERS, is_item, is_red, kind
from games.rummy.models import Action, Discard, Gain, Goal, NextGame, Open, Pass, Take, View
from games.rummy.sets import ITEM_VICTORY_SETS, big_sets_in, item_sets, run_partners, waits
from games.rummy.shape import Shape, counts_of

CardsT = TypeVar("CardsT", bound=Sequence[int])


@dataclass(frozen=True)
class Params:
    """Weights of the evaluation, in cards of deficiency."""

    outs_weight: float = 0.02
    """Per unseen card that would bring the hand one card closer to the goal form."""
    first_open: float = 2.5
    """The first open set: a goal needs one."""
    open_value: float = 0.25
    """A further open set: a point at the goal, more bonus-check matches."""
    item_set: float = 0.5
    """Advanced: an Item-only set, toward the Item victory (per set already held)."""
    red_keep: float = 0.03
    """Keeping a red card (it scores at a goal)."""
    danger_gain: float = 0.15
    """Per expected Gain an opponent makes with our discard."""
    danger_goal: float = 1.0
    """Per expected goal a Ready opponent makes with our discard (doubled when advanced)."""
    item_victory: float = 50.0
    """Advanced: winning the match by an Item victory (or losing it to one), in cards."""
    item_second: float = 0.02
    """Advanced: share of `item_victory` for handing a player its second Item-only set."""
    deny: float = 0.5
    """Advanced: share of an Item's threat that taking it off the field averts."""
    wait_risk: float = 0.12
    """Chance that a card not in a Ready player's row completes that player's goal."""
    read_waits: bool = False
    """Advanced: read that chance for each kind from the view (`Mind.wait_chance`) instead."""
    ready_min_outs: int = 1
    """Ready only when the waits have at least this many unseen cards."""
    draw_samples: int = 4
    """Samples of the 2 cards drawn after an open or a Gain."""
    take_shortlist: int = 2
    """Field cards given a full look (the rest are ranked by deficiency alone)."""


PARAMS = Params()

WAIT_LOGIT = {"base": -2.9, "ours": -1.1, "item": -1.4, "runs": 1.2, "unseen": 0.2, "end": -0.4}
"""Log-odds that a kind completes a Ready player's goal in the advanced rules, fitted on
54,000 (discard, Ready opponent) pairs of 250 matches of STRONG against NORMAL (2 and 4
players): a kind we discarded before (it went by without a goal), an Item (no runs), a 1
or a 7 are safer; the run partners the player may hold and the unseen copies are not."""


def unseen_counts(view: View) -> list[int]:
    """Per kind, the copies the viewer has not seen (the deck and others' unseen cards)."""
    seen = [*(view.hand or ()), *view.field, *view.out]
    for seat in range(view.config.players):
        seen += view.rows[seat]
        seen += [c for s in view.opened[seat] for c in s]
        if seat != view.seat:
            seen += view.known[seat]
    counts = [COPIES] * KINDS
    for card in seen:
        counts[kind(card)] -= 1
    return counts


class Mind:
    """One decision's reading of the view: the unseen cards, the evaluator, the threats."""

    def __init__(self, view: View, rng: random.Random, params: Params) -> None:
        assert view.seat is not None and view.hand is not None
        self.view, self.rng, self.p = view, rng, params
        self.seat = view.seat
        self.hand = view.hand
        self.unseen = unseen_counts(view)
        self.shape = Shape(self.unseen)
        self.pool = [k for k in range(KINDS) for _ in range(self.unseen[k])]
        self.opened = view.opened[self.seat]
        self.advanced = view.config.advanced
        self.others = [s for s in range(view.config.players) if s != self.seat]

    # Hands ------------------------------------------------------------------------------

    def deficiency(self, cards: Sequence[int]) -> int:
        return self.shape.deficiency(counts_of([kind(c) for c in cards]))

    def value(self, cards: Sequence[int]) -> float:
        counts = counts_of([kind(c) for c in cards])
        deficiency, outs, _ = self.shape.outs(counts)
        reds = sum(1 for c in cards if is_red(c))
        return -deficiency + self.p.outs_weight * outs + self.p.red_keep * reds

    def after_draw(self, cards: Sequence[int]) -> float:
        """Expected value of `cards` plus 2 cards drawn from the unseen ones."""
        if len(self.pool) < 2:
            return self.value(cards)
        total = 0.0
        for _ in range(self.p.draw_samples):
            a, b = self.rng.sample(self.pool, 2)
            # A drawn kind is stood in for by a card id of that kind (only kinds matter).
            total += self.value([*cards, a * COPIES + 1, b * COPIES + 1])
        return total / self.p.draw_samples

    def set_value(self, cards: Sequence[int]) -> float:
        value = self.p.open_value if self.opened else self.p.first_open
        if self.advanced and all(is_item(c) for c in cards):
            held = item_sets(self.opened)
            value += self.p.item_set * (1 + held)
            if held + 1 >= ITEM_VICTORY_SETS:
                value += self.p.item_victory
        return value

    # Threats ----------------------------------------------------------------------------

    def danger(self, card: int) -> float:
        """What discarding `card` is expected to give the others."""
        k = kind(card)
        risk = 0.0
        for seat in self.others:
            if self.view.ready[seat]:
                if k not in {kind(c) for c in self.view.rows[seat]}:
                    goal = self.p.danger_goal * (2 if self.advanced else 1)
                    read = self.p.read_waits and self.advanced
                    risk += goal * (self.wait_chance(seat, k) if read else self.p.wait_risk)
                continue
            gain = self.gain_chance(seat, k)
            risk += (self.p.danger_gain + self.item_threat(seat, k)) * gain
        return risk

    def gain_chance(self, seat: int, k: int) -> float:
        """The chance that `seat` holds two cards making a big set with a card of kind `k`,
        from the cards it was seen taking and its share of the unseen ones."""
        known = [kind(c) for c in self.view.known[seat]]
        share = (self.view.hand_sizes[seat] - len(known)) / max(1, len(self.pool))

        def holds(j: int) -> float:
            return 1.0 if j in known else min(1.0, self.unseen[j] * share)

        pair = 1.0 if known.count(k) >= 2 else comb(self.unseen[k], 2) * share * share
        chance = pair + (share * self.unseen[k] if k in known else 0.0)
        for a, b in run_partners(k):
            chance += holds(a) * holds(b)
        return min(1.0, chance)

    def wait_chance(self, seat: int, k: int) -> float:
        """Advanced: the chance that a card of kind `k` completes the Ready `seat`'s goal
        (`WAIT_LOGIT`); a kind in that player's own row never does (the caller's check)."""
        known = [kind(c) for c in self.view.known[seat]]
        share = (self.view.hand_sizes[seat] - len(known)) / max(1, len(self.pool))

        def holds(j: int) -> float:
            return 1.0 if j in known else min(1.0, self.unseen[j] * share)

        w = WAIT_LOGIT
        logit = w["base"] + w["unseen"] * self.unseen[k]
        if k in {kind(c) for c in self.view.rows[self.seat]}:
            logit += w["ours"]
        if k >= NUMBER_KINDS:
            logit += w["item"]
        else:
            logit += w["runs"] * sum(holds(a) * holds(b) for a, b in run_partners(k))
            logit += w["end"] * (k % NUMBERS in (0, NUMBERS - 1))
        return 1 / (1 + exp(-logit))

    def item_threat(self, seat: int, k: int) -> float:
        """Advanced: what an Item of kind `k` in a set of `seat`'s may cost us: the match
        when it would be that player's third Item-only set, a share of it for the second."""
        if not self.advanced or k < NUMBER_KINDS:
            return 0.0
        held = item_sets(self.view.opened[seat])
        if held >= ITEM_VICTORY_SETS - 1:
            return self.p.item_victory
        return self.p.item_victory * self.p.item_second if held else 0.0

    def denial(self, card: int) -> float:
        """Advanced: taking an Item off the field before a player it could give an Item
        victory to takes it."""
        k = kind(card)
        return sum(
            self.p.deny * self.item_threat(seat, k) * self.gain_chance(seat, k)
            for seat in self.others
            if not self.view.ready[seat]
        )

    # Choices ----------------------------------------------------------------------------

    def turn_options(self, cards: Sequence[int]) -> list[tuple[float, Action]]:
        """Every discard (one per kind, black before red) and open of the 8 `cards` after a
        take, scored. Only the discards leaving the fewest cards missing get the full
        evaluation; the others are judged by that count alone (an outs bonus rarely makes
        up a whole card)."""
        discards = [(card, [c for c in cards if c != card]) for card in _one_per_kind(cards)]
        missing = [self.deficiency(rest) for _, rest in discards]
        fewest = min(missing)
        options: list[tuple[float, Action]] = []
        for (card, rest), lacking in zip(discards, missing, strict=True):
            value = self.value(rest) if lacking == fewest else self.rough_value(rest, lacking)
            options.append((value - self.danger(card), Discard(card=card)))
        for trio in _one_per_kinds(big_sets_in(cards)):
            rest = [c for c in cards if c not in trio]
            score = self.after_draw(rest) + self.set_value(trio)
            options.append((score, Open(cards=trio)))
        return options

    def rough_value(self, cards: Sequence[int], deficiency: int) -> float:
        return -deficiency + self.p.red_keep * sum(1 for c in cards if is_red(c))

    def ready_pays(self, rest: Sequence[int], discard: int) -> bool:
        held = [c for s in self.opened for c in s]
        kinds = waits(rest, held)
        outs = sum(self.unseen[k] for k in kinds)
        if outs < self.p.ready_min_outs:
            return False
        row = {kind(c) for c in (*self.view.rows[self.seat], discard)}
        return not (self.advanced and row & set(kinds))


def _one_per_kind(cards: Sequence[int]) -> list[int]:
    """A card of each kind in `cards`, a black one where there is one (reds score)."""
    chosen: dict[int, int] = {}
    for card in sorted(cards, key=lambda c: (kind(c), is_red(c))):
        chosen.setdefault(kind(card), card)
    return list(chosen.values())


def _one_per_kinds(sets: Sequence[CardsT]) -> list[CardsT]:
    """One of each distinct set of kinds among `sets`."""
    chosen: dict[tuple[int, ...], CardsT] = {}
    for cards in sets:
        chosen.setdefault(tuple(kind(c) for c in cards), cards)
    return list(chosen.values())


def decide(view: View, rng: random.Random, params: Params = PARAMS) -> Action:
    legal = view.legal
    for action in legal:
        if isinstance(action, Goal | NextGame):
            return action
    if len(legal) == 1:
        return legal[0]
    mind = Mind(view, rng, params)
    if view.phase == "take":
        return _take(mind, legal)
    if view.phase == "act":
        return _act(mind, legal)
    return _claim(mind, legal)


def _take(mind: Mind, legal: Sequence[Action]) -> Action:
    takes = [a for a in legal if isinstance(a, Take)]
    if mind.view.ready[mind.seat]:
        # No goal among them (decide took it): the card will be discarded, take the safest.
        return max(takes, key=lambda a: (-mind.danger(a.card), mind.rng.random()))
    if len(takes) > mind.p.take_shortlist:
        denied = [a for a in takes if mind.denial(a.card) > 0]
        takes = _shortlist(mind, takes)
        takes += [a for a in denied if a not in takes]
    scored = [
        (
            max(score for score, _ in mind.turn_options([*mind.hand, a.card]))
            + mind.denial(a.card),
            mind.rng.random(),
            a,
        )
        for a in takes
    ]
    return max(scored, key=lambda s: (s[0], s[1]))[2]


def _shortlist(mind: Mind, takes: list[Take]) -> list[Take]:
    """The field cards worth a full look: those leaving the fewest cards missing after the
    best discard (an open counting as one card closer)."""

    def quick(take: Take) -> float:
        cards = [*mind.hand, take.card]
        best = min(mind.deficiency([c for c in cards if c != x]) for x in _one_per_kind(cards))
        return best - (0.5 if big_sets_in(cards) else 0.0)

    return sorted(takes, key=quick)[: mind.p.take_shortlist]


def _act(mind: Mind, legal: Sequence[Action]) -> Action:
    options = [option for option in mind.turn_options(mind.hand) if option[1] in legal]
    action = max(options, key=lambda o: o[0])[1]
    if isinstance(action, Discard):
        ready = Discard(card=action.card, ready=True)
        rest = [c for c in mind.hand if c != action.card]
        if ready in legal and mind.ready_pays(rest, action.card):
            return ready
    return action


def _claim(mind: Mind, legal: Sequence[Action]) -> Action:
    window = mind.view.window
    assert window is not None
    best: tuple[float, Action] = (mind.value(mind.hand), Pass())
    for action in legal:
        if isinstance(action, Gain):
            rest = [c for c in mind.hand if c not in action.cards]
            score = mind.after_draw(rest) + mind.set_value((*action.cards, window.card))
            if score > best[0]:
                best = (score, action)
    return best[1]
