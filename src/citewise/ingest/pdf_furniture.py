"""Page furniture in PDFs: page-number lines and running headers/footers repeated on most pages."""

from __future__ import annotations

import re
from collections import Counter

from citewise.lang import fold

_PAGE_NO = re.compile(r"^\s*(?:(?:page|trang)\s*)?\d{1,4}(?:\s*(?:/|of|tren|trên)\s*\d{1,4})?\s*$", re.I)


def is_page_number(line: str) -> bool:
    return bool(_PAGE_NO.match(fold(line)))


def _shape(line: str) -> str:
    return re.sub(r"\d+", "#", fold(line).lower().strip())


def furniture(pages: list[list[str]]) -> list[set[int]]:
    """Indexes of lines to drop on each page: page numbers at the top/bottom, and first/last
    lines whose shape repeats on at least half of the pages (when there are 3 or more)."""
    drop: list[set[int]] = [set() for _ in pages]
    edges: Counter[str] = Counter()
    for lines in pages:
        seen = {_shape(x) for x in lines[:2] + lines[-2:] if x.strip()}
        edges.update(seen)
    repeated = {s for s, n in edges.items() if len(pages) >= 3 and n >= max(2, len(pages) // 2)}
    for i, lines in enumerate(pages):
        idx = [j for j, x in enumerate(lines) if x.strip()]
        for j in idx[:2] + idx[-2:]:
            if is_page_number(lines[j]) or _shape(lines[j]) in repeated:
                drop[i].add(j)
    return drop
