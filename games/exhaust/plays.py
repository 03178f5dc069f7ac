"""Legal moves computed from a seat's view alone, for the rules, the UI and the AI.

Because `ExhaustRules.legal_actions` is `legal_plays(view)`, an AI or a UI working from the
view can never disagree with the rules about what is legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from games.engine.built import every_field
from games.engine.contract import Frozen
from games.engine.errors import GameError
from games.exhaust.combos import (
    can_play,
    canonical,
    check_play,
    playable,
    raw_plays,
    split,
    table,
)
from games.exhaust.models import (
    Action,
    ComboView,
    Config,
    FlipDepletion,
    NextGame,
    PlayCards,
    Played,
    UseTime,
    View,
)
from games.exhaust.stacks import views


def combo_views(config: Config, stacks: Sequence[Sequence[Played]]) -> tuple[ComboView, ...]:
    """The table's combos with their stacks and what the next play on each must beat."""
    return views(config.players, stacks)


def can_act(
    combos: Iterable[ComboView], hand: Sequence[int], time_cards: int, face_up: int
) -> bool:
    """Whether a player may do anything at all (A, B or C); if not, they lose."""
    if time_cards > 0 or face_up > 0:
        return True
    return any(can_play(cv.combo, cv.top, cv.last, hand) for cv in combos)


def face_up_depletion(view: View, seat: int) -> int:
    return view.depletion[seat] - view.flipped[seat] if view.long_game else 0


def legal_plays(view: View) -> list[Action]:
    """Every action the viewer may take now (plays canonicalised and capped, see iter_plays)."""
    if not view.my_turn or view.hand is None or view.seat is None:
        return []
    if view.phase == "next":
        return [NEXT_GAME]
    face_up = face_up_depletion(view, view.seat)
    bars = tuple(cv.top or cv.last or 0 for cv in view.combos)
    return table_actions(view.players, bars, view.hand, view.time_cards[view.seat], face_up)


def only_action(view: View) -> bool:
    """Whether `legal_plays(view)` lists exactly one action: counted up to two, none built
    (a reason is asked of every action a search weighs, and of every AI move)."""
    if not view.my_turn or view.hand is None or view.seat is None:
        return False
    if view.phase == "next":
        return True
    seat = view.seat
    count = (view.time_cards[seat] > 0) + (face_up_depletion(view, seat) > 0)
    parts = split(view.hand)
    for cv in view.combos:
        bar = cv.top or cv.last  # as `legal_plays` reads the table
        top, last = (bar, None) if cv.combo.number_rule else (None, bar)
        for _ in raw_plays(cv.combo, top, last, parts):
            count += 1
            if count > 1:
                return False
    return count == 1


NEXT_GAME, USE_TIME, FLIP = NextGame(), UseTime(), FlipDepletion()

_FIELDS_SET, _EXTRA, _PRIVATE = (
    vars(BaseModel)[name].__set__
    for name in ("__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")
)
"""Pydantic's own slots of a model, set without a look-up through the model's class."""


def table_actions(
    players: int, bars: Sequence[int], hand: Sequence[int], time_cards: int, face_up: int
) -> list[Action]:
    """A player's actions in a game: its plays on every combo (see iter_plays), then B, C.
    `bars` are the combos' tops or last counts, 0 if empty (see stacks.Summary)."""
    parts = split(hand)
    actions: list[Action] = []
    new, put, fields = PlayCards.__new__, object.__setattr__, every_field(PlayCards)
    for index, combo in enumerate(table(players)):
        bar = bars[index] or None
        top, last = (bar, None) if combo.number_rule else (None, bar)
        for cards, copies in raw_plays(combo, top, last, parts):
            # games.engine.built, inlined (a hand lists dozens of plays), with each field set
            # on its own: the values stay in the object, no dict for the collector to track
            # until one is asked for, so a listing is half the objects for the GC to walk.
            action = new(PlayCards)
            put(action, "kind", "play")
            put(action, "combo", index)
            put(action, "cards", cards)
            put(action, "copies", copies)
            _FIELDS_SET(action, fields)
            _EXTRA(action, None)
            _PRIVATE(action, None)
            actions.append(action)
    if time_cards > 0:
        actions.append(USE_TIME)
    if face_up > 0:
        actions.append(FLIP)
    return actions


class SelectionCheck(Frozen):
    """The verdict on a set of selected cards for one combo.

    `reason` is an ILLEGAL_MOVE detail code (e.g. `number_too_low`) with `params` (e.g.
    `need`); when `ok`, `action` is the PlayCards to submit, copy targets filled in.
    """

    ok: bool
    reason: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    action: PlayCards | None = None


def check_selection(view: View, combo: int, cards: Iterable[int]) -> SelectionCheck:
    """Is playing exactly `cards` (copies included) to `combo` legal for the viewer now?"""
    if not view.my_turn or view.phase != "play" or view.hand is None:
        return SelectionCheck(ok=False, reason="not_your_turn")
    if not 0 <= combo < len(view.combos):
        return SelectionCheck(ok=False, reason="bad_combo")
    cv = view.combos[combo]
    play = canonical(set(cards))
    try:
        check_play(cv.combo, cv.top, cv.last, view.hand, play.cards, play.copies)
    except GameError as error:
        return SelectionCheck(ok=False, reason=error.detail, params=dict(error.params))
    return SelectionCheck(
        ok=True, action=PlayCards(combo=combo, cards=play.cards, copies=play.copies)
    )


def playable_cards(view: View, combo: int) -> tuple[int, ...]:
    """The viewer's cards that take part in some legal play on `combo` (for a multi-select)."""
    if view.hand is None or not 0 <= combo < len(view.combos):
        return ()
    cv = view.combos[combo]
    usable = playable(cv.combo, cv.top, cv.last, view.hand)
    return tuple(c for c in view.hand if c in usable)
