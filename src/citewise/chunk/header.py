"""Context headers indexed with each chunk:
``[Luật Kinh doanh bảo hiểm 08/2022/QH15 › Chương II › Điều 17. Nội dung của hợp đồng bảo hiểm]``."""

from __future__ import annotations

import re

from citewise.chunk.sentences import PROVISION_WORD
from citewise.types import Document, Node

SEP = " › "


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def doc_name(doc: Document) -> str:
    name = doc.title
    if doc.number and doc.number not in name:
        name = f"{name} {doc.number}"
    return _short(name, 100)


def division_path(doc: Document, node: Node | None) -> list[str]:
    """Labels from the top division down to ``node``."""
    if node is None:
        return []
    return [n.label for n in doc.ancestors(node) if n.kind != "heading"] + [node.label]


def context_header(doc: Document, node: Node | None, sub: str = "") -> str:
    parts = [doc_name(doc)]
    if node is not None:
        for a in doc.ancestors(node):
            if a.kind == "heading":
                parts.append(_short(a.heading, 60))
            else:
                parts.append(f"{a.label}. {_short(a.heading, 60)}" if a.heading else a.label)
        own = node.label if node.kind != "heading" else ""
        if node.heading and node.heading != own:
            own = f"{own}. {_short(node.heading)}" if own else _short(node.heading)
        parts.append(own)
    if sub:
        parts.append(sub)
    return "[" + SEP.join(p for p in parts if p) + "]"


def header_parts(header: str) -> list[str]:
    """The parts of a context header (``context_header``), from the document's name down: "[Luật … › Chương II ›
    Điều 17. Nội dung …]" -> ["Luật …", "Chương II", "Điều 17. Nội dung …"]."""
    return [p.strip() for p in header.strip().strip("[]").split(SEP.strip()) if p.strip()]


_LABEL = re.compile(rf"^\s*{PROVISION_WORD}\.?\s*[\w.()]*\.?\s*", re.I)
"""The label opening a provision's part of a header ("Điều 332. ", "Section 4.2 ", "khoản 2 ")."""


def provision_title(header: str) -> str:
    """The title of the provision a chunk is from: the last part of its header (``context_header``) that opens with
    a provision's label and says more than labels, without them ("[Bộ luật Hình sự › Điều 14. Chuẩn bị phạm tội ›
    khoản 2 Điều 14]" -> "Chuẩn bị phạm tội"); "" when no part does (a document's title, a passage's own first
    words)."""
    for part in reversed(header_parts(header)):
        title = part
        while (m := _LABEL.match(title)) and m.end():
            title = title[m.end() :]
        if title != part and title.strip():
            return title.strip()
    return ""
