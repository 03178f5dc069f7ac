"""Angels & Demons Rummy's results in words: a short game's end (the full score of a goal) and
the match's.

Its records, stats and places are those of every competitive game won on points
(`bot.ui.competitive`).
"""

from __future__ import annotations

from bot.context import Context
from bot.games.rummy.pieces import card_text, sets_text
from games.rummy.models import RedScore, ShortResult, View


def match_lines(ctx: Context, view: View) -> list[str]:
    """The finished match: its winners, then every seat by its match points."""
    outcome = ctx.session.rules.outcome(ctx.session.state)
    assert outcome is not None
    names = ", ".join(ctx.names[s] for s in outcome.winners)
    score = outcome.scores[outcome.winners[0]]
    if outcome.result == "item_victory":
        head = ctx.t("rummy.result.match_item", names=names, games=view.game_no)
    else:
        shared = len(outcome.winners) > 1
        key = "rummy.result.match_shared" if shared else "rummy.result.match_win"
        points = ctx.t("stats.points", count=score)
        games = ctx.t("rummy.short_games", count=view.game_no)
        head = ctx.t(key, names=names, points=points, games=games)
    order = sorted(range(view.config.players), key=lambda s: (-view.scores[s], s))
    lines = [head]
    lines += [
        ctx.t("rummy.result.standing", name=ctx.names[s], count=view.scores[s]) for s in order
    ]
    return lines


def red_text(ctx: Context, red: RedScore) -> str:
    """A red card at a goal: basic `🔴😇`3` +1`; advanced with its condition and ✅/❌."""
    card = card_text(ctx, red.card)
    if red.condition == "red":
        return ctx.t("rummy.result.red_plain", card=card, points=red.points)
    return ctx.t(
        "rummy.result.red_condition",
        card=card,
        condition=ctx.t(f"rummy.condition.{red.condition}"),
        mark="✅" if red.met else "❌",
        points=red.points,
    )


def goal_lines(ctx: Context, result: ShortResult) -> list[str]:
    """The full score of a goal: the winning hand, the open sets, each red card and each bonus
    check, the total (and, advanced, what the discarder lost)."""
    assert result.seat is not None and result.card is not None
    name = ctx.names[result.seat]
    card = card_text(ctx, result.card)
    if result.from_seat is None:
        head = ctx.t("rummy.result.goal_take", name=name, card=card)
    else:
        head = ctx.t(
            "rummy.result.goal_discard", name=name, card=card, from_name=ctx.names[result.from_seat]
        )
    lines = [
        head,
        ctx.t("rummy.result.hand", sets=sets_text(ctx, result.split)),
        ctx.t("rummy.result.opened", sets=sets_text(ctx, result.opened), points=result.set_points),
    ]
    if result.red:
        reds = " · ".join(red_text(ctx, red) for red in result.red)
        lines.append(ctx.t("rummy.result.red", cards=reds, points=result.red_points))
    else:
        lines.append(ctx.t("rummy.result.red_none"))
    if result.bonus:
        flips = " · ".join(
            ctx.t("rummy.result.flip", card=card_text(ctx, flip.card), points=flip.points)
            for flip in result.bonus
        )
        lines.append(ctx.t("rummy.result.bonus", flips=flips, points=result.bonus_points))
    else:
        lines.append(ctx.t("rummy.result.bonus_none"))
    lines.append(ctx.t("rummy.result.total", name=name, count=result.total))
    if result.loss and result.from_seat is not None:
        lines.append(
            ctx.t("rummy.result.loss", name=ctx.names[result.from_seat], count=result.loss)
        )
    return lines


def result_lines(ctx: Context, result: ShortResult) -> list[str]:
    """How a short game ended, in full."""
    if result.kind == "goal":
        return goal_lines(ctx, result)
    if result.kind == "deck_out":
        return [ctx.t("rummy.result.deck_out", game=result.game_no)]
    assert result.seat is not None
    return [
        ctx.t("rummy.result.item_victory", name=ctx.names[result.seat]),
        ctx.t("rummy.result.item_sets", sets=sets_text(ctx, result.opened)),
    ]


def result_summary(ctx: Context, result: ShortResult) -> str:
    """A short game's end in one line (shown while the next one is played)."""
    if result.kind == "goal" and result.seat is not None:
        return ctx.t(
            "rummy.result.summary",
            game=result.game_no,
            name=ctx.names[result.seat],
            points=result.total,
            sets=result.set_points,
            red=result.red_points,
            bonus=result.bonus_points,
        )
    return result_lines(ctx, result)[0]
