"""The action boundary (`Rules.checked`, `parse_action`, `dump_action`): an action is validated
once where it comes in, the game's own `apply` asking again costs nothing, and nothing
unvalidated slips through behind a validated action. For every registered game.

What `checked` takes without validating it is declared once per game (`Rules.exact_actions`):
an action whose fields each pass their check must be what validation gives back, field by
field and type by type."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from games.engine import GameError, Reason, Rules, advance
from games.engine.exact import ExactActions, is_int
from games.registry import GAMES
from games.thegame.models import ChooseFirst


def some_actions(rules: Rules[Any, Any, Any, Any], seed: int = 3) -> list[BaseModel]:
    """Legal actions of the seats to move over the first steps of a random game."""
    rng = random.Random(seed)
    config = rules.make_config(max(rules.min_players, 2), {})
    state = advance(rules, rules.setup(config), 0, 0, None, seed).state
    found: list[BaseModel] = []
    for _ in range(8):
        seats = sorted(rules.to_move(state).seats)
        if not seats:
            break
        legal = list(rules.legal_actions(state, seats[0]))
        found += legal
        state = advance(rules, state, 0, seats[0], rng.choice(legal), seed).state
    return found


def mistyped(action: BaseModel) -> BaseModel | None:
    """`action` rebuilt without validation with a string in its first integer field."""
    for name, value in action.__dict__.items():
        if isinstance(value, int) and not isinstance(value, bool):
            return type(action).model_construct(**{**action.__dict__, name: "x"})
    return None


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_action_model_nests_a_model(game_id: str) -> None:
    """`Rules.checked` validates an action's fields as they are: a nested model would be
    taken as it is, unvalidated, so no game's action may have one."""
    schema = GAMES[game_id].action_adapter.core_schema
    actions = [node for node in nodes(schema) if node.get("type") == "model"]
    assert actions
    for action in actions:
        inner = [
            n
            for n in nodes(action["schema"])
            if n.get("type") in ("model", "definitions", "definition-ref")
        ]
        assert not inner, f"{action['cls'].__name__} nests a model"


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every dict of a core schema, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from nodes(value)


JUNK: tuple[Any, ...] = (0, 1, 7, -1, 10**6, True, False, 1.0, "x", None, (), (1,), (2, 1), [1])
"""Field values an unvalidated action may carry (some valid for some fields)."""


def action_classes(rules: Rules[Any, Any, Any, Any]) -> set[type[BaseModel]]:
    schema = rules.action_adapter.core_schema
    return {node["cls"] for node in nodes(schema) if node.get("type") == "model"}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_exact_actions_name_every_action_class_of_the_game(game_id: str) -> None:
    rules = GAMES[game_id]
    assert set(rules.exact_actions.fields) == action_classes(rules)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_action_taken_as_it_is_is_what_validation_gives_back(game_id: str) -> None:
    rules, rng = GAMES[game_id], random.Random(7)
    listed = some_actions(rules)
    taken = 0
    for _ in range(3000):
        cls = rng.choice(sorted(rules.exact_actions.fields, key=lambda c: c.__name__))
        like = [a for a in listed if type(a) is cls]
        fields = dict(rng.choice(like).__dict__) if like else {}
        for name in cls.model_fields:
            if name not in fields or rng.random() < 0.5:
                fields[name] = rng.choice(JUNK)
        action = cls.model_construct(**fields)
        try:
            if rules.checked(action) is not action:
                continue
        except GameError:
            continue
        taken += 1
        validated = rules.action_adapter.validate_python(fields)
        assert type(validated) is cls
        assert [(v, type(v)) for v in validated.__dict__.values()] == [
            (v, type(v)) for v in action.__dict__.values()
        ]
    assert taken


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_action_built_in_advance_is_what_validation_gives_back_and_dumps_as_kept(
    game_id: str,
) -> None:
    rules = GAMES[game_id]
    assert rules.exact_actions.built
    for action, _ in rules.exact_actions.built.values():
        dumped = rules.action_adapter.dump_python(action, mode="json")
        validated = rules.action_adapter.validate_python(dumped)
        assert type(validated) is type(action) and validated == action
        assert rules.dump_action(action) == dumped


def test_a_kept_dump_handed_out_is_the_callers_own() -> None:
    rules = GAMES["thegame"]
    action, _ = next(iter(rules.exact_actions.built.values()))
    rules.dump_action(action)["kind"] = "changed"
    assert rules.dump_action(action)["kind"] == action.kind


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_action_of_a_class_not_the_games_is_refused_as_unknown(game_id: str) -> None:
    rules = GAMES[game_id]
    for other in GAMES.values():
        if other is not rules:
            with pytest.raises(GameError) as refused:
                rules.checked(some_actions(other)[0])
            assert refused.value.detail == "unknown_action"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_validated_action_is_let_through_again_as_it_is(game_id: str) -> None:
    rules = GAMES[game_id]
    action = some_actions(rules)[0]
    validated = rules.checked(action)
    assert validated == action
    assert rules.checked(validated) is validated


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_unvalidated_action_is_refused_right_after_a_valid_one(game_id: str) -> None:
    rules = GAMES[game_id]
    broken = [(a, b) for a in some_actions(rules) if (b := mistyped(a)) is not None]
    assert broken, "no action with an integer field"
    for action, bad in broken[:5]:
        rules.checked(action)
        with pytest.raises(GameError) as refused:
            rules.checked(bad)
        assert (refused.value.reason, refused.value.detail) == (
            Reason.ILLEGAL_MOVE,
            "malformed_action",
        )


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_unvalidated_copy_of_a_legal_action_is_accepted_as_that_action(
    game_id: str,
) -> None:
    """(A game may take a copy whose fields are exactly what validation leaves as it is.)"""
    rules = GAMES[game_id]
    for action in some_actions(rules)[:5]:
        copy = type(action).model_construct(**action.__dict__)
        validated = rules.checked(copy)
        assert type(validated) is type(action)
        assert validated == action


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_actions_logged_form_is_what_the_action_model_dumps(game_id: str) -> None:
    rules = GAMES[game_id]
    for action in some_actions(rules):
        assert rules.dump_action(action) == rules.action_adapter.dump_python(action, mode="json")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_nothing_refused_passes_after_an_action_that_passed(game_id: str) -> None:
    """The check remembers the last action whose fields passed (the engine checks an action
    and the game's `apply` checks it again): None, or an action rebuilt with a bad field,
    checked right after it, is still refused."""
    rules = GAMES[game_id]
    for action in some_actions(rules):
        copy = type(action).model_validate(action.__dict__)  # not one the rules built
        assert rules.checked(copy) is copy
        bad = mistyped(action)
        for refused in (None, bad) if bad is not None else (None,):
            with pytest.raises(GameError):
                rules.checked(refused)


def test_no_action_is_of_no_class_before_any_action_passed() -> None:
    """A game's check that has seen no action yet takes None for none of its classes."""
    assert ExactActions.of({ChooseFirst: {"seat": is_int}}).exact(None) is None
