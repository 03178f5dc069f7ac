"""Hell Queue Club's transitions copy only what changes: what they leave alone is left as it
was (rules.py; the digests of whole games are checked against main when the rules change)."""

from __future__ import annotations

import pytest

from games.engine.errors import GameError
from games.hellqueue import RULES
from games.hellqueue.models import Mark, Queue, Reroll, State
from tests.games.hellqueue.hellqueue_tables import dice, table


def test_a_payout_leaves_the_rest_area_of_a_seat_with_no_dice_under_the_card_as_it_was():
    state = table(
        active={0: "L6"},
        rest={3: (2, 1)},
        queues={2: {1: "L5 L5 B5 S5 S5 S5 S5", 2: "S1 S1 S1 S1"}},
        card_stones={2: "RRRRRR"},
    )
    after: State = RULES.apply(state, 0, Queue(face=6, slot=2)).state
    assert after.payout is None  # the payout ended in the same step
    assert (after.players[3].rest_large, after.players[3].rest_small) == (2, 1)
    assert after.players[3] == state.players[3]


def test_a_mark_of_large_dice_on_the_sleep_card_is_refused():
    state = table(active={0: "L1 L4"}, sleep={0: "4"})
    state = RULES.apply(state, 0, Reroll(face=1)).state
    with pytest.raises(GameError) as info:
        RULES.apply(state, 0, Mark(where="sleep", size="large", face=4))
    assert info.value.detail == "bad_die"


def test_a_reroll_rests_the_whole_face_group_of_every_kind():
    state = table(active={0: "L3 S3 S3 B3 L5"})
    after: State = RULES.apply(state, 0, Reroll(face=3)).state
    assert after.players[0].active == dice("L5")
    assert (after.players[0].rest_large, after.players[0].rest_small) == (1, 2)
    assert after.rest_black == 1


def test_a_copy_of_dice_whose_count_was_asked_counts_its_own_dice():
    counted = dice("L1 L2 S3")
    assert counted.count == 3
    assert counted.with_faces("large", (5,)).count == 2
    assert counted.model_copy(update={"black": (4, 4)}).count == 5


def test_dice_whose_count_was_asked_dump_and_compare_as_before():
    counted, fresh = dice("L1 S3 B6"), dice("L1 S3 B6")
    assert counted.count == 3
    assert counted.model_dump(mode="json") == fresh.model_dump(mode="json")
    assert counted == fresh and hash(counted) == hash(fresh)
