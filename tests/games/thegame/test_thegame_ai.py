"""Behaviour of The Game AI, decided from hand-built views, plus full AI games."""

from __future__ import annotations

import random

import pytest

from games.engine.step import advance
from games.registry import GAMES
from games.thegame.ai import decide
from games.thegame.models import (
    ASCENDING,
    EndTurn,
    Phase,
    PileView,
    Play,
    Signal,
    SignalKind,
    TheGameAction,
    TheGameConfig,
    TheGameView,
)
from games.thegame.rules import fits

RULES = GAMES["thegame"]
RNG = random.Random(0)


def make_view(
    hand: tuple[int, ...],
    tops: tuple[int, int, int, int],
    *,
    players: int = 2,
    required: int = 2,
    draw: int = 40,
    signals: dict[int, tuple[SignalKind, ...]] | None = None,
    burning: tuple[int, ...] = (),
    on_fire: bool = False,
    signals_on: bool = True,
) -> TheGameView:
    """A view for seat 0 to move; `required` plays still due this turn."""
    config = TheGameConfig(players=players, on_fire=on_fire, signals=signals_on)
    signals = signals or {}
    minimum = 2 if draw else 1
    piles = tuple(
        PileView(
            ascending=ASCENDING[p],
            top=tops[p],
            count=0 if tops[p] in (1, 100) else 5,
            top_blue=config.is_blue(tops[p]),
            burns_at_turn_end=p in burning,
            signals=signals.get(p, ()),
        )
        for p in range(4)
    )
    sizes = (len(hand),) + (config.hand_size,) * (players - 1)
    return TheGameView(
        seat=0,
        config=config,
        phase=Phase.PLAY,
        piles=piles,
        draw_count=draw,
        hand_sizes=sizes,
        hand=tuple(sorted(hand)),
        turn=0,
        turn_number=20,
        played_this_turn=minimum - required,
        minimum=minimum,
        cards_left=draw + sum(sizes),
        end_reason=None,
    )


def apply(view: TheGameView, action: TheGameAction) -> TheGameView:
    """The seat's view after its own Play or Signal (a local stand-in for the rules)."""
    piles = list(view.piles)
    if isinstance(action, Signal):
        pile = piles[action.pile]
        kinds = tuple(k for k in pile.signals if k != action.signal)
        piles[action.pile] = pile.model_copy(
            update={"signals": (*kinds, action.signal) if action.on else kinds}
        )
        return view.model_copy(update={"piles": tuple(piles)})
    assert isinstance(action, Play)
    pile = piles[action.pile]
    assert view.hand is not None and action.card in view.hand
    assert fits(pile.top, action.card, pile.ascending), action
    piles[action.pile] = pile.model_copy(
        update={
            "top": action.card,
            "count": pile.count + 1,
            "top_blue": view.config.is_blue(action.card),
            "burns_at_turn_end": False,
        }
    )
    hand = tuple(c for c in view.hand if c != action.card)
    sizes = (len(hand), *view.hand_sizes[1:])
    return view.model_copy(
        update={
            "piles": tuple(piles),
            "hand": hand,
            "hand_sizes": sizes,
            "played_this_turn": view.played_this_turn + 1,
            "cards_left": view.cards_left - 1,
        }
    )


def play_turn(view: TheGameView) -> tuple[list[TheGameAction], TheGameView]:
    """Every action the AI takes until it ends its turn (checked legal on the way)."""
    actions: list[TheGameAction] = []
    for _ in range(40):
        action = decide(view, RNG)
        actions.append(action)
        if isinstance(action, EndTurn):
            assert view.still_required == 0
            return actions, view
        if isinstance(action, Signal):
            changes = [(a.pile, a.signal) for a in actions if isinstance(a, Signal)]
            assert len(changes) == len(set(changes)), f"a signal toggled: {actions}"
        view = apply(view, action)
    raise AssertionError(f"no end of turn: {actions}")


def plays(actions: list[TheGameAction]) -> list[tuple[int, int]]:
    return [(a.card, a.pile) for a in actions if isinstance(a, Play)]


def test_prefers_a_trick() -> None:
    # 40 is exactly 10 below the ascending 50: it sends the pile back.
    view = make_view((40, 58, 63, 71, 24, 36), (30, 50, 90, 80), required=1)
    assert (40, 1) in plays(play_turn(view)[0])
    view = make_view((73, 12, 36, 44, 58), (8, 20, 63, 95), required=1)
    assert decide(view, RNG) == Play(card=73, pile=2)


def test_minimum_with_the_smallest_total_jump() -> None:
    view = make_view((12, 35, 45, 55, 62, 88), (10, 20, 90, 80))
    actions, _ = play_turn(view)
    assert sorted(plays(actions)) == [(12, 0), (88, 2)]


def test_trick_chain() -> None:
    # 57 on 67, then 47 on 57: the ascending pile drops by 20.
    view = make_view((47, 57, 82, 90, 13, 25), (67, 30, 95, 99))
    made = plays(play_turn(view)[0])
    assert made.index((57, 0)) < made.index((47, 0))
    # Set up a trick: play 60 on 55, then 50 on 60.
    view = make_view((50, 60, 14, 22, 93, 97), (55, 5, 18, 2))
    made = plays(play_turn(view)[0])
    assert made.index((60, 0)) < made.index((50, 0))


def test_avoids_the_lower_of_two_ascending_piles() -> None:
    view = make_view((45, 3), (20, 40, 95, 95), required=1)
    assert decide(view, RNG) == Play(card=45, pile=1)
    view = make_view((55, 97), (5, 5, 80, 60), required=1)
    assert decide(view, RNG) == Play(card=55, pile=3)


def test_respects_no_play_when_an_alternative_exists() -> None:
    signals = {0: (SignalKind.NO_PLAY,)}
    view = make_view((31, 75), (30, 10, 80, 95), required=1, signals=signals)
    assert decide(view, RNG) == Play(card=75, pile=2)
    # Nothing else meets the minimum: it plays there, clearing the signal first.
    view = make_view((31, 32), (30, 40, 20, 25), required=1, signals=signals)
    actions, after = play_turn(view)
    assert actions[0] == Signal(pile=0, signal=SignalKind.NO_PLAY, on=False)
    assert plays(actions)[0][1] == 0
    assert SignalKind.NO_PLAY not in after.piles[0].signals


def test_no_big_jump_signal() -> None:
    view = make_view((60, 79), (40, 50, 99, 90), required=1)
    assert decide(view, RNG) == Play(card=60, pile=1)
    view = make_view((60, 79), (40, 50, 99, 90), required=1, signals={1: (SignalKind.NO_JUMP,)})
    assert decide(view, RNG) == Play(card=79, pile=3)


def test_asks_no_big_jump_where_it_holds_a_near_card() -> None:
    # 44 is two numbers above the ascending 41: ask the partner not to jump that pile.
    view = make_view((44, 70, 72), (41, 60, 99, 95), required=0)
    actions, after = play_turn(view)
    assert (44, 0) not in plays(actions)
    assert actions[-2:] == [Signal(pile=0, signal=SignalKind.NO_JUMP, on=True), EndTurn()]
    assert after.piles[0].signals == (SignalKind.NO_JUMP,)
    assert decide(after, RNG) == EndTurn()


def test_clears_a_no_big_jump_it_no_longer_backs() -> None:
    # Nothing near the ascending 41 any more: the signal goes at the end of the turn.
    view = make_view((70, 72), (41, 60, 99, 95), required=0, signals={0: (SignalKind.NO_JUMP,)})
    actions, after = play_turn(view)
    assert Signal(pile=0, signal=SignalKind.NO_JUMP, on=False) in actions
    assert after.piles[0].signals == ()


def test_plays_a_trick_rather_than_keeping_it() -> None:
    # Keeping 30 for the ascending 40 would cost the others a pile for a round: play it now.
    view = make_view((30, 65, 70, 75), (40, 10, 95, 99), required=0, players=3)
    actions, _ = play_turn(view)
    assert (30, 0) in plays(actions)
    assert not any(isinstance(a, Signal) for a in actions)


# On Fire, blue 22 is a trick on the descending 12 but nobody is likely to cover it: keep it.
KEPT_TRICK = {"hand": (22, 65, 75), "tops": (30, 40, 70, 12), "required": 0, "on_fire": True}


def test_signals_a_kept_trick_in_multiplayer_only() -> None:
    actions, after = play_turn(make_view(**KEPT_TRICK, players=3))  # type: ignore[arg-type]
    assert (22, 3) not in plays(actions)
    assert actions[-2:] == [Signal(pile=3, signal=SignalKind.NO_PLAY, on=True), EndTurn()]
    assert after.piles[3].signals == (SignalKind.NO_PLAY,)
    # Already signalled: it just ends the turn (no toggling).
    assert decide(after, RNG) == EndTurn()
    # Solo: never a signal.
    actions, _ = play_turn(make_view(**KEPT_TRICK, players=1))  # type: ignore[arg-type]
    assert not any(isinstance(a, Signal) for a in actions)


def test_never_signals_when_the_table_plays_without_signals() -> None:
    actions, _ = play_turn(make_view(**KEPT_TRICK, players=3, signals_on=False))  # type: ignore[arg-type]
    assert (22, 3) not in plays(actions)
    assert actions[-1] == EndTurn()
    assert not any(isinstance(a, Signal) for a in actions)


def test_uses_its_kept_trick_and_clears_its_signal() -> None:
    view = make_view((22, 15, 85), (30, 40, 70, 12), players=3, on_fire=True)
    view = apply(view, Signal(pile=3, signal=SignalKind.NO_PLAY, on=True))
    # Now 15 can cover the blue 22: clear the signal just before playing 22 and 15 there.
    actions, after = play_turn(view)
    clear = actions.index(Signal(pile=3, signal=SignalKind.NO_PLAY, on=False))
    assert actions[clear + 1] == Play(card=22, pile=3)
    made = plays(actions)
    assert made.index((22, 3)) < made.index((15, 3))
    assert sum(isinstance(a, Signal) for a in actions) == 1
    assert after.piles[3].signals == ()


def test_covers_a_burning_blue_card() -> None:
    # 44 (blue) on the descending pile was placed last turn: it must be covered now.
    view = make_view((43, 12, 81, 86), (10, 80, 44, 90), on_fire=True, burning=(2,))
    _, after = play_turn(view)
    assert after.piles[2].top != 44 and not after.piles[2].top_blue
    # Even when the cover costs more than a cheap play elsewhere.
    view = make_view((11, 82, 20), (10, 80, 44, 90), on_fire=True, burning=(2,))
    _, after = play_turn(view)
    assert after.piles[2].top != 44


def test_avoids_leaving_a_blue_card_nobody_may_cover() -> None:
    # 22 on the descending 24 would be cheap, but few cards go below 22: it stays in hand.
    hand, tops = (22, 61, 62, 90, 95, 97), (10, 60, 24, 99)
    made = plays(play_turn(make_view(hand, tops, players=3, on_fire=True))[0])
    assert (22, 2) not in made
    # Without On Fire it is just a cheap extra play.
    assert (22, 2) in plays(play_turn(make_view(hand, tops, players=3))[0])
    # With a card to cover it in the same turn, it goes.
    made = plays(play_turn(make_view((*hand, 20), tops, players=3, on_fire=True))[0])
    assert made.index((22, 2)) < made.index((20, 2))


def test_never_ends_the_turn_before_the_minimum() -> None:
    # Only expensive plays are possible, and it must still make two.
    view = make_view((2, 99), (50, 60, 40, 45))
    actions, _ = play_turn(view)
    assert len(plays(actions)) == 2
    view = make_view((98, 3), (97, 95, 4, 5), draw=0, required=1)
    assert isinstance(decide(view, RNG), Play)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("on_fire", [False, True])
def test_full_games_take_only_legal_actions(players: int, on_fire: bool) -> None:
    for seed in (1, 2):
        config = RULES.make_config(players, {"on_fire": on_fire})
        result = advance(RULES, RULES.setup(config), 0, -1, None, seed)
        state, version = result.state, len(result.logged)
        in_a_row: list[tuple[int, SignalKind]] = []
        while not RULES.is_over(state):
            seat = next(iter(RULES.to_move(state).seats))
            action = decide(RULES.view(state, seat), random.Random(seed))
            assert action in RULES.legal_actions(state, seat)
            changed = isinstance(action, Signal)
            in_a_row = [*in_a_row, (action.pile, action.signal)] if changed else []
            assert len(in_a_row) == len(set(in_a_row)), "a signal toggled"
            result = advance(RULES, state, version, seat, action, seed)
            state, version = result.state, version + len(result.logged)
        outcome = RULES.outcome(state)
        assert outcome is not None
        if players == 1:
            assert not any(state.signals)
