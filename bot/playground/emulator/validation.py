"""Discord's payload limits, enforced so a test fails where Discord would answer 400 / 50035.

Covers message bodies (content, embeds, classic and Components V2 layouts), modals,
autocomplete choices and application command definitions.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from .attachments import SCHEME, media_refs
from .errors import EMPTY_MESSAGE, ApiError, FormErrors
from .models import FLAG_COMPONENTS_V2, walk_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_PLACEHOLDER = 150

SELECT_TYPES = (3, 5, 6, 7, 8)
V2_TOP_LEVEL = (1, 9, 10, 12, 13, 14, 17)
CONTAINER_CHILDREN = (1, 9, 10, 12, 13, 14)

VALID_LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
COMMAND_NAME_RE = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


def _length(errors: FormErrors, path: tuple[str | int, ...], value: Any, lo: int, hi: int) -> None:
    if value is None:
        if lo > 0:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
        return
    if len(value) < lo or len(value) > hi:
        errors.add(
            path,
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {lo} and {hi} in length.",
        )


def validate_embeds(errors: FormErrors, embeds: Any) -> None:
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_LIST", "Must be an array.")
        return
    if len(embeds) > MAX_EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        path: tuple[str | int, ...] = ("embeds", i)
        title = embed.get("title")
        description = embed.get("description")
        _length(errors, (*path, "title"), title, 0, 256)
        _length(errors, (*path, "description"), description, 0, 4096)
        total += len(title or "") + len(description or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            _length(errors, (*path, "fields", j, "name"), fld.get("name"), 1, 256)
            _length(errors, (*path, "fields", j, "value"), fld.get("value"), 1, 1024)
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        footer = embed.get("footer") or {}
        _length(errors, (*path, "footer", "text"), footer.get("text"), 0, 2048)
        author = embed.get("author") or {}
        _length(errors, (*path, "author", "name"), author.get("name"), 0, 256)
        total += len(footer.get("text") or "") + len(author.get("name") or "")
    if total > MAX_EMBED_TOTAL:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


def _validate_custom_id(
    errors: FormErrors, path: tuple[str | int, ...], comp: dict[str, Any], seen: set[str]
) -> None:
    custom_id = comp.get("custom_id")
    _length(errors, (*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
    if isinstance(custom_id, str):
        if custom_id in seen:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def _validate_button(
    errors: FormErrors, path: tuple[str | int, ...], comp: dict[str, Any], seen: set[str]
) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(
            (*path, "style"), "BASE_TYPE_CHOICES", f"Value must be one of (1..6), not {style}."
        )
        return
    if style == 5:
        if not comp.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if comp.get("custom_id"):
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
                "A link button cannot have a custom id",
            )
    elif style == 6:
        if not comp.get("sku_id"):
            errors.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _validate_custom_id(errors, path, comp, seen)
    if style != 6:
        label = comp.get("label")
        _length(errors, (*path, "label"), label, 0, MAX_BUTTON_LABEL)
        if not label and not comp.get("emoji"):
            errors.add(
                (*path, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button must have a label or an emoji",
            )


def _validate_select(
    errors: FormErrors, path: tuple[str | int, ...], comp: dict[str, Any], seen: set[str]
) -> None:
    _validate_custom_id(errors, path, comp, seen)
    _length(errors, (*path, "placeholder"), comp.get("placeholder"), 0, MAX_PLACEHOLDER)
    min_values = comp.get("min_values", 1)
    max_values = comp.get("max_values", 1)
    if not isinstance(min_values, int) or not 0 <= min_values <= 25:
        errors.add(
            (*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25."
        )
    if not isinstance(max_values, int) or not 1 <= max_values <= 25:
        errors.add(
            (*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25."
        )
    if isinstance(min_values, int) and isinstance(max_values, int) and min_values > max_values:
        errors.add(
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
            "min_values must be less than or equal to max_values",
        )
    if comp.get("type") != 3:
        return
    options = comp.get("options")
    if not isinstance(options, list) or not options:
        errors.add((*path, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        return
    if len(options) > MAX_SELECT_OPTIONS:
        errors.add(
            (*path, "options"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_SELECT_OPTIONS} or fewer in length.",
        )
    if isinstance(max_values, int) and max_values > len(options):
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            "max_values must be less than or equal to the number of options",
        )
    values: set[str] = set()
    for k, opt in enumerate(options):
        opath = (*path, "options", k)
        _length(errors, (*opath, "label"), opt.get("label"), 1, 100)
        _length(errors, (*opath, "value"), opt.get("value"), 1, 100)
        _length(errors, (*opath, "description"), opt.get("description"), 0, 100)
        if opt.get("value") in values:
            errors.add(
                (*opath, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select options must have unique values",
            )
        values.add(opt.get("value"))


def _validate_action_row(
    errors: FormErrors, path: tuple[str | int, ...], row: dict[str, Any], seen: set[str]
) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not children:
        errors.add((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        return
    kinds = {c.get("type") for c in children}
    if kinds & set(SELECT_TYPES) and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    if len(children) > MAX_ROW_BUTTONS:
        errors.add(
            (*path, "components"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
        )
    for i, comp in enumerate(children):
        cpath = (*path, "components", i)
        ctype = comp.get("type")
        if ctype == 2:
            _validate_button(errors, cpath, comp, seen)
        elif ctype in SELECT_TYPES:
            _validate_select(errors, cpath, comp, seen)
        else:
            errors.add(
                (*cpath, "type"),
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of (2, 3, 5, 6, 7, 8), not {ctype}.',
            )


def _validate_v2(
    errors: FormErrors,
    path: tuple[str | int, ...],
    comp: dict[str, Any],
    seen: set[str],
    allowed: tuple[int, ...],
) -> None:
    ctype = comp.get("type")
    if ctype not in allowed:
        errors.add(
            (*path, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {allowed}, not {ctype}.',
        )
        return
    if ctype == 1:
        _validate_action_row(errors, path, comp, seen)
    elif ctype == 9:  # section
        texts = comp.get("components") or []
        if not 1 <= len(texts) <= 3:
            errors.add(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."
            )
        for i, text in enumerate(texts):
            _validate_v2(errors, (*path, "components", i), text, seen, (10,))
        accessory = comp.get("accessory")
        if not isinstance(accessory, dict):
            errors.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
        elif accessory.get("type") == 2:
            _validate_button(errors, (*path, "accessory"), accessory, seen)
        else:
            _validate_v2(errors, (*path, "accessory"), accessory, seen, (11,))
    elif ctype == 10:
        _length(errors, (*path, "content"), comp.get("content"), 1, MAX_V2_TEXT)
    elif ctype == 11:
        if not (comp.get("media") or {}).get("url"):
            errors.add((*path, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required")
        _length(errors, (*path, "description"), comp.get("description"), 0, 1024)
    elif ctype == 12:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            errors.add(
                (*path, "items"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length."
            )
    elif ctype == 13:
        if not (comp.get("file") or {}).get("url"):
            errors.add((*path, "file", "url"), "BASE_TYPE_REQUIRED", "This field is required")
    elif ctype == 14:
        if comp.get("spacing", 1) not in (1, 2):
            errors.add((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    elif ctype == 17:
        children = comp.get("components") or []
        if not children:
            errors.add(
                (*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
            )
        for i, child in enumerate(children):
            _validate_v2(errors, (*path, "components", i), child, seen, CONTAINER_CHILDREN)


def _validate_ids(errors: FormErrors, components: list[dict[str, Any]]) -> None:
    """Component `id`s (optional integers) must be unique within the message."""
    ids: set[int] = set()
    for comp in walk_components(components):
        cid = comp.get("id")
        if cid is None:
            continue
        if not isinstance(cid, int) or isinstance(cid, bool) or not 0 <= cid < 2**31:
            errors.add(("components", "id"), "NUMBER_TYPE_COERCE", f"Value {cid!r} is not int32.")
            continue
        if cid in ids:
            errors.add(
                ("components", "id"),
                "COMPONENT_ID_DUPLICATED",
                f"Component id {cid} is used more than once.",
            )
        ids.add(cid)


def _validate_media(
    errors: FormErrors, components: list[dict[str, Any]], uploads: Collection[str]
) -> None:
    """`attachment://name` must name a file uploaded in this request; others must be URLs."""
    for media, where, attachment_only in media_refs(components):
        url = media.get("url")
        path = ("components", where)
        if not isinstance(url, str) or not url:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        elif url.startswith(SCHEME):
            if url.removeprefix(SCHEME) not in uploads:
                errors.add(
                    path,
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"{url} does not name a file uploaded with this request.",
                )
        elif attachment_only or not url.startswith(("http://", "https://")):
            errors.add(path, "UNFURLED_MEDIA_ITEM_URL_INVALID", f"Invalid media URL {url!r}.")


def validate_components(
    errors: FormErrors, components: Any, flags: int, uploads: Collection[str] = ()
) -> None:
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_LIST", "Must be an array.")
        return
    seen: set[str] = set()
    _validate_ids(errors, components)
    if flags & FLAG_COMPONENTS_V2:
        total = sum(1 for _ in walk_components(components))
        if total > MAX_V2_COMPONENTS:
            errors.add(
                ("components",),
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"The message has more than {MAX_V2_COMPONENTS} total components ({total}).",
            )
        text = sum(
            len(c.get("content") or "") for c in walk_components(components) if c.get("type") == 10
        )
        if text > MAX_V2_TEXT:
            errors.add(
                ("components",),
                "COMPONENT_MAX_TOTAL_TEXT_EXCEEDED",
                f"The message's text displays exceed {MAX_V2_TEXT} characters ({text}).",
            )
        for i, comp in enumerate(components):
            _validate_v2(errors, ("components", i), comp, seen, V2_TOP_LEVEL)
        _validate_media(errors, components, uploads)
        return
    if len(components) > MAX_ACTION_ROWS:
        errors.add(
            ("components",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_ACTION_ROWS} or fewer in length.",
        )
    for i, row in enumerate(components):
        if row.get("type") != 1:
            errors.add(
                ("components", i, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,); use IS_COMPONENTS_V2 for layouts.',
            )
            continue
        _validate_action_row(errors, ("components", i), row, seen)


def validate_message(
    result: dict[str, Any], *, attachments: int = 0, uploads: Collection[str] = ()
) -> None:
    """Validate the *resulting* message (after merging an edit) against Discord's limits.

    `result` has keys content, embeds, components, flags; `attachments` counts the message's
    attachments afterwards and `uploads` names the files uploaded with this request (the only
    ones `attachment://` may name). Raises `ApiError`.
    """
    errors = FormErrors()
    flags = int(result.get("flags") or 0)
    content = result.get("content") or ""
    embeds = result.get("embeds") or []
    components = result.get("components") or []
    if not isinstance(content, str):
        errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
    elif len(content) > MAX_CONTENT:
        errors.add(
            ("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."
        )
    validate_embeds(errors, embeds)
    validate_components(errors, components, flags, uploads)
    if flags & FLAG_COMPONENTS_V2:
        if content:
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if embeds:
            errors.add(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    errors.raise_if_any()
    if not content and not embeds and not components and not attachments:
        raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")


def validate_flags_edit(old_flags: int, body: dict[str, Any]) -> None:
    """An edit may add IS_COMPONENTS_V2 but never remove it from a message that has it."""
    given = body.get("flags")
    if given is None or not old_flags & FLAG_COMPONENTS_V2 or int(given) & FLAG_COMPONENTS_V2:
        return
    errors = FormErrors()
    errors.add(
        ("flags",),
        "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
        "The IS_COMPONENTS_V2 flag cannot be removed from a message that has it.",
    )
    errors.raise_if_any()


def validate_modal(data: dict[str, Any]) -> None:
    errors = FormErrors()
    _length(errors, ("data", "title"), data.get("title"), 1, 45)
    _length(errors, ("data", "custom_id"), data.get("custom_id"), 1, MAX_CUSTOM_ID)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.add(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    seen: set[str] = set()
    for i, comp in enumerate(components):
        path: tuple[str | int, ...] = ("data", "components", i)
        if comp.get("type") == 18:
            _length(errors, (*path, "label"), comp.get("label"), 1, 45)
            _length(errors, (*path, "description"), comp.get("description"), 0, 100)
            inner = comp.get("component") or {}
            if inner.get("type") == 4:
                _validate_text_input(errors, (*path, "component"), inner, seen, label_needed=False)
            elif inner.get("type") in SELECT_TYPES:
                _validate_select(errors, (*path, "component"), inner, seen)
            elif inner.get("type") not in (19, 21, 22, 23):
                errors.add(
                    (*path, "component", "type"), "UNION_TYPE_CHOICES", "Invalid component type"
                )
        elif comp.get("type") == 1:
            row = comp.get("components") or []
            if len(row) != 1 or row[0].get("type") != 4:
                errors.add(
                    (*path, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "A modal row holds one text input.",
                )
            for j, inner in enumerate(row):
                _validate_text_input(
                    errors, (*path, "components", j), inner, seen, label_needed=True
                )
        elif comp.get("type") != 10:
            errors.add((*path, "type"), "UNION_TYPE_CHOICES", "Invalid component type")
    errors.raise_if_any()


def _validate_text_input(
    errors: FormErrors,
    path: tuple[str | int, ...],
    comp: dict[str, Any],
    seen: set[str],
    *,
    label_needed: bool,
) -> None:
    _validate_custom_id(errors, path, comp, seen)
    if comp.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    if label_needed:
        _length(errors, (*path, "label"), comp.get("label"), 1, 45)
    _length(errors, (*path, "placeholder"), comp.get("placeholder"), 0, 100)
    _length(errors, (*path, "value"), comp.get("value"), 0, 4000)


def validate_choices(data: dict[str, Any]) -> None:
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
    elif len(choices) > 25:
        errors.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    else:
        for i, choice in enumerate(choices):
            _length(errors, ("data", "choices", i, "name"), choice.get("name"), 1, 100)
    errors.raise_if_any()


def _validate_localizations(
    errors: FormErrors, path: tuple[str | int, ...], locs: Any, lo: int, hi: int, name: bool
) -> None:
    if not locs:
        return
    for locale, text in locs.items():
        if locale not in VALID_LOCALES:
            errors.add((*path, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}")
            continue
        _length(errors, (*path, locale), text, lo, hi)
        if name and isinstance(text, str) and not _valid_name(text):
            errors.add((*path, locale), "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")


def _valid_name(name: str) -> bool:
    return bool(COMMAND_NAME_RE.match(name)) and name == name.lower()


def _validate_option(
    errors: FormErrors, path: tuple[str | int, ...], opt: dict[str, Any], depth: int
) -> None:
    name = opt.get("name")
    if not isinstance(name, str) or not _valid_name(name):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}")
    _length(errors, (*path, "description"), opt.get("description"), 1, 100)
    _validate_localizations(
        errors, (*path, "name_localizations"), opt.get("name_localizations"), 1, 32, True
    )
    _validate_localizations(
        errors,
        (*path, "description_localizations"),
        opt.get("description_localizations"),
        1,
        100,
        False,
    )
    otype = opt.get("type")
    if otype not in range(1, 12):
        errors.add((*path, "type"), "BASE_TYPE_CHOICES", f"Invalid option type {otype}")
        return
    if otype in (1, 2):
        if otype == 2 and depth > 0:
            errors.add(
                (*path, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups cannot nest"
            )
        if otype == 1 and depth > 1:
            errors.add((*path, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Too deep")
        _validate_options(errors, (*path, "options"), opt.get("options") or [], depth + 1, otype)
        return
    choices = opt.get("choices") or []
    if len(choices) > 25:
        errors.add((*path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    if choices and opt.get("autocomplete"):
        errors.add(
            (*path, "autocomplete"),
            "APPLICATION_COMMAND_OPTION_CHOICES_AND_AUTOCOMPLETE",
            "Autocomplete cannot be used with choices",
        )
    for i, choice in enumerate(choices):
        _length(errors, (*path, "choices", i, "name"), choice.get("name"), 1, 100)
        _validate_localizations(
            errors,
            (*path, "choices", i, "name_localizations"),
            choice.get("name_localizations"),
            1,
            100,
            False,
        )


def _validate_options(
    errors: FormErrors,
    path: tuple[str | int, ...],
    options: list[dict[str, Any]],
    depth: int,
    parent_type: int,
) -> None:
    if len(options) > 25:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        errors.add(
            path, "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE", "Option names must be unique"
        )
    subs = [o for o in options if o.get("type") in (1, 2)]
    if subs and len(subs) != len(options):
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Subcommands and groups cannot be mixed with other options",
        )
    if parent_type == 2 and any(o.get("type") != 1 for o in options):
        errors.add(
            path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "A group holds only subcommands"
        )
    optional_seen = False
    for i, opt in enumerate(options):
        if opt.get("type") not in (1, 2):
            if opt.get("required"):
                if optional_seen:
                    errors.add(
                        (*path, i, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
        _validate_option(errors, (*path, i), opt, depth)


def validate_commands(commands: Any) -> None:
    """Validate a bulk-overwrite body like Discord does when the bot syncs its tree."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_LIST", "Must be an array.")
        errors.raise_if_any()
        return
    seen: set[tuple[int, str]] = set()
    chat = 0
    for i, cmd in enumerate(commands):
        ctype = cmd.get("type", 1)
        name = cmd.get("name")
        key = (ctype, name)
        if key in seen:
            errors.add(
                (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command {name!r}"
            )
        seen.add(key)
        if ctype == 1:
            chat += 1
            if not isinstance(name, str) or not _valid_name(name):
                errors.add(
                    (i, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}"
                )
            _length(errors, (i, "description"), cmd.get("description"), 1, 100)
            _validate_options(errors, (i, "options"), cmd.get("options") or [], 0, 1)
        else:
            _length(errors, (i, "name"), name, 1, 32)
        _validate_localizations(
            errors, (i, "name_localizations"), cmd.get("name_localizations"), 1, 32, ctype == 1
        )
        _validate_localizations(
            errors,
            (i, "description_localizations"),
            cmd.get("description_localizations"),
            1,
            100,
            False,
        )
        if _command_size(cmd) > 8000:
            errors.add((i,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    if chat > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer chat input commands.")
    errors.raise_if_any()


def _command_size(cmd: dict[str, Any]) -> int:
    size = len(cmd.get("name") or "") + len(cmd.get("description") or "")
    for opt in cmd.get("options") or []:
        size += _command_size(opt)
    for choice in cmd.get("choices") or []:
        size += len(choice.get("name") or "") + len(str(choice.get("value") or ""))
    return size
