"""Hell Queue Club's rules (seed 003 with the RULINGS): the `Rules` the engine drives.

Chance shuffles the three decks, rolls every die (each seat's 15 at setup, a black die when it
is taken, the dice of a Reroll or a Recall, a payout's roll-off) and picks the first player;
every roll is a logged `Roll` of the faces, so a game replays from its log without any RNG.
After the seat's action (and a Reroll's choice of dice) the turn is `resolve`: pending rolls,
then a payout (roll-off, then the stone picks in rank order) happen before the turn passes.
Nothing is private; only the order of the face-down decks is hidden, from everyone: the
face-down card ids are the game's secret cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_args

from pydantic import BaseModel

from games.engine.built import built, event, every_field
from games.engine.contract import (
    CHANCE,
    Event,
    Outcome,
    Rules,
    Step,
    ToMove,
    made,
)
from games.engine.errors import GameError, Reason, illegal
from games.engine.options import config_from_options
from games.hellqueue.cards import (
    DECKS,
    LARGE_DICE,
    NUMBERS,
    PAYS,
    SLOTS,
    SMALL_DICE,
    STONES,
    STONES_OF,
    Stone,
    stone_counts,
)
from games.hellqueue.known import EXACT
from games.hellqueue.models import (
    ACTION_ADAPTER,
    CHANCE_ACTIONS,
    SEAT_ACTIONS,
    Action,
    Awaken,
    Config,
    Dice,
    Mark,
    Payout,
    Pick,
    PickFirst,
    Player,
    Purpose,
    Queue,
    Recall,
    Reroll,
    Roll,
    Rolling,
    RollMarked,
    Shuffle,
    State,
    View,
    dice_of,
)
from games.hellqueue.moves import (
    legal,
    pending_tie,
    recall_case,
    steal_options,
    to_move_seat,
    total,
)
from games.hellqueue.scoring import best_score, winners

EMPTY = Dice()
Group = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""A face group: its large, small and black dice's faces."""
NO_GROUP: Group = ((), (), ())
FACES = frozenset(range(1, 7))
OVER, CHANCE_DUE = ToMove(), ToMove(chance=True)
SEAT_DUE = tuple(ToMove(seats=frozenset({seat})) for seat in range(4))
"""What `to_move` answers, built once (they are frozen)."""
PICK_ONLY: frozenset[type] = frozenset({Pick})
WANTED: dict[str, frozenset[type]] = {
    "play": frozenset({Queue, Awaken, Reroll, Recall}),
    "reroll": frozenset({Mark, RollMarked}),
    "resolve": PICK_ONLY,
}
"""The seat actions each phase takes."""
CHANCE_KINDS, SEAT_KINDS = frozenset(CHANCE_ACTIONS), frozenset(SEAT_ACTIONS)
MARKABLE = {"active": ("large", "small", "black"), "sleep": ("small",)}
"""The kinds of dice each card holds (a Mark's `where` and `size`)."""
STATE_FIELDS = tuple(name for name in State.model_fields if name != "decks")
"""What a View holds of the State under the same names."""
ROLL_FIELDS = every_field(Roll)
BUILT = EXACT.built
"""The actions the rules list, by id, with their logged forms (`Rules.dump_action`'s)."""
ROLLED_KEYS = {purpose: f"hellqueue.rolled_{purpose}" for purpose in get_args(Purpose)}
"""A landing's event key per purpose of the roll."""


def _rolling(seat: int, purpose: str, large: int = 0, small: int = 0, black: int = 0) -> Rolling:
    """The dice in the air, one shared (frozen) per value: a few hundred values in all (seat,
    purpose, at most 15 dice), where a roll is due on most moves."""
    key = (seat, purpose, large, small, black)
    rolling = _ROLLINGS.get(key)
    if rolling is None:
        fields = {"seat": seat, "purpose": purpose, "large": large, "small": small, "black": black}
        rolling = _ROLLINGS[key] = built(Rolling, fields)
    return rolling


_ROLLINGS: dict[tuple[int, str, int, int, int], Rolling] = {}


def _roll(rng: random.Random, count: int) -> Roll:
    """Chance's roll of `count` dice (built unvalidated: its faces are what `Roll` keeps).

    Each face is `rng.randint(1, 6)` written out: 1 plus three random bits, drawn again while
    they pass 5 (what `randint` does through `randrange` and `_randbelow`, three calls a die),
    so every seed rolls the same faces and stored games replay."""
    getrandbits = rng.getrandbits
    faces = []
    for _ in range(count):
        bits = getrandbits(3)
        while bits > 5:
            bits = getrandbits(3)
        faces.append(bits + 1)
    roll: Roll = made(Roll, {"kind": "roll", "faces": tuple(faces)}, ROLL_FIELDS)
    _ROLLED[0] = roll
    return roll


_ROLLED: list[Roll | None] = [None]
"""The last roll `_roll` made: `apply` takes it as it is, as it takes the actions the rules
list (`BUILT`), where another action goes through `Rules.checked` (its fields checked one by
one, as much as the roll's landing). Checked mode still validates it: the engine checks every
chance action before it applies it."""


M = TypeVar("M", bound=BaseModel)


def _copy(model: M, **changes: Any) -> M:
    """`model` with `changes`, every field counted as given (as in a state loaded from storage):
    the engine's `evolve` joins pydantic's fields-set per copy, as much again as the copy.
    Not for `Dice`, whose kept count would come along (`Dice.with_faces`)."""
    cls = type(model)
    return made(cls, {**model.__dict__, **changes}, FIELDS_OF[cls])


FIELDS_OF: dict[type[BaseModel], set[str]] = {
    cls: every_field(cls) for cls in (State, Player, Payout)
}
"""The fields-set of each class `_copy` copies (one lookup, where `every_field` is a call)."""
STATE_SET = FIELDS_OF[State]


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with `value` at `index` (through a list: a third less than joining slices)."""
    items = list(values)
    items[index] = value
    return tuple(items)


def _drop(faces: tuple[int, ...], face: int, count: int) -> tuple[int, ...]:
    """`faces` without `count` of `face` (the caller checked there are that many)."""
    out = list(faces)
    for _ in range(count):
        out.remove(face)
    return tuple(out)


def _resolved(state: State, changes: dict[str, Any]) -> State:
    """`state` with a seat action's `changes`, its turn resolving: with no roll or payout
    pending, the turn passes in the same copy (what `_settle` would do next)."""
    rolling, payout = changes.get("rolling", state.rolling), changes.get("payout", state.payout)
    if rolling is None and payout is None:
        changes["phase"] = "play"
        changes["turn"] = (state.turn + 1) % state.config.players
    else:
        changes["phase"] = "resolve"
    return made(State, {**state.__dict__, **changes}, STATE_SET)


def rank(queue: tuple[Dice, ...]) -> tuple[tuple[int, ...], ...]:
    """The seats with dice under a card, best first, grouped when tied: most dice, then more
    large dice (black counts as large), then the higher sum of faces."""
    keys = {seat: (d.count, d.big, d.total) for seat, d in enumerate(queue) if d.count}
    return _group(keys)


def _group(keys: Mapping[int, tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    order = sorted(keys, key=lambda seat: (tuple(-k for k in keys[seat]), seat))
    groups: list[list[int]] = []
    for seat in order:
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(g) for g in groups)


def dice_left(state: State | View, seat: int) -> int:
    """Own dice on the active and sleep cards, black dice on the active card included (R)."""
    player = state.players[seat]
    return player.active.count + len(player.sleep)


class HellQueueRules(Rules[Config, State, Action, View]):
    game_id = "hellqueue"
    min_players = 3
    max_players = 4
    config_model = Config
    state_model = State
    action_adapter = ACTION_ADAPTER
    exact_actions = EXACT

    def dump_action(self, action: Action) -> dict[str, Any]:
        """A roll's logged form written out (what `Roll`'s serializer gives, for a fraction of
        its cost: chance rolls about every other move); any other as the engine does (which
        keeps the form of an action built in advance)."""
        if type(action) is Roll:
            return {"kind": "roll", "faces": list(action.faces)}
        return super().dump_action(action)

    # Config and setup -------------------------------------------------------------------

    def make_config(self, players: int, options: dict[str, Any]) -> Config:
        return config_from_options(Config, players, options)

    def setup(self, config: Config) -> State:
        """The decks face down in printed order, every die still to roll (chance does both)."""
        n = config.players
        return State(
            config=config,
            players=(Player(),) * n,
            queues=((Dice(),) * n,) * len(SLOTS),
            rolling=_rolling(seat=0, purpose="setup", large=LARGE_DICE, small=SMALL_DICE),
        )

    # Whose move ---------------------------------------------------------------------------

    def to_move(self, state: State) -> ToMove:
        if state.phase == "over":
            return OVER
        seat = to_move_seat(state)
        return CHANCE_DUE if seat is None else SEAT_DUE[seat]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal(state, seat)

    def chance_action(self, state: State, rng: random.Random) -> Action:
        if state.phase == "over" or to_move_seat(state) is not None:
            raise GameError(Reason.NOT_YOUR_TURN, "no_chance_due")
        if not state.shuffled:
            orders = []
            for deck in DECKS:
                order = list(deck)
                rng.shuffle(order)
                orders.append(tuple(order))
            return Shuffle(orders=tuple(orders))
        if state.rolling is not None:
            return _roll(rng, state.rolling.count)
        if state.payout is not None:
            tied = pending_tie(state.payout)
            assert tied is not None
            return _roll(rng, sum(state.queues[state.payout.slot][seat].count for seat in tied))
        return PickFirst(seat=rng.randrange(state.config.players))

    # Applying -----------------------------------------------------------------------------

    def apply(self, state: State, actor: int, action: Action) -> Step:
        if id(action) not in BUILT and action is not _ROLLED[0]:
            action = self.checked(action)  # a foreign or unvalidated action never gets further
        if state.phase == "over":
            raise GameError(Reason.GAME_OVER)
        events: list[Event] = []
        kind = type(action)  # `checked` gives back an action of exactly its class
        if kind in CHANCE_KINDS:
            if actor != CHANCE or to_move_seat(state) is not None:  # chance is not due
                raise GameError(Reason.NOT_YOUR_TURN)
            state = self._chance(state, action, events)
            return Step(state, tuple(events))
        if kind not in SEAT_KINDS:
            raise illegal("unknown_action")
        if actor != to_move_seat(state):
            raise GameError(Reason.NOT_YOUR_TURN)
        if kind not in WANTED.get(state.phase, PICK_ONLY):
            raise illegal("not_now")
        state = SEAT_MOVES[kind](self, state, actor, action, events)
        return Step(self._settle(state, events), tuple(events))

    def _chance(self, state: State, action: Any, events: list[Event]) -> State:
        if type(action) is Roll and state.rolling is not None and state.phase != "setup":
            return self._settle(self._land(state, action, events), events)  # most chance
        match action:
            case Shuffle():
                return self._shuffle(state, action, events)
            case Roll() if state.shuffled and state.rolling is not None:
                return self._settle(self._land(state, action, events), events)
            case Roll() if state.payout is not None and pending_tie(state.payout):
                return self._settle(self._roll_off(state, action, events), events)
            case PickFirst() if state.phase == "setup" and state.shuffled:
                if state.rolling is not None or state.config.first_player is not None:
                    raise illegal("bad_chance")
                if not 0 <= action.seat < state.config.players:
                    raise illegal("bad_chance")
                return self._begin(state, action.seat, events)
        raise illegal("bad_chance")

    # Setup --------------------------------------------------------------------------------

    def _shuffle(self, state: State, action: Shuffle, events: list[Event]) -> State:
        if state.shuffled or len(action.orders) != len(DECKS):
            raise illegal("bad_chance")
        pairs = zip(action.orders, DECKS, strict=True)
        if any(sorted(order) != list(deck) for order, deck in pairs):
            raise illegal("bad_chance")
        state = _copy(state, decks=action.orders)
        events.append(event(key="hellqueue.shuffled", params={"decks": [len(d) for d in DECKS]}))
        for slot in SLOTS:
            state = self._reveal(state, slot, events)
        return state

    def _begin(self, state: State, seat: int, events: list[Event]) -> State:
        events.append(event(key="hellqueue.first_player", params={"seat": seat}))
        return _copy(state, phase="play", turn=seat)

    # The four actions ---------------------------------------------------------------------

    @staticmethod
    def _group(player: Player, face: int) -> Group:
        """The face group `face` of `player`'s active card, as faces per kind (large, small,
        black); refused when there is none. `face` is a Face: `apply` took the action through
        `checked`."""
        active = player.active
        group = (
            (face,) * active.large.count(face),
            (face,) * active.small.count(face),
            (face,) * active.black.count(face),
        )
        if group == NO_GROUP:
            raise illegal("no_such_face", face=face)
        return group

    def _queue(self, state: State, seat: int, action: Queue, events: list[Event]) -> State:
        player = state.players[seat]
        large, small, black = self._group(player, action.face)
        slot = action.slot
        if slot not in SLOTS or state.shown[slot] is None:
            raise illegal("no_card")
        queue = state.queues[slot]
        before = sum([dice.count for dice in queue])
        count = len(large) + len(small) + len(black)
        if count > NUMBERS[slot] - before:
            raise illegal("card_overflow", slot=slot)
        empty = before == 0
        source = (action.steal_seat, action.steal_face)
        if source not in (steal_options(state, seat) if empty else [(None, None)]):
            raise illegal("bad_black_source")
        player = _copy(player, active=player.active.without(action.face))
        queue = _put(queue, seat, queue[seat].adding(large, small, black))
        changes: dict[str, Any] = {
            "players": _put(state.players, seat, player),
            "queues": _put(state.queues, slot, queue),
        }
        after = before + count
        events.append(
            event(
                key="hellqueue.queued",
                params={
                    "seat": seat,
                    "face": action.face,
                    "count": count,
                    "slot": slot,
                    "total": after,
                    "number": NUMBERS[slot],
                },
            )
        )
        if empty:
            changes = self._take_black(state, seat, action, changes, events)
        if after == NUMBERS[slot]:
            events.append(
                event(key="hellqueue.payout", params={"slot": slot, "number": NUMBERS[slot]})
            )
            ranking = rank(queue)
            changes["payout"] = built(Payout, {"slot": slot, "ranking": ranking, "picks": None})
        return _resolved(state, changes)

    def _take_black(
        self,
        state: State,
        seat: int,
        action: Queue,
        changes: dict[str, Any],
        events: list[Event],
    ) -> dict[str, Any]:
        """The first die under an empty card brings a black die, rolled onto the active card:
        from the supply, else the rest area or an opponent's active card, else none (R).
        `changes` are the queueing's (the new players and queues), returned with the black
        die's."""
        if state.black_supply > 0:
            changes["black_supply"] = state.black_supply - 1
            told = event(key="hellqueue.black_taken", params={"seat": seat, "source": "supply"})
        elif action.steal_seat is not None and action.steal_face is not None:
            players = changes["players"]
            victim = players[action.steal_seat]
            black = _drop(victim.active.black, action.steal_face, 1)
            victim = _copy(victim, active=victim.active.with_faces("black", black))
            changes["players"] = _put(players, action.steal_seat, victim)
            # The die goes from `seat` to `to_seat`: both are seat params the renderer names.
            params = {"seat": action.steal_seat, "to_seat": seat, "face": action.steal_face}
            told = event(key="hellqueue.black_stolen", params=params)
        elif state.rest_black > 0:
            changes["rest_black"] = state.rest_black - 1
            told = event(key="hellqueue.black_taken", params={"seat": seat, "source": "rest"})
        else:
            events.append(event(key="hellqueue.no_black", params={"seat": seat}))
            return changes
        events.append(told)
        changes["rolling"] = _rolling(seat=seat, purpose="black", black=1)
        return changes

    @staticmethod
    def _rest(
        player: Player, face: int, large: int, small: int, active: Dice, **more: Any
    ) -> Player:
        """`player` with the face group `face` (`large` and `small` dice of it) moved from the
        active card to the rest area (black dice go to the shared rest area: the caller adds
        them), leaving `active` on the card, with the changes `more` in the same copy."""
        return _copy(
            player,
            active=active,
            rest_large=player.rest_large + large,
            rest_small=player.rest_small + small,
            **more,
        )

    def _awaken(self, state: State, seat: int, action: Awaken, events: list[Event]) -> State:
        player = state.players[seat]
        sleep = player.sleep
        large, small, black = self._group(player, action.face)
        count = len(large) + len(small) + len(black)
        wake = action.wake
        if wake != action.face and (count < 2 or wake not in sleep):
            raise illegal("bad_wake", face=wake)
        woken = tuple([f for f in sleep if f == wake])
        asleep = tuple([f for f in sleep if f != wake]) if woken else sleep
        active = player.active.without(action.face, woken)  # in the same copy: one Dice
        player = self._rest(player, action.face, len(large), len(small), active, sleep=asleep)
        events.append(
            event(
                key="hellqueue.awakened",
                params={
                    "seat": seat,
                    "face": action.face,
                    "count": count,
                    "wake": wake,
                    "woken": len(woken),
                },
            )
        )
        changes = {
            "players": _put(state.players, seat, player),
            "rest_black": state.rest_black + len(black),
        }
        return _resolved(state, changes)

    def _reroll(self, state: State, seat: int, action: Reroll, events: list[Event]) -> State:
        player = state.players[seat]
        large, small, black = self._group(player, action.face)
        active = player.active.without(action.face)
        player = self._rest(player, action.face, len(large), len(small), active)
        events.append(
            event(
                key="hellqueue.reroll_rested",
                params={
                    "seat": seat,
                    "face": action.face,
                    "count": len(large) + len(small) + len(black),
                },
            )
        )
        return _copy(
            state,
            players=_put(state.players, seat, player),
            rest_black=state.rest_black + len(black),
            phase="reroll",
            marked=EMPTY,
        )

    def _mark(self, state: State, seat: int, action: Mark, events: list[Event]) -> State:
        player, marked = state.players[seat], state.marked
        assert marked is not None
        where, size, face, count = action.where, action.size, action.face, action.count  # once
        if size not in MARKABLE[where]:  # `where` is one of the two
            raise illegal("bad_die")
        faces = player.sleep if where == "sleep" else player.active.of(size)
        if count > faces.count(face):  # a Mark's count is at least 1
            raise illegal("no_such_die")
        left = _drop(faces, face, count)
        if where == "sleep":
            player = _copy(player, sleep=left)
        else:
            player = _copy(player, active=player.active.with_faces(size, left))
        events.append(
            event(
                key="hellqueue.marked",
                params={"seat": seat, "where": where, "size": size, "face": face, "count": count},
            )
        )
        players = _put(state.players, seat, player)
        chosen = tuple(sorted(marked.of(size) + (face,) * count))
        return _copy(state, players=players, marked=marked.with_faces(size, chosen))

    def _roll_marked(
        self, state: State, seat: int, action: RollMarked, events: list[Event]
    ) -> State:
        marked = state.marked
        assert marked is not None
        rolling = _rolling(
            seat=seat,
            purpose="reroll",
            large=len(marked.large),
            small=len(marked.small),
            black=len(marked.black),
        )
        events.append(
            event(key="hellqueue.reroll_chosen", params={"seat": seat, "count": rolling.count})
        )
        return _resolved(state, {"marked": None, "rolling": rolling if rolling.count else None})

    def _recall(self, state: State, seat: int, action: Recall, events: list[Event]) -> State:
        case = recall_case(state, seat)
        player = state.players[seat]
        update: dict[str, Any] = {"phase": "resolve"}
        if case == "rest":
            large, small, black = player.rest_large, player.rest_small, state.rest_black
            player = _copy(player, rest_large=0, rest_small=0)
            update |= {"players": _put(state.players, seat, player), "rest_black": 0}
        elif case == "black":
            large, small, black = 0, 0, state.rest_black
            update["rest_black"] = 0
        elif case == "cards":
            mine = [queue[seat] for queue in state.queues]  # only their numbers: no Dice built
            large = sum([len(dice.large) for dice in mine])
            small = sum([len(dice.small) for dice in mine])
            black = sum([len(dice.black) for dice in mine])
            update["queues"] = tuple(_put(queue, seat, EMPTY) for queue in state.queues)
        else:
            raise illegal("nothing_to_recall")
        rolling = _rolling(seat=seat, purpose="recall", large=large, small=small, black=black)
        events.append(
            event(
                key="hellqueue.recalled",
                params={"seat": seat, "case": case, "large": large, "small": small, "black": black},
            )
        )
        return _copy(state, **{**update, "rolling": rolling})

    # Rolls --------------------------------------------------------------------------------

    def _faces(self, action: Roll, count: int) -> tuple[int, ...]:
        faces = action.faces  # ints: `apply` took the action through `checked`
        if len(faces) != count or not FACES.issuperset(faces):
            raise illegal("bad_chance")
        return faces

    def _land(self, state: State, action: Roll, events: list[Event]) -> State:
        """The dice in the air land: large and black on the active card, small on the sleep."""
        rolling = state.rolling
        assert rolling is not None
        n_large, n_small, seat = rolling.large, rolling.small, rolling.seat  # each read once
        cut = n_large + n_small
        faces = self._faces(action, cut + rolling.black)
        large = tuple(sorted(faces[:n_large])) if n_large else ()
        small = tuple(sorted(faces[n_large:cut])) if n_small else ()
        black = tuple(sorted(faces[cut:])) if cut < len(faces) else ()
        player = state.players[seat]
        player = _copy(
            player,
            active=player.active.adding(large=large, black=black),
            sleep=tuple(sorted(player.sleep + small)) if small else player.sleep,
        )
        changes = {"players": _put(state.players, seat, player), "rolling": None}
        events.append(
            event(
                key=ROLLED_KEYS[rolling.purpose],
                params={
                    "seat": seat,
                    "large": list(large),
                    "small": list(small),
                    "black": list(black),
                },
            )
        )
        if rolling.purpose != "setup":
            return _resolved(state, changes)
        state = _copy(state, **changes)
        if seat + 1 < state.config.players:
            following = _rolling(seat=seat + 1, purpose="setup", large=LARGE_DICE, small=SMALL_DICE)
            return _copy(state, rolling=following)
        if state.config.first_player is not None:
            return self._begin(state, state.config.first_player, events)
        return state

    def _roll_off(self, state: State, action: Roll, events: list[Event]) -> State:
        """The tied seats reroll their dice under the card; the higher new sum ranks first."""
        payout = state.payout
        assert payout is not None
        tied = pending_tie(payout)
        assert tied is not None
        queue = state.queues[payout.slot]
        faces = list(self._faces(action, sum(queue[seat].count for seat in tied)))
        sums: dict[int, tuple[int, ...]] = {}
        for seat in tied:
            dice = queue[seat]
            parts = []
            for size in ("large", "small", "black"):
                n = len(dice.of(size))
                parts.append(tuple(sorted(faces[:n])))
                faces = faces[n:]
            rolled = dice_of(parts[0], parts[1], parts[2])
            queue = _put(queue, seat, rolled)
            sums[seat] = (rolled.total,)
            events.append(
                event(
                    key="hellqueue.roll_off",
                    params={"seat": seat, "slot": payout.slot, "sum": rolled.total},
                )
            )
        index = payout.ranking.index(tied)
        ranking = payout.ranking[:index] + _group(sums) + payout.ranking[index + 1 :]
        return _copy(
            state,
            queues=_put(state.queues, payout.slot, queue),
            payout=_copy(payout, ranking=ranking),
        )

    # Payout -------------------------------------------------------------------------------

    def _pick(self, state: State, seat: int, action: Pick, events: list[Event]) -> State:
        payout = state.payout
        assert payout is not None and payout.picks
        stones = state.card_stones[payout.slot]
        if action.stone not in stones:
            raise illegal("stone_gone", stone=action.stone)
        return self._take_stone(state, seat, action.stone, events)

    def _take_stone(self, state: State, seat: int, stone: Stone, events: list[Event]) -> State:
        payout = state.payout
        assert payout is not None and payout.picks
        stones = list(state.card_stones[payout.slot])
        stones.remove(stone)
        player = state.players[seat]
        index = STONES.index(stone)
        player = _copy(player, stones=_put(player.stones, index, player.stones[index] + 1))
        events.append(
            event(
                key="hellqueue.picked",
                params={"seat": seat, "stone": stone, "slot": payout.slot},
            )
        )
        return _copy(
            state,
            players=_put(state.players, seat, player),
            card_stones=_put(state.card_stones, payout.slot, tuple(stones)),
            payout=_copy(payout, picks=payout.picks[1:]),
        )

    def _settle(self, state: State, events: list[Event]) -> State:
        """Resolve what needs no choice: rank a payout, take forced picks, end the payout and
        pass the turn. Stops at a pending roll, roll-off or real choice of stone."""
        while state.phase == "resolve" and state.rolling is None:
            payout = state.payout
            if payout is None:
                turn = (state.turn + 1) % state.config.players
                return _copy(state, phase="play", turn=turn)
            if payout.picks is None:
                if pending_tie(payout):
                    return state
                state = self._rank_events(state, payout, events)
                continue
            stones = state.card_stones[payout.slot]
            if payout.picks and stones:
                if len(set(stones)) > 1:
                    return state
                state = self._take_stone(state, payout.picks[0], stones[0], events)
                continue
            state = self._finish(state, payout.slot, events)
        return state

    def _rank_events(self, state: State, payout: Payout, events: list[Event]) -> State:
        pays = PAYS[NUMBERS[payout.slot]]
        order = [seat for group in payout.ranking for seat in group]
        picks: list[int] = []
        for place, seat in enumerate(order):
            due = pays[place] if place < len(pays) else 0
            picks += [seat] * due
            dice = state.queues[payout.slot][seat]
            events.append(
                event(
                    key="hellqueue.placed",
                    params={
                        "seat": seat,
                        "slot": payout.slot,
                        "place": place + 1,
                        "dice": dice.count,
                        "large": dice.big,
                        "sum": dice.total,
                        "stones": due,
                    },
                )
            )
        payout = _copy(payout, picks=tuple(picks))
        return _copy(state, payout=payout)

    def _finish(self, state: State, slot: int, events: list[Event]) -> State:
        """Stones left go back to the supply, the dice to the rest area; the next card shows."""
        back = stone_counts(state.card_stones[slot])
        if sum(back):
            events.append(
                event(key="hellqueue.returned", params={"slot": slot, "count": sum(back)})
            )
        players = tuple(
            _copy(
                p,
                rest_large=p.rest_large + len(d.large),
                rest_small=p.rest_small + len(d.small),
            )
            if d.large or d.small
            else p  # nothing of its own under the card: the same player
            for p, d in zip(state.players, state.queues[slot], strict=True)
        )
        card = state.shown[slot]
        assert card is not None
        state = _copy(
            state,
            players=players,
            rest_black=state.rest_black + sum(len(d.black) for d in state.queues[slot]),
            queues=_put(state.queues, slot, (EMPTY,) * state.config.players),
            stone_supply=tuple(a + b for a, b in zip(state.stone_supply, back, strict=True)),
            card_stones=_put(state.card_stones, slot, ()),
            removed=(*state.removed, card),
            payout=None,
        )
        state = self._reveal(state, slot, events)
        if sum(card is None for card in state.shown) >= 2:
            return self._end(state, events)
        return state

    def _reveal(self, state: State, slot: int, events: list[Event]) -> State:
        deck = state.decks[slot]
        if not deck:
            events.append(event(key="hellqueue.deck_done", params={"slot": slot}))
            return _copy(state, shown=_put(state.shown, slot, None))
        card, stones = deck[0], STONES_OF[deck[0]]
        supply = tuple(a - b for a, b in zip(state.stone_supply, stone_counts(stones), strict=True))
        events.append(
            event(
                key="hellqueue.revealed",
                params={"slot": slot, "number": NUMBERS[slot], "stones": list(stones)},
                cards=(card,),
            )
        )
        return _copy(
            state,
            decks=_put(state.decks, slot, deck[1:]),
            shown=_put(state.shown, slot, card),
            card_stones=_put(state.card_stones, slot, stones),
            stone_supply=supply,
        )

    def _end(self, state: State, events: list[Event]) -> State:
        state = _copy(state, phase="over")
        outcome = self.outcome(state)
        assert outcome is not None
        for seat, score in enumerate(outcome.scores):
            events.append(
                event(
                    key="hellqueue.scored",
                    params={"seat": seat, "score": score, "dice_left": dice_left(state, seat)},
                )
            )
        key = "hellqueue.winner" if outcome.result == "win" else "hellqueue.shared_win"
        events.extend(event(key=key, params={"seat": seat}) for seat in outcome.winners)
        return state

    # Reading the state --------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        n = state.config.players
        fields = state.__dict__.copy()
        del fields["decks"]
        fields["seat"] = seat if seat is not None and 0 <= seat < n else None
        fields["deck_sizes"] = tuple(len(deck) for deck in state.decks)
        fields["totals"] = tuple(total(state, slot) for slot in SLOTS)
        fields["scores"] = tuple(best_score(p.stones) for p in state.players)
        fields["dice_left"] = tuple(dice_left(state, s) for s in range(n))
        return built(View, fields)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = tuple(best_score(p.stones) for p in state.players)
        left = tuple(dice_left(state, s) for s in range(state.config.players))
        won = winners(scores, left)
        return Outcome(
            winners=won,
            result="win" if len(won) == 1 else "shared_win",
            scores=scores,
            details={f"dice_left_{seat}": n for seat, n in enumerate(left)},
        )

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Re-shuffle each face-down deck (its order is hidden from every seat alike)."""
        decks = []
        for deck in state.decks:
            order = list(deck)
            rng.shuffle(order)
            decks.append(tuple(order))
        return _copy(state, decks=tuple(decks))

    def sample_state(self, view: View, rng: random.Random) -> State:
        """The view's table with each deck's remaining cards in a random order."""
        seen = set(view.removed) | {card for card in view.shown if card is not None}
        decks = []
        for deck in DECKS:
            left = [card for card in deck if card not in seen]
            if view.phase != "setup" or any(card is not None for card in view.shown):
                rng.shuffle(left)
            decks.append(tuple(left))
        fields = {name: getattr(view, name) for name in STATE_FIELDS}
        fields["decks"] = tuple(decks)
        return built(State, fields)

    def secret_cards(self, state: State) -> frozenset[int]:
        """The face-down distribution cards (only their order is unknown, to everyone)."""
        return frozenset(card for deck in state.decks for card in deck)


SEAT_MOVES: dict[type, Callable[[HellQueueRules, State, int, Any, list[Event]], State]] = {
    Queue: HellQueueRules._queue,
    Awaken: HellQueueRules._awaken,
    Reroll: HellQueueRules._reroll,
    Mark: HellQueueRules._mark,
    RollMarked: HellQueueRules._roll_marked,
    Recall: HellQueueRules._recall,
    Pick: HellQueueRules._pick,
}
"""Each seat action's transition, by its class (`apply` looks it up, no chain of tests)."""

RULES = HellQueueRules()
