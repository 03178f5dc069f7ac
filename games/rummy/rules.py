"""Angels & Demons Rummy's rules (seed 004 with the RULINGS): the `Rules` the engine drives.

Chance shuffles and deals each short game, picks the first player of the first one and turns
up the bonus-check cards (named in the log). After a discard a claim window asks the players
who can goal or gain with that card (the rules know from their hands; the window records who
it asked, and no view or public event shows it); when nobody can, no window opens and the
turn passes at once. Each asked player answers Pass, Goal or Gain; the window closes once all
of them have answered or, at its deadline, by SYSTEM's `Close` (the rest pass); then the
claims are resolved by priority, never first-come: Goal (Ready players, nearest after the
discarder first), else Gain (nearest first). Public events name only the claim that won.

Rules version 2 brought the asking of the eligible only; a game stored by version 1 has a
config without `claim_asks`, which reads as `everyone` (every other player asked), so it
loads and replays exactly as it was played.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from games.engine.built import built, event
from games.engine.contract import (
    CHANCE,
    SYSTEM,
    Event,
    Outcome,
    Rules,
    Step,
    ToMove,
)
from games.engine.errors import GameError, Reason, illegal
from games.engine.options import config_from_options
from games.rummy.actions import (
    DISCARDS,
    EXACT,
    GOAL,
    NEXT_GAME,
    PASS,
    READY_DISCARDS,
    TAKES,
    gain_action,
    open_action,
)
from games.rummy.cards import CARDS, kind
from games.rummy.models import (
    ACTION_ADAPTER,
    CHANCE_TYPES,
    DEAL,
    MATCH_GAMES,
    TARGET,
    Action,
    Answer,
    BonusFlip,
    Close,
    Config,
    Deal,
    Discard,
    Flip,
    Gain,
    Goal,
    NextGame,
    Open,
    Pass,
    PickFirst,
    ShortResult,
    State,
    Take,
    View,
    Window,
    WindowView,
)
from games.rummy.scoring import bonus_points, score_goal
from games.rummy.sets import (
    ITEM_VICTORY_SETS,
    big_sets_in,
    can_gain,
    gains_with,
    is_big,
    is_goal_form,
    item_sets,
    ready_kinds,
    waits,
)

DRAW_AFTER_OPEN = 2
MAX_PLAYERS = 4


M = TypeVar("M", bound=BaseModel)


def _copy(model: M, **changes: Any) -> M:
    """`model` with `changes`, every field counted as given (as in a state loaded from storage):
    the engine's `evolve` joins pydantic's fields-set per copy, as much again as the copy."""
    return built(type(model), {**model.__dict__, **changes})


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _without(cards: Sequence[int], gone: Sequence[int]) -> tuple[int, ...]:
    return tuple([c for c in cards if c not in gone])


_CHANCE_DUE = ToMove(chance=True)
_NOBODY = ToMove()
_SEAT_TO_MOVE = tuple(ToMove(seats=frozenset({s})) for s in range(MAX_PLAYERS))
"""What `to_move` answers outside claim windows, built once."""
_PASS_ANSWER = Answer(choice="pass")
_GOAL_ANSWER = Answer(choice="goal")


def _flat(sets: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(c for s in sets for c in s)


def goal_on_discard_blocked(state: State, seat: int) -> bool:
    """Advanced: the seat's own discard row holds a card that would complete its goal."""
    hand = state.hands[seat]
    return any(is_goal_form((*hand, card)) for card in state.rows[seat])


class RummyRules(Rules[Config, State, Action, View]):
    game_id = "rummy"
    rules_version = 2
    older_versions = frozenset({1})
    min_players = 2
    max_players = MAX_PLAYERS
    variants = ({"match_games": 1}, {"match_games": 1, "advanced": True})
    config_model = Config
    state_model = State
    action_adapter = ACTION_ADAPTER
    exact_actions = EXACT

    # Config and setup -------------------------------------------------------------------

    def make_config(self, players: int, options: dict[str, Any]) -> Config:
        """The options are `Config`'s fields (but `claim_asks`, always `eligible`); the match's
        length and target default to the seed's for the player count."""
        defaults = {"match_games": MATCH_GAMES.get(players), "target": TARGET.get(players)}
        fixed = {"claim_asks": "eligible"}
        return config_from_options(Config, players, options, defaults, fixed)

    def setup(self, config: Config) -> State:
        """Before the first deal all 100 cards are the (unshuffled) face-down deck."""
        n = config.players
        return State(
            config=config,
            deck=CARDS,
            hands=((),) * n,
            known=((),) * n,
            rows=((),) * n,
            opened=((),) * n,
            ready=(False,) * n,
            scores=(0,) * n,
        )

    # Whose move ---------------------------------------------------------------------------

    def to_move(self, state: State) -> ToMove:
        phase = state.phase
        if phase in ("deal", "first", "bonus"):
            return _CHANCE_DUE
        if phase in ("take", "act"):
            return _SEAT_TO_MOVE[state.turn]
        if phase == "window" and state.window is not None:
            window = state.window
            waiting = frozenset(s for s in window.asked if window.answers[s] is None)
            timeout = float(state.config.claim_seconds)
            return ToMove(seats=waiting, timeout=timeout)
        if phase == "ended":
            return _SEAT_TO_MOVE[self._next_first(state)]
        return _NOBODY

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_move(state).seats:
            return []
        phase = state.phase
        if phase == "take":
            return [TAKES[c] for c in state.field]
        if phase == "act":
            return self._turn_actions(state, seat)
        if phase == "window":
            assert state.window is not None
            return self._claims(state, seat, state.window.card)
        return [NEXT_GAME]

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        hand = state.hands[seat]
        opened = state.opened[seat]
        actions: list[Action] = []
        if opened and is_goal_form(hand):
            actions.append(GOAL)
        if state.ready[seat]:
            assert state.taken is not None
            return [*actions, DISCARDS[state.taken]]
        actions += [open_action(trio) for trio in big_sets_in(hand)]
        if not opened:
            actions += [DISCARDS[card] for card in hand]
            return actions
        # Cards of one kind leave hands of the same kinds: one look per kind.
        ready = ready_kinds(hand, _flat(opened))
        for card in hand:
            actions.append(DISCARDS[card])
            if kind(card) in ready:
                actions.append(READY_DISCARDS[card])
        return actions

    def _claims(self, state: State, seat: int, card: int) -> list[Action]:
        """Pass, and the claims `seat` can make on `card`: a goal when Ready, else Gains."""
        actions: list[Action] = [PASS]
        if state.ready[seat]:
            if self._can_goal_on(state, seat, card):
                actions.append(GOAL)
        else:
            actions += [gain_action(pair) for pair in gains_with(state.hands[seat], card)]
        return actions

    def _can_claim(self, state: State, seat: int, card: int) -> bool:
        """Whether `_claims` offers `seat` more than Pass (without listing the Gains)."""
        if state.ready[seat]:
            return self._can_goal_on(state, seat, card)
        return can_gain(state.hands[seat], card)

    def _asked(self, state: State, discarder: int, card: int) -> tuple[int, ...]:
        """The seats a window on `card` asks: those who can goal or gain with it (version 1:
        every other seat)."""
        others = [s for s in range(state.config.players) if s != discarder]
        if state.config.claim_asks == "everyone":
            return tuple(others)
        return tuple(s for s in others if self._can_claim(state, s, card))

    def _can_goal_on(self, state: State, seat: int, card: int) -> bool:
        if not state.ready[seat] or not state.opened[seat]:
            return False
        if not is_goal_form((*state.hands[seat], card)):
            return False
        return not (state.config.advanced and goal_on_discard_blocked(state, seat))

    def chance_action(self, state: State, rng: random.Random) -> Action:
        if state.phase == "deal":
            order = list(CARDS)
            rng.shuffle(order)
            return Deal(order=tuple(order))
        if state.phase == "first":
            return PickFirst(seat=rng.randrange(state.config.players))
        if state.phase == "bonus" and state.deck:
            return Flip(card=state.deck[0])
        raise GameError(Reason.NOT_YOUR_TURN, "no_chance_due")

    def timeout_action(self, state: State) -> Action:
        return Close()

    # Applying -----------------------------------------------------------------------------

    def apply(self, state: State, actor: int, action: Action) -> Step:
        action = self.checked(action)  # a foreign or unvalidated action never gets further
        if state.phase == "over":
            raise GameError(Reason.GAME_OVER)
        to_move = self.to_move(state)
        if isinstance(action, CHANCE_TYPES):
            if actor != CHANCE or not to_move.chance:
                raise GameError(Reason.NOT_YOUR_TURN)
        elif isinstance(action, Close):
            if actor != SYSTEM or state.phase != "window":
                raise GameError(Reason.NOT_YOUR_TURN)
        elif actor not in to_move.seats:
            raise GameError(Reason.NOT_YOUR_TURN)
        events: list[Event] = []
        state = self._dispatch(state, actor, action, events)
        return Step(state, tuple(events))

    def _dispatch(self, state: State, actor: int, action: Action, events: list[Event]) -> State:
        phase = state.phase
        match action:  # the cases exclude each other: the most frequent go first
            case Discard() if phase == "act":
                return self._discard(state, actor, action, events)
            case Take() if phase == "take":
                return self._take(state, actor, action.card, events)
            case Deal() if phase == "deal":
                return self._deal(state, action, events)
            case PickFirst() if phase == "first":
                if not 0 <= action.seat < state.config.players:
                    raise illegal("bad_chance")
                return self._begin(state, action.seat, events)
            case Flip() if phase == "bonus":
                return self._flip(state, action.card, events)
            case Goal() if phase == "act":
                return self._goal_on_take(state, actor, events)
            case Open() if phase == "act":
                return self._open(state, actor, action.cards, events)
            case Pass() | Goal() | Gain() if phase == "window":
                return self._answer(state, actor, action, events)
            case Close():
                return self._close(state, events)
            case NextGame() if phase == "ended":
                game = state.game_no + 1
                events.append(event(key="rummy.next_game", params={"seat": actor, "game": game}))
                return _copy(state, phase="deal")
        raise illegal("not_now")

    # Dealing and turns ----------------------------------------------------------------------

    def _deal(self, state: State, deal: Deal, events: list[Event]) -> State:
        if sorted(deal.order) != list(CARDS):
            raise illegal("bad_chance")
        cfg, n = state.config, state.config.players
        hands = tuple(tuple(sorted(deal.order[i * DEAL : (i + 1) * DEAL])) for i in range(n))
        field = deal.order[n * DEAL : n * DEAL + cfg.field_size]
        deck = deal.order[n * DEAL + cfg.field_size :]
        state = _copy(
            state,
            game_no=state.game_no + 1,
            deck=deck,
            field=field,
            hands=hands,
            known=((),) * n,
            rows=((),) * n,
            opened=((),) * n,
            ready=(False,) * n,
            taken=None,
            window=None,
            out=(),
        )
        params = {"game": state.game_no, "hand": DEAL, "deck": len(deck)}
        events.append(event(key="rummy.dealt", params=params, cards=field))
        for seat, hand in enumerate(hands):
            events.append(
                event(key="rummy.hand", params={"seat": seat}, audience=(seat,), cards=hand)
            )
        if state.game_no > 1:
            return self._begin(state, (state.first + 1) % n, events)
        if cfg.first_player is not None:
            return self._begin(state, cfg.first_player, events)
        return _copy(state, phase="first")

    def _begin(self, state: State, seat: int, events: list[Event]) -> State:
        events.append(event(key="rummy.first_player", params={"seat": seat, "game": state.game_no}))
        return self._start_turn(state, seat, events, {"first": seat})

    @staticmethod
    def _next_first(state: State) -> int:
        return (state.first + 1) % state.config.players

    def _start_turn(
        self, state: State, seat: int, events: list[Event], changes: dict[str, Any] | None = None
    ) -> State:
        """Give `seat` the turn (in the same copy as `changes`, the move's own, and an empty
        field turned up anew), or the deck is out."""
        changes = {} if changes is None else changes
        changes |= {"turn": seat, "taken": None, "window": None, "phase": "take"}
        if not changes.get("field", state.field):
            size, deck = state.config.field_size, changes.get("deck", state.deck)
            if len(deck) < size:
                return self._deck_out(_copy(state, **changes), events)
            field = deck[:size]
            events.append(event(key="rummy.field", params={"count": size}, cards=field))
            changes |= {"field": field, "deck": deck[size:]}
        return _copy(state, **changes)

    def _take(self, state: State, seat: int, card: int, events: list[Event]) -> State:
        if card not in state.field:
            raise illegal("not_in_field")
        hand = tuple(sorted((*state.hands[seat], card)))
        state = _copy(
            state,
            field=_without(state.field, (card,)),
            hands=_put(state.hands, seat, hand),
            known=_put(state.known, seat, (*state.known[seat], card)),
            taken=card,
            phase="act",
        )
        events.append(event(key="rummy.took", params={"seat": seat}, cards=(card,)))
        return state

    def _goal_on_take(self, state: State, seat: int, events: list[Event]) -> State:
        self._check_goal(state, seat, state.hands[seat])
        assert state.taken is not None
        return self._goal(state, seat, None, state.taken, events)

    @staticmethod
    def _check_goal(state: State, seat: int, hand: Sequence[int]) -> None:
        if not is_goal_form(hand):
            raise illegal("not_goal_form")
        if not state.opened[seat]:
            raise illegal("no_open_set")

    def _open(self, state: State, seat: int, cards: tuple[int, ...], events: list[Event]) -> State:
        if state.ready[seat]:
            raise illegal("ready_cannot_open")
        self._require_in_hand(state, seat, cards)
        if not is_big(cards):
            raise illegal("not_a_big_set")
        state = self._lay(state, seat, cards)
        events.append(event(key="rummy.opened", params={"seat": seat}, cards=cards))
        return self._after_opening(state, seat, (seat + 1) % state.config.players, events)

    def _lay(self, state: State, seat: int, cards: tuple[int, ...]) -> State:
        """Move `cards` (from the hand, and the discard being gained) to a new open set."""
        return _copy(
            state,
            hands=_put(state.hands, seat, _without(state.hands[seat], cards)),
            known=_put(state.known, seat, _without(state.known[seat], cards)),
            opened=_put(state.opened, seat, (*state.opened[seat], tuple(sorted(cards)))),
        )

    def _after_opening(self, state: State, seat: int, next_seat: int, events: list[Event]) -> State:
        """Item victory (advanced), then draw 2 (or the deck is out), then the next turn."""
        if state.config.advanced and item_sets(state.opened[seat]) >= ITEM_VICTORY_SETS:
            return self._item_victory(state, seat, events)
        if len(state.deck) < DRAW_AFTER_OPEN:
            return self._deck_out(state, events)
        drawn, deck = state.deck[:DRAW_AFTER_OPEN], state.deck[DRAW_AFTER_OPEN:]
        hand = tuple(sorted((*state.hands[seat], *drawn)))
        events.append(event(key="rummy.drew", params={"seat": seat, "count": len(drawn)}))
        events.append(
            event(key="rummy.drew_cards", params={"seat": seat}, audience=(seat,), cards=drawn)
        )
        changes = {"deck": deck, "hands": _put(state.hands, seat, hand)}
        return self._start_turn(state, next_seat, events, changes)

    def _discard(self, state: State, seat: int, action: Discard, events: list[Event]) -> State:
        card, hand = action.card, state.hands[seat]
        if card not in hand:
            raise illegal("not_in_hand")
        rest = _without(hand, (card,))
        if state.ready[seat]:
            if card != state.taken:
                raise illegal("must_discard_taken")
            if action.ready:
                raise illegal("already_ready")
        elif action.ready:
            if not state.opened[seat]:
                raise illegal("ready_needs_open_set")
            if not waits(rest, _flat(state.opened[seat])):
                raise illegal("not_ready_form")
        n = state.config.players
        changes: dict[str, Any] = {
            "hands": _put(state.hands, seat, rest),
            "rows": _put(state.rows, seat, (*state.rows[seat], card)),
        }
        known = state.known[seat]
        if card in known:  # what is left unchanged is not copied
            changes["known"] = _put(state.known, seat, _without(known, (card,)))
        if action.ready:
            changes["ready"] = _put(state.ready, seat, True)
        events.append(event(key="rummy.discarded", params={"seat": seat}, cards=(card,)))
        if action.ready:
            events.append(event(key="rummy.ready", params={"seat": seat}))
        # Who is asked depends on the other seats only, which the discard leaves as they are.
        asked = self._asked(state, seat, card)
        if not asked:
            events.append(event(key="rummy.no_claim", params={"seat": seat}, cards=(card,)))
            return self._start_turn(state, (seat + 1) % n, events, changes)
        window = built(
            Window, {"discarder": seat, "card": card, "asked": asked, "answers": (None,) * n}
        )
        state = _copy(state, **changes, window=window, phase="window")
        params = {"seat": seat, "seconds": state.config.claim_seconds}
        events.append(event(key="rummy.window", params=params, cards=(card,)))
        return state

    @staticmethod
    def _require_in_hand(state: State, seat: int, cards: Sequence[int]) -> None:
        if len(set(cards)) != len(cards) or not set(cards) <= set(state.hands[seat]):
            raise illegal("not_in_hand")

    # The claim window ---------------------------------------------------------------------------

    def _answer(
        self, state: State, seat: int, action: Pass | Goal | Gain, events: list[Event]
    ) -> State:
        window = state.window
        assert window is not None
        if isinstance(action, Goal):
            if not state.ready[seat]:
                raise illegal("not_ready")
            self._check_goal(state, seat, (*state.hands[seat], window.card))
            if state.config.advanced and goal_on_discard_blocked(state, seat):
                raise illegal("own_discard_completes")
            answer = _GOAL_ANSWER
        elif isinstance(action, Gain):
            if state.ready[seat]:
                raise illegal("ready_cannot_gain")
            self._require_in_hand(state, seat, action.cards)
            if not is_big((*action.cards, window.card)):
                raise illegal("not_a_big_set")
            answer = built(Answer, {"choice": "gain", "cards": action.cards})
        else:
            answer = _PASS_ANSWER
        window = _copy(window, answers=_put(window.answers, seat, answer))
        state = _copy(state, window=window)
        events.append(
            event(
                key="rummy.answer",
                params={"seat": seat, "choice": answer.choice},
                audience=(seat,),
                cards=answer.cards,
            )
        )
        if any(window.answers[s] is None for s in window.asked):
            return state
        events.append(event(key="rummy.window_closed", params={"deadline": False}))
        return self._resolve(state, events)

    def _close(self, state: State, events: list[Event]) -> State:
        window = state.window
        assert window is not None
        answers = tuple(a or _PASS_ANSWER for a in window.answers)
        state = _copy(state, window=_copy(window, answers=answers))
        events.append(event(key="rummy.window_closed", params={"deadline": True}))
        return self._resolve(state, events)

    def _resolve(self, state: State, events: list[Event]) -> State:
        """Goal claims first, then Gain claims; nearest after the discarder wins each."""
        window = state.window
        assert window is not None
        n, discarder, card = state.config.players, window.discarder, window.card
        order = [(discarder + i) % n for i in range(1, n)]
        claims = [(s, window.answers[s]) for s in order]
        winner = next(((s, a) for s, a in claims if a and a.choice == "goal"), None)
        winner = winner or next(((s, a) for s, a in claims if a and a.choice == "gain"), None)
        for seat, answer in claims:
            if answer and answer.choice != "pass" and (winner is None or seat != winner[0]):
                events.append(
                    event(key="rummy.claim_lost", params={"seat": seat}, audience=(seat,))
                )
        if winner is None:  # the new turn closes the window
            events.append(event(key="rummy.no_claim", params={"seat": discarder}, cards=(card,)))
            return self._start_turn(state, (discarder + 1) % n, events)
        seat, answer = winner
        rows = _put(state.rows, discarder, state.rows[discarder][:-1])
        state = _copy(state, window=None, rows=rows)
        if answer.choice == "goal":
            hand = tuple(sorted((*state.hands[seat], card)))
            state = _copy(state, hands=_put(state.hands, seat, hand))
            return self._goal(state, seat, discarder, card, events)
        hand = tuple(sorted((*state.hands[seat], card)))
        state = _copy(state, hands=_put(state.hands, seat, hand))
        cards = tuple(sorted((*answer.cards, card)))
        state = self._lay(state, seat, cards)
        params = {"seat": seat, "to_seat": discarder}
        events.append(event(key="rummy.gained", params=params, cards=cards))
        return self._after_opening(state, seat, (discarder + 1) % n, events)

    # Goals and scoring ----------------------------------------------------------------------

    def _goal(
        self, state: State, seat: int, from_seat: int | None, card: int, events: list[Event]
    ) -> State:
        """Reveal the winning hand, score it; bonus checks follow as chance flips."""
        hand, opened = state.hands[seat], state.opened[seat]
        breakdown = score_goal(hand, opened, state.config.advanced)
        result = ShortResult(
            game_no=state.game_no,
            kind="goal",
            seat=seat,
            from_seat=from_seat,
            card=card,
            hand=hand,
            split=breakdown.split,
            opened=opened,
            set_points=breakdown.set_points,
            red=breakdown.red,
        )
        state = _copy(
            state,
            hands=_put(state.hands, seat, ()),
            known=_put(state.known, seat, ()),
            out=hand,
            result=result,
            phase="bonus",
        )
        params: dict[str, Any] = {
            "seat": seat,
            "sets": breakdown.set_points,
            "red": sum(r.points for r in breakdown.red),
        }
        if from_seat is not None:
            params["to_seat"] = from_seat
        events.append(event(key="rummy.goal", params=params, cards=hand))
        if not state.deck:
            events.append(event(key="rummy.bonus_empty", params={"seat": seat}))
            return self._score(state, events)
        return state

    def _flip(self, state: State, card: int, events: list[Event]) -> State:
        result = state.result
        if card != state.deck[0] or result is None or result.seat is None:
            raise illegal("bad_chance")
        points = bonus_points(card, result.hand, result.opened)
        result = _copy(result, bonus=(*result.bonus, BonusFlip(card=card, points=points)))
        state = _copy(state, deck=state.deck[1:], out=(*state.out, card), result=result)
        params = {"seat": result.seat, "points": points}
        events.append(event(key="rummy.bonus", params=params, cards=(card,)))
        if points and state.deck:
            return state
        return self._score(state, events)

    def _score(self, state: State, events: list[Event]) -> State:
        """Add the goal's points; advanced, a goal on a discard costs the discarder as much."""
        result = state.result
        assert result is not None and result.seat is not None
        total = result.set_points + result.red_points + result.bonus_points
        scores = _put(state.scores, result.seat, state.scores[result.seat] + total)
        loss = 0
        if state.config.advanced and result.from_seat is not None:
            loss = min(total, scores[result.from_seat])
            scores = _put(scores, result.from_seat, scores[result.from_seat] - loss)
        scored = _copy(result, total=total, loss=loss)
        state = _copy(state, scores=scores, result=scored)
        params = {"seat": result.seat, "points": total, "score": scores[result.seat]}
        events.append(event(key="rummy.scored", params=params))
        if loss and result.from_seat is not None:
            lost = {"seat": result.from_seat, "points": loss, "score": scores[result.from_seat]}
            events.append(event(key="rummy.lost_points", params=lost))
        return self._end_short(state, events)

    def _deck_out(self, state: State, events: list[Event]) -> State:
        result = ShortResult(game_no=state.game_no, kind="deck_out")
        state = _copy(state, result=result)
        events.append(event(key="rummy.deck_out", params={"game": state.game_no}))
        return self._end_short(state, events)

    def _end_short(self, state: State, events: list[Event]) -> State:
        cfg = state.config
        if state.game_no >= cfg.match_games or max(state.scores) >= cfg.target:
            return self._match_over(state, events)
        return _copy(state, phase="ended", taken=None, window=None)

    def _item_victory(self, state: State, seat: int, events: list[Event]) -> State:
        result = ShortResult(
            game_no=state.game_no, kind="item_victory", seat=seat, opened=state.opened[seat]
        )
        state = _copy(state, result=result)
        events.append(event(key="rummy.item_victory", params={"seat": seat}))
        return self._match_over(state, events)

    def _match_over(self, state: State, events: list[Event]) -> State:
        state = _copy(state, phase="over", taken=None, window=None)
        outcome = self.outcome(state)
        assert outcome is not None
        params = {"seats": list(outcome.winners), "result": outcome.result}
        events.append(event(key="rummy.match_over", params=params))
        return state

    # Reading the state ----------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        n = state.config.players
        own = seat if seat is not None and 0 <= seat < n else None
        window = state.window
        turn: int | None = None
        if state.phase in ("take", "act", "window"):
            turn = state.turn
        elif state.phase == "ended":
            turn = self._next_first(state)
        values = {
            "seat": own,
            "config": state.config,
            "phase": state.phase,
            "game_no": state.game_no,
            "first": state.first,
            "turn": turn,
            "field": state.field,
            "deck": len(state.deck),
            "hand_sizes": tuple(len(h) for h in state.hands),
            "known": state.known,
            "rows": state.rows,
            "opened": state.opened,
            "ready": state.ready,
            "taken": state.taken,
            "window": None
            if window is None
            else built(
                WindowView,
                {
                    "discarder": window.discarder,
                    "card": window.card,
                    "seconds": state.config.claim_seconds,
                },
            ),
            "out": state.out,
            "scores": state.scores,
            "result": state.result,
            "hand": state.hands[own] if own is not None else None,
            "my_answer": window.answers[own] if window is not None and own is not None else None,
            "legal": tuple(self.legal_actions(state, own)) if own is not None else (),
        }
        return built(View, values)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        result = state.result
        details = {"games": state.game_no}
        if result is not None and result.kind == "item_victory" and result.seat is not None:
            return Outcome(
                winners=(result.seat,), result="item_victory", scores=state.scores, details=details
            )
        best = max(state.scores)
        winners = tuple(s for s, score in enumerate(state.scores) if score == best)
        return Outcome(winners=winners, result="points", scores=state.scores, details=details)

    def secret_cards(self, state: State) -> frozenset[int]:
        """The deck and every hand card nobody saw going in."""
        known = set(_flat(state.known))
        return frozenset(state.deck) | {c for h in state.hands for c in h if c not in known}

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Re-deal the deck and the unseen hand cards of every seat but `seat`; their hidden
        window answers stay only where still possible (else they become passes). Who the
        window asked stays: it is still waiting for them, and each may always pass."""
        hidden = [s for s in range(state.config.players) if s != seat]
        pool = [c for s in hidden for c in _without(state.hands[s], state.known[s])]
        pool += state.deck
        rng.shuffle(pool)
        hands = list(state.hands)
        for s in hidden:
            count = len(state.hands[s]) - len(state.known[s])
            hands[s] = tuple(sorted((*state.known[s], *pool[:count])))
            pool = pool[count:]
        state = _copy(state, hands=tuple(hands), deck=tuple(pool))
        return self._keep_possible_answers(state, hidden)

    def _keep_possible_answers(self, state: State, seats: Sequence[int]) -> State:
        window = state.window
        if window is None:
            return state
        answers = list(window.answers)
        for s in seats:
            answer = answers[s]
            if answer is None or answer.choice == "pass":
                continue
            claim = (
                Goal() if answer.choice == "goal" else Gain.model_validate({"cards": answer.cards})
            )
            if claim not in self._claims(state, s, window.card):
                answers[s] = Answer(choice="pass")
        return _copy(state, window=_copy(window, answers=tuple(answers)))

    def sample_state(self, view: View, rng: random.Random) -> State:
        """A state consistent with `view`: the unseen cards dealt at random to the others'
        unseen hand slots and the deck. A window asks the viewer as its view says, and the
        others who can claim with their sampled hands (none has answered yet)."""
        n = view.config.players
        own = view.hand or ()
        seen = {*view.field, *_flat(view.rows), *view.out, *own, *_flat(view.known)}
        seen |= {c for sets in view.opened for c in _flat(sets)}
        pool = [c for c in CARDS if c not in seen]
        rng.shuffle(pool)
        hands = []
        for s in range(n):
            if s == view.seat:
                hands.append(tuple(own))
                continue
            count = view.hand_sizes[s] - len(view.known[s])
            hands.append(tuple(sorted((*view.known[s], *pool[:count]))))
            pool = pool[count:]
        if len(pool) != view.deck:
            raise ValueError("the view does not account for every card")
        turn = view.turn if view.turn is not None and view.phase != "ended" else view.first
        state = State(
            config=view.config,
            phase=view.phase,
            game_no=view.game_no,
            first=view.first,
            turn=turn,
            deck=tuple(pool),
            field=view.field,
            hands=tuple(hands),
            known=view.known,
            rows=view.rows,
            opened=view.opened,
            ready=view.ready,
            taken=view.taken,
            out=view.out,
            scores=view.scores,
            result=view.result,
        )
        if view.window is None:
            return state
        discarder, card = view.window.discarder, view.window.card
        asked = [s for s in self._asked(state, discarder, card) if s != view.seat]
        if view.seat is not None and (view.my_answer is not None or view.legal):
            asked.append(view.seat)
        answers = tuple(view.my_answer if s == view.seat else None for s in range(n))
        window = Window(discarder=discarder, card=card, asked=tuple(sorted(asked)), answers=answers)
        return _copy(state, window=window)


RULES = RummyRules()
