"""Hell Queue Club's end of game in words: the winners, then every seat by its points.

Its records, stats and places are those of every competitive game won on points
(`bot.ui.competitive`).
"""

from __future__ import annotations

from bot.context import Context
from bot.games.hellqueue.pieces import MARKERS, seat_name
from games.hellqueue.models import View


def result_text(ctx: Context, view: View) -> str:
    """The finished game's winners and each seat's points and dice left, best first."""
    outcome = ctx.session.rules.outcome(ctx.session.state)
    assert outcome is not None
    names = ", ".join(seat_name(ctx, seat) for seat in outcome.winners)
    key = "hellqueue.result.win" if outcome.result == "win" else "hellqueue.result.shared"
    lines = [ctx.t(key, names=names, count=outcome.scores[outcome.winners[0]])]
    order = sorted(
        range(view.config.players), key=lambda s: (-view.scores[s], -view.dice_left[s], s)
    )
    lines += [
        ctx.t(
            "hellqueue.result.line",
            marker=MARKERS[seat],
            name=ctx.names[seat],
            count=view.scores[seat],
            dice=view.dice_left[seat],
        )
        for seat in order
    ]
    return "\n".join(lines)
