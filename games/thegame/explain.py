"""Why a The Game AI seat takes an action: a short reason code for /hint.

The code describes what the action does; the bot's catalog turns it into a phrase. Codes:
`only_move`, `minimum_met` (ends the turn, keeping its cards), `asks_no_play` (signals "please
don't play here": it holds a card for that pile), `clears_signal`, `covers_fire` (puts a
non-blue card on a blue card that burns at the end of this turn), `trick_minus_ten` /
`trick_plus_ten` (the exact ±10 move that turns a pile back), `next_number` (skips no number),
`smallest_jump` (the play that skips the fewest numbers the table still needs).
"""

from __future__ import annotations

from games.thegame.models import EndTurn, Play, Signal, TheGameAction, TheGameView
from games.thegame.rules import fits

REASONS = (
    "only_move",
    "minimum_met",
    "asks_no_play",
    "clears_signal",
    "covers_fire",
    "trick_minus_ten",
    "trick_plus_ten",
    "next_number",
    "smallest_jump",
)


def reason_of(view: TheGameView, action: TheGameAction) -> str:
    """The reason code of `action` for the seat of `view` (one of REASONS)."""
    match action:
        case Signal():
            return "asks_no_play" if action.on else "clears_signal"
        case EndTurn():
            return "minimum_met"
        case Play():
            return _play_reason(view, action)
    raise ValueError(f"not a seat's action: {action!r}")


def _play_reason(view: TheGameView, play: Play) -> str:
    pile = view.piles[play.pile]
    hand = view.hand or ()
    options = [(c, pv) for c in hand for pv in view.piles if fits(pv.top, c, pv.ascending)]
    if len(options) == 1 and view.still_required > 0:
        return "only_move"
    if pile.burns_at_turn_end and not view.config.is_blue(play.card):
        return "covers_fire"
    if play.card == pile.top - 10 and pile.ascending:
        return "trick_minus_ten"
    if play.card == pile.top + 10 and not pile.ascending:
        return "trick_plus_ten"
    if abs(play.card - pile.top) == 1:
        return "next_number"
    return "smallest_jump"
