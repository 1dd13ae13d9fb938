"""Markdown backend: ATX headings, pipe tables, list items, paragraphs; inline markup removed."""

from __future__ import annotations

import re
from pathlib import Path

from citewise.errors import EmptyDocument
from citewise.ingest.base import PageCallback, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.layout import LayoutBuilder
from citewise.types import Layout

_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(?!\[)")
_STARTS_ITEM = re.compile(r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+|[a-zđ]\)\s+|\([a-z0-9]{1,4}\)\s+)", re.I)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPH = re.compile(r"(\*\*|__|\*|`)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def inline(text: str) -> str:
    text = _LINK.sub(r"\1", text)
    text = _EMPH.sub("", text)
    return re.sub(r"<[^>]{1,80}>", "", text)


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [inline(c.strip()) for c in s.split("|")]


class MarkdownParser(Parser):
    name = "markdown"
    fmt = "markdown"
    extensions = (".md", ".markdown")

    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        text, _ = decode_text(path.read_bytes())
        return self.parse_text(text)

    def parse_text(self, text: str) -> Layout:
        text = _COMMENT.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
        lines = text.split("\n")
        i = 0
        if lines and lines[0].strip() == "---":  # front matter
            end = next((k for k in range(1, len(lines)) if lines[k].strip() in ("---", "...")), None)
            if end is not None:
                i = end + 1
        b = LayoutBuilder()
        para: list[str] = []

        def flush() -> None:
            if para:
                b.add(" ".join(para), "list_item" if _STARTS_ITEM.match(para[0]) else "para")
                para.clear()

        in_fence = False
        while i < len(lines):
            line = lines[i]
            if line.strip().startswith(("```", "~~~")):
                flush()
                in_fence = not in_fence
                i += 1
                continue
            if in_fence:
                b.add(line)
                i += 1
                continue
            m = _ATX.match(line)
            if m:
                flush()
                b.add(inline(m.group(2)), "heading", level=len(m.group(1)))
                i += 1
                continue
            if "|" in line and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]):
                flush()
                rows = [_cells(line)]
                i += 2
                while i < len(lines) and "|" in lines[i] and lines[i].strip():
                    rows.append(_cells(lines[i]))
                    i += 1
                b.add_table(rows)
                continue
            s = line.strip()
            if not s or re.fullmatch(r"[-*_]{3,}", s):
                flush()
            elif _STARTS_ITEM.match(line):
                flush()
                para.append(inline(_BULLET.sub("", line, count=1).strip()))
            else:
                para.append(inline(s))
            i += 1
        flush()
        layout = b.build()
        if not layout.text.strip():
            raise EmptyDocument("the Markdown file holds no text")
        return layout
