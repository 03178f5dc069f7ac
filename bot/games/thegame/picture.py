"""A picture of The Game's four piles, drawn from the public view only.

Four piles side by side (the two ascending ones, a gap, the two descending ones): each has its
direction (an arrow and the number it started from), its top card large (blue when it is an
On Fire card), how many cards it holds, its signals (no play: a struck circle; no big jump: a
warning triangle) and, when its blue card burns at the end of this turn, a red frame and a
flame. The picture only repeats what the text layout says, for a reader on a phone.
"""

from __future__ import annotations

from functools import lru_cache

from bot.ui.picture import Canvas, arrow, flame
from games.thegame.models import PileView, SignalKind, TheGameView, base_of

WIDTH, HEIGHT = 1000, 420
COLUMN = 220
GAP = 80
"""Extra space between the ascending and the descending pair."""
LEFT = (WIDTH - 4 * COLUMN - GAP) / 2
CARD_W, CARD_H = 176, 246
CARD_TOP = 88

BACKGROUND = (43, 45, 49)
INK = (30, 31, 34)
PAPER = (250, 246, 236)
MUTED = (148, 155, 164)
WHITE = (255, 255, 255)
UP = (87, 190, 120)
DOWN = (240, 140, 70)
BLUE = (47, 111, 222)
RED = (237, 66, 69)
YELLOW = (250, 200, 60)
ORANGE = (245, 120, 40)

FILENAME = "table.png"


def table_picture(view: TheGameView) -> bytes:
    """PNG bytes of the four piles of `view` (any seat's view or the public one: the piles are
    public). Drawn again only when the piles changed."""
    return _draw(view.piles)


@lru_cache(maxsize=64)
def _draw(piles: tuple[PileView, ...]) -> bytes:
    canvas = Canvas(WIDTH, HEIGHT, BACKGROUND)
    for index, pile in enumerate(piles):
        centre = LEFT + COLUMN * index + COLUMN / 2 + (GAP if index >= 2 else 0)
        _pile(canvas, centre, index, pile)
    middle = WIDTH / 2
    canvas.line([(middle, 40), (middle, HEIGHT - 40)], MUTED, 2)
    return canvas.png()


def _pile(canvas: Canvas, cx: float, index: int, pile: PileView) -> None:
    colour = UP if pile.ascending else DOWN
    # Direction: an arrow and the number the pile started from.
    canvas.rounded((cx - 70, 16, cx + 70, 70), 27, fill=colour)
    arrow(canvas, (cx - 32, 43), 36, pile.ascending, WHITE)
    canvas.text((cx + 16, 43), str(base_of(index)), 30, WHITE, bold=True)
    # The top card.
    box = (cx - CARD_W / 2, CARD_TOP, cx + CARD_W / 2, CARD_TOP + CARD_H)
    middle = (cx, CARD_TOP + CARD_H / 2)
    if pile.count == 0:
        canvas.dashed_rounded(box, 18, MUTED, 4)
        canvas.text(middle, str(pile.top), 84, MUTED, bold=True)
    else:
        fill, ink = (BLUE, WHITE) if pile.top_blue else (PAPER, INK)
        frame = RED if pile.burns_at_turn_end else colour
        canvas.rounded(box, 18, fill=fill, outline=frame, width=9 if pile.burns_at_turn_end else 5)
        canvas.text(middle, str(pile.top), 104, ink, bold=True)
    if pile.burns_at_turn_end:
        corner = (box[2] - 6, box[3] - 8)
        canvas.ellipse((corner[0] - 30, corner[1] - 30, corner[0] + 30, corner[1] + 30), fill=RED)
        flame(canvas, (corner[0], corner[1] - 2), 42, YELLOW, ORANGE)
    # Signals, on the card's top corners.
    if SignalKind.NO_PLAY in pile.signals:
        _no_play(canvas, (box[0] + 6, box[1] + 6))
    if SignalKind.NO_JUMP in pile.signals:
        _no_jump(canvas, (box[2] - 6, box[1] + 6))
    # How many cards the pile holds: a small stack and the number.
    base_y = CARD_TOP + CARD_H + 42
    for step in range(3):
        offset = step * 5
        x0, y0 = cx - 52 + offset, base_y - 16 - offset
        canvas.rounded((x0, y0, x0 + 24, y0 + 32), 4, fill=PAPER, outline=INK, width=2)
    canvas.text((cx - 14, base_y), str(pile.count), 40, WHITE, anchor="lm", bold=True)


def _no_play(canvas: Canvas, centre: tuple[float, float]) -> None:
    cx, cy = centre
    r = 26
    canvas.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=RED, width=7)
    d = r * 0.62
    canvas.line([(cx - d, cy - d), (cx + d, cy + d)], RED, 7)


def _no_jump(canvas: Canvas, centre: tuple[float, float]) -> None:
    cx, cy = centre

    def triangle(r: float) -> list[tuple[float, float]]:
        return [(cx, cy - r), (cx + r * 1.1, cy + r * 0.85), (cx - r * 1.1, cy + r * 0.85)]

    canvas.polygon(triangle(32), INK)
    canvas.polygon(triangle(24), YELLOW)
    canvas.text((cx, cy + 5), "!", 26, INK, bold=True)
