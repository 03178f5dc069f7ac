"""A game's config and setup state are made once per table (`runtime.setups`), not validated
and built again at every start: a rematch must still start exactly the game that validating
its options and setting it up anew gives, and options are still validated the first time
they come (in any type the strict validation would refuse)."""

from __future__ import annotations

import pytest

from games import registry
from games.engine import GameError, Reason
from games.engine.step import advance
from runtime.listeners import Change
from runtime.setups import setup_of
from storage import Storage
from tests.runtime.test_rematch_write import service_of
from tests.runtime.test_service import BOB, HOST, new_game, play


async def test_a_rematch_starts_the_game_validation_and_a_new_setup_give(
    storage: Storage,
) -> None:
    service = service_of(storage)
    told: list[Change] = []

    async def listener(change: Change) -> None:
        told.append(change)

    service.subscribe(listener)
    try:
        session = await play(service, (await new_game(service, (HOST, BOB), target=4)).id)
        change = await service.rematch(session.id, HOST)
        await service.settle()
        new = change.session
        rules, record = new.rules, new.record
        config = rules.make_config(len(record.seats), {**record.options, "first_player": None})
        dealt = advance(rules, rules.setup(config), 0, 0, None, record.seed)
        assert new.config == config
        assert record.config == config.model_dump(mode="json")
        assert new.state == dealt.state and change.events == dealt.events
        assert record.version == len(dealt.logged)
        assert told[-1] is change and change.kind == "start"
    finally:
        await service.close()


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_a_table_setup_is_what_its_options_validate_to(game: str) -> None:
    rules = registry.GAMES[game]
    players = max(2, rules.min_players)
    config = rules.make_config(players, {"first_player": 1})
    setup = setup_of(rules, players, {}, 1)
    assert setup.config == config
    assert setup.dumped == config.model_dump(mode="json")
    assert setup.state == rules.setup(config)
    assert setup.to_move == rules.to_move(setup.state)


def test_a_table_seen_again_is_not_made_again() -> None:
    rules = registry.GAMES["thegame"]
    first = setup_of(rules, 3, {"on_fire": True, "signals": False}, None)
    assert setup_of(rules, 3, {"on_fire": True, "signals": False}, None) is first
    assert setup_of(rules, 3, {"on_fire": True}, None) is not first
    assert setup_of(rules, 2, {"on_fire": True, "signals": False}, None) is not first
    assert setup_of(rules, 3, {"on_fire": True, "signals": False}, 0).config.first_player == 0


def test_an_equal_option_of_a_refused_type_is_refused_after_a_valid_one() -> None:
    rules = registry.GAMES["thegame"]
    assert setup_of(rules, 2, {"on_fire": True}, None).config.on_fire is True
    with pytest.raises(GameError) as refused:
        setup_of(rules, 2, {"on_fire": 1}, None)  # 1 == True, but not a bool
    assert refused.value.reason is Reason.BAD_OPTION


def test_refused_options_are_refused_every_time() -> None:
    rules = registry.GAMES["thegame"]
    for options in ({"on_fire": "yes"}, {"on_fire": "yes"}, {"on_fire": [True]}):
        with pytest.raises(GameError) as refused:
            setup_of(rules, 2, options, None)
        assert refused.value.reason is Reason.BAD_OPTION
