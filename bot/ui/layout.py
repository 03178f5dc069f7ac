"""What a screen says, independent of discord.py: game renderers return a `Layout`, and
`bot.ui.v2` alone turns it into a Components V2 message and keeps it within Discord's limits.

A layout is a title and a list of blocks shown top to bottom in one container:

- `Text` — a paragraph (Discord markdown);
- `Section` — lines of text (plain strings or `Tokens`, a row of cards or dice) with an optional
  accessory at its side: a `Button`, or a `Picture` shown as a thumbnail;
- `Separator` — a divider (or, invisible, a gap);
- `Controls` — buttons and selects; the builder packs them into action rows;
- `Picture` — a PNG shown full width, with alt text (the text layout must stay complete without
  it: screen readers, images turned off).

Every block has a `Priority`. Renderers put what must be seen first on a phone (the player to
move, the recent events, the controls to act) near the top with `Priority.ESSENTIAL`; when a
layout is too big for one message, the builder drops the lowest priority blocks first and only
then shortens essential text (see `bot.ui.v2` for the exact rule).

Controls carry an action string and a version marker only; the builder makes their custom_id
`g:{session}:{version}:{action}` (`s:` for selects) as in `bot.ui.controls`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum, StrEnum

LOBBY = "L"
"""Version marker of controls that do not depend on the game's version."""
NO_SESSION = "-"
"""The session marker of controls that belong to no session (the rules screens)."""
GAME_NS = "x"
"""A game's own verbs live in this namespace (`x.play.12.3`), so a game can never shadow a
shared verb (lobby, hand, rematch)."""

PART = "-p"
"""A select too long for Discord is split; parts after the first get `{action}-p{n}` (n ≥ 2)."""
_PART_RE = re.compile(re.escape(PART) + r"\d+$")


_MARKDOWN_RE = re.compile(r"\*\*|__|~~|\|\||`|^#+ |^> ", re.MULTILINE)


def plain(text: str) -> str:
    """`text` without Discord's markdown markers, for alt texts read aloud."""
    return _MARKDOWN_RE.sub("", text)


def game_verb(action: str) -> str:
    """The action of a control for one of a game's own verbs."""
    return f"{GAME_NS}.{action}"


def base_action(action: str) -> str:
    """The action of a control without the part suffix the builder adds to a split select."""
    return _PART_RE.sub("", action)


class Priority(IntEnum):
    """How much a block matters when the layout must be summarised (lower is kept longer)."""

    ESSENTIAL = 0
    """Never dropped; its text is shortened only as a last resort (player to move, recent
    events, the controls to act)."""
    HIGH = 1
    NORMAL = 2
    LOW = 3
    """Dropped first (legends, footnotes, decoration)."""


class Keep(StrEnum):
    """Which end of a text survives when it has to be shortened."""

    HEAD = "head"
    """Keep the beginning, cut the end (most text)."""
    TAIL = "tail"
    """Keep the end, cut the beginning (logs whose newest line is last)."""


class Style(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


# Controls ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Button:
    action: str
    label: str | None = None
    emoji: str | None = None
    style: Style = Style.SECONDARY
    disabled: bool = False
    version: int | str | None = None
    """The version marker in the custom_id; None means the layout's `version`."""

    def __post_init__(self) -> None:
        if not self.label and not self.emoji:
            raise ValueError(f"button {self.action!r} needs a label or an emoji")


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    emoji: str | None = None
    default: bool = False
    description: str | None = None


@dataclass(frozen=True)
class Select:
    """A string select. More than 25 options are split into several selects by the builder
    (the parts' actions are `{action}`, `{action}-p2`, …; see `base_action`)."""

    action: str
    options: tuple[Option, ...]
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False
    version: int | str | None = None


Control = Button | Select


# Text pieces ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """One card, die or stone, shown as a short code span (`12`), optionally with an emoji
    before it and in bold."""

    text: str
    emoji: str | None = None
    strong: bool = False

    def render(self) -> str:
        shown = f"`{self.text}`"
        if self.strong:
            shown = f"**{shown}**"
        return f"{self.emoji}{shown}" if self.emoji else shown


@dataclass(frozen=True)
class Tokens:
    """A row of tokens (a hand, a pile's cards, dice under a card) with an optional label."""

    tokens: tuple[Token, ...]
    label: str | None = None
    empty: str = "—"
    """Shown when there are no tokens."""

    def render(self) -> str:
        row = " ".join(token.render() for token in self.tokens) or self.empty
        return f"{self.label} {row}" if self.label else row


Line = str | Tokens


def line_text(line: Line) -> str:
    return line.render() if isinstance(line, Tokens) else line


# Blocks --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    text: str
    priority: Priority = Priority.NORMAL
    keep: Keep = Keep.HEAD


@dataclass(frozen=True)
class Picture:
    """A PNG shown full width (a block) or as a section's thumbnail (an accessory)."""

    png: bytes
    filename: str
    alt: str
    """What the picture shows, for screen readers; the text layout must say it all anyway."""
    priority: Priority = Priority.NORMAL
    """As a block; a thumbnail goes with its section."""


@dataclass(frozen=True)
class Section:
    """Lines of text with an optional accessory beside them (a button or a thumbnail)."""

    lines: tuple[Line, ...]
    accessory: Button | Picture | None = None
    priority: Priority = Priority.NORMAL
    keep: Keep = Keep.HEAD

    @property
    def text(self) -> str:
        return "\n".join(line_text(line) for line in self.lines)


@dataclass(frozen=True)
class Separator:
    visible: bool = True
    large: bool = False
    priority: Priority = Priority.LOW


@dataclass(frozen=True)
class Controls:
    """Buttons and selects in reading order; consecutive buttons share rows of five, each select
    takes a row of its own."""

    items: tuple[Control, ...]
    priority: Priority = Priority.ESSENTIAL


Block = Text | Section | Separator | Controls | Picture


@dataclass(frozen=True)
class Layout:
    title: str
    blocks: tuple[Block, ...] = ()
    accent: int | None = None
    """The container's accent colour (0xRRGGBB), like an embed's colour."""
    session: str | None = None
    """The session named in the controls' custom_ids (`NO_SESSION` for a screen of none);
    required when there are controls."""
    version: int | str = LOBBY
    """The default version marker of the controls."""

    def __post_init__(self) -> None:
        if self.session is None and self.controls():
            raise ValueError("a layout with controls needs its session id")

    def controls(self) -> tuple[Control, ...]:
        found: list[Control] = []
        for block in self.blocks:
            if isinstance(block, Controls):
                found.extend(block.items)
            elif isinstance(block, Section) and isinstance(block.accessory, Button):
                found.append(block.accessory)
        return tuple(found)

    def pictures(self) -> tuple[Picture, ...]:
        found: list[Picture] = []
        for block in self.blocks:
            if isinstance(block, Picture):
                found.append(block)
            elif isinstance(block, Section) and isinstance(block.accessory, Picture):
                found.append(block.accessory)
        return tuple(found)


def without_controls(layout: Layout, *first: Block) -> Layout:
    """`layout` with its controls taken away (a closed table) and `first` blocks on top."""
    blocks: list[Block] = list(first)
    for block in layout.blocks:
        if isinstance(block, Controls):
            continue
        if isinstance(block, Section) and isinstance(block.accessory, Button):
            block = Section(block.lines, None, block.priority, block.keep)
        blocks.append(block)
    return Layout(layout.title, tuple(blocks), layout.accent, layout.session, layout.version)
