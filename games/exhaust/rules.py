"""Exhaust's rules (seed 001 with the RULINGS): the `Rules` the engine drives.

Chance deals, picks the first player and, in solo, plays the NPC: while the NPC is to act,
`to_move` is chance and `chance_action` returns the NPC's concrete move (random only among
the options its procedure leaves equal), so a log replays without any RNG. After every turn
the next player is checked: one who can do nothing at all loses at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from games.engine.built import built, event, every_field, evolve
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
from games.engine.exact import ExactActions, ints, is_int, tuple_of
from games.engine.fieldsets import joined
from games.engine.options import config_from_options
from games.exhaust.board import can_play_any
from games.exhaust.cards import DECK
from games.exhaust.combos import REWARDS, Combo, ComboKind, Play, check_play, faces, table
from games.exhaust.models import (
    ACTION_ADAPTER,
    DEPLETION_CARDS,
    MATCH_DEPLETION,
    NPC,
    TIME_CARDS,
    Action,
    ComboView,
    Config,
    Deal,
    FlipDepletion,
    NextGame,
    NpcOut,
    NpcPlay,
    NpcState,
    NpcUseTime,
    NpcView,
    PickFirst,
    PlayCards,
    Played,
    State,
    UseTime,
    View,
)
from games.exhaust.npc import Turn, accepts, pick, plan_turn
from games.exhaust.plays import FLIP, NEXT_GAME, USE_TIME, combo_views, table_actions
from games.exhaust.stacks import bars, stacked, top_last

CHANCE_KINDS = frozenset({"deal", "first", "npc_play", "npc_time", "npc_out"})


def _without(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


EVENT_FIELDS, PLAYED_FIELDS = every_field(Event), every_field(Played)
STATE_FIELDS, VIEW_FIELDS = every_field(State), every_field(View)
"""The fields-sets of the models a move builds (`games.engine.built.built`, inlined)."""
DECK_SET = frozenset(DECK)
KIND_VALUES = {kind: kind.value for kind in ComboKind}
"""A combo kind's name for an event (an enum's `value` is a property: a call per look-up)."""

CHANCE_TO_MOVE = ToMove(chance=True)
NOBODY = ToMove()
SEAT_TO_MOVE = tuple(ToMove(seats=frozenset({seat})) for seat in range(5))
PHASE_TO_MOVE = {"deal": CHANCE_TO_MOVE, "first": CHANCE_TO_MOVE, "over": NOBODY}
"""What `to_move` returns, built once (they are immutable); phase `next` waits for its turn's
seat, as `play` does."""


PLAY_FIELDS = {"combo": is_int, "cards": ints(), "copies": tuple_of(ints(length=2))}
"""A play's fields (a seat's or the NPC's), as validation leaves them."""


@cache
def no_stacks(players: int) -> tuple[tuple[Played, ...], ...]:
    """The table's stacks before a game's first play, one tuple per table size: the stacks'
    summary (`games.exhaust.stacks`) is kept by the tuple's identity, so a deal's stuck check
    finds the summary of the last deal's, not a new tuple to sum up again."""
    return ((),) * len(table(players))


_PLANS: dict[int, tuple[State, Turn]] = {}
"""NPC plans by state (kept with it, so that its id is not reused while the entry lives)."""


class ExhaustRules(Rules[Config, State, Action, View]):
    game_id = "exhaust"
    min_players = 1
    max_players = 5
    variants = ({}, {"long_game": True})
    config_model = Config
    state_model = State
    action_adapter = ACTION_ADAPTER
    exact_actions = ExactActions.of(
        {
            PlayCards: PLAY_FIELDS,
            UseTime: {},
            FlipDepletion: {},
            NextGame: {},
            Deal: {"order": ints()},
            PickFirst: {"seat": is_int},
            NpcPlay: PLAY_FIELDS,
            NpcUseTime: {},
            NpcOut: {},
        },
        built=(NEXT_GAME, USE_TIME, FLIP),
    )

    def dump_action(self, action: Action) -> dict[str, Any]:
        """A play's, a deal's and the first player's logged form written out (what their
        models' serializer gives, for a fraction of its cost: a play is logged per move, the
        others per game); any other action through the serializer."""
        if isinstance(action, PlayCards):
            return {
                "kind": "play",
                "combo": action.combo,
                "cards": list(action.cards),
                "copies": [list(pair) for pair in action.copies],
            }
        if isinstance(action, Deal):
            return {"kind": "deal", "order": list(action.order)}
        if type(action) is PickFirst:
            return {"kind": "first", "seat": action.seat}
        return super().dump_action(action)

    # Config and setup -------------------------------------------------------------------

    def make_config(self, players: int, options: dict[str, Any]) -> Config:
        """The options are `Config`'s fields; the long variant is ignored in solo (the seed's
        solo rules have none)."""
        config = config_from_options(Config, players, options)
        return evolve(config, long_game=False) if config.solo else config

    def setup(self, config: Config) -> State:
        """Built with every field set (as a stored state loads), so no later change of the
        state makes pydantic's fields-set anew (`games.engine.fieldsets.joined`)."""
        players = config.players
        zeros = (0,) * players
        values = {
            "config": config,
            "phase": "deal",
            "game_no": 0,
            "turn": 0,
            "hands": ((),) * players,
            "refill": (),
            "time_pile": TIME_CARDS,
            "time_cards": zeros,
            "stacks": no_stacks(players),
            "depletion": zeros,
            "flipped": zeros,
            "losers": (),
            "npc": NpcState() if config.solo else None,
        }
        return made(State, values, STATE_FIELDS)

    # Whose move ---------------------------------------------------------------------------

    def to_move(self, state: State) -> ToMove:
        phase = state.phase
        if phase == "play":  # the usual case first: asked several times a move
            turn = state.turn
            return CHANCE_TO_MOVE if turn == NPC and state.config.solo else SEAT_TO_MOVE[turn]
        waiting = PHASE_TO_MOVE.get(phase)
        return SEAT_TO_MOVE[state.turn] if waiting is None else waiting

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase not in ("play", "next") or seat != state.turn or self._npc_turn(state):
            return []
        if state.phase == "next":
            return [NEXT_GAME]
        face_up = state.depletion[seat] - state.flipped[seat] if state.config.long_game else 0
        players = state.config.players
        return table_actions(
            players, bars(players, state.stacks), state.hands[seat], state.time_cards[seat], face_up
        )

    def chance_action(self, state: State, rng: random.Random) -> Action:
        # Chance actions are the rules' own, built without validation (checked mode validates
        # them, `games.engine.step.check_states`).
        if state.phase == "deal":
            order = list(DECK)
            rng.shuffle(order)
            return built(Deal, {"kind": "deal", "order": tuple(order)})
        if state.phase == "first":
            return built(PickFirst, {"kind": "first", "seat": rng.randrange(state.config.players)})
        if not self._npc_turn(state):
            raise GameError(Reason.NOT_YOUR_TURN, "no_chance_due")
        assert state.npc is not None
        turn = self._plan(state)
        if turn.choice is not None:
            play = pick(turn.choice, rng)
            values = {
                "kind": "npc_play",
                "combo": turn.choice.combo,
                "cards": play.cards,
                "copies": play.copies,
            }
            return built(NpcPlay, values)
        return NpcUseTime() if turn.npc.time_cards > 0 else NpcOut()

    # Applying -----------------------------------------------------------------------------

    def apply(self, state: State, actor: int, action: Action) -> Step:
        action = self.checked(action)  # a foreign or unvalidated action never gets further
        if state.phase == "over":
            raise GameError(Reason.GAME_OVER)
        if action.kind in CHANCE_KINDS:
            if actor != CHANCE or not self.to_move(state).chance:
                raise GameError(Reason.NOT_YOUR_TURN)
        elif state.phase not in ("play", "next") or actor != state.turn or self._npc_turn(state):
            raise GameError(Reason.NOT_YOUR_TURN)
        elif (state.phase == "next") != isinstance(action, NextGame):
            raise illegal("not_now")
        events: list[Event] = []
        match action:
            case Deal():
                state = self._deal(state, action, events)
            case PickFirst():
                if state.phase != "first" or not 0 <= action.seat < state.config.players:
                    raise illegal("bad_chance")
                state = self._begin(state, action.seat, events)
            case PlayCards():
                state = self._play(state, actor, action, events)
            case UseTime():
                state = self._use_time(state, actor, events)
            case FlipDepletion():
                state = self._flip(state, actor, events)
            case NextGame():
                state = evolve(state, phase="deal")
                params = {"game": state.game_no + 1, "seat": actor}
                events.append(event("exhaust.next_game", params=params))
            case NpcPlay() | NpcUseTime() | NpcOut():
                state = self._npc(state, action, events)
        return Step(state, tuple(events))

    def _deal(self, state: State, deal: Deal, events: list[Event]) -> State:
        order = deal.order
        # Every card once: as many as the deck, none left out (no sort of the 64 to compare).
        if state.phase != "deal" or len(order) != len(DECK) or DECK_SET.difference(order):
            raise illegal("bad_chance")
        cfg, size = state.config, state.config.hand_size
        players, solo = cfg.players, cfg.players == 1
        hands = tuple([tuple(sorted(order[i * size : (i + 1) * size])) for i in range(players)])
        rest = order[players * size :]
        npc_pile = rest[: cfg.npc_size] if solo else ()
        refill = rest[len(npc_pile) :]
        if state.losers:
            first: int | None = state.losers[-1]
        elif solo:
            first = 0
        else:
            first = cfg.first_player
        game_no = state.game_no + 1
        zeros = (0,) * players
        changes = {
            "phase": "first" if first is None else "play",
            "game_no": game_no,
            "turn": state.turn if first is None else first,
            "hands": hands,
            "refill": refill,
            "time_pile": TIME_CARDS,
            "time_cards": zeros,
            "stacks": no_stacks(players),
            "npc": NpcState(pile=npc_pile) if solo else None,
        }
        values = dict(state.__dict__)
        values.update(changes)
        state = made(State, values, joined(state.__pydantic_fields_set__, changes))
        params = {"game": game_no, "hand": size, "refill": len(refill)}
        if solo:
            params["npc_pile"] = len(npc_pile)
        events.append(event("exhaust.dealt", params=params))
        for seat, hand in enumerate(hands):
            events.append(
                event("exhaust.hand", params={"seat": seat}, audience=(seat,), cards=hand)
            )
        if first is None:
            return state  # chance picks the first player next
        events.append(event("exhaust.first_player", params={"seat": first, "game": game_no}))
        return self._check_stuck(state, events)

    def _begin(self, state: State, seat: int, events: list[Event]) -> State:
        events.append(event("exhaust.first_player", params={"seat": seat, "game": state.game_no}))
        return self._check_stuck(evolve(state, phase="play", turn=seat), events)

    def _play(self, state: State, seat: int, action: PlayCards, events: list[Event]) -> State:
        players, index = state.config.players, action.combo
        if not 0 <= index < len(state.stacks):
            raise illegal("bad_combo")
        combo = table(players)[index]
        top, last = top_last(players, state.stacks, index)
        hand = state.hands[seat]
        cards = action.cards
        play_faces = check_play(combo, top, last, hand, cards, action.copies)
        gone = set(cards)
        changes = {
            "stacks": self._stacked(state, seat, index, action, max([n for _, n in play_faces])),
            "hands": _put(state.hands, seat, tuple([c for c in hand if c not in gone])),
        }
        events.append(self._played_event("exhaust.played", combo, action, seat))
        self._reward(state, changes, seat, combo, events)
        return self._next(state, changes, events)

    def _use_time(self, state: State, seat: int, events: list[Event]) -> State:
        if state.time_cards[seat] < 1:
            raise illegal("no_time_card")
        changes = {
            "time_cards": _put(state.time_cards, seat, state.time_cards[seat] - 1),
            "time_pile": state.time_pile + 1,
        }
        events.append(event("exhaust.used_time", params={"seat": seat}))
        return self._next(state, changes, events)

    def _flip(self, state: State, seat: int, events: list[Event]) -> State:
        if not state.config.long_game or state.depletion[seat] <= state.flipped[seat]:
            raise illegal("no_depletion_card")
        changes = {"flipped": _put(state.flipped, seat, state.flipped[seat] + 1)}
        events.append(event("exhaust.flipped", params={"seat": seat}))
        return self._next(state, changes, events)

    def _npc(
        self, state: State, action: NpcPlay | NpcUseTime | NpcOut, events: list[Event]
    ) -> State:
        if not self._npc_turn(state) or state.npc is None:
            raise illegal("bad_chance")
        combos = self._combos(state)
        turn = self._plan(state)
        npc = turn.npc
        if turn.filled:
            params = {"count": len(turn.filled)}
            events.append(event("exhaust.npc_filled", params=params, cards=turn.filled))
        events.extend(event("exhaust.npc_drew", cards=(c,)) for c in turn.drawn)
        if isinstance(action, NpcPlay):
            play = Play(action.cards, action.copies)
            if turn.choice is None or not accepts(
                turn.choice, combos, npc.hand, action.combo, play
            ):
                raise illegal("bad_chance")
            high = max(n for _, n in faces(action.cards, action.copies))
            changes = {
                "stacks": self._stacked(state, NPC, action.combo, action, high),
                "npc": evolve(npc, hand=_without(npc.hand, action.cards)),
            }
            combo = combos[action.combo].combo
            events.append(self._played_event("exhaust.npc_played", combo, action, None))
            self._reward(state, changes, NPC, combo, events)
            return self._next(state, changes, events)
        if turn.choice is not None:
            raise illegal("bad_chance")
        if isinstance(action, NpcUseTime):
            if npc.time_cards < 1:
                raise illegal("bad_chance")
            changes = {
                "npc": evolve(npc, time_cards=npc.time_cards - 1),
                "time_pile": state.time_pile + 1,
            }
            events.append(event("exhaust.npc_used_time"))
            return self._next(state, changes, events)
        if npc.time_cards > 0:
            raise illegal("bad_chance")
        return self._lose(evolve(state, npc=npc), NPC, events)

    # Turn helpers ---------------------------------------------------------------------------

    @staticmethod
    def _played_event(
        key: str, combo: Combo, action: PlayCards | NpcPlay, seat: int | None
    ) -> Event:
        params: dict[str, Any] = {"combo": action.combo, "kind": KIND_VALUES[combo.kind]}
        if seat is not None:
            params["seat"] = seat
        if action.copies:
            params["copies"] = [list(pair) for pair in action.copies]
        values = {"key": key, "params": params, "audience": None, "cards": action.cards}
        return made(Event, values, EVENT_FIELDS)

    @staticmethod
    def _stacked(
        state: State, by: int, combo: int, action: PlayCards | NpcPlay, high: int
    ) -> tuple[tuple[Played, ...], ...]:
        values = {"by": by, "cards": action.cards, "copies": action.copies, "high": high}
        played = made(Played, values, PLAYED_FIELDS)
        return stacked(state.config.players, state.stacks, combo, played)

    def _reward(
        self, state: State, changes: dict[str, Any], who: int, combo: Combo, events: list[Event]
    ) -> None:
        """Add the combo's reward to the move's `changes` (what the play changed already, read
        over `state`); none if its pile is empty; (R) 2 due and 1 left: take 1."""
        if combo.kind not in REWARDS:
            return
        what, due = REWARDS[combo.kind]
        npc = changes.get("npc", state.npc) if state.config.solo and who == NPC else None
        prefix = "exhaust.npc_" if npc is not None else "exhaust."
        named = {} if npc is not None else {"seat": who}
        if what == "spell" and state.refill:
            card = state.refill[0]
            changes["refill"] = state.refill[1:]
            if npc is not None:
                changes["npc"] = evolve(npc, pile=(card, *npc.pile))
            else:
                hands = changes.get("hands", state.hands)
                changes["hands"] = _put(hands, who, tuple(sorted((*hands[who], card))))
                events.append(
                    event("exhaust.reward_card", params=named, audience=(who,), cards=(card,))
                )
            events.append(event(prefix + "reward_spell", params={**named}))
            return
        got = min(due, state.time_pile) if what == "time" else 0
        if not got:
            events.append(event(prefix + "reward_none", params={**named, "reward": what}))
            return
        changes["time_pile"] = state.time_pile - got
        if npc is not None:
            changes["npc"] = evolve(npc, time_cards=npc.time_cards + got)
        else:
            changes["time_cards"] = _put(state.time_cards, who, state.time_cards[who] + got)
        events.append(event(prefix + "reward_time", params={**named, "count": got, "due": due}))

    def _next(self, state: State, changes: dict[str, Any], events: list[Event]) -> State:
        """The state after a turn: its `changes` and the next player, built once (what
        `evolve` does, without packing the changes into keywords again)."""
        changes["turn"] = (state.turn + 1) % state.config.positions
        values = dict(state.__dict__)
        values.update(changes)
        return self._check_stuck(
            made(State, values, joined(state.__pydantic_fields_set__, changes)), events
        )

    def _check_stuck(self, state: State, events: list[Event]) -> State:
        """A player who can do neither A nor B (nor C) loses at once (the NPC: by chance)."""
        seat, cfg = state.turn, state.config
        if seat == NPC and cfg.solo and state.phase == "play":
            return state  # the NPC's turn: chance plays it, and says when it is stuck
        if state.time_cards[seat] > 0:
            return state
        if cfg.long_game and state.depletion[seat] > state.flipped[seat]:
            return state
        players = cfg.players
        if can_play_any(players, bars(players, state.stacks), state.hands[seat]):
            return state
        return self._lose(state, seat, events)

    def _lose(self, state: State, loser: int, events: list[Event]) -> State:
        cfg = state.config
        state = evolve(state, losers=(*state.losers, loser), phase="over")
        if cfg.solo and loser == NPC:
            events.append(event("exhaust.npc_lost"))
            return state
        events.append(event("exhaust.loser", params={"seat": loser, "game": state.game_no}))
        if not cfg.long_game:
            return state
        held = state.depletion[loser] + 1
        state = evolve(state, depletion=_put(state.depletion, loser, held))
        events.append(event("exhaust.depletion", params={"seat": loser, "count": held}))
        if held >= MATCH_DEPLETION:
            events.append(event("exhaust.match_loser", params={"seat": loser}))
            return state
        return evolve(state, phase="next", turn=loser)

    # Reading the state ------------------------------------------------------------------------

    @staticmethod
    def _plan(state: State) -> Turn:
        """The NPC's turn up to its choice (`npc.plan_turn`), planned once per state: the
        chance action draws from it, then `apply` checks the drawn play against it."""
        assert state.npc is not None
        kept = _PLANS.get(id(state))
        if kept is not None and kept[0] is state:
            return kept[1]
        turn = plan_turn(state.npc, combo_views(state.config, state.stacks))
        if len(_PLANS) >= 64:
            _PLANS.clear()
        _PLANS[id(state)] = (state, turn)
        return turn

    @staticmethod
    def _npc_turn(state: State) -> bool:
        return state.phase == "play" and state.config.solo and state.turn == NPC

    @staticmethod
    def _combos(state: State) -> tuple[ComboView, ...]:
        return combo_views(state.config, state.stacks)

    def view(self, state: State, seat: int | None) -> View:
        """Built without validation: every value is the state's own or counted from it (a
        view is made for every seat after every move)."""
        cfg = state.config
        own = seat if seat is not None and 0 <= seat < cfg.players else None
        npc = state.npc
        phase = state.phase
        values = {
            "seat": own,
            "players": cfg.players,
            "solo": cfg.solo,
            "long_game": cfg.long_game,
            "phase": phase,
            "game_no": state.game_no,
            "turn": state.turn if phase in ("play", "next") else None,
            "combos": self._combos(state),
            "refill": len(state.refill),
            "time_pile": state.time_pile,
            "hand_sizes": tuple([len(h) for h in state.hands]),
            "time_cards": state.time_cards,
            "depletion": state.depletion,
            "flipped": state.flipped,
            "depletion_pile": DEPLETION_CARDS - sum(state.depletion),
            "losers": state.losers,
            "hand": state.hands[own] if own is not None else None,
            "npc": None
            if npc is None
            else built(
                NpcView, {"hand": npc.hand, "pile": len(npc.pile), "time_cards": npc.time_cards}
            ),
        }
        return made(View, values, VIEW_FIELDS)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        cfg, loser = state.config, state.losers[-1]
        if cfg.solo:
            won = loser == NPC
            return Outcome(
                winners=(0,) if won else (),
                result="win" if won else "loss",
                details={"npc_size": cfg.npc_size},
            )
        winners = tuple(s for s in range(cfg.players) if s != loser)
        if cfg.long_game:
            return Outcome(
                winners=winners,
                result="match_loser",
                scores=state.depletion,
                details={"loser": loser, "games": state.game_no},
            )
        return Outcome(winners=winners, result="loser", details={"loser": loser})

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        hidden = [s for s in range(state.config.players) if s != seat]
        npc_pile = state.npc.pile if state.npc is not None else ()
        pool = [c for s in hidden for c in state.hands[s]] + list(state.refill) + list(npc_pile)
        rng.shuffle(pool)
        hands = list(state.hands)
        for s in hidden:
            hands[s], pool = tuple(sorted(pool[: len(hands[s])])), pool[len(hands[s]) :]
        refill, pool = tuple(pool[: len(state.refill)]), pool[len(state.refill) :]
        update: dict[str, Any] = {"hands": tuple(hands), "refill": refill}
        if state.npc is not None:
            update["npc"] = evolve(state.npc, pile=tuple(pool))
        return evolve(state, **update)

    def sample_state(self, view: View, rng: random.Random) -> State:
        """The table of `view` with the cards it does not show dealt at random.

        The unseen cards (the deck less the viewer's hand, the stacks and the NPC's face-up
        hand) fill the other hands, the refill pile and the NPC pile at their shown sizes (before
        the first deal they are nowhere yet). Every
        order of them is equally likely given what the viewer saw (a card only shows when it
        leaves the hidden places), so a uniform deal is the right sample. Config fields the
        view does not show (the NPC pile's starting size, the host's first player) take their
        defaults: they no longer matter once the cards are dealt.
        """
        config = Config(players=view.players, long_game=view.long_game)
        seen = set(view.hand or ())
        seen.update(c for cv in view.combos for played in cv.plays for c in played.cards)
        if view.npc is not None:
            seen.update(view.npc.hand)
        pool = [c for c in DECK if c not in seen]
        rng.shuffle(pool)
        hands = []
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat and view.hand is not None:
                hands.append(view.hand)
            else:
                hands.append(tuple(sorted(pool[:size])))
                pool = pool[size:]
        refill, pool = tuple(pool[: view.refill]), pool[view.refill :]
        npc = None
        if view.npc is not None:
            pile = tuple(pool[: view.npc.pile])
            npc = NpcState(hand=view.npc.hand, pile=pile, time_cards=view.npc.time_cards)
        return State(
            config=config,
            phase=view.phase,
            game_no=view.game_no,
            turn=view.turn or 0,
            hands=tuple(hands) if hands else ((),) * view.players,
            refill=refill,
            time_pile=view.time_pile,
            time_cards=view.time_cards,
            stacks=tuple(cv.plays for cv in view.combos),
            depletion=view.depletion,
            flipped=view.flipped,
            losers=view.losers,
            npc=npc,
        )

    def secret_cards(self, state: State) -> frozenset[int]:
        npc_pile = state.npc.pile if state.npc is not None else ()
        return frozenset(c for h in state.hands for c in h) | set(state.refill) | set(npc_pile)


RULES = ExhaustRules()
