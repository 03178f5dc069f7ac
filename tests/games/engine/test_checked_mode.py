"""Checked mode (`games.engine.step.check_states`): the rules may build states without
validation, and in the test suite every state `advance`, `advance_all` and `replay` produce is
validated through the game's state model, so a rule that builds an invalid one fails here."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Literal

import pytest
from pydantic import Field, TypeAdapter

from games.engine.contract import Event, Frozen, Outcome, Rules, Step, ToMove
from games.engine.exact import ExactActions, between, is_bool
from games.engine.step import (
    InvalidState,
    LoggedAction,
    advance,
    advance_all,
    check_states,
    checking,
    replay,
)


class Config(Frozen):
    players: int = Field(ge=1, le=1)


class Counter(Frozen):
    count: int = Field(ge=0, le=9)


class Add(Frozen):
    kind: Literal["add"] = "add"
    amount: int = Field(ge=1, le=99)
    shout: bool = False


class Overflow(Rules[Config, Counter, Add, Counter]):
    """One seat adds to a counter that may not pass 9; the rule forgets the bound and builds its
    state without validation. `shout` adds an event whose cards are not card ids."""

    game_id = "overflow"
    min_players = max_players = 1
    config_model = Config
    state_model = Counter
    action_adapter = TypeAdapter(Add)
    exact_actions = ExactActions.of({Add: {"amount": between(1, 99), "shout": is_bool}})

    def make_config(self, players: int, options: dict[str, Any]) -> Config:
        return Config(players=players)

    def setup(self, config: Config) -> Counter:
        return Counter(count=0)

    def to_move(self, state: Counter) -> ToMove:
        return ToMove(seats=frozenset({0}))

    def legal_actions(self, state: Counter, seat: int) -> Sequence[Add]:
        return [Add(amount=1)]

    def chance_action(self, state: Counter, rng: random.Random) -> Add:
        raise AssertionError("no chance in this game")

    def apply(self, state: Counter, actor: int, action: Add) -> Step:
        events = (
            (Event.model_construct(key="overflow.shout", cards=("x",)),) if action.shout else ()
        )
        return Step(state=Counter.model_construct(count=state.count + action.amount), events=events)

    def view(self, state: Counter, seat: int | None) -> Counter:
        return state

    def outcome(self, state: Counter) -> Outcome | None:
        return None

    def resample_hidden(self, state: Counter, seat: int | None, rng: random.Random) -> Counter:
        return state

    def secret_cards(self, state: Counter) -> frozenset[int]:
        return frozenset()


RULES = Overflow()
START = RULES.setup(RULES.make_config(1, {}))


@pytest.fixture
def unchecked() -> Iterator[None]:
    """Checked mode off for one test, as in the bot."""
    check_states(False)
    yield
    check_states(True)


def test_the_test_suite_runs_in_checked_mode() -> None:
    assert checking()


def test_a_valid_transition_passes_checked_mode() -> None:
    assert advance(RULES, START, 0, 0, Add(amount=9), seed=1).state == Counter(count=9)


def test_advance_refuses_an_out_of_bounds_state_naming_the_game_and_the_action() -> None:
    with pytest.raises(InvalidState) as refused:
        advance(RULES, START, 0, 0, Add(amount=10), seed=1)
    assert "overflow" in str(refused.value)
    assert "Add(kind='add', amount=10, shout=False)" in str(refused.value)


def test_advance_all_refuses_an_invalid_state_made_by_a_later_action() -> None:
    with pytest.raises(InvalidState, match="amount=5"):
        advance_all(RULES, START, 0, 0, [Add(amount=5), Add(amount=5)], seed=1)


def test_replay_refuses_a_log_whose_action_builds_an_invalid_state() -> None:
    log = [LoggedAction(seq=1, actor=0, action={"kind": "add", "amount": 50})]
    with pytest.raises(InvalidState, match="seat 0's Add"):
        replay(RULES, RULES.make_config(1, {}), log)


def test_an_event_built_with_wrong_types_fails_checked_mode() -> None:
    with pytest.raises(InvalidState, match="shout=True"):
        advance(RULES, START, 0, 0, Add(amount=1, shout=True), seed=1)


@pytest.mark.usefixtures("unchecked")
def test_without_checked_mode_advance_does_not_validate_the_state() -> None:
    assert advance(RULES, START, 0, 0, Add(amount=50), seed=1).state.count == 50


@pytest.mark.usefixtures("unchecked")
def test_without_checked_mode_replay_does_not_validate_the_state() -> None:
    log = [LoggedAction(seq=1, actor=0, action={"kind": "add", "amount": 50})]
    assert replay(RULES, RULES.make_config(1, {}), log).count == 50
