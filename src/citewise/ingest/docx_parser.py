"""DOCX backend on python-docx: heading styles, Word auto-numbering rendered, tables whole."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from citewise.errors import CorruptFile, EmptyDocument
from citewise.ingest.base import PageCallback, Parser
from citewise.ingest.layout import LayoutBuilder
from citewise.types import Layout

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING = re.compile(r"^heading\s*(\d)$", re.I)


def _roman(n: int) -> str:
    vals = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


def _fmt(n: int, fmt: str) -> str:
    if fmt == "lowerLetter":
        return "abcdefghijklmnopqrstuvwxyz"[(n - 1) % 26]
    if fmt == "upperLetter":
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(n - 1) % 26]
    if fmt == "lowerRoman":
        return _roman(n)
    if fmt == "upperRoman":
        return _roman(n).upper()
    if fmt in ("bullet", "none"):
        return ""
    return str(n)


class _Numbering:
    """Renders Word list numbers ("1.", "a)", "2.1") from numbering.xml, counting as it goes."""

    def __init__(self, doc: Any) -> None:
        self.levels: dict[str, dict[int, tuple[str, str, int]]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        try:
            root = doc.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        for an in root.findall(f"{_W}abstractNum"):
            lv: dict[int, tuple[str, str, int]] = {}
            for lvl in an.findall(f"{_W}lvl"):
                ilvl = int(lvl.get(f"{_W}ilvl", "0"))
                fmt_el, text_el, start_el = lvl.find(f"{_W}numFmt"), lvl.find(f"{_W}lvlText"), lvl.find(f"{_W}start")
                fmt = fmt_el.get(f"{_W}val", "decimal") if fmt_el is not None else "decimal"
                text = text_el.get(f"{_W}val", "") if text_el is not None else ""
                start = int(start_el.get(f"{_W}val", "1")) if start_el is not None else 1
                lv[ilvl] = (fmt, text, start)
            abstract[an.get(f"{_W}abstractNumId", "")] = lv
        for num in root.findall(f"{_W}num"):
            ref = num.find(f"{_W}abstractNumId")
            if ref is not None:
                self.levels[num.get(f"{_W}numId", "")] = abstract.get(ref.get(f"{_W}val", ""), {})

    def label(self, paragraph: Any) -> str:
        num_pr = None
        ppr = paragraph._p.pPr
        if ppr is not None and ppr.numPr is not None:
            num_pr = ppr.numPr
        elif paragraph.style is not None:  # numbering given by the style ("List Number")
            style_ppr = paragraph.style.element.pPr
            num_pr = style_ppr.numPr if style_ppr is not None else None
        if num_pr is None or num_pr.numId is None:
            return ""
        num_id = str(num_pr.numId.val)
        ilvl = int(num_pr.ilvl.val) if num_pr.ilvl is not None else 0
        levels = self.levels.get(num_id)
        if not levels or ilvl not in levels:
            return ""
        counts = self.counters.setdefault(num_id, {})
        fmt, text, start = levels[ilvl]
        counts[ilvl] = counts.get(ilvl, start - 1) + 1
        for deeper in [k for k in counts if k > ilvl]:
            del counts[deeper]
        if fmt in ("bullet", "none"):
            return ""

        def sub(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            f = levels.get(k, ("decimal", "", 1))[0]
            return _fmt(counts.get(k, levels.get(k, ("", "", 1))[2]), f)

        return re.sub(r"%(\d)", sub, text)


class DocxParser(Parser):
    name = "docx"
    fmt = "docx"
    extensions = (".docx",)
    zipped = True

    def parse(self, path: Path, on_page: PageCallback | None = None) -> Layout:
        import docx
        from docx.table import Table as DocxTable
        from docx.text.paragraph import Paragraph

        if not zipfile.is_zipfile(path):
            raise CorruptFile("not a DOCX file (not a zip package)")
        try:
            doc = docx.Document(str(path))
        except Exception as e:
            raise CorruptFile(f"not a readable DOCX ({type(e).__name__}: {str(e)[:100]})") from e
        numbering = _Numbering(doc)
        b = LayoutBuilder()
        for el in doc.element.body.iterchildren():
            if el.tag == f"{_W}p":
                p = Paragraph(el, doc)
                text = p.text
                style = (p.style.name if p.style is not None else "") or ""
                label = numbering.label(p)
                if label and text.strip():
                    text = f"{label} {text}"
                m = _HEADING.match(style)
                if style == "Title":
                    b.add(text, "heading", level=1)
                elif m:
                    b.add(text, "heading", level=int(m.group(1)))
                elif style.lower().startswith("list"):
                    b.add(text, "list_item")
                else:
                    b.add(text)
            elif el.tag == f"{_W}tbl":
                table = DocxTable(el, doc)
                rows: list[list[str]] = []
                for row in table.rows:
                    cells: list[str] = []
                    last: Any = None
                    for cell in row.cells:
                        if cell._tc is last:  # merged cells repeat; keep one
                            continue
                        last = cell._tc
                        cells.append(cell.text)
                    rows.append(cells)
                b.add_table(rows)
        layout = b.build()
        if not layout.text.strip():
            raise EmptyDocument("the DOCX holds no text")
        core_title = (doc.core_properties.title or "").strip()
        if core_title:
            layout.title_hint = core_title
        return layout
