"""Plain-text backend: any common encoding, paragraphs separated by blank lines."""

from __future__ import annotations

from pathlib import Path

from citewise.errors import EmptyDocument
from citewise.ingest.base import PageCallback, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.layout import LayoutBuilder
from citewise.types import Layout


class TextParser(Parser):
    name = "text"
    fmt = "text"
    extensions = (".txt", ".text")

    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        text, _ = decode_text(path.read_bytes())
        return self.parse_text(text)

    def parse_text(self, text: str) -> Layout:
        b = LayoutBuilder()
        pages = text.replace("\r\n", "\n").replace("\r", "\n").split("\f")
        paged = len(pages) > 1
        for n, page in enumerate(pages, start=1):
            if paged:
                b.start_page(n)
            for para in page.split("\n\n"):
                b.add(para)
            if paged:
                b.end_page()
        layout = b.build()
        if not layout.text.strip():
            raise EmptyDocument("the file holds no text")
        return layout
