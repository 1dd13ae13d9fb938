"""Chunking rules on hand-made long provisions: clause boundaries first, sentence windows with
overlap, whole sentences, tables split by rows with the header repeated, exact spans."""

from __future__ import annotations

import itertools
import re

from citewise.chunk.chunker import Chunker
from citewise.chunk.header import provision_title
from citewise.chunk.sentences import sentence_spans
from citewise.ingest.layout import LayoutBuilder
from citewise.ingest.loader import document_from_layout
from citewise.settings import ChunkSettings
from citewise.types import Document


def make_doc(blocks: list[str | list[list[str]]], title: str = "QUY TẮC THỬ NGHIỆM") -> Document:
    b = LayoutBuilder()
    b.add(title, "heading", level=1)
    for block in blocks:
        if isinstance(block, list):
            b.add_table(block)
        else:
            b.add(block)
    return document_from_layout(b.build(), source_uri="test:doc", fmt="text", content_hash="ab" * 32)


def sentence(i: int) -> str:
    return f"Doanh nghiệp bảo hiểm phải thực hiện nghĩa vụ số {i} trong thời hạn {i + 5} ngày kể từ ngày nhận đủ hồ sơ hợp lệ."


def test_short_article_is_one_chunk_with_context_header() -> None:
    doc = make_doc(["Chương I QUY ĐỊNH CHUNG", "Điều 1. Phạm vi", "1. " + sentence(1), "2. " + sentence(2)])
    chunks = Chunker().chunk(doc)
    assert [c.label for c in chunks] == ["Điều 1"]
    assert chunks[0].header == "[QUY TẮC THỬ NGHIỆM › Chương I. QUY ĐỊNH CHUNG › Điều 1. Phạm vi]"
    assert chunks[0].body.startswith("Điều 1. Phạm vi") and chunks[0].body.endswith("hợp lệ.")


def test_long_article_splits_at_clause_boundaries() -> None:
    clauses = [f"{k}. " + " ".join(sentence(k * 10 + j) for j in range(6)) for k in range(1, 9)]
    doc = make_doc(["Điều 5. Nghĩa vụ của doanh nghiệp", *clauses])
    settings = ChunkSettings(max_tokens=300)
    chunks = Chunker(settings).chunk(doc)
    assert len(chunks) > 1
    for c in chunks:
        assert doc.text[c.char_start : c.char_end] == c.body
        assert c.tokens <= settings.max_tokens, c.tokens
        first_line = c.body.split("\n")[0]
        assert first_line.startswith("Điều 5.") or re.match(r"^\d+\. ", first_line), "cut at a clause start"
    covered = "\n".join(c.body for c in chunks)
    for k in range(1, 9):
        assert f"{k}. Doanh nghiệp" in covered


def test_one_very_long_clause_becomes_overlapping_sentence_windows() -> None:
    long_clause = "1. " + " ".join(sentence(i) for i in range(60))
    doc = make_doc(["Điều 7. Thời hạn", long_clause])
    settings = ChunkSettings(max_tokens=200, window_tokens=150, overlap_tokens=40)
    chunks = Chunker(settings).chunk(doc)
    assert len(chunks) >= 5
    sentences = {doc.text[s:e] for s, e in sentence_spans(doc.text)}
    for a, b in itertools.pairwise(chunks):
        assert b.char_start < a.char_end, "consecutive windows overlap"
    for c in chunks:
        # never split a sentence: every window starts and ends on sentence boundaries
        assert any(c.body.startswith(s) for s in sentences) and any(c.body.endswith(s) for s in sentences)


def test_long_table_splits_by_rows_with_header_repeated() -> None:
    header = ["Loại nhà", "Tỷ lệ phí (%/năm)", "Số tiền bảo hiểm tối đa (đồng)"]
    rows = [[f"Nhà loại {i} có kết cấu bê tông cốt thép", f"0,{i:02d}", f"{i}.000.000.000"] for i in range(1, 80)]
    doc = make_doc(["Điều 6. Phí bảo hiểm", "1. Tỷ lệ phí theo bảng sau:", [header, *rows]])
    chunks = Chunker(ChunkSettings(max_tokens=300)).chunk(doc)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) >= 3
    assert tables[0].body.startswith("Loại nhà | Tỷ lệ phí") and tables[0].prefix == ""
    for c in tables[1:]:
        assert c.prefix == "Loại nhà | Tỷ lệ phí (%/năm) | Số tiền bảo hiểm tối đa (đồng)"
        assert c.index_text.index(c.prefix) < c.index_text.index(c.body)
        assert all(line.startswith("Nhà loại") for line in c.body.split("\n")), "rows are whole"
    assert sum(c.body.count("\n") + 1 for c in tables) == len(rows) + 1


def test_small_table_stays_inside_its_article() -> None:
    doc = make_doc(["Điều 6. Phí bảo hiểm", "1. Tỷ lệ phí:", [["Loại", "Phí"], ["Nhà", "0,1"], ["Căn hộ", "0,08"]]])
    chunks = Chunker().chunk(doc)
    assert len(chunks) == 1 and "Căn hộ | 0,08" in chunks[0].body


def test_sentence_splitter_keeps_abbreviations_and_numbers() -> None:
    text = "See Art. 6 of the Regulation. The limit is USD 1.500.000 in total. No. 5 applies.\n1. A new line starts."
    spans = [text[s:e] for s, e in sentence_spans(text)]
    assert spans == [
        "See Art. 6 of the Regulation.",
        "The limit is USD 1.500.000 in total.",
        "No. 5 applies.",
        "1. A new line starts.",
    ]


def test_a_full_stop_inside_a_short_bracket_does_not_end_the_sentence() -> None:
    text = (
        "The Doctor of Pharmacy (Pharm. D.) degree is now required before entering practice. "
        "Some pharmacists (e.g. consultants) work in nursing homes. Rule (a) applies. The rest follows."
    )
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "The Doctor of Pharmacy (Pharm. D.) degree is now required before entering practice.",
        "Some pharmacists (e.g. consultants) work in nursing homes.",
        "Rule (a) applies.",
        "The rest follows.",
    ]
    # a bracket left open (or closing far away) does not hold the sentences together
    long = "Fees (see the table below. It lists every fee and charge that applies to this policy) apply. Next."
    assert next(long[s:e] for s, e in sentence_spans(long)) == "Fees (see the table below."


def test_a_provision_named_at_the_end_of_a_sentence_ends_it() -> None:
    # "Điều 11." opening a line is a heading's number; at the end of a sentence it is a reference, and the next
    # clause's "1." is not glued to it
    text = (
        "Điều 5. Mức khấu trừ\n6. Mức khấu trừ là số tiền phải tự chịu theo Điều 11. 1. Mức khấu trừ là 2.000.000 "
        "đồng. As referred to in Article 6. The processor must act."
    )
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Điều 5. Mức khấu trừ",
        "6. Mức khấu trừ là số tiền phải tự chịu theo Điều 11.",
        "1. Mức khấu trừ là 2.000.000 đồng.",
        "As referred to in Article 6.",
        "The processor must act.",
    ]


def test_division_with_a_provision_of_its_own_is_a_unit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A rule with sub-rules whose own text is one short sentence (ObliQA 7/6.2.1-style records)
    is indexed; a bare division heading is not repeated as its own chunk."""
    import json

    from citewise.ingest.jsonl_importer import import_jsonl

    records = [
        {"doc": "7", "id": "6", "text": "Financial reporting"},
        {"doc": "7", "id": "6.2", "text": "Each Authorised Person must prepare financial statements for each year."},
        {"doc": "7", "id": "6.2.1", "text": "The statements must be audited by an auditor approved by the Regulator."},
        {"doc": "7", "id": "6.2.2", "text": "The audited statements must be filed within four months of year end."},
    ]
    path = tmp_path / "rules.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    doc = next(import_jsonl(path))
    chunks = Chunker().chunk(doc)
    indexed = " ".join(c.body for c in chunks)
    for r in records[1:]:
        assert r["text"] in indexed, r["id"]
    assert not any(c.body.strip() == "Financial reporting" for c in chunks)


def test_the_title_of_the_provision_a_chunk_is_from() -> None:
    """The last labelled part of a header that says more than labels: a clause's chunk has its article's title."""
    assert provision_title("[Bộ luật Dân sự › Điều 105. Tài sản]") == "Tài sản"
    assert provision_title("[Bộ luật Hình sự › Điều 14. Chuẩn bị phạm tội › khoản 2 Điều 14]") == "Chuẩn bị phạm tội"
    assert provision_title("[Travel Insurance Terms › Part 4 › Section 4.2 Travel delay]") == "Travel delay"
    assert provision_title("[Luật Kinh doanh bảo hiểm › Chương II]") == ""  # labels only
    assert provision_title("[ObliQA document 3 › 1.2.3]") == ""  # no provision word
