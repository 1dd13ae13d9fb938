"""Inputs the ingest benchmark derives from the shared data into a temporary folder (GDPR as HTML
and as PDF, ALQAC 2022 as JSONL) and the structures expected of them."""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from citewise.evaluate import benchsets
from common import JSON
from ingest_config import (
    FONT,
    FONT_BOLD,
    GDPR_HELPER,
    GDPR_UNITS,
    PHAPDIEN_ARTICLES,
    REPO,
    SAMPLE_PDFS,
    SAMPLE_SCRIPT,
    Plan,
)
from ingest_measure import load_module


def gdpr_units() -> list[JSON]:
    return [json.loads(x) for x in GDPR_UNITS.read_text(encoding="utf-8").splitlines() if x.strip()]


def _marker_lines(text: str) -> list[str]:
    """Unit text lines with a marker line ("1.", "(a)", "(12)") joined to the line after it."""
    out: list[str] = []
    pending = ""
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if re.fullmatch(r"\(?[0-9a-z]{1,4}[.)]", line):
            pending = f"{pending} {line}".strip()
            continue
        out.append(f"{pending} {line}".strip() if pending else line)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _level(level: str) -> tuple[str, str, str]:
    """("CHAPTER", "III", "Rights of the data subject") from "CHAPTER III - Rights of the data subject"."""
    marker, _, title = level.partition(" - ")
    word, _, number = marker.partition(" ")
    return word, number.strip(), title.strip()


def gdpr_pdf_blocks(units: list[JSON], plan: Plan) -> tuple[list[tuple[str, str]], list[tuple[str, str]], JSON, JSON]:
    """Blocks (style, text) of two PDFs: the preamble with the recitals, and the enacting terms
    with a chapter overview table. Returns the blocks and the expected structure of each."""
    recitals = [u for u in units if u["kind"] == "recital"][: plan.gdpr_pdf_recitals]
    articles = [u for u in units if u["kind"] == "article"][: plan.gdpr_pdf_articles]
    pre: list[tuple[str, str]] = [
        ("title", "REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL"),
        ("center", "of 27 April 2016"),
        (
            "center",
            "on the protection of natural persons with regard to the processing of personal data and on the free "
            "movement of such data, and repealing Directive 95/46/EC (General Data Protection Regulation)",
        ),
        ("center", "(Text with EEA relevance)"),
        ("body", "Whereas:"),
    ]
    for r in recitals:
        pre.extend(("body", line) for line in _marker_lines(r["text"]))
    pre_expected = {"recital": sorted(int(r["number"]) for r in recitals)}

    chapters: dict[str, list[str]] = {}
    for a in articles:
        h = a.get("hierarchy") or []
        if h:
            chapters.setdefault(h[0], []).append(a["number"])
    body: list[tuple[str, str]] = [
        ("title", "REGULATION (EU) 2016/679 (GDPR) — ENACTING TERMS"),
        ("body", "HAVE ADOPTED THIS REGULATION:"),
    ]
    # Long cells wrap over several lines: the case where table detection matters.
    titles = {str(a["number"]): a.get("title") or "" for a in articles}
    table_rows = [["Chapter", "Title", "Articles", "Article titles"]]
    for level, nums in chapters.items():
        _, number, title = _level(level)
        listing = "; ".join(f"{n} {titles[str(n)]}" for n in nums)
        table_rows.append([number, title, f"{nums[0]}–{nums[-1]}", listing])
    body.append(("table", json.dumps(table_rows, ensure_ascii=False)))
    current: list[str] = []
    placement: dict[str, list[str | None]] = {}
    for a in articles:
        hierarchy = a.get("hierarchy") or []
        for depth, level in enumerate(hierarchy):
            if depth < len(current) and current[depth] == level:
                continue
            word, number, title = _level(level)
            body.append(("heading", f"{word} {number}"))
            if title:
                body.append(("heading", title))
        current = list(hierarchy)
        body.append(("center", f"Article {a['number']}"))
        if a.get("title"):
            body.append(("heading", a["title"]))
        paras = a.get("paragraphs") or [{"text": a["text"]}]
        for para in paras:
            for line in _marker_lines(para["text"]):
                body.append(("point" if line.startswith("(") else "body", line))
        chap = _level(hierarchy[0])[1].upper() if hierarchy else None
        sec = _level(hierarchy[1])[1].upper() if len(hierarchy) > 1 else None
        placement[str(a["number"])] = [chap, sec]
    sections = {tuple(a["hierarchy"][:2]) for a in articles if len(a.get("hierarchy") or []) > 1}
    body_expected = {
        "article": [int(a["number"]) for a in articles],
        "chapter": len(chapters),
        "section": len(sections),
        "placement": placement,
    }
    return pre, body, pre_expected, body_expected


def render_pdf(blocks: list[tuple[str, str]], path: Path) -> JSON:
    """Write ``blocks`` to an A4 PDF with a running header and a page-number footer (furniture
    that the ingest must drop). A block is never split across pages, so the reference text of
    every page is known; returns {"pages": n, "spans": [[first, last, text], ...], "tables": [[first, last], ...]}."""
    from fpdf import FPDF
    from fpdf.fonts import FontFace

    class _Pdf(FPDF):
        def header(self) -> None:
            self.set_font("DejaVu", "", 7.5)
            self.cell(0, 4, f"4.5.2016 EN Official Journal of the European Union L 119/{self.page_no()}", align="C")
            self.ln(8)

        def footer(self) -> None:
            self.set_y(-14)
            self.set_font("DejaVu", "", 8)
            self.cell(0, 5, f"Page {self.page_no()}", align="C")

    pdf = _Pdf(orientation="P", unit="mm", format="A4")
    pdf.add_font("DejaVu", "", str(FONT))
    pdf.add_font("DejaVu", "B", str(FONT_BOLD if FONT_BOLD.exists() else FONT))
    pdf.set_margins(left=20, top=15, right=20)
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.set_creation_date(dt.datetime(2025, 1, 1, tzinfo=dt.UTC))
    pdf.add_page()
    styles = {  # size, bold, align, indent, gap after
        "title": (12.0, True, "C", 0.0, 3.0),
        "center": (10.0, False, "C", 0.0, 1.5),
        "heading": (10.0, True, "C", 0.0, 1.5),
        "body": (10.0, False, "J", 0.0, 1.5),
        "point": (10.0, False, "J", 8.0, 1.0),
    }
    line_h = 4.8
    spans: list[list[Any]] = []
    tables: list[list[int]] = []
    for style, text in blocks:
        if style == "table":
            rows: list[list[str]] = json.loads(text)
            first = pdf.page_no()
            pdf.set_font("DejaVu", "", 9)
            with pdf.table(
                col_widths=(2, 5, 2, 9),
                text_align="LEFT",
                line_height=5.5,
                padding=1.2,
                headings_style=FontFace(emphasis="BOLD"),
                repeat_headings=0,  # keeps the reference exact when the table runs over several pages
            ) as table:
                for values in rows:
                    row = table.row()
                    for value in values:
                        row.cell(value)
            pdf.ln(4)
            spans.append([first, pdf.page_no(), "\n".join(" ".join(r) for r in rows)])
            tables.append([first, pdf.page_no()])
            continue
        size, bold, align, indent, gap = styles[style]
        pdf.set_font("DejaVu", "B" if bold else "", size)
        width = pdf.epw - indent
        height = pdf.multi_cell(width, line_h, text, align=align, dry_run=True, output="HEIGHT")
        assert isinstance(height, float | int)
        if pdf.will_page_break(height + gap):
            pdf.add_page()
        first = pdf.page_no()
        pdf.set_x(pdf.l_margin + indent)
        pdf.multi_cell(width, line_h, text, align=align, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(gap)
        spans.append([first, pdf.page_no(), text])
    path.write_bytes(bytes(pdf.output()))
    return {"pages": pdf.page_no(), "spans": spans, "tables": tables}


def sample_pdf_reference(name: str) -> str | None:
    """The text written into a bundled sample PDF, from the generator's block lists."""
    module = sys.modules.get("make_sample_corpus") or load_module(SAMPLE_SCRIPT, "make_sample_corpus")
    if module is None or not hasattr(module, SAMPLE_PDFS[name]):
        return None
    lines: list[str] = []
    for b in getattr(module, SAMPLE_PDFS[name])():
        kind = type(b).__name__
        if kind in ("Title", "Meta", "Para"):
            lines.append(b.text)
        elif kind == "Heading":
            lines.extend(x for x in (b.text, b.title) if x)
        elif kind == "ListItems":
            for i, item in enumerate(b.items, start=1):
                label = "" if b.labelled else (f"{i}. " if b.numbered else "\u2022 ")
                lines.append(label + item)
        elif kind == "Table":
            if b.caption:
                lines.append(b.caption)
            lines.extend(" ".join(row) for row in (b.header, *b.rows))
    return "\n".join(lines)


def prepare(work: Path, plan: Plan) -> JSON:
    """Derived inputs in ``work``; returns the manifest the stages read."""
    manifest: JSON = {"notes": []}
    helper = load_module(GDPR_HELPER, "citewise_bench_gdpr_helper")
    if helper is None:
        manifest["gdpr_html"] = None
        manifest["notes"].append(f"{GDPR_HELPER.relative_to(REPO)} is absent: the GDPR HTML corpus is skipped")
    else:
        path = work / "gdpr.html"
        path.write_text(helper.gdpr_html(GDPR_UNITS), encoding="utf-8")
        manifest["gdpr_html"] = str(path)

    # the corpus records the retrieval benchmark ingests (citewise.evaluate.benchsets)
    records = benchsets.alqac("alqac2022").records
    alqac = work / "alqac2022-law.jsonl"
    alqac.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    manifest["alqac2022"] = str(alqac)
    manifest["alqac2022_articles"] = len(records)

    units = gdpr_units()
    pre, body, pre_expected, body_expected = gdpr_pdf_blocks(units, plan)
    pdfs: list[JSON] = []
    t0 = time.perf_counter()
    for name, blocks, expected in (
        ("gdpr-recitals.pdf", pre, pre_expected),
        ("gdpr-articles.pdf", body, body_expected),
    ):
        path = work / name
        ref = render_pdf(blocks, path)
        pdfs.append({"path": str(path), "name": name, "expected": expected, **ref})
    manifest["gdpr_pdfs"] = pdfs
    manifest["gdpr_pdf_generate_s"] = round(time.perf_counter() - t0, 2)
    return manifest


# ---------------------------------------------------------------------- expected structures


def phapdien_expected() -> JSON:
    recs = [json.loads(x) for x in PHAPDIEN_ARTICLES.read_text(encoding="utf-8").splitlines() if x.strip()]
    placement: dict[str, list[str | None]] = {}
    for r in recs:
        chap = r["chapter"].split()[1].upper() if r.get("chapter") else None
        sec = r["section"].split()[1].upper() if r.get("section") else None
        placement[r["phapdien_id"]] = [chap, sec]
    return {
        "source": str(PHAPDIEN_ARTICLES),
        "article": len(recs),
        "chapter": len({r["chapter"] for r in recs}),
        "section": len({(r["chapter"], r["section"]) for r in recs if r.get("section")}),
        "placement": placement,
    }


def gdpr_expected() -> JSON:
    units = gdpr_units()
    placement: dict[str, list[str | None]] = {}
    sections: set[tuple[str, ...]] = set()
    chapters: set[str] = set()
    for u in units:
        if u["kind"] != "article":
            continue
        h = u.get("hierarchy") or []
        chapters.update(h[:1])
        if len(h) > 1:
            sections.add(tuple(h[:2]))
        placement[str(u["number"])] = [
            _level(h[0])[1].upper() if h else None,
            _level(h[1])[1].upper() if len(h) > 1 else None,
        ]
    return {
        "source": str(GDPR_UNITS),
        "article": sum(1 for u in units if u["kind"] == "article"),
        "recital": sum(1 for u in units if u["kind"] == "recital"),
        "chapter": len(chapters),
        "section": len(sections),
        "placement": placement,
    }
