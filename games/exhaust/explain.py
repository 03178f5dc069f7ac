"""Why an Exhaust AI seat takes an action: a short reason code for /hint.

The code describes what the action does for the seat; the bot's catalog turns it into a
phrase. Codes: `only_move`, `next_game`, `spends_time_card` (keeps every card for later),
`flips_depletion`, `blocks_single` (a 15 on Single: nobody can play there any more),
`single` (one card, the cheapest play), `pair_draws_card`, `earns_time_card`,
`earns_two_time_cards`, `no_reward_left` (the play's reward pile is empty).
"""

from __future__ import annotations

from games.exhaust.cards import HIGHEST, NUMBER_CARDS
from games.exhaust.combos import REWARDS, ComboKind
from games.exhaust.models import Action, FlipDepletion, NextGame, PlayCards, UseTime, View
from games.exhaust.plays import only_action

REASONS = (
    "only_move",
    "next_game",
    "spends_time_card",
    "flips_depletion",
    "blocks_single",
    "single",
    "pair_draws_card",
    "earns_time_card",
    "earns_two_time_cards",
    "no_reward_left",
)


def reason_of(view: View, action: Action) -> str:
    """The reason code of `action` for the seat of `view` (one of REASONS)."""
    if only_action(view):
        return "only_move"
    match action:
        case NextGame():
            return "next_game"
        case UseTime():
            return "spends_time_card"
        case FlipDepletion():
            return "flips_depletion"
        case PlayCards():
            return _play_reason(view, action)
    raise ValueError(f"not a seat's action: {action!r}")


def _play_reason(view: View, play: PlayCards) -> str:
    kind = view.combos[play.combo].combo.kind
    if kind is ComboKind.SINGLE:
        number = max(c % HIGHEST + 1 for c in play.cards if c < NUMBER_CARDS)
        return "blocks_single" if number == HIGHEST else "single"
    what, due = REWARDS[kind]
    if what == "spell":
        return "pair_draws_card" if view.refill else "no_reward_left"
    if not view.time_pile:
        return "no_reward_left"
    return "earns_two_time_cards" if due == 2 and view.time_pile > 1 else "earns_time_card"
