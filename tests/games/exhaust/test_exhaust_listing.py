"""Listed plays are built field by field without validation (plays.table_actions): each must be
the very action validation would give, for every use an action has."""

from __future__ import annotations

import random

from games.engine.step import advance
from games.exhaust import RULES
from games.exhaust.cards import DECK
from games.exhaust.combos import ComboKind, raw_plays, split, table
from games.exhaust.models import ACTION_ADAPTER, PlayCards


def listed_plays(players: int, seed: int) -> list[PlayCards]:
    """Every play listed for the first seat to move in a fresh random deal."""
    step = advance(RULES, RULES.setup(RULES.make_config(players, {})), 0, 0, None, seed)
    seat = min(RULES.to_move(step.state).seats)
    return [a for a in RULES.legal_actions(step.state, seat) if isinstance(a, PlayCards)]


def test_a_listed_play_equals_hashes_and_dumps_as_the_play_validated_from_its_fields() -> None:
    for players, seed in [(1, 3), (2, 5), (4, 8)]:
        for action in listed_plays(players, seed):
            validated = ACTION_ADAPTER.validate_python(action.model_dump())
            assert validated == action and action == validated
            assert hash(validated) == hash(action)
            assert RULES.dump_action(action) == RULES.dump_action(validated)
            assert action.model_fields_set == validated.model_fields_set


def test_a_listed_play_is_taken_by_the_rules_as_it_is() -> None:
    action = random.Random(1).choice(listed_plays(2, 1))
    assert RULES.checked(action) is action


def test_flush_and_any_on_one_split_hand_list_what_each_lists_on_a_hand_of_its_own() -> None:
    """The hand's one-colour plays are made once per split hand, whichever combo asks first
    and whatever count each needs."""
    combos = table(2)
    flush = next(c for c in combos if c.kind is ComboKind.FLUSH)
    any_ = next(c for c in combos if c.kind is ComboKind.ANY)
    rng = random.Random(4)
    for _ in range(40):
        hand = sorted(rng.sample(DECK, 15))
        for lasts in [(None, None), (4, None), (None, 5), (6, 3), (3, 7)]:
            shared = split(hand)
            for combo, last in sorted(
                zip((flush, any_), lasts, strict=True), key=lambda p: rng.random()
            ):
                alone = list(raw_plays(combo, None, last, split(hand)))
                assert list(raw_plays(combo, None, last, shared)) == alone
