"""Reference lookup: questions naming a provision in the many ways people write it (EN + VI), built
from the Pháp điển insurance law, the GDPR, the EU AI Act and the sample corpus; the resolved
provision must be the named one, and retrieval must put it first.

    python bench/reference_lookup.py

Writes bench/results/reference_lookup.json and a section of docs/benchmarks.md."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from tests.helpers.gdpr import gdpr_html  # noqa: E402

from citewise.evaluate.reference_lookup import build_cases, run  # noqa: E402
from citewise.index.corpus import Corpus  # noqa: E402
from citewise.index.embedded import EmbeddedStore  # noqa: E402
from citewise.retrieve.hybrid import Retriever  # noqa: E402
from citewise.settings import Settings  # noqa: E402
from docs_section import write_section  # noqa: E402

DATA = Path("/work/shared/data")
RESULTS = REPO / "bench" / "results" / "reference_lookup.json"
DOCS = REPO / "docs" / "benchmarks.md"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        html = folder / "gdpr.html"
        html.write_text(gdpr_html(DATA / "gdpr_en" / "gdpr_en_units.jsonl"), encoding="utf-8")
        store = EmbeddedStore(folder / "index", model="none")
        paths = [
            REPO / "src" / "citewise" / "samples" / "corpus",
            DATA / "vn_insurance_law_phapdien" / "kinh-doanh-bao-hiem.md",
            html,
            DATA / "eu_ai_act" / "eu_ai_act_en_units.jsonl",
        ]
        Corpus(store, None, Settings(index=folder / "index")).ingest(paths)
        cases = build_cases(store)
        t = time.perf_counter()
        outcomes = run(store, cases)
        resolve_ms = (time.perf_counter() - t) * 1000 / len(cases)
        retriever = Retriever(store, None)
        first, lat = 0, []
        for case in cases:
            t = time.perf_counter()
            top = retriever.search(case.question, k=3).evidence[0]
            lat.append((time.perf_counter() - t) * 1000)
            node = next(n for n in store.nodes(case.doc_id) if n.key == case.key)
            first += (
                top.pinned
                and top.chunk.doc_id == case.doc_id
                and top.char_start < node.char_end
                and node.char_start < top.char_end
            )
        by_lang = {
            lang: {
                "cases": sum(o.case.lang == lang for o in outcomes),
                "exact": sum(o.exact for o in outcomes if o.case.lang == lang),
            }
            for lang in ("vi", "en")
        }
        report = {
            "date": time.strftime("%Y-%m-%d"),
            "cases": len(cases),
            "exact": sum(o.exact for o in outcomes),
            "retrieval_first": first,
            "by_lang": by_lang,
            "resolve_ms_per_question": round(resolve_ms, 2),
            "search_p50_ms": round(statistics.median(lat), 1),
            "failures": [(o.case.question, o.case.label, o.resolved) for o in outcomes if not o.exact],
            "examples": [c.question for c in cases[::9]],
        }
    RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    lines = [
        "## Reference lookup",
        "",
        f"Machine: 2 cores; date {report['date']}; command `python bench/reference_lookup.py`. {report['cases']} questions"
        f" ({by_lang['vi']['cases']} Vietnamese, {by_lang['en']['cases']} English) naming a provision of the Pháp điển"
        " insurance topic (Luật 08/2022/QH15, Nghị định 46/2023/NĐ-CP, Thông tư 67/2023/TT-BTC through their origin notes),"
        " the GDPR, the EU AI Act and the sample corpus, written the ways people type them (with and without diacritics,"
        " abbreviations such as `tt 67`, `NĐ 46/2023`, `Luật KDBH 2022`, `Art. 17 GDPR`, `point (a) of Article 6(1)`).",
        "",
        "| | questions | resolved to exactly the named provision | named provision ranked first |",
        "|---|---|---|---|",
        f"| Vietnamese | {by_lang['vi']['cases']} | {by_lang['vi']['exact']} | – |",
        f"| English | {by_lang['en']['cases']} | {by_lang['en']['exact']} | – |",
        f"| all | {report['cases']} | {report['exact']} ({100 * report['exact'] / report['cases']:.1f} %) |"
        f" {first} ({100 * first / report['cases']:.1f} %) |",
        "",
        f"Resolution {report['resolve_ms_per_question']} ms a question; lexical-only search p50 {report['search_p50_ms']} ms"
        " (index without vectors). Examples: " + "; ".join(f"`{q}`" for q in report["examples"][:8]) + ".",
        "",
    ]
    write_section("Reference lookup", lines)
    print(json.dumps({k: v for k, v in report.items() if k != "examples"}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
