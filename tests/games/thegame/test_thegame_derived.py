"""The Game's rules build states, events and views without validating them, and keep derived
values (cards left, the player's moves, the signals) with each state: over random playouts,
each kept value equals the one computed afresh from a validated copy, and what the rules build
equals its validated form."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from games.engine.contract import CHANCE, Event, Step
from games.engine.errors import GameError
from games.engine.step import advance
from games.thegame import AI, RULES
from games.thegame.models import (
    ACTION_ADAPTER,
    ASCENDING,
    CARDS,
    PILES,
    EndTurn,
    Phase,
    Play,
    Signal,
    SignalKind,
    TheGameAction,
    TheGameConfig,
    TheGameState,
    TheGameView,
)
from games.thegame.rules import fits


def unvalidated(cls: type[BaseModel], **fields: Any) -> BaseModel:
    """An action built without validation (as a careless caller may pass one)."""
    return cls.model_construct(**fields)


def fresh(state: TheGameState) -> TheGameState:
    """The same state validated anew: nothing derived is kept with it."""
    return TheGameState.model_validate(state.model_dump())


def playout(seed: int) -> Iterator[tuple[TheGameState, Step]]:
    """Each state of a random game (mostly the AI, sometimes a random legal action, signals
    included) with the step that led to it."""
    rng = random.Random(seed)
    options = {
        "on_fire": seed % 2 == 0,
        "min_three": seed % 3 == 0,
        "smaller_hand": seed % 4 == 0,
        "signals": seed % 5 != 0,
        "first_player": None,
    }
    config = RULES.make_config(seed % 5 + 1, options)
    state = advance(RULES, RULES.setup(config), 0, CHANCE, None, seed).state
    while not RULES.is_over(state):
        seat = rng.randrange(config.players)
        legal = RULES.legal_actions(state, seat)
        if legal and rng.random() < 0.4:
            action = rng.choice(legal)
        else:
            seat = state.turn
            action = AI.normal(RULES.view(state, seat), rng)
        step = RULES.apply(state, seat, action)
        state = step.state
        yield state, step


def recomputed_moves(state: TheGameState) -> list[TheGameAction]:
    """The player to move's plays and end of turn, by the placement rule itself."""
    moves: list[TheGameAction] = [
        Play(card=card, pile=pile)
        for card in state.hands[state.turn]
        for pile in range(PILES)
        if fits(state.top(pile), card, ASCENDING[pile])
    ]
    if state.played_this_turn >= state.minimum:
        moves.append(EndTurn())
    return moves


@pytest.mark.parametrize("seed", range(10))
def test_kept_cards_left_equals_the_count_of_a_validated_copy(seed: int) -> None:
    for state, _ in playout(seed):
        assert state.cards_left == fresh(state).cards_left
        assert state.cards_left == len(state.draw) + sum(len(hand) for hand in state.hands)


@pytest.mark.parametrize("seed", range(10))
def test_each_states_attributes_keep_a_compact_table_over_a_game(seed: int) -> None:
    """A state's table is no larger than one built anew for its attributes: the slots of the
    derived values a move drops are not carried on (the table doubled within a few moves, and
    past 512 bytes every session's state moved out of Python's small-object allocator)."""
    for state, _ in playout(seed):
        assert sys.getsizeof(state.__dict__) <= sys.getsizeof(dict(state.__dict__))


@pytest.mark.parametrize("seed", range(10))
def test_kept_legal_actions_equal_those_of_a_validated_copy(seed: int) -> None:
    for state, _ in playout(seed):
        for seat in range(state.config.players):
            kept = RULES.legal_actions(state, seat)
            assert kept == RULES.legal_actions(state, seat)  # asked again: the kept one
            assert kept == RULES.legal_actions(fresh(state), seat)


@pytest.mark.parametrize("seed", range(10))
def test_kept_moves_are_every_play_that_fits_and_the_end_of_a_turn_due(seed: int) -> None:
    for state, _ in playout(seed):
        if not RULES.is_over(state):
            assert list(state.moves) == recomputed_moves(state)


@pytest.mark.parametrize("seed", range(10))
def test_states_built_without_validation_equal_their_validated_form(seed: int) -> None:
    for state, _ in playout(seed):
        validated = fresh(state)
        assert validated == state
        assert validated.model_dump() == state.model_dump()
        assert hash(validated) == hash(state)


@pytest.mark.parametrize("seed", range(10))
def test_events_built_without_validation_equal_their_validated_form(seed: int) -> None:
    for _, step in playout(seed):
        for event in step.events:
            assert Event.model_validate(event.model_dump()) == event


@pytest.mark.parametrize("seed", range(10))
def test_views_built_without_validation_equal_their_validated_form(seed: int) -> None:
    for state, _ in playout(seed):
        for seat in (None, *range(state.config.players)):
            view = RULES.view(state, seat)
            assert TheGameView.model_validate(view.model_dump()) == view


def test_kept_values_stay_out_of_the_dump() -> None:
    state = next(playout(1))[0]
    before = state.model_dump_json()
    assert state.cards_left and state.moves and state.signal_moves is not None
    assert state.model_dump_json() == before


def test_model_copy_recounts_the_cards_left_after_an_update() -> None:
    state = next(playout(2))[0]
    assert state.cards_left > 0
    emptied = state.model_copy(
        update={"drawn": len(state.deck), "hands": tuple(() for _ in state.hands)}
    )
    assert emptied.cards_left == 0


def test_evolve_recomputes_the_moves_when_a_pile_changes() -> None:
    config = TheGameConfig(players=1)
    state = TheGameState(config=config, phase=Phase.PLAY, hands=((50, 60),), deck=(2, 3))
    assert Play(card=50, pile=0) in state.moves
    blocked = state.evolve({"tops": (80, 80, 20, 20), "counts": (1, 1, 1, 1)})
    assert blocked.moves == ()


def test_evolve_keeps_the_signals_when_only_a_hand_changes() -> None:
    config = TheGameConfig(players=2)
    state = TheGameState(config=config, phase=Phase.PLAY, hands=((50,), (60,)), deck=(2,))
    kept = state.signal_moves
    after = state.evolve({"hands": ((50, 51), (60,))})
    assert after.signal_moves is kept
    assert after.cards_left == 4


def test_evolve_recomputes_the_signals_when_one_is_set() -> None:
    config = TheGameConfig(players=2)
    state = TheGameState(config=config, phase=Phase.PLAY, hands=((50,), (60,)), deck=(2,))
    assert Signal(pile=0, signal=SignalKind.NO_PLAY, on=True) in state.signal_moves
    after = state.evolve({"signals": ((SignalKind.NO_PLAY,), (), (), ())})
    assert Signal(pile=0, signal=SignalKind.NO_PLAY, on=False) in after.signal_moves


@pytest.mark.parametrize(
    "action",
    [
        unvalidated(Play, kind="play", card=50, pile=-1),
        unvalidated(Play, kind="play", card=50, pile=4),
        unvalidated(Play, kind="play", card=None, pile=0),
        unvalidated(Play, kind="end_turn", card=50, pile=0),
        unvalidated(Signal, kind="signal", pile=-1, signal=SignalKind.NO_PLAY, on=True),
        unvalidated(Signal, kind="signal", pile=0, signal="no_play", on="x"),
        unvalidated(EndTurn, kind="play"),
    ],
)
def test_an_unvalidated_action_is_refused_before_the_rules_read_it(action: object) -> None:
    config = TheGameConfig(players=1)
    state = TheGameState(config=config, phase=Phase.PLAY, hands=((50, 60),), deck=(2, 3))
    with pytest.raises(GameError):
        RULES.apply(state, 0, action)  # type: ignore[arg-type]


def test_a_validated_play_of_a_number_never_dealt_is_refused_as_not_in_hand() -> None:
    config = TheGameConfig(players=1)
    state = TheGameState(config=config, phase=Phase.PLAY, hands=((50, 60),), deck=tuple(CARDS[:2]))
    with pytest.raises(GameError) as info:
        RULES.apply(state, 0, Play(card=150, pile=0))
    assert info.value.detail == "not_in_hand"


@pytest.mark.parametrize("seed", range(4))
def test_checked_gives_each_legal_action_back_equal_and_of_its_own_class(seed: int) -> None:
    for state, _ in playout(seed):
        for action in RULES.legal_actions(state, state.turn):
            parsed = ACTION_ADAPTER.validate_python(RULES.dump_action(action))
            assert RULES.checked(parsed) == action
            assert type(RULES.checked(parsed)) is type(action)
