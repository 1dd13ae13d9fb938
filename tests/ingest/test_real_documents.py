"""The parsers on real legal texts from ../shared/data (read by path, never copied)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from citewise.ingest.html_parser import HtmlParser
from citewise.ingest.jsonl_importer import import_jsonl
from citewise.ingest.loader import document_from_layout, load_document
from citewise.refs.keys import resolve_label
from tests.conftest import shared
from tests.helpers.gdpr import gdpr_html
from tests.ingest.test_samples import assert_offsets


def test_phapdien_insurance_law_all_157_articles_with_origin_alias() -> None:
    doc = load_document(shared("vn_insurance_law_phapdien/kinh-doanh-bao-hiem.md"))
    assert doc.lang == "vi"
    assert (doc.doc_type, doc.number, doc.effective) == ("Luật", "08/2022/QH15", "2023-01-01")
    law = [n for n in doc.nodes if n.kind == "article" and any("08/2022/QH15" in a for a in n.aliases)]
    numbers = sorted(int(a.split()[1]) for n in law for a in n.aliases if "08/2022/QH15" in a)
    assert numbers == list(range(1, 158))
    # the codified number and the origin alias both resolve to the same node
    d17 = resolve_label(doc.nodes, "Điều 2.3.LQ.17")
    assert d17 is not None and d17.heading == "Nội dung của hợp đồng bảo hiểm"
    assert d17.aliases == ["Điều 17 Luật số 08/2022/QH15"]
    assert resolve_label(doc.nodes, "Điều 17 Luật số 08/2022/QH15") is d17
    k2 = resolve_label(doc.nodes, "khoản 2 Điều 2.3.LQ.17")
    assert k2 is not None and k2.parent_id == d17.node_id
    # the closing "Danh sách điều khoản" repeats every heading: no duplicate articles from it
    counts = Counter(n.number for n in doc.nodes if n.kind == "article")
    assert max(counts.values()) == 1
    assert sum(1 for n in doc.nodes if n.kind == "article") == len(
        [json.loads(x) for x in shared("vn_insurance_law_phapdien/phapdien_kinh_doanh_bao_hiem_articles.jsonl").open()]
    )
    # every article sits under the chapter and section (Mục) the codification gives it
    rows = [
        json.loads(x) for x in shared("vn_insurance_law_phapdien/phapdien_kinh_doanh_bao_hiem_articles.jsonl").open()
    ]
    by_number = {n.number: n for n in doc.nodes if n.kind == "article"}
    placed = 0
    for r in rows:
        node = by_number[r["phapdien_id"]]
        labels = [a.label for a in doc.ancestors(node)]
        want = [" ".join(r["chapter"].split()[:2])] + ([" ".join(r["section"].split()[:2])] if r["section"] else [])
        placed += labels == want
    assert placed == len(rows), f"{placed}/{len(rows)} articles under the right chapter and section"
    assert_offsets(doc)


def test_gdpr_html_99_articles_173_recitals() -> None:
    layout = HtmlParser().parse_text(gdpr_html(shared("gdpr_en/gdpr_en_units.jsonl")))
    doc = document_from_layout(layout, source_uri="test:gdpr", fmt="html", content_hash="9" * 64)
    kinds = Counter(n.kind for n in doc.nodes)
    assert kinds["article"] == 99 and kinds["recital"] == 173 and kinds["chapter"] == 11 and kinds["section"] == 15
    assert (doc.number, doc.issued) == ("2016/679", "2016-04-27")
    for label, start in [
        ("Article 6(1)(a)", "(a)\nthe data subject has given consent"),
        ("Art. 17", "Article 17\nRight to erasure"),
        ("Recital 47", "(47)\nThe legitimate interests"),
        ("Article 83(5)", "5.\nInfringements of the following provisions"),
        ("Article 9(2)(j)", "(j)\nprocessing is necessary for archiving"),
    ]:
        node = resolve_label(doc.nodes, label)
        assert node is not None, label
        assert doc.text[node.char_start :].startswith(start), label
    chapter4 = resolve_label(doc.nodes, "Chapter IV")
    assert chapter4 is not None and chapter4.heading == "Controller and processor"
    assert_offsets(doc)


def test_obliqa_documents_through_the_jsonl_importer(tmp_path: Path) -> None:
    source = shared("obliqa/StructuredRegulatoryDocuments/1.json")
    records = json.loads(source.read_text(encoding="utf-8"))
    jsonl = tmp_path / "obliqa-1.jsonl"
    jsonl.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    for path in (source, jsonl):  # a JSON array and JSON lines give the same document
        docs = list(import_jsonl(path))
        assert len(docs) == 1
        doc = docs[0]
        by_id = {n.aliases[0]: n for n in doc.nodes if n.aliases}
        assert len(by_id) == len(records)
        assert any(n.kind == "point" for n in doc.nodes), "clauses and points inside records are recognised"
        leaf = by_id["1.1.1.(1)"]
        assert doc.nodes[leaf.parent_id or 0].aliases[0] == "1.1.1"
        assert "The AML Rulebook is made in recognition" in doc.text[leaf.char_start : leaf.char_end]
        assert_offsets(doc)
    assert next(iter(import_jsonl(source))).doc_id == next(iter(import_jsonl(jsonl))).doc_id
