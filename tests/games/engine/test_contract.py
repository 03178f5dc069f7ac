"""The shared engine contract, checked for every game in `games.registry.GAMES`.

Only the generic `Rules` contract is used here, so a new game is covered by registering it.
For every game, player count and variant (`Rules.variants`), random legal playouts (uniform
among the legal actions of the seats to move; chance resolved with `advance`) are run over many
seeds, and at every step:

- the state round-trips through JSON; `outcome` is None until the game is over;
- the public view does not change when everything hidden is re-dealt, and a seat's view does
  not change when the other seats' hidden cards are re-dealt; public events show no hidden card;
- a seat to move always has an action; chance actions are refused from every seat;
- at a random share of steps, the AI of each seat to move (given only its view) picks a legal
  action;
- at a random share of steps, `legal_actions` is exact: sampled listed actions apply; actions
  listed for another seat but not this one, small mutations of listed actions and chance actions
  are refused with GameError;
- every logged action round-trips through JSON and `parse_action`/`dump_action`;
- replaying the log (from the start, and from a mid-game snapshot) gives the live state;
- all of it in checked mode: every state `advance` and `replay` produce (chance's included) is
  validated through the game's state model, so a rule that builds an invalid state without
  validation fails here.

Up to 60 seeds per game and player count (at least 10; see BUDGET).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from pydantic import ValidationError

from games.engine.contract import CHANCE, SYSTEM, Event, Rules
from games.engine.errors import GameError, Reason
from games.engine.step import LoggedAction, advance, check_states, checking, replay
from games.registry import AIS, GAMES

SEEDS = 60
"""Seeds per game and player count..."""
MIN_SEEDS = 10
"""...but at least this many, and beyond it only while the case is within its time budget."""
BUDGET = float(os.environ.get("CONTRACT_BUDGET", "40"))
"""Seconds for all playouts of the file, shared equally by the (game, player count) cases, so
the file stays fast as games are added. `CONTRACT_SEEDS=n` runs exactly n seeds instead."""
FORCED_SEEDS = os.environ.get("CONTRACT_SEEDS")
MAX_STEPS = 20_000
"""Steps (log entries) after which a playout counts as endless."""
SAMPLE = 10
"""At most this many actions are tried per check per step."""
EXACTNESS_SHARE = 0.25
"""Share of steps at which `legal_actions` is checked to be exact (a costly check)."""
SEAT_VIEW_SHARE = 0.5
"""Share of steps at which one seat's view is checked against re-dealt hidden cards."""
AI_SHARE = 0.25
"""Share of steps at which the AI of each seat to move is asked (AIs may plan; costly)."""

CASES = [
    pytest.param(game_id, players, options, id=f"{game_id}-{players}p-v{variant}")
    for game_id, rules in sorted(GAMES.items())
    for players in range(rules.min_players, rules.max_players + 1)
    for variant, options in enumerate(rules.variants)
]


@pytest.fixture(autouse=True)
def checked_mode() -> Iterator[None]:
    """Checked mode for every test here, whatever the rest of the suite sets."""
    was = checking()
    check_states(True)
    yield
    check_states(was)


def test_registry_is_not_empty_and_keyed_by_game_id():
    assert GAMES
    for game_id, rules in GAMES.items():
        assert rules.game_id == game_id
        assert 1 <= rules.min_players <= rules.max_players


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_each_variant_config_is_valid_and_setup_is_deterministic(game_id, players, options):
    rules = GAMES[game_id]
    config = rules.make_config(players, {**options, "first_player": None})
    assert rules.config_model.model_validate_json(config.model_dump_json()) == config
    assert rules.setup(config) == rules.setup(config)
    assert rules.outcome(rules.setup(config)) is None
    assert not rules.is_over(rules.setup(config))


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_random_playouts_keep_the_contract(game_id, players, options):
    rules = GAMES[game_id]
    config = rules.make_config(players, {**options, "first_player": None})
    seeds, budget = SEEDS, BUDGET / len(CASES)
    if FORCED_SEEDS is not None:
        seeds, budget = int(FORCED_SEEDS), float("inf")
    start = time.monotonic()
    for seed in range(seeds):
        if seed >= MIN_SEEDS and time.monotonic() - start > budget:
            break
        try:
            Playout(rules, config, players, seed).run()
        except Exception as error:
            error.add_note(f"game={game_id} players={players} options={options} seed={seed}")
            raise


def sample(items: Sequence[Any], rng: random.Random, k: int = SAMPLE) -> list[Any]:
    return list(items) if len(items) <= k else rng.sample(list(items), k)


class Playout:
    """One random legal game, checked step by step."""

    def __init__(self, rules: Rules[Any, Any, Any, Any], config: Any, players: int, seed: int):
        self.rules = rules
        self.config = config
        self.seats = range(players)
        self.seed = seed
        self.rng = random.Random(f"contract:{rules.game_id}:{players}:{seed}")
        self.log: list[LoggedAction] = []
        self.states: list[Any] = []
        """The live state after each log entry that ended a step (by version)."""
        self.versions: list[int] = []
        self.chance_actions: list[Any] = []
        self.seat_actions: list[Any] = []
        self.resample_changed_state = False
        self.saw_secrets = False

    # The game loop ------------------------------------------------------------------------

    def run(self) -> None:
        rules = self.rules
        state = rules.setup(self.config)
        self.check_state(state)
        while not rules.is_over(state):
            assert len(self.log) < MAX_STEPS, "playout did not end"
            tm = rules.to_move(state)
            if tm.chance:
                self.check_chance_state(state)
                actor, action = CHANCE, None
            else:
                actor, action = self.choose(state)
                self.check_choice(state, actor, action)
                if self.rng.random() < EXACTNESS_SHARE:
                    self.check_legal_actions_are_exact(state)
            state = self.advance(state, actor, action)
            self.check_state(state)
            self.versions.append(len(self.log))
            self.states.append(state)
        self.check_end(state)

    def choose(self, state: Any) -> tuple[int, Any]:
        """Uniform among the legal actions of the seats to move (the clock if it may act)."""
        tm = self.rules.to_move(state)
        options = []
        for seat in sorted(tm.seats):
            legal = self.rules.legal_actions(state, seat)
            assert legal, f"seat {seat} is to move but has no legal action"
            options += [(seat, action) for action in legal]
        if tm.timeout is not None and (not options or self.rng.random() < 0.1):
            return SYSTEM, self.rules.timeout_action(state)
        assert options, "the game is not over, but neither chance nor any seat is to move"
        return self.rng.choice(options)

    def advance(self, state: Any, actor: int, action: Any) -> Any:
        rules = self.rules
        version = len(self.log)
        if action is not None:
            # The action's own events, checked against the state right after it.
            direct = rules.apply(state, actor, action)
            self.check_events(direct.events, direct.state)
        adv = advance(rules, state, version, actor, action, self.seed)
        assert adv.logged, "advance logged nothing"
        if action is not None:
            assert adv.logged[0].actor == actor
            assert rules.parse_action(adv.logged[0].action) == action
        for offset, entry in enumerate(adv.logged, start=1):
            assert entry.seq == version + offset
            self.check_logged(entry)
            if entry.actor == CHANCE:
                self.chance_actions.append(rules.parse_action(entry.action))
        self.check_events(adv.events, adv.state)
        self.log.extend(adv.logged)
        return adv.state

    # Checks -------------------------------------------------------------------------------

    def check_state(self, state: Any) -> None:
        rules = self.rules
        dumped = state.model_dump_json()
        assert rules.state_model.model_validate_json(dumped) == state
        assert (rules.outcome(state) is None) == (not rules.is_over(state))
        self.check_views(state)

    def check_views(self, state: Any) -> None:
        rules = self.rules
        secret = rules.secret_cards(state)
        public = rules.view(state, None)
        resampled = rules.resample_hidden(state, None, self.rng)
        assert rules.secret_cards(resampled) == secret, "re-dealing changed the hidden cards"
        assert rules.view(resampled, None) == public, "public view depends on hidden cards"
        if len(secret) >= 2:
            self.saw_secrets = True
        if resampled != state:
            self.resample_changed_state = True
        # At half of the steps, one seat: a seat to move or, as often, any seat.
        movers = sorted(rules.to_move(state).seats)
        pool = movers if movers and self.rng.random() < 0.5 else self.seats
        for seat in sample(pool, self.rng, 1 if self.rng.random() < SEAT_VIEW_SHARE else 0):
            own = rules.view(state, seat)
            other = rules.resample_hidden(state, seat, self.rng)
            assert rules.secret_cards(other) == secret
            assert rules.view(other, seat) == own, f"seat {seat} view depends on others' cards"

    def check_events(self, events: Sequence[Event], state_after: Any) -> None:
        secret = self.rules.secret_cards(state_after)
        for event in events:
            assert Event.model_validate_json(event.model_dump_json()) == event
            if event.public:
                assert not set(event.cards) & secret, f"public event shows a hidden card: {event}"
            else:
                assert event.audience, f"private event without audience: {event}"
                assert set(event.audience) <= set(self.seats), event

    def check_logged(self, entry: LoggedAction) -> None:
        rules = self.rules
        wire = json.loads(json.dumps(entry.action))
        action = rules.parse_action(wire)
        assert rules.dump_action(action) == entry.action
        assert LoggedAction.model_validate_json(entry.model_dump_json()) == entry

    def check_chance_state(self, state: Any) -> None:
        """A pending chance action is refused from every seat."""
        rules = self.rules
        chance = rules.chance_action(state, random.Random(self.rng.random()))
        for seat in self.seats:
            with pytest.raises(GameError):
                rules.apply(state, seat, chance)

    def check_choice(self, state: Any, actor: int, action: Any) -> None:
        """Sometimes: the AI of each seat to move picks a legal action."""
        rules = self.rules
        tm = rules.to_move(state)
        if actor != SYSTEM:
            self.seat_actions.append(action)
        if self.rng.random() >= AI_SHARE:
            return
        for seat in tm.seats:
            normal = AIS[rules.game_id].normal
            ai = normal(rules.view(state, seat), random.Random(self.rng.random()))
            assert self.key(ai) in self.keys(state, seat), f"AI of seat {seat} chose {ai!r}"

    def check_legal_actions_are_exact(self, state: Any) -> None:
        """Listed actions apply; unlisted ones (other seats', mutated, chance) are refused."""
        rules, rng = self.rules, self.rng
        tm = rules.to_move(state)
        legal = {seat: list(rules.legal_actions(state, seat)) for seat in self.seats}
        everyone = [a for actions in legal.values() for a in actions]
        for seat in self.seats:
            # Seats to move get the full sample, the others a few tries.
            k = SAMPLE if seat in tm.seats else 3
            for action in sample(legal[seat], rng, k):
                rules.apply(state, seat, action)  # must not raise
            keys = {self.key(a) for a in legal[seat]}
            candidates = sample(everyone, rng, 3 * k)
            candidates += [m for a in sample(legal[seat], rng, 2) for m in self.mutate(a)]
            candidates += sample(self.chance_actions, rng, 2)
            illegal = [a for a in candidates if self.key(a) not in keys]
            for action in sample(illegal, rng, k):
                with pytest.raises(GameError):
                    rules.apply(state, seat, action)
        # An actor outside the table is refused.
        for action in sample(everyone, rng, 2):
            with pytest.raises(GameError):
                rules.apply(state, len(self.seats), action)

    def keys(self, state: Any, seat: int) -> set[bytes]:
        return {self.key(a) for a in self.rules.legal_actions(state, seat)}

    def key(self, action: Any) -> bytes:
        """Equality key for actions (they need not be hashable)."""
        return self.rules.action_adapter.dump_json(action)

    def mutate(self, action: Any) -> list[Any]:
        """Variants of `action` with one top-level integer field nudged (if still valid)."""
        data = self.rules.dump_action(action)
        variants = []
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, int):
                continue
            for delta in (-1, 1, 10, -10, 50):
                with contextlib.suppress(ValidationError):
                    variants.append(self.rules.parse_action({**data, key: value + delta}))
        return variants

    def check_end(self, state: Any) -> None:
        rules = self.rules
        assert rules.outcome(state) is not None
        assert not rules.to_move(state).seats
        assert not rules.to_move(state).chance
        assert set(rules.outcome(state).winners) <= set(self.seats)
        # Nothing more is accepted once the game is over.
        for action in sample(self.seat_actions, self.rng, 5):
            for seat in self.seats:
                with pytest.raises(GameError):
                    rules.apply(state, seat, action)
        if self.seat_actions:
            with pytest.raises(GameError) as info:
                advance(rules, state, len(self.log), 0, self.seat_actions[-1], self.seed)
            assert info.value.reason is Reason.GAME_OVER
        # Replay: the whole log, and two random prefixes, also from those as snapshots.
        assert replay(rules, self.config, self.log) == state
        for i in sample(range(len(self.states)), self.rng, 2):
            version, snapshot = self.versions[i], self.states[i]
            assert replay(rules, self.config, self.log[:version]) == snapshot
            assert replay(rules, self.config, self.log[version:], start=snapshot) == state
        assert [entry.seq for entry in self.log] == list(range(1, len(self.log) + 1))
        if self.saw_secrets:
            assert self.resample_changed_state, "resample_hidden never re-dealt anything"
