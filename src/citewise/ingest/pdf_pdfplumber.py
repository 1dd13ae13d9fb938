"""PDF backend on pdfplumber: text lines by position, tables kept whole with their rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citewise.ingest.base import PageCallback, Parser
from citewise.ingest.pdf_common import PageItems, assemble, pdf_errors
from citewise.types import Layout


def _inside(obj: dict[str, Any], boxes: list[tuple[float, float, float, float]]) -> bool:
    x = (obj["x0"] + obj["x1"]) / 2
    y = (obj["top"] + obj["bottom"]) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


class PdfplumberParser(Parser):
    name = "pdfplumber"
    fmt = "pdf"
    extensions = (".pdf",)

    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        import pdfplumber

        pages: list[PageItems] = []
        with pdf_errors(self.name), pdfplumber.open(path) as pdf:
            total = len(pdf.pages)
            for i, page in enumerate(pdf.pages):
                pages.append(self._page(page, i + 1))
                page.close()
                if on_page:
                    on_page(i + 1, total)
        return assemble(pages)

    def _page(self, page: Any, number: int) -> PageItems:
        tables = page.find_tables()
        boxes = [t.bbox for t in tables]
        text_page = page.filter(lambda o: not _inside(o, boxes)) if boxes else page
        entries: list[tuple[float, str, object]] = []
        for line in text_page.extract_text_lines(return_chars=False):
            entries.append((float(line["top"]), "line", line["text"]))
        for t in tables:
            rows = [[c or "" for c in row] for row in t.extract()]
            entries.append((float(t.bbox[1]), "table", rows))
        entries.sort(key=lambda e: e[0])
        return PageItems(number, [(k, v) for _, k, v in entries])
