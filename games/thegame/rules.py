"""The Game's rules (seed 000 with the project's rulings)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engine.built import built, event
from games.engine.contract import (
    CHANCE,
    Event,
    Outcome,
    Rules,
    Step,
    ToMove,
)
from games.engine.errors import GameError, Reason, illegal
from games.engine.exact import ExactActions, between, ints, is_bool, is_int, one_of
from games.engine.options import config_from_options
from games.thegame.models import (
    ACTION_ADAPTER,
    ASCENDING,
    BLUE_NUMBERS,
    CARDS,
    END_TURN,
    NO_BLUE,
    PILES,
    PLAYS,
    SIGNALS,
    ChooseFirst,
    Deal,
    EndReason,
    EndTurn,
    Phase,
    PileView,
    Play,
    Signal,
    SignalKind,
    TheGameAction,
    TheGameConfig,
    TheGameState,
    TheGameView,
)
from games.thegame.models import fits as fits  # the placement rule, where it was defined first

PERFECT, WIN, LOSS, BURNED = "perfect", "win", "loss", "burned"
CARD_SET = frozenset(CARDS)

DEALT_EVENTS = {size: event("thegame.dealt", {"size": size}) for size in range(5, 9)}
TURN_EVENTS = tuple(event("thegame.turn", {"seat": seat}) for seat in range(5))
TURN_ENDED_EVENTS = {
    (seat, drew): event("thegame.turn_ended", {"seat": seat, "drew": drew})
    for seat in range(5)
    for drew in range(9)  # up to the largest hand
}
PLAYED_EVENTS: dict[tuple[int, int, int], Event] = {}
"""The public events of every deal and move, each built once and shared (events are frozen;
the bot copies their params before it words them): one object less to build a move, and to
keep with each live game's last move."""


def played_event(seat: int, card: int, pile: int) -> Event:
    found = PLAYED_EVENTS.get((seat, card, pile))
    if found is None:
        params = {"seat": seat, "card": card, "pile": pile}
        found = PLAYED_EVENTS[seat, card, pile] = event("thegame.played", params, cards=(card,))
    return found


CHANCE_TO_MOVE, NOBODY_TO_MOVE = ToMove(chance=True), ToMove()
SEAT_TO_MOVE = tuple(ToMove(seats=frozenset({seat})) for seat in range(5))  # up to 5 players
"""`to_move`'s answers, built once (they are frozen)."""


def can_place(state: TheGameState, card: int, pile: int) -> bool:
    return fits(state.top(pile), card, ASCENDING[pile])


def placeable(state: TheGameState, hand: Sequence[int]) -> bool:
    """Whether any card of `hand` fits any pile: above the lower up pile, below the higher
    down pile, or exactly 10 off a top the other way."""
    if not hand:
        return False
    up1, up2, down1, down2 = state.tops
    up, down = (up1, up2), (down1, down2)
    if max(hand) > min(up) or min(hand) < max(down):
        return True
    return any(card + 10 in up or card - 10 in down for card in hand)


def _burns(state: TheGameState, pile: int) -> bool:
    """(R) A blue card placed in an earlier turn is still not covered by a non-blue card."""
    since = state.blue_since[pile]
    return since is not None and since < state.turn_number


def result_of(cards_left: int, end_reason: EndReason | None) -> str:
    if end_reason is EndReason.BURNED:
        return BURNED
    if cards_left == 0:
        return PERFECT
    return WIN if cards_left <= 9 else LOSS


class TheGameRules(Rules[TheGameConfig, TheGameState, TheGameAction, TheGameView]):
    game_id = "thegame"
    rules_version = 1
    min_players = 1
    max_players = 5
    variants = ({}, {"on_fire": True, "min_three": True, "smaller_hand": True})
    config_model = TheGameConfig
    state_model = TheGameState
    action_adapter = ACTION_ADAPTER
    exact_actions = ExactActions.of(
        {
            Deal: {"order": ints()},
            ChooseFirst: {"seat": is_int},
            Play: {"card": is_int, "pile": between(0, PILES - 1)},
            EndTurn: {},
            Signal: {
                "pile": between(0, PILES - 1),
                "signal": one_of(tuple(SignalKind)),
                "on": is_bool,
            },
        },
        built=(*PLAYS.values(), END_TURN, *SIGNALS.values()),
    )

    def make_config(self, players: int, options: dict[str, Any]) -> TheGameConfig:
        return config_from_options(TheGameConfig, players, options)

    def setup(self, config: TheGameConfig) -> TheGameState:
        return TheGameState(config=config)

    def to_move(self, state: TheGameState) -> ToMove:
        phase = state.phase
        if phase is Phase.PLAY:
            turn = state.turn
            if 0 <= turn < len(SEAT_TO_MOVE):
                return SEAT_TO_MOVE[turn]
            return ToMove(seats=frozenset({turn}))
        if phase is Phase.OVER:
            return NOBODY_TO_MOVE
        return CHANCE_TO_MOVE

    def chance_action(self, state: TheGameState, rng: random.Random) -> TheGameAction:
        # Built without validation: a shuffle of CARDS, a seat in range (the engine's checked
        # mode validates chance actions in the tests).
        if state.phase is Phase.DEAL:
            order = list(CARDS)
            rng.shuffle(order)
            return built(Deal, {"kind": "deal", "order": tuple(order)})
        return built(
            ChooseFirst, {"kind": "choose_first", "seat": rng.randrange(state.config.players)}
        )

    def legal_actions(self, state: TheGameState, seat: int) -> list[TheGameAction]:
        if seat == state.turn:
            return [*state.moves, *state.signal_moves]
        return list(state.signal_moves)

    def apply(self, state: TheGameState, actor: int, action: TheGameAction) -> Step:
        action = self.checked(action)  # a foreign or unvalidated action never gets further
        if state.phase is Phase.OVER:
            raise GameError(Reason.GAME_OVER)
        if isinstance(action, (Deal, ChooseFirst)):
            if actor != CHANCE:
                raise illegal("chance_only")
            if isinstance(action, Deal):
                return self._deal(state, action)
            return self._choose_first(state, action)
        if state.phase is not Phase.PLAY or not 0 <= actor < state.config.players:
            raise illegal("not_now")
        if isinstance(action, Play):
            return self._play(state, actor, action)
        if isinstance(action, EndTurn):
            return self._end_turn(state, actor)
        if isinstance(action, Signal):
            return self._signal(state, actor, action)
        raise illegal("unknown_action")

    # Chance ---------------------------------------------------------------------------------

    def _deal(self, state: TheGameState, deal: Deal) -> Step:
        order = deal.order  # every card once: as many as there are, none left out
        if state.phase is not Phase.DEAL or len(order) != len(CARDS) or CARD_SET.difference(order):
            raise illegal("bad_deal")
        size, players = state.config.hand_size, state.config.players
        hands = tuple([tuple(sorted(order[i * size : (i + 1) * size])) for i in range(players)])
        changes: dict[str, Any] = {"hands": hands, "deck": order, "drawn": players * size}
        events = [DEALT_EVENTS[size]]
        events += [
            event("thegame.your_hand", {}, audience=(seat,), cards=hand)
            for seat, hand in enumerate(hands)
        ]
        first = state.config.first_player
        if first is None:  # chance picks the first player next: the deal's one new state
            changes["phase"] = Phase.CHOOSE_FIRST
            return Step(state.evolve(changes, len(CARDS)), tuple(events))
        return self._begin(state.evolve(changes, len(CARDS)), first, events)

    def _choose_first(self, state: TheGameState, choice: ChooseFirst) -> Step:
        if state.phase is not Phase.CHOOSE_FIRST or not 0 <= choice.seat < state.config.players:
            raise illegal("bad_choice")
        return self._begin(state, choice.seat, [])

    def _begin(self, state: TheGameState, first: int, events: list[Event]) -> Step:
        events.append(event("thegame.first_player", {"seat": first}))
        return self._start_turn(state, first, events, {"phase": Phase.PLAY})

    # Turns ----------------------------------------------------------------------------------

    def _start_turn(
        self, state: TheGameState, seat: int, events: list[Event], changes: dict[str, Any]
    ) -> Step:
        """Give the turn to `seat` or the next seat holding cards; end the game if stuck.

        `changes` (what the step changed before, keeping the cards left) go into the same new
        state."""
        players, hands = state.config.players, changes.get("hands", state.hands)
        for offset in range(players):
            candidate = (seat + offset) % players
            if hands[candidate]:
                break
            events.append(event("thegame.skipped", {"seat": candidate}))
        else:
            return self._finish(state, EndReason.ALL_PLAYED, events, changes)
        changes.update(turn=candidate, turn_number=state.turn_number + 1, played_this_turn=0)
        state = state.evolve(changes, state.cards_left)
        events.append(TURN_EVENTS[candidate])
        return self._check_stuck(state, events)

    def _check_stuck(self, state: TheGameState, events: list[Event]) -> Step:
        """(R) The engine ends the game when the player to move cannot reach the minimum."""
        if state.played_this_turn < state.minimum and not placeable(state, state.hands[state.turn]):
            events.append(event("thegame.stuck", {"seat": state.turn}))
            return self._finish(state, EndReason.STUCK, events, {})
        return Step(state, tuple(events))

    def _finish(
        self, state: TheGameState, reason: EndReason, events: list[Event], changes: dict[str, Any]
    ) -> Step:
        """End the game (with `changes`, which keep the cards left, in the same new state)."""
        changes.update(phase=Phase.OVER, end_reason=reason)
        state = state.evolve(changes, state.cards_left)
        left = state.cards_left
        events.append(
            event("thegame.over", {"result": result_of(left, reason), "cards_left": left})
        )
        return Step(state, tuple(events))

    def _play(self, state: TheGameState, seat: int, play: Play) -> Step:
        if seat != state.turn:
            raise GameError(Reason.NOT_YOUR_TURN)
        hand = state.hands[seat]
        card, pile = play.card, play.pile
        if card not in hand:
            raise illegal("not_in_hand")
        if not fits(state.tops[pile], card, ASCENDING[pile]):
            raise illegal("cannot_place", card=card, pile=pile)
        tops, counts = list(state.tops), list(state.counts)
        tops[pile] = card
        counts[pile] += 1
        hands = list(state.hands)
        at = hand.index(card)
        hands[seat] = hand[:at] + hand[at + 1 :]
        left = state.cards_left - 1
        changes: dict[str, Any] = {
            "tops": tuple(tops),
            "counts": tuple(counts),
            "hands": tuple(hands),
            "played_this_turn": state.played_this_turn + 1,
        }
        since = state.blue_since[pile]
        if state.config.on_fire and card in BLUE_NUMBERS:
            covered = state.turn_number if since is None else since
        else:
            covered = None
        if covered != since:
            blue_since = list(state.blue_since)
            blue_since[pile] = covered
            changes["blue_since"] = tuple(blue_since)
        state = state.evolve(changes, left)
        events = [played_event(seat, card, pile)]
        if left == 0:
            return self._end_turn(state, seat, events)
        return self._check_stuck(state, events)

    def _end_turn(self, state: TheGameState, seat: int, events: list[Event] | None = None) -> Step:
        if seat != state.turn:
            raise GameError(Reason.NOT_YOUR_TURN)
        events = events or []
        if state.played_this_turn < state.minimum:
            raise illegal("minimum_not_met", count=state.minimum)
        config = state.config
        hand = state.hands[seat]
        need = max(0, config.hand_size - len(hand))
        at = state.drawn
        drawn = state.deck[at : at + need]
        changes: dict[str, Any] = {}
        refilled = tuple(sorted((*hand, *drawn)))
        if refilled != hand:
            hands = list(state.hands)
            hands[seat] = refilled
            changes = {"hands": tuple(hands), "drawn": at + len(drawn)}
        events.append(TURN_ENDED_EVENTS[seat, len(drawn)])
        if drawn:
            events.append(event("thegame.you_drew", {}, audience=(seat,), cards=drawn))
        turn_number, blue_since = state.turn_number, state.blue_since
        if blue_since != NO_BLUE:  # (R) On Fire: a blue card from an earlier turn burns
            burning = [
                pile
                for pile in range(PILES)
                if (since := blue_since[pile]) is not None and since < turn_number
            ]
            for pile in burning:
                events.append(event("thegame.burned", {"pile": pile, "card": state.top(pile)}))
            if burning:
                return self._finish(state, EndReason.BURNED, events, changes)
        if state.cards_left == 0:
            return self._finish(state, EndReason.ALL_PLAYED, events, changes)
        return self._start_turn(state, (seat + 1) % config.players, events, changes)

    def _signal(self, state: TheGameState, seat: int, signal: Signal) -> Step:
        if not state.config.signals:
            raise illegal("signals_off")
        current = state.signals[signal.pile]
        if (signal.signal in current) == signal.on:
            raise illegal("signal_unchanged")
        updated = (
            (*current, signal.signal)
            if signal.on
            else tuple(s for s in current if s != signal.signal)
        )
        signals = list(state.signals)
        signals[signal.pile] = updated
        params = {
            "seat": seat,
            "pile": signal.pile,
            "signal": signal.signal.value,
            "on": signal.on,
        }
        return Step(state.evolve({"signals": tuple(signals)}), (event("thegame.signal", params),))

    # Views and results ----------------------------------------------------------------------

    def view(self, state: TheGameState, seat: int | None) -> TheGameView:
        """Built without validation: every value comes from the (valid) state."""
        config = state.config
        piles = []
        for pile in range(PILES):
            top = state.tops[pile]
            fields = {
                "ascending": ASCENDING[pile],
                "top": top,
                "count": state.counts[pile],
                "top_blue": config.is_blue(top),
                "burns_at_turn_end": _burns(state, pile),
                "signals": state.signals[pile],
            }
            piles.append(built(PileView, fields))
        own = seat is not None and 0 <= seat < len(state.hands)
        fields = {
            "seat": seat,
            "config": config,
            "phase": state.phase,
            "piles": tuple(piles),
            "draw_count": state.draw_count,
            "hand_sizes": tuple(len(hand) for hand in state.hands),
            "hand": state.hands[seat] if own and seat is not None else None,
            "turn": state.turn,
            "turn_number": state.turn_number,
            "played_this_turn": state.played_this_turn,
            "minimum": state.minimum,
            "cards_left": state.cards_left,
            "end_reason": state.end_reason,
        }
        return built(TheGameView, fields)

    def outcome(self, state: TheGameState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        result = result_of(state.cards_left, state.end_reason)
        won = result in (PERFECT, WIN)
        return Outcome(
            winners=tuple(range(state.config.players)) if won else (),
            result=result,
            scores=(state.cards_left,),
            details={"cards_left": state.cards_left},
        )

    def resample_hidden(
        self, state: TheGameState, seat: int | None, rng: random.Random
    ) -> TheGameState:
        others = [i for i in range(len(state.hands)) if i != seat]
        pool = list(state.draw) + [card for i in others for card in state.hands[i]]
        rng.shuffle(pool)
        hands = list(state.hands)
        for i in others:
            size = len(hands[i])
            hands[i], pool = tuple(sorted(pool[:size])), pool[size:]
        changes = {"hands": tuple(hands), "deck": tuple(pool), "drawn": 0}
        return state.evolve(changes, state.cards_left)

    def sample_state(self, view: TheGameView, rng: random.Random) -> TheGameState:
        """The table of `view` with what it does not show drawn at random.

        The view shows each pile's top and size, as the state holds them: the unseen numbers
        (not in the viewer's hand, not a top) fill the other hands and the draw pile first from
        the numbers between the piles (which nobody can have played, barring ±10 tricks), then
        at random; what is left lies under the tops.
        """
        config = view.config
        if view.phase is Phase.DEAL:
            return self.setup(config)
        own = view.hand if view.hand is not None and view.seat is not None else None
        tops = [p.top for p in view.piles]
        shown = set(own or ()) | set(tops)
        low, high = max(tops[0], tops[1]), min(tops[2], tops[3])
        unseen = [card for card in CARDS if card not in shown]
        rng.shuffle(unseen)
        unseen.sort(key=lambda card: not low < card < high)
        hidden_count = view.cards_left - len(own or ())
        hidden = unseen[:hidden_count]
        rng.shuffle(hidden)
        hands: list[tuple[int, ...]] = []
        for seat, size in enumerate(view.hand_sizes):
            if own is not None and seat == view.seat:
                hands.append(own)
            else:
                hands.append(tuple(sorted(hidden[:size])))
                hidden = hidden[size:]
        blue_since = tuple(
            None
            if not p.top_blue
            else view.turn_number - 1
            if p.burns_at_turn_end
            else view.turn_number
            for p in view.piles
        )
        up1, up2, down1, down2 = view.piles
        return TheGameState(
            config=config,
            phase=view.phase,
            deck=tuple(hidden),
            hands=tuple(hands),
            tops=(up1.top, up2.top, down1.top, down2.top),
            counts=(up1.count, up2.count, down1.count, down2.count),
            blue_since=blue_since,
            signals=tuple(p.signals for p in view.piles),
            turn=view.turn,
            turn_number=view.turn_number,
            played_this_turn=view.played_this_turn,
            end_reason=view.end_reason,
        )

    def secret_cards(self, state: TheGameState) -> frozenset[int]:
        return frozenset(state.draw).union(*state.hands)


RULES = TheGameRules()
