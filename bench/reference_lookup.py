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

import citewise
from citewise.evaluate.data import shared_data
from citewise.evaluate.reference_lookup import build_cases, run
from citewise.settings import Settings
from common import REPO, RESULTS, machine, write_results, write_section

sys.path.insert(0, str(REPO))  # the checkout: tests/helpers renders the GDPR units as HTML
from tests.helpers.gdpr import gdpr_html

OUT = RESULTS / "reference_lookup.json"


def main() -> None:
    data = shared_data()
    meta = machine("python bench/reference_lookup.py")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        html = folder / "gdpr.html"
        html.write_text(gdpr_html(data / "gdpr_en" / "gdpr_en_units.jsonl"), encoding="utf-8")
        settings = Settings(index=folder / "index", store={"embedder": "none"})
        engine = citewise.open(settings=settings, embedder=None)
        store = engine.store
        paths = [
            REPO / "src" / "citewise" / "samples" / "corpus",
            data / "vn_insurance_law_phapdien" / "kinh-doanh-bao-hiem.md",
            html,
            data / "eu_ai_act" / "eu_ai_act_en_units.jsonl",
        ]
        engine.ingest(paths)
        cases = build_cases(store)
        t = time.perf_counter()
        outcomes = run(store, cases)
        resolve_ms = (time.perf_counter() - t) * 1000 / len(cases)
        first, lat = 0, []
        for case in cases:
            t = time.perf_counter()
            top = engine.search(case.question, k=3).evidence[0]
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
            "machine": meta,
        }
        engine.close()
    write_results(OUT, report)
    lines = [
        "## Reference lookup",
        "",
        f"Machine: {meta['cores']} cores, {meta['cpu']}; date {report['date']}; command `python bench/reference_lookup.py`. {report['cases']} questions"
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
