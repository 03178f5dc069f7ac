"""Turns a neutral `Layout` into a Components V2 message, within Discord's limits.

This is the one place that knows Discord's numbers: 40 components in all (containers, rows,
sections and accessories count like everything else), 4,000 characters across text displays,
5 buttons an action row, 25 options a select, custom_id ≤ 100, button labels ≤ 80, option
texts ≤ 100. `build(layout)` never raises because a layout is too big; it summarises:

1. Per item, before anything else: labels and option texts are shortened with "…"; a select with
   more than 25 options is split into several selects of ≤ 25 (actions `pick`, `pick-p2`, …,
   see `layout.base_action`); a control whose custom_id would pass 100 characters, a second
   control with the same custom_id and an option with a repeated or over-long value are left
   out; a second picture with the same file name is left out.
2. While over 40 components: adjacent text blocks of the same priority and `keep` are merged
   into one text display (nothing is lost).
3. While still over either limit: the block of the lowest priority below ESSENTIAL is dropped,
   the last such block first (for the text limit, only blocks that carry text). Separators
   left at an edge or next to another separator go too.
4. Only ESSENTIAL blocks left and still over: text is shortened with "…" (the longest text
   first, at its `keep` end), and the last essential block (a whole control row at a time) is
   dropped while there are too many components. The title always stays.

`V2Message.notes` says what was summarised; the builder logs it.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

import discord

from bot.ui.controls import control_id
from bot.ui.layout import (
    PART,
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
)

log = logging.getLogger(__name__)

MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_ROW_BUTTONS = 5
MAX_OPTIONS = 25
MAX_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_ALT = 1024
MAX_TITLE = 200
ELLIPSIS = "…"
TITLE_PREFIX = "### "

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}


def shorten(text: str, limit: int, keep: Keep = Keep.HEAD) -> str:
    """`text` in at most `limit` characters, cut at the end (HEAD) or start (TAIL) with "…",
    at a line break when one is near."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    if keep is Keep.HEAD:
        cut = text.rfind("\n", 0, limit - 1)
        if cut >= limit // 2:
            return text[:cut] + "\n" + ELLIPSIS
        return text[: limit - 1].rstrip() + ELLIPSIS
    start = len(text) - (limit - 1)
    cut = text.find("\n", start)
    if cut >= 0 and cut - start < (limit - 1) // 2:
        return ELLIPSIS + "\n" + text[cut + 1 :]
    return ELLIPSIS + text[start:].lstrip()


# The plan: blocks resolved into pieces whose size is known -----------------------------------


@dataclass(frozen=True)
class _Button:
    custom_id: str
    button: Button
    sid: str
    version: str


@dataclass(frozen=True)
class _Select:
    custom_id: str
    select: Select
    sid: str
    version: str
    action: str


_Ctl = _Button | _Select


@dataclass
class _Piece:
    """One top-level child of the container, sized before anything is built."""

    kind: str  # "title" | "text" | "section" | "separator" | "rows" | "picture"
    priority: Priority
    text: str = ""
    keep: Keep = Keep.HEAD
    accessory: _Button | Picture | None = None
    rows: list[list[_Ctl]] = field(default_factory=list)
    picture: Picture | None = None
    separator: Separator | None = None

    @property
    def components(self) -> int:
        if self.kind == "section":
            return 3
        if self.kind == "rows":
            return sum(1 + len(row) for row in self.rows)
        return 1

    @property
    def text_length(self) -> int:
        return len(self.text)

    @property
    def mergeable(self) -> bool:
        return self.kind == "text"


class _Planner:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.notes: list[str] = []
        self.custom_ids: set[str] = set()
        self.filenames: set[str] = set()

    def plan(self) -> list[_Piece]:
        title = TITLE_PREFIX + shorten(self.layout.title, MAX_TITLE)
        pieces = [_Piece("title", Priority.ESSENTIAL, text=title)]
        for block in self.layout.blocks:
            piece = self._piece(block)
            if piece is not None:
                pieces.append(piece)
        return pieces

    def _piece(self, block: Any) -> _Piece | None:
        if isinstance(block, Text):
            if not block.text.strip():
                return None
            return _Piece("text", block.priority, text=block.text, keep=block.keep)
        if isinstance(block, Section):
            text = block.text
            if not text.strip():
                return None
            accessory: _Button | Picture | None = None
            if isinstance(block.accessory, Button):
                accessory = self._button(block.accessory)
            elif isinstance(block.accessory, Picture):
                accessory = self._picture(block.accessory)
            kind = "text" if accessory is None else "section"
            return _Piece(kind, block.priority, text=text, keep=block.keep, accessory=accessory)
        if isinstance(block, Separator):
            return _Piece("separator", block.priority, separator=block)
        if isinstance(block, Picture):
            picture = self._picture(block)
            return None if picture is None else _Piece("picture", block.priority, picture=picture)
        if isinstance(block, Controls):
            rows = self._rows(block)
            return _Piece("rows", block.priority, rows=rows) if rows else None
        raise TypeError(f"not a layout block: {block!r}")

    def _custom_id(self, prefix: str, version: int | str | None, action: str) -> str | None:
        sid = self.layout.session or ""
        try:
            marker = self.layout.version if version is None else version
            custom_id = control_id(prefix, sid, marker, action)
        except ValueError:
            self.notes.append(f"left out {action!r}: custom_id over 100 characters")
            return None
        if custom_id in self.custom_ids:
            self.notes.append(f"left out {action!r}: custom_id used twice")
            return None
        self.custom_ids.add(custom_id)
        return custom_id

    def _button(self, button: Button) -> _Button | None:
        custom_id = self._custom_id("g", button.version, button.action)
        if custom_id is None:
            return None
        version = str(self.layout.version if button.version is None else button.version)
        return _Button(custom_id, button, self.layout.session or "", version)

    def _picture(self, picture: Picture) -> Picture | None:
        name = re.sub(r"[^\w.\-]", "_", picture.filename) or "picture.png"
        if name in self.filenames:
            self.notes.append(f"left out picture {name!r}: file name used twice")
            return None
        self.filenames.add(name)
        return replace(picture, filename=name, alt=shorten(picture.alt, MAX_ALT))

    def _rows(self, block: Controls) -> list[list[_Ctl]]:
        rows: list[list[_Ctl]] = []
        buttons: list[_Ctl] = []
        for item in block.items:
            if isinstance(item, Button):
                resolved = self._button(item)
                if resolved is not None:
                    buttons.append(resolved)
                continue
            if buttons:
                rows += _chunks(buttons, MAX_ROW_BUTTONS)
                buttons = []
            rows += [[part] for part in self._select_parts(item)]
        if buttons:
            rows += _chunks(buttons, MAX_ROW_BUTTONS)
        return rows

    def _select_parts(self, select: Select) -> list[_Select]:
        options: list[Option] = []
        values: set[str] = set()
        for option in select.options:
            if not 1 <= len(option.value) <= MAX_OPTION_TEXT or option.value in values:
                self.notes.append(f"left out option {option.value[:20]!r} of {select.action!r}")
                continue
            values.add(option.value)
            options.append(option)
        chunks = _chunks(options, MAX_OPTIONS)
        if len(chunks) > 1:
            self.notes.append(f"split select {select.action!r} into {len(chunks)}")
        parts = []
        for number, chunk in enumerate(chunks, start=1):
            action = select.action if number == 1 else f"{select.action}{PART}{number}"
            custom_id = self._custom_id("s", select.version, action)
            if custom_id is None:
                continue
            most = max(1, min(select.max_values, len(chunk)))
            part = replace(
                select,
                options=tuple(chunk),
                max_values=most,
                min_values=max(0, min(select.min_values, most)),
            )
            version = str(self.layout.version if select.version is None else select.version)
            parts.append(_Select(custom_id, part, self.layout.session or "", version, action))
        return parts


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


# Summarising ---------------------------------------------------------------------------------


def _count(pieces: list[_Piece]) -> tuple[int, int]:
    """(components, text characters) of the message these pieces make, the container included."""
    return 1 + sum(p.components for p in pieces), sum(p.text_length for p in pieces)


def _tidy_separators(pieces: list[_Piece]) -> None:
    """No separator right after the title, at the end, or next to another one."""
    i = 1
    while i < len(pieces):
        piece = pieces[i]
        if piece.kind == "separator" and (
            i == 1 or i == len(pieces) - 1 or pieces[i - 1].kind == "separator"
        ):
            del pieces[i]
            i = max(1, i - 1)
            continue
        i += 1


def _merge_once(pieces: list[_Piece]) -> bool:
    for i in range(1, len(pieces) - 1):
        a, b = pieces[i], pieces[i + 1]
        if a.mergeable and b.mergeable and a.priority == b.priority and a.keep == b.keep:
            a.text = a.text + "\n" + b.text
            del pieces[i + 1]
            return True
    return False


def _drop_once(pieces: list[_Piece], need_text: bool, notes: list[str]) -> bool:
    """Drop the last piece of the lowest non-essential priority (one with text if need_text)."""
    candidates = [
        i
        for i in range(1, len(pieces))
        if pieces[i].priority > Priority.ESSENTIAL and (not need_text or pieces[i].text_length)
    ]
    if not candidates:
        return False
    lowest = max(pieces[i].priority for i in candidates)
    index = max(i for i in candidates if pieces[i].priority == lowest)
    notes.append(f"dropped a {pieces[index].kind} block ({pieces[index].priority.name})")
    del pieces[index]
    return True


def _shorten_once(pieces: list[_Piece], excess: int, notes: list[str]) -> None:
    piece = max(pieces, key=lambda p: (p.kind != "title", p.text_length))
    limit = max(1, piece.text_length - excess)
    notes.append(f"shortened a {piece.kind} block to {limit} characters")
    piece.text = shorten(piece.text, limit, piece.keep)


def _cut_last_essential(pieces: list[_Piece], notes: list[str]) -> None:
    piece = pieces[-1]
    if piece.kind == "rows" and len(piece.rows) > 1:
        piece.rows.pop()
        notes.append("dropped an essential control row")
        return
    notes.append(f"dropped an essential {piece.kind} block")
    del pieces[-1]


def summarise(pieces: list[_Piece], notes: list[str]) -> list[_Piece]:
    """Apply the summarising rule (module docstring, steps 2–4) until the message fits."""
    _tidy_separators(pieces)
    while True:
        components, text = _count(pieces)
        over_components, over_text = components > MAX_COMPONENTS, text > MAX_TEXT
        if not over_components and not over_text:
            return pieces
        if over_components and _merge_once(pieces):
            continue
        if _drop_once(pieces, need_text=not over_components, notes=notes):
            _tidy_separators(pieces)
            continue
        if over_text:
            _shorten_once(pieces, text - MAX_TEXT, notes)
        if over_components and len(pieces) > 1:
            _cut_last_essential(pieces, notes)
            _tidy_separators(pieces)


# The payload, straight from the pieces ---------------------------------------------------------
# The JSON Discord takes, written without building discord.py items (which would cost more than
# the rest of the screen); its controls' custom ids are the persistent DynamicItems' (controls.py).

Json = dict[str, Any]


def _media(picture: Picture) -> str:
    return f"attachment://{picture.filename}"


@lru_cache(maxsize=256)
def _emoji(emoji: str) -> Json:
    return dict(discord.PartialEmoji.from_str(emoji).to_dict())


def _button_json(ctl: _Button) -> Json:
    button = ctl.button
    data: Json = {"type": 2, "style": _STYLES[button.style].value, "disabled": button.disabled}
    if button.label:
        data["label"] = shorten(button.label, MAX_LABEL)
    data["custom_id"] = ctl.custom_id
    if button.emoji:
        data["emoji"] = _emoji(button.emoji)
    return data


def _option_json(option: Option) -> Json:
    data: Json = {
        "label": shorten(option.label, MAX_OPTION_TEXT) or option.value,
        "value": option.value,
        "default": option.default,
    }
    if option.description:
        data["description"] = shorten(option.description, MAX_OPTION_TEXT)
    if option.emoji:
        data["emoji"] = _emoji(option.emoji)
    return data


def _select_json(ctl: _Select) -> Json:
    select = ctl.select
    data: Json = {
        "type": 3,
        "custom_id": ctl.custom_id,
        "min_values": select.min_values,
        "max_values": select.max_values,
        "disabled": select.disabled,
        "required": True,
    }
    if select.placeholder:
        data["placeholder"] = shorten(select.placeholder, MAX_PLACEHOLDER)
    if select.options:
        data["options"] = [_option_json(option) for option in select.options]
    return data


def _text_json(text: str) -> Json:
    return {"type": 10, "content": text}


def _json(piece: _Piece) -> list[Json]:
    if piece.kind in ("title", "text"):
        return [_text_json(piece.text)]
    if piece.kind == "section":
        accessory = piece.accessory
        if isinstance(accessory, Picture):
            side: Json = {
                "type": 11,
                "spoiler": False,
                "media": {"url": _media(accessory)},
                "description": accessory.alt,
            }
        else:
            assert accessory is not None
            side = _button_json(accessory)
        return [{"type": 9, "components": [_text_json(piece.text)], "accessory": side}]
    if piece.kind == "separator":
        assert piece.separator is not None
        spacing = discord.SeparatorSpacing.large if piece.separator.large else None
        return [
            {
                "type": 14,
                "divider": piece.separator.visible,
                "spacing": (spacing or discord.SeparatorSpacing.small).value,
            }
        ]
    if piece.kind == "picture":
        assert piece.picture is not None
        item: Json = {"media": {"url": _media(piece.picture)}, "spoiler": False}
        if piece.picture.alt:
            item["description"] = piece.picture.alt
        return [{"type": 12, "items": [item]}]
    return [
        {
            "type": 1,
            "components": [
                _button_json(c) if isinstance(c, _Button) else _select_json(c) for c in row
            ],
        }
        for row in piece.rows
    ]


class _Prebuilt(discord.ui.LayoutView):
    """A layout view that sends a payload built beforehand. It holds no items and never
    listens: its controls reach the bot as the DynamicItems registered at startup."""

    def __init__(self, components: list[Json]) -> None:
        super().__init__(timeout=None)
        self._payload = components

    def to_components(self) -> list[Json]:
        return self._payload

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True


def _picture_print(picture: Picture) -> tuple[str, str, str]:
    return picture.filename, picture.alt, hashlib.sha1(picture.png).hexdigest()


def _shown(piece: _Piece) -> tuple[Any, ...]:
    """What a piece puts on screen (pictures by digest), in a form whose repr is exact."""
    accessory = piece.accessory
    shown = _picture_print(accessory) if isinstance(accessory, Picture) else accessory
    picture = None if piece.picture is None else _picture_print(piece.picture)
    return (piece.kind, piece.text, shown, piece.rows, picture, piece.separator)


@dataclass(frozen=True)
class V2Message:
    """A built layout: the view to send, its pictures, and how it was summarised."""

    accent: int | None
    pieces: tuple[_Piece, ...]
    pictures: tuple[Picture, ...]
    notes: tuple[str, ...]

    def files(self) -> list[discord.File]:
        """New File objects for the pictures (discord.py closes them after each request)."""
        return [
            discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt)
            for p in self.pictures
        ]

    def send_kwargs(self) -> dict[str, Any]:
        """For channel.send, interaction.response.send_message and followup.send."""
        kwargs: dict[str, Any] = {"view": _Prebuilt(self.components)}
        if self.pictures:
            kwargs["files"] = self.files()
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For Message.edit, response.edit_message and webhook edits: clears the content and
        embeds a classic message had, and replaces every old attachment by the pictures."""
        view = _Prebuilt(self.components)
        return {"content": None, "embeds": [], "view": view, "attachments": self.files()}

    @cached_property
    def components(self) -> list[Json]:
        """The JSON payload of the components: what is sent."""
        container = [item for piece in self.pieces for item in _json(piece)]
        accent = self.accent or None
        return [{"type": 17, "accent_color": accent, "spoiler": False, "components": container}]

    @cached_property
    def fingerprint(self) -> str:
        """Identifies what the message shows, so identical re-edits can be skipped.

        Taken from the planned pieces, which make the components one to one, rather than from
        the components themselves: building discord.py items to compare costs more than the
        rest of a screen.
        """
        shown = [self.accent, *(_shown(piece) for piece in self.pieces)]
        return hashlib.sha1(repr(shown).encode()).hexdigest()

    @property
    def size(self) -> tuple[int, int]:
        """(components, text characters), as Discord counts them."""
        return _count(list(self.pieces))


def build(layout: Layout) -> V2Message:
    """The Components V2 message for `layout`, summarised to fit (module docstring)."""
    planner = _Planner(layout)
    pieces = summarise(planner.plan(), planner.notes)
    pictures: list[Picture] = []
    for piece in pieces:
        if piece.picture is not None:
            pictures.append(piece.picture)
        if isinstance(piece.accessory, Picture):
            pictures.append(piece.accessory)
    if planner.notes:
        log.info("layout %r summarised: %s", layout.title, "; ".join(planner.notes))
    return V2Message(layout.accent, tuple(pieces), tuple(pictures), tuple(planner.notes))
