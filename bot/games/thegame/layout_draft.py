"""A draft of The Game's public table as a `Layout` (Components V2), for the port of the screens.

Phone first: the title, whose turn it is and what they must do, the latest events and any burn
warning come before the picture and the piles; the legend is the first thing to go when the
message must be summarised. The picture's alt text is the piles' own lines, so a screen reader
hears what the picture shows (without the markdown).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.thegame.picture import FILENAME, table_picture
from bot.i18n import t
from bot.ui.layout import (
    Block,
    Button,
    Controls,
    Keep,
    Layout,
    Option,
    Picture,
    Priority,
    Section,
    Select,
    Separator,
    Style,
    Text,
    plain,
)
from games.thegame.models import PILES, SignalKind, TheGameView

ACCENT = 0x5865F2
SIGNAL_EMOJI = {SignalKind.NO_PLAY: "🚫", SignalKind.NO_JUMP: "⚠️"}
RECENT = 6
"""Events shown under the status (the newest last)."""


def pile_line(view: TheGameView, lang: str, index: int) -> str:
    pile = view.piles[index]
    line = t(
        lang,
        "thegame.table.pile",
        arrow="⬆️" if pile.ascending else "⬇️",
        name=t(lang, f"thegame.pile.{index}"),
        top=f"🔵{pile.top}" if pile.top_blue else str(pile.top),
        count=pile.count,
    )
    flags = "".join(SIGNAL_EMOJI[s] for s in pile.signals)
    return line + (f" {flags}" if flags else "") + (" 🔥" if pile.burns_at_turn_end else "")


def table_layout(
    view: TheGameView,
    *,
    lang: str,
    names: Sequence[str],
    recent: Sequence[str],
    sid: str,
    version: int,
    picture: bool,
    options: Sequence[str] = (),
) -> Layout:
    """The public table of a game in play. `recent` are the public events already in words."""
    seats = []
    for seat, name in enumerate(names):
        line = t(lang, "thegame.table.seat", name=name, cards=view.hand_sizes[seat])
        if seat == view.turn:
            todo = (
                t(lang, "thegame.table.must_play", n=view.still_required)
                if view.still_required
                else t(lang, "thegame.table.may_end")
            )
            line = f"▶ **{line}** — {todo}"
        seats.append(line)
    blocks: list[Block] = [Text("\n".join(seats), Priority.ESSENTIAL)]
    if recent:
        log = "\n".join([f"**{t(lang, 'table.recent')}**", *recent[-RECENT:]])
        blocks.append(Text(log, Priority.ESSENTIAL, keep=Keep.TAIL))
    warnings = [
        t(lang, "thegame.table.burn_warning", card=p.top, pile=t(lang, f"thegame.pile.{i}"))
        for i, p in enumerate(view.piles)
        if p.burns_at_turn_end
    ]
    if warnings:
        blocks.append(Text("\n".join(f"🔥 {w}" for w in warnings), Priority.ESSENTIAL))
    lines = [pile_line(view, lang, i) for i in range(PILES)]
    if picture:
        blocks.append(Picture(table_picture(view), FILENAME, plain("\n".join(lines))))
    blocks.append(Separator())
    blocks += [Section((line,), priority=Priority.HIGH) for line in lines]
    blocks.append(
        Text(
            t(lang, "thegame.table.counts_value", draw=view.draw_count, left=view.cards_left),
            Priority.NORMAL,
        )
    )
    blocks.append(
        Controls(
            (
                Button("hand", t(lang, "table.show_hand"), "🃏", Style.PRIMARY),
                Button("dm", t(lang, "table.hand_dm"), "✉️"),
                _signal_select(view, lang),
            )
        )
    )
    blocks.append(Text(" · ".join([t(lang, "thegame.table.legend"), *options]), Priority.LOW))
    return Layout(
        title=t(lang, "thegame.name"),
        blocks=tuple(blocks),
        accent=ACCENT,
        session=sid,
        version=version,
    )


def _signal_select(view: TheGameView, lang: str) -> Select:
    options = []
    for pile in range(PILES):
        for kind in SignalKind:
            on = kind not in view.piles[pile].signals
            label = t(
                lang,
                "thegame.signal.option",
                pile=t(lang, f"thegame.pile.{pile}"),
                signal=t(lang, f"thegame.signal.{kind.value}"),
                action=t(lang, "thegame.signal.set" if on else "thegame.signal.clear"),
            )
            options.append(Option(f"{pile}.{kind.value}", label, SIGNAL_EMOJI[kind]))
    return Select("sig", tuple(options), placeholder=t(lang, "thegame.signal.placeholder"))
