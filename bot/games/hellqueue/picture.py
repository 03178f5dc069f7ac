"""A picture of Hell Queue Club's three distribution cards and the dice under them, drawn from
the public view only.

Each card (8, 10, 12 from left to right) shows its number large, how many dice it holds out of
its number as a bar, the stones still on it as coloured dots and the face-down cards left in its
deck; a card paying out has a gold frame, a used-up deck a dashed outline. Under each card, its
dice as dice with pips, in their owner's colour (large dice bigger than small ones; black dice
black with an owner-coloured rim), one row per owner; the picture is as tall as its longest
column needs. It only repeats what the text layout says: the players' own cards stay in the
text.
"""

from __future__ import annotations

from functools import lru_cache

from bot.ui.picture import Canvas
from games.hellqueue.cards import NUMBERS, SLOTS
from games.hellqueue.models import Dice, View

WIDTH = 1000
COLUMN = WIDTH / len(NUMBERS)
CARD_W, CARD_H = 250, 230
CARD_TOP = 20
DICE_TOP = CARD_TOP + CARD_H + 24
LARGE, SMALL = 56, 40
"""Die sizes in pixels."""
DICE_GAP = 8
MIN_HEIGHT = DICE_TOP + LARGE + 20

BACKGROUND = (43, 45, 49)
PAPER = (250, 246, 236)
INK = (30, 31, 34)
MUTED = (148, 155, 164)
WHITE = (255, 255, 255)
GOLD = (241, 196, 15)
BAR = (87, 190, 120)
BLACK_DIE = (22, 22, 26)
OWNER = ((220, 60, 60), (60, 110, 220), (235, 190, 40), (60, 170, 90))
"""Seat i's colour (red, blue, yellow, green)."""
STONE = {
    "red": (220, 60, 60),
    "blue": (60, 110, 220),
    "yellow": (235, 190, 40),
    "green": (60, 170, 90),
    "aqua": (80, 210, 220),
    "white": (245, 245, 245),
}
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Pip positions on a die, in thirds of its half-width from the centre."""

FILENAME = "table.png"

Key = tuple[
    tuple[int | None, ...],
    tuple[tuple[str, ...], ...],
    tuple[tuple[Dice, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    int | None,
]


def table_picture(view: View) -> bytes:
    """PNG bytes of the distribution cards of `view` (any view: they are all public). Drawn
    again only when the cards or the dice under them changed."""
    paying = view.payout.slot if view.payout is not None else None
    return _draw((view.shown, view.card_stones, view.queues, view.deck_sizes, view.totals, paying))


@lru_cache(maxsize=64)
def _draw(key: Key) -> bytes:
    shown, card_stones, queues, deck_sizes, totals, paying = key
    dice = [_placed(COLUMN * slot + COLUMN / 2, queues[slot]) for slot in SLOTS]
    bottom = max((y + LARGE for column in dice for _, y, *_ in column), default=DICE_TOP)
    canvas = Canvas(WIDTH, max(MIN_HEIGHT, round(bottom) + 20), BACKGROUND)
    for slot in SLOTS:
        centre = COLUMN * slot + COLUMN / 2
        if shown[slot] is None:
            _used_up(canvas, centre, NUMBERS[slot])
            continue
        _card(canvas, centre, slot, card_stones[slot], totals[slot], deck_sizes[slot], paying)
        for x, y, size, face, kind, seat in dice[slot]:
            _die(canvas, (x, y), size, face, kind, OWNER[seat])
    return canvas.png()


def _used_up(canvas: Canvas, cx: float, number: int) -> None:
    box = (cx - CARD_W / 2, CARD_TOP, cx + CARD_W / 2, CARD_TOP + CARD_H)
    canvas.dashed_rounded(box, 18, MUTED, 4)
    canvas.text((cx, CARD_TOP + CARD_H / 2), str(number), 96, MUTED, bold=True)


def _card(
    canvas: Canvas,
    cx: float,
    slot: int,
    stones: tuple[str, ...],
    total: int,
    deck: int,
    paying: int | None,
) -> None:
    number = NUMBERS[slot]
    box = (cx - CARD_W / 2, CARD_TOP, cx + CARD_W / 2, CARD_TOP + CARD_H)
    frame = GOLD if paying == slot else MUTED
    canvas.rounded(box, 18, fill=PAPER, outline=frame, width=9 if paying == slot else 4)
    canvas.text((cx, CARD_TOP + 62), str(number), 84, INK, bold=True)
    # Stones on the card: one dot each, in a row.
    size, gap = 28, 8
    left = cx - (len(stones) * (size + gap) - gap) / 2
    for i, stone in enumerate(stones):
        x0 = left + i * (size + gap)
        y0 = CARD_TOP + 118
        canvas.ellipse((x0, y0, x0 + size, y0 + size), fill=STONE[stone], outline=INK, width=2)
    # How full it is: a bar and "total/number".
    bar = (box[0] + 22, CARD_TOP + 166, box[2] - 22, CARD_TOP + 184)
    canvas.rounded(bar, 9, fill=(225, 221, 210))
    if total:
        filled = bar[0] + (bar[2] - bar[0]) * total / number
        canvas.rounded((bar[0], bar[1], filled, bar[3]), 9, fill=GOLD if total == number else BAR)
    canvas.text((cx - 30, CARD_TOP + 208), f"{total}/{number}", 26, INK, bold=True)
    # Face-down cards left in the deck: a small stack and the count.
    sx, sy = cx + 52, CARD_TOP + 208
    for step in range(3):
        offset = step * 4
        canvas.rounded(
            (sx - 10 + offset, sy - 14 - offset, sx + 10 + offset, sy + 12 - offset),
            3,
            fill=MUTED,
            outline=INK,
            width=2,
        )
    canvas.text((sx + 40, sy), str(deck), 26, INK, bold=True)


Placed = tuple[float, float, float, int, str, int]
"""A die in the picture: x, y, size, face, kind, owner seat."""


def _placed(cx: float, queue: tuple[Dice, ...]) -> list[Placed]:
    """Where the dice under a card go: one row per owner (wrapped when a row is full), large
    and black dice first."""
    left, right = cx - COLUMN / 2 + 16, cx + COLUMN / 2 - 16
    placed: list[Placed] = []
    y = DICE_TOP
    for seat, dice in enumerate(queue):
        if not dice.count:
            continue
        kinds = [(f, "large") for f in dice.large] + [(f, "black") for f in dice.black]
        kinds += [(f, "small") for f in dice.small]
        x = left
        for face, kind in kinds:
            size = SMALL if kind == "small" else LARGE
            if x + size > right:
                x, y = left, y + LARGE + DICE_GAP
            placed.append((x, y + (LARGE - size) / 2, size, face, kind, seat))
            x += size + DICE_GAP
        y += LARGE + DICE_GAP * 2
    return placed


def _die(
    canvas: Canvas,
    corner: tuple[float, float],
    size: float,
    face: int,
    kind: str,
    owner: tuple[int, int, int],
) -> None:
    x0, y0 = corner
    box = (x0, y0, x0 + size, y0 + size)
    if kind == "black":
        canvas.rounded(box, size * 0.2, fill=BLACK_DIE, outline=owner, width=4)
        pip = WHITE
    else:
        canvas.rounded(box, size * 0.2, fill=owner, outline=INK, width=2)
        pip = INK if owner == OWNER[2] else WHITE
    cx, cy = x0 + size / 2, y0 + size / 2
    step = size * 0.27
    r = size * 0.09
    for dx, dy in PIPS[face]:
        px, py = cx + dx * step, cy + dy * step
        canvas.ellipse((px - r, py - r, px + r, py + r), fill=pip)
