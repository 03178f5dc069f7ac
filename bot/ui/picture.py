"""Drawing helpers for table pictures (Pillow), shared by the games' renderers.

A `Canvas` takes coordinates in picture pixels but draws at `SCALE` times the size and scales
down when encoding, which gives smooth edges to shapes and text. Text in pictures is digits and
a few signs in Pillow's built-in font (no font files, no translation needed); words belong in
the text layout, which must stay complete without the picture.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

SCALE = 2
PNG_LEVEL = 3
"""zlib level of the PNG: 40 % less time to encode than the default (6) for 15 % more bytes
(~30 kB for The Game's table), drawn about once per table edit."""
Colour = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Pillow ≥ 10.1) at `size` drawn pixels."""
    return ImageFont.load_default(size=size)


class Canvas:
    def __init__(self, width: int, height: int, background: Colour) -> None:
        self.size = (width, height)
        self.image = Image.new("RGB", (width * SCALE, height * SCALE), background)
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def _box(box: Box) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = box
        return x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE

    @staticmethod
    def _points(points: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * SCALE, y * SCALE) for x, y in points]

    def rounded(
        self,
        box: Box,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self._box(box),
            radius=radius * SCALE,
            fill=fill,
            outline=outline,
            width=round(width * SCALE),
        )

    def dashed_rounded(self, box: Box, radius: float, colour: Colour, width: float) -> None:
        """The straight edges of a rounded box drawn as dashes (an empty place)."""
        x0, y0, x1, y1 = box
        dash = 12.0
        edges = [
            ((x0 + radius, y0), (x1 - radius, y0)),
            ((x0 + radius, y1), (x1 - radius, y1)),
            ((x0, y0 + radius), (x0, y1 - radius)),
            ((x1, y0 + radius), (x1, y1 - radius)),
        ]
        for (ax, ay), (bx, by) in edges:
            length = math.hypot(bx - ax, by - ay)
            steps = max(1, int(length // (2 * dash)))
            for step in range(steps + 1):
                start = min(1.0, step * 2 * dash / length)
                end = min(1.0, (step * 2 + 1) * dash / length)
                self.line(
                    [
                        (ax + (bx - ax) * start, ay + (by - ay) * start),
                        (ax + (bx - ax) * end, ay + (by - ay) * end),
                    ],
                    colour,
                    width,
                )

    def ellipse(
        self,
        box: Box,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        self.draw.ellipse(self._box(box), fill=fill, outline=outline, width=round(width * SCALE))

    def polygon(self, points: Sequence[Point], fill: Colour) -> None:
        self.draw.polygon(self._points(points), fill=fill)

    def line(self, points: Sequence[Point], colour: Colour, width: float) -> None:
        self.draw.line(self._points(points), fill=colour, width=round(width * SCALE))

    def text(
        self,
        xy: Point,
        text: str,
        size: int,
        colour: Colour,
        *,
        anchor: str = "mm",
        bold: bool = False,
    ) -> None:
        """Text centred on `xy` by default; `bold` thickens the regular face with a stroke."""
        stroke = max(1, size // 28) * SCALE if bold else 0
        self.draw.text(
            (xy[0] * SCALE, xy[1] * SCALE),
            text,
            font=font(size * SCALE),
            fill=colour,
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=colour,
        )

    def png(self) -> bytes:
        """The picture at its size, as PNG bytes (the same drawing gives the same bytes)."""
        out = io.BytesIO()
        self.image.reduce(SCALE).save(out, "PNG", compress_level=PNG_LEVEL)
        return out.getvalue()


def arrow(canvas: Canvas, centre: Point, length: float, up: bool, colour: Colour) -> None:
    """A thick vertical arrow (a pile's direction)."""
    cx, cy = centre
    sign = -1 if up else 1
    tip = cy + sign * length / 2
    tail = cy - sign * length / 2
    head = length * 0.45
    shaft = length * 0.14
    base = tip - sign * head
    canvas.polygon([(cx, tip), (cx - head * 0.75, base), (cx + head * 0.75, base)], colour)
    top, bottom = sorted((base, tail))
    canvas.rounded((cx - shaft, top, cx + shaft, bottom), shaft * 0.5, fill=colour)


def flame(canvas: Canvas, centre: Point, height: float, outer: Colour, inner: Colour) -> None:
    """A flame (a teardrop pointing up), for burn warnings."""

    def drop(cx: float, cy: float, h: float) -> list[Point]:
        points = []
        for k in range(48):
            t = 2 * math.pi * k / 48
            x = math.sin(t) * math.sin(t / 2) ** 1.2
            y = math.cos(t)
            points.append((cx + x * h * 0.42, cy - y * h * 0.5))
        return points

    cx, cy = centre
    canvas.polygon(drop(cx, cy, height), outer)
    canvas.polygon(drop(cx, cy + height * 0.17, height * 0.58), inner)
