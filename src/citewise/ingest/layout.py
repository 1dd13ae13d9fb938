"""Assemble parser output into one text with exact spans for blocks, pages and tables."""

from __future__ import annotations

import re

from citewise.lang import nfc
from citewise.types import Block, Layout, PageSpan, Table

_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u3000]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufeff\u00ad]")


def clean_line(text: str) -> str:
    """NFC, control characters removed, runs of spaces collapsed, ends trimmed."""
    text = _CONTROL.sub("", nfc(text))
    return _SPACES.sub(" ", text).strip()


def clean_block(text: str) -> str:
    """``clean_line`` on each line; blank lines dropped."""
    lines = (clean_line(x) for x in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return "\n".join(x for x in lines if x)


class LayoutBuilder:
    """Appends blocks, one per line group, separated by newlines, and records their spans."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._pos = 0
        self.blocks: list[Block] = []
        self.pages: list[PageSpan] = []
        self.tables: list[Table] = []
        self._page: int | None = None
        self._page_start = 0
        self.title_hint: str | None = None
        self.warnings: list[str] = []

    def _append(self, text: str) -> tuple[int, int]:
        if self._parts:
            self._parts.append("\n")
            self._pos += 1
        start = self._pos
        self._parts.append(text)
        self._pos += len(text)
        return start, self._pos

    def add(self, text: str, kind: str = "para", level: int | None = None) -> None:
        text = clean_block(text)
        if not text:
            return
        start, end = self._append(text)
        self.blocks.append(Block(kind, start, end, page=self._page, level=level))
        if kind == "heading" and self.title_hint is None and (level or 1) <= 1:
            self.title_hint = text.replace("\n", " ")

    def add_table(self, rows: list[list[str]]) -> None:
        clean = [[clean_line(c or "").replace("|", "/") for c in row] for row in rows]
        clean = [r for r in clean if any(r)]
        if not clean:
            return
        width = max(len(r) for r in clean)
        spans: list[tuple[int, int]] = []
        table_start: int | None = None
        for row in clean:
            line = " | ".join(row + [""] * (width - len(row))).strip()
            s, e = self._append(line)
            table_start = s if table_start is None else table_start
            spans.append((s, e))
        assert table_start is not None
        self.tables.append(Table(clean, table_start, self._pos, page=self._page, row_spans=spans))
        self.blocks.append(Block("table", table_start, self._pos, page=self._page, table=len(self.tables) - 1))

    def start_page(self, number: int) -> None:
        self.end_page()
        self._page = number
        self._page_start = self._pos + (1 if self._parts else 0)

    def end_page(self) -> None:
        if self._page is not None:
            self.pages.append(PageSpan(self._page, min(self._page_start, self._pos), self._pos))
            self._page = None

    def build(self) -> Layout:
        self.end_page()
        return Layout(
            text="".join(self._parts),
            blocks=self.blocks,
            pages=self.pages,
            tables=self.tables,
            title_hint=self.title_hint,
            warnings=self.warnings,
        )
