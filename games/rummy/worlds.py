"""The worlds the STRONG search plays out: states drawn from a seat's view, made to look
like what the other players really hold.

`Rules.sample_state` deals every card the seat has not seen at random. Two things that
makes unlike the table:
- A Ready player's hand is one card from the goal form; a random hand almost never is, so
  in the playouts nobody would goal on our discard (three goals in four come that way).
  `sample_world` re-deals each Ready player's unseen cards as a random goal form less one
  card, keeping the cards it was seen taking (and, advanced, never waiting on a card of its
  own discard row: the NORMAL AI does not declare Ready then).
- Others' answers in an open claim window are hidden, and the sampled state makes them
  passes, so nobody would claim the card. Here every other player who could claim it in
  the drawn world answers again in the playout.
Everything drawn comes from the view and the rng only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from games.rummy.cards import COPIES, KINDS, NUMBER_KINDS, NUMBERS, kind
from games.rummy.models import State, View
from games.rummy.rules import RummyRules
from games.rummy.sets import kind_waits

Meld = tuple[int, ...]

BIG: tuple[Meld, ...] = (
    *((k, k, k) for k in range(KINDS)),
    *((k, k + 1, k + 2) for k in range(NUMBER_KINDS) if k % NUMBERS <= NUMBERS - 3),
)
SMALL: tuple[Meld, ...] = tuple((k, k) for k in range(KINDS))
FORM = (BIG, BIG, SMALL)
"""The goal form's sets: two big, one small."""
TRIES = 20
"""Draws of a goal form before a Ready player keeps its random hand (its seen cards fit
no goal form the unseen cards allow: rare)."""


def sample_world(rules: RummyRules, view: View, rng: random.Random) -> State:
    """A state consistent with `view` (see the module docstring)."""
    state = rules.sample_state(view, rng)
    for seat in range(view.config.players):
        if seat != view.seat and view.ready[seat] and view.hand_sizes[seat] == 7:
            state = _ready_hand(state, view, seat, rng)
    return _ask_again(rules, state, view)


def _ready_hand(state: State, view: View, seat: int, rng: random.Random) -> State:
    """`seat`'s unseen cards re-dealt as a goal form less one, from its own, the deck's and
    the unseen cards of the players not Ready (swapped for the cards it gives back)."""
    known = view.known[seat]
    others = [
        s for s in range(view.config.players) if s not in (seat, view.seat) and not view.ready[s]
    ]
    hidden = {s: [c for c in state.hands[s] if c not in view.known[s]] for s in (seat, *others)}
    pool = [*hidden[seat], *state.deck, *(c for s in others for c in hidden[s])]
    avail = Counter(kind(c) for c in pool)
    held = Counter(kind(c) for meld in view.opened[seat] for c in meld)
    banned = {kind(c) for c in view.rows[seat]} if view.config.advanced else set()
    for _ in range(TRIES):
        kinds = _waiting_kinds([kind(c) for c in known], avail, held, banned, rng)
        if kinds is not None:
            break
    else:
        return state
    needed = Counter(kinds) - Counter(kind(c) for c in known)
    chosen: set[int] = set()
    for card in sorted(pool, key=lambda c: rng.random()):
        if needed[kind(card)]:
            needed[kind(card)] -= 1
            chosen.add(card)
    returned = [c for c in hidden[seat] if c not in chosen]
    rng.shuffle(returned)

    def swap(cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(c if c not in chosen else returned.pop() for c in cards)

    hands = list(state.hands)
    hands[seat] = tuple(sorted((*known, *chosen)))
    for s in others:
        hands[s] = tuple(sorted(swap(state.hands[s])))
    return state.model_copy(update={"hands": tuple(hands), "deck": swap(state.deck)})


def _waiting_kinds(
    known: Sequence[int],
    avail: Counter[int],
    held: Counter[int],
    banned: set[int],
    rng: random.Random,
) -> list[int] | None:
    """7 kinds: a random goal form (the sets holding the `known` kinds first) less one card,
    the wait. The hand's other kinds must be in `avail` beyond the known ones; the wait need
    not be (a copy seen since Ready still leaves it waiting), but a copy must exist outside
    the hand and the `held` open sets, and no wait of the hand is `banned`. None if this
    draw fails."""
    have = Counter(known)
    room = avail + have + Counter(range(KINDS))  # one more copy of any kind: the wait
    sets: list[Meld] = []
    slots = list(FORM)
    left = list(known)
    rng.shuffle(left)
    while left or slots:
        if not slots:
            return None
        used = Counter(k for meld in sets for k in meld)
        options = [
            (meld, i)
            for i, melds in enumerate(slots)
            if melds not in slots[:i]  # the two big slots are one choice
            for meld in melds
            if (not left or left[0] in meld) and _fits(meld, used, room)
        ]
        if not options:
            return None
        meld, i = rng.choice(options)
        sets.append(meld)
        slots.pop(i)
        for k in meld:
            if k in left:
                left.remove(k)
    form = Counter(k for meld in sets for k in meld)
    short = [k for k in form if form[k] > avail[k] + have[k]]
    waits = [
        k
        for k in (short if short else form)
        if form[k] > have[k] and form[k] - 1 + held[k] < COPIES and k not in banned
    ]
    if len(short) > 1 or not waits:
        return None
    form[rng.choice(waits)] -= 1
    hand = sorted(form.elements())
    if banned & set(kind_waits(tuple(hand))):
        return None
    return hand


def _fits(meld: Meld, used: Counter[int], free: Counter[int]) -> bool:
    need = Counter(meld)
    return all(used[k] + n <= free[k] for k, n in need.items())


def _ask_again(rules: RummyRules, state: State, view: View) -> State:
    """Others who answered an open window answer again in the playout if they could claim."""
    window = state.window
    if window is None or view.window is None:
        return state
    answers = list(window.answers)
    for seat, done in enumerate(view.window.answered):
        if seat == view.seat or seat == window.discarder or not done:
            continue
        answers[seat] = None
        reopened = state.model_copy(
            update={"window": window.model_copy(update={"answers": tuple(answers)})}
        )
        if rules.legal_actions(reopened, seat)[1:]:
            continue
        answers[seat] = window.answers[seat]
    return state.model_copy(
        update={"window": window.model_copy(update={"answers": tuple(answers)})}
    )
