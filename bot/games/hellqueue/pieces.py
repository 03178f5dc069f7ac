"""How Hell Queue Club's pieces read, the same on every screen.

A large die is a keycap (5️⃣), a small die a code span (`5`), a black die ⚫5️⃣; the dice of
one face sit together, and dice under a card follow their owner's colour marker (🔴🔵🟡🟢,
seat order). Stones are 🟥🟦🟨🟩💠⬜.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.context import Context
from games.hellqueue.cards import STONES
from games.hellqueue.models import Dice, View
from games.hellqueue.moves import recall_case

MARKERS = ("🔴", "🔵", "🟡", "🟢")
"""Seat i's colour marker (COLOURS[i])."""
STONE_EMOJI = {
    "red": "🟥",
    "blue": "🟦",
    "yellow": "🟨",
    "green": "🟩",
    "aqua": "💠",
    "white": "⬜",
}
KEYCAP = {face: f"{face}\ufe0f\u20e3" for face in range(1, 7)}
BLACK = "⚫"
NONE = "—"


def view_of(ctx: Context, seat: int | None) -> View:
    """The view of `seat` (None: the public one) of the session on screen."""
    view: View = ctx.session.rules.view(ctx.session.state, seat)
    return view


def seat_name(ctx: Context, seat: int) -> str:
    """A seat by its colour marker and its player's name."""
    return f"{MARKERS[seat]} {ctx.names[seat]}"


def dice_text(dice: Dice) -> str:
    """Dice grouped by face: large as keycaps, black as ⚫ + keycap, small in a code span."""
    groups = []
    for face in dice.faces():
        group = dice.group(face)
        text = KEYCAP[face] * len(group.large) + (BLACK + KEYCAP[face]) * len(group.black)
        if group.small:
            text += "`" + " ".join([str(face)] * len(group.small)) + "`"
        groups.append(text)
    return " ".join(groups)


def sleep_text(faces: Sequence[int]) -> str:
    return dice_text(Dice(small=tuple(faces)))


def group_text(face: int, count: int) -> str:
    """A face group by its size and face, where its kinds do not matter (`3 × **5**`)."""
    return f"{count} × **{face}**"


def stones_row(stones: Sequence[str]) -> str:
    """A card's stones, one emoji each."""
    return "".join(STONE_EMOJI[s] for s in stones) or NONE


def stone_counts_text(counts: Sequence[int]) -> str:
    """Stones as counts per colour (`🟥2 💠1`)."""
    parts = [f"{STONE_EMOJI[s]}{n}" for s, n in zip(STONES, counts, strict=True) if n]
    return " ".join(parts) or NONE


def recall_count(view: View, seat: int) -> int:
    """The dice a Recall by `seat` would take back now."""
    player = view.players[seat]
    case = recall_case(view, seat)
    if case == "rest":
        return player.rest_large + player.rest_small + view.rest_black
    if case == "black":
        return view.rest_black
    return sum(queue[seat].count for queue in view.queues)
