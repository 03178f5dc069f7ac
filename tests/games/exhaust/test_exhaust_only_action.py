"""`only_action` counts the listing instead of building it: it must agree with `legal_plays`
on every view of whole games, the one-action positions included."""

from __future__ import annotations

import random

import pytest

from games.engine.step import advance
from games.exhaust import RULES
from games.exhaust.plays import legal_plays, only_action

TABLES = [(1, {}), (2, {}), (3, {}), (4, {"long_game": True}), (5, {})]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_only_action_agrees_with_the_listing_on_every_view_of_whole_games(
    players: int, options: dict[str, object]
) -> None:
    singles = 0
    for seed in range(12):
        rng = random.Random(seed)
        config = RULES.make_config(players, options)
        step = advance(RULES, RULES.setup(config), 0, 0, None, seed)
        state, version = step.state, len(step.logged)
        while seats := sorted(RULES.to_move(state).seats):
            for seat in [None, *range(players)]:
                view = RULES.view(state, seat)
                listed = len(legal_plays(view))
                assert only_action(view) == (listed == 1)
                singles += listed == 1
            action = rng.choice(RULES.legal_actions(state, seats[0]))
            step = advance(RULES, state, version, seats[0], action, seed)
            state, version = step.state, version + len(step.logged)
    assert singles  # the games reached a position with a single action
