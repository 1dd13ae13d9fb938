"""The real parsers on every file of the bundled sample corpus: structure, tables, pages,
metadata, and exact offsets."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.chunk.chunker import Chunker
from citewise.ingest.loader import load_document
from citewise.refs.keys import resolve_label
from citewise.types import Document

SAMPLE_FILES = sorted(p.name for p in (Path(__file__).parents[2] / "src/citewise/samples/corpus").iterdir())


def _doc(samples: Path, name: str) -> Document:
    return load_document(samples / name)


def assert_offsets(doc: Document) -> None:
    """Every node, table and chunk span slices the document text exactly."""
    for n in doc.nodes:
        assert 0 <= n.char_start < n.char_end <= len(doc.text), n
        text = doc.text[n.char_start : n.char_end]
        assert text == text.strip(), f"{n.label} span has surrounding whitespace"
        if n.parent_id is not None:
            p = doc.nodes[n.parent_id]
            assert p.char_start <= n.char_start and n.char_end <= p.char_end, (p.label, n.label)
    for t in doc.tables:
        rows = doc.text[t.char_start : t.char_end].split("\n")
        assert len(rows) == len(t.rows)
        for (s, e), row in zip(t.row_spans, t.rows, strict=True):
            assert doc.text[s:e].split("|")[0].strip() == row[0]
    for p in doc.pages:
        assert 0 <= p.char_start <= p.char_end <= len(doc.text)
    chunks = Chunker().chunk(doc)
    assert chunks
    for c in chunks:
        assert doc.text[c.char_start : c.char_end] == c.body
        assert c.body.strip() == c.body


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_sample_parses_with_exact_offsets(samples: Path, name: str) -> None:
    doc = _doc(samples, name)
    assert doc.lang == ("vi" if name.endswith(("-vi.pdf", "-vi.html", "-vi.docx", "-vi.md")) else "en")
    assert len(doc.tables) >= 1 and len(doc.tables[0].rows) >= 5
    assert_offsets(doc)


@pytest.mark.parametrize("name", [n for n in SAMPLE_FILES if n.endswith(".pdf")])
def test_pdf_pages_and_table_page(samples: Path, name: str) -> None:
    doc = _doc(samples, name)
    assert len(doc.pages) >= 3
    assert [p.number for p in doc.pages] == list(range(1, len(doc.pages) + 1))
    # page-number furniture ("Page 2" / "Trang 2") is dropped
    assert not any(line.strip().lower().startswith(("page ", "trang ")) for line in doc.text.split("\n"))
    assert doc.tables[0].page is not None
    article = next(n for n in doc.nodes if n.kind in ("article", "section"))
    assert article.page_start == 1


def test_vietnamese_pdf_structure(samples: Path) -> None:
    doc = _doc(samples, "quy-tac-bao-hiem-nha-o-vi.pdf")
    assert doc.title == "QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN"
    assert (doc.doc_type, doc.number, doc.issued, doc.effective) == (
        "Quy tắc",
        "125/2024/QĐ-SH",
        "2024-03-15",
        "2024-05-01",
    )
    labels = [n.label for n in doc.nodes]
    assert [x for x in labels if x.startswith("Chương")] == ["Chương I", "Chương II", "Chương III", "Chương IV"]
    assert [n.label for n in doc.nodes if n.kind == "article"] == [f"Điều {i}" for i in range(1, 17)]
    assert "điểm đ khoản 3 Điều 2" in labels  # the Vietnamese letter after d
    assert "Phụ lục I" in labels
    node = resolve_label(doc.nodes, "diem dd khoan 3 dieu 2") or resolve_label(doc.nodes, "điểm đ khoản 3 Điều 2")
    assert node is not None and doc.text[node.char_start :].startswith("đ)")
    d12 = resolve_label(doc.nodes, "Điều 12")
    assert d12 is not None and d12.heading == "Thời hạn giải quyết bồi thường"
    assert d12.parent_id is not None and doc.nodes[d12.parent_id].label == "Chương III"


def test_english_pdf_policy_sections(samples: Path) -> None:
    doc = _doc(samples, "home-insurance-policy-en.pdf")
    assert (doc.doc_type, doc.number, doc.effective) == ("Policy wording", "HM-2025/04", "2025-01-01")
    secs = [n.label for n in doc.nodes if n.kind in ("section", "dotted")]
    assert secs[:5] == ["Section 1", "Section 2", "Section 2.1", "Section 2.2", "Section 2.3"]
    assert len(secs) == len(set(secs)), "a wrapped reference line opened a duplicate section"
    s42 = resolve_label(doc.nodes, "Section 4.2")
    assert s42 is not None and s42.heading == "Time limits"
    assert doc.nodes[s42.parent_id or 0].label == "Section 4"
    assert doc.tables[0].header == ["Cover", "Limit (USD)", "Excess (USD)"]
    assert resolve_label(doc.nodes, "Annex A") is not None


def test_html_regulation_recitals_articles_points(samples: Path) -> None:
    doc = _doc(samples, "data-protection-regulation-en.html")
    assert doc.number == "2024/17" and doc.effective == "2024-09-01"
    assert "Regulation (FR) 2024/17" in doc.aliases
    kinds = [n.kind for n in doc.nodes]
    assert kinds.count("recital") == 6 and kinds.count("article") == 12
    assert "Trang chủ" not in doc.text and "Home" not in doc.text.split("\n")[0]  # nav dropped
    point = resolve_label(doc.nodes, "Article 6(1)(e)")
    assert point is not None and point.label == "Article 6(1)(e)"
    assert doc.text[point.char_start : point.char_end].startswith("(e) processing is necessary")
    section = resolve_label(doc.nodes, "Section 1")
    assert section is not None and doc.nodes[section.parent_id or 0].label == "Chapter II"
    art7 = resolve_label(doc.nodes, "Article 7(1)")
    assert art7 is not None
    refs = {r for n in doc.nodes for r in n.refs}
    assert "Article 6(1)" in refs


@pytest.mark.parametrize("name", ["quy-tac-bao-hiem-du-lich-vi.docx", "quy-tac-bao-hiem-du-lich-vi.md"])
def test_docx_and_markdown_give_the_same_structure(samples: Path, name: str) -> None:
    doc = _doc(samples, name)
    other = _doc(samples, "quy-tac-bao-hiem-du-lich-vi.md")
    assert [n.label for n in doc.nodes] == [n.label for n in other.nodes]
    assert (doc.number, doc.issued) == ("88/2024/QĐ-SH", "2024-07-10")
    assert doc.tables[0].header[0] == "Quyền lợi bảo hiểm"
    refs = {r for n in doc.nodes for r in n.refs}
    assert "Điều 4 Quy tắc này" in refs


def test_docx_english_numbered_headings(samples: Path) -> None:
    doc = _doc(samples, "travel-insurance-terms-en.docx")
    parts = [n.label for n in doc.nodes if n.kind == "part"]
    assert parts == ["Part 1", "Part 2", "Part 3", "Part 4", "Part 5"]
    clause = resolve_label(doc.nodes, "clause 1.4")
    assert clause is not None and clause.heading == "Summary of benefits"
    assert doc.tables[0].header == ["Benefit", "Maximum amount", "Excess"]
    assert doc.tables[0].char_start > clause.char_start and doc.tables[0].char_end <= clause.char_end


def test_vietnamese_html_sections(samples: Path) -> None:
    doc = _doc(samples, "quy-dinh-bao-ve-du-lieu-vi.html")
    assert (doc.doc_type, doc.number, doc.issued, doc.effective) == (
        "Thông tư",
        "21/2024/TT-HHBH",
        "2024-06-20",
        "2024-08-01",
    )
    muc = [n for n in doc.nodes if n.kind == "section"]
    assert [m.label for m in muc] == ["Mục 1", "Mục 2"]
    assert all(doc.nodes[m.parent_id or 0].label == "Chương II" for m in muc)
