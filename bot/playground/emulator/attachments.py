"""Uploaded files: attachment payloads, and Components V2 media that point at them.

A V2 component shows an upload through `attachment://<filename>` (a media gallery item, a
thumbnail, a file component). Discord accepts such a reference only for a file uploaded in the
same request, and stores the message with the reference resolved to the attachment's URL.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

from .models import walk_components

SCHEME = "attachment://"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG, read from its IHDR chunk; None for anything else."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def attachment_payload(
    aid: int, upload: dict[str, Any], base_url: str, description: str | None
) -> dict[str, Any]:
    """The attachment object Discord returns for an uploaded file."""
    name = upload.get("filename") or "file"
    data: bytes = upload.get("data", b"")
    url = f"{base_url}/attachments/{aid}/{name}"
    out: dict[str, Any] = {
        "id": str(aid),
        "filename": name,
        "size": len(data),
        "url": url,
        "proxy_url": url,
        "content_type": upload.get("content_type"),
    }
    size = png_size(data)
    if size is not None:
        out |= {"content_type": "image/png", "width": size[0], "height": size[1]}
    if description:
        out["description"] = description
    return out


def descriptions(body: dict[str, Any]) -> dict[int, str]:
    """Alt texts the request gives its new files (`attachments: [{"id": index, ...}]`)."""
    found: dict[int, str] = {}
    for entry in body.get("attachments") or []:
        if not isinstance(entry, dict) or not entry.get("description"):
            continue
        if isinstance(entry.get("id"), int):
            found[entry["id"]] = str(entry["description"])
    return found


def media_refs(
    components: list[dict[str, Any]],
) -> Iterator[tuple[dict[str, Any], str, bool]]:
    """Every media object in V2 components: (the object holding `url`, path text, whether the
    component accepts only attachments)."""
    for comp in walk_components(components):
        ctype = comp.get("type")
        if ctype == 11 and isinstance(comp.get("media"), dict):
            yield comp["media"], "thumbnail.media.url", False
        elif ctype == 12:
            for item in comp.get("items") or []:
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    yield item["media"], "media_gallery.items.media.url", False
        elif ctype == 13 and isinstance(comp.get("file"), dict):
            yield comp["file"], "file.file.url", True


def resolve_media(components: list[dict[str, Any]], attachments: list[dict[str, Any]]) -> None:
    """Replace `attachment://name` references by the attachment's URL, as Discord stores them."""
    by_name = {a["filename"]: a for a in attachments}
    for media, _, _ in media_refs(components):
        url = media.get("url")
        if not isinstance(url, str) or not url.startswith(SCHEME):
            continue
        attachment = by_name.get(url.removeprefix(SCHEME))
        if attachment is None:
            continue
        media.clear()
        media.update(
            url=attachment["url"],
            proxy_url=attachment["proxy_url"],
            content_type=attachment.get("content_type"),
            attachment_id=attachment["id"],
        )
        if "width" in attachment:
            media.update(width=attachment["width"], height=attachment["height"])
