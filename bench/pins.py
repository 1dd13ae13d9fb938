#!/usr/bin/env python3
"""Pins against a passage citing the pinned provision: the Retriever with ``cited_first`` (the default: a
passage the search ranks above the named provision and that cites it goes first, the provision second,
unless the question is a lookup), with the named provision always first (``cited_first = false``, as
before), and with no pins, side by side in one run, lexical only, on the sets of ``bench/analyzers.py``
(ObliQA dev after the first 1,000 held out, the first 1,000, everyday English, ALQAC 2022 / 2023).

    python bench/pins.py

Writes ``bench/results/pins.json`` and the "Pins and citing passages" section of docs/benchmarks.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import citewise
from analyzers import run, run_sets, settings
from citewise.evaluate.benchsets import BenchSet, GoldQuestion
from citewise.evaluate.units import METRICS, Row, chunk_units, paired
from common import RESULTS, log, machine, write_results, write_section
from indexes import DEFAULT_ANALYZER
from retrieval_rankers import pipeline

OUT = RESULTS / "pins.json"
SECTION = "Pins and citing passages"
CONFIGS = {
    "cited first (default)": {},
    "named provision first": {"cited_first": False},
    "no pins": {"pin": False},
}


def compare(title: str, ds: BenchSet, questions: Sequence[GoldQuestion]) -> dict[str, object]:
    log(f"{title}: {len(questions)} questions")
    rows: dict[str, Row] = {}
    fired = {"pinned": 0, "cited_first": 0, "cited_first_gold": 0}
    with citewise.open(settings=settings(ds, DEFAULT_ANALYZER), embedder=None) as base:
        units = chunk_units(base.store)
        for name, retrieve in CONFIGS.items():
            engine = citewise.open(settings=base.settings, store=base.store, embedder=None, retrieve=retrieve)
            kept: list = []
            rows[name] = run(questions, pipeline(engine, units, kept))
            if not retrieve:
                for q, res in zip(questions, kept, strict=True):
                    fired["pinned"] += any(e.pinned for e in res.evidence)
                    lead = [e for e in res.evidence if any(r.startswith("cites ") for r in e.reasons)][:1]
                    fired["cited_first"] += bool(lead)
                    key = (lead[0].chunk.doc_id, lead[0].chunk.chunk_id) if lead else None
                    fired["cited_first_gold"] += bool(lead) and units.get(key) in q.gold  # type: ignore[arg-type]
    default = rows["cited first (default)"]
    out: dict[str, object] = {
        "questions": len(questions),
        "fired": fired,
        "rows": {n: {m: round(r.metrics[m], 4) for m in METRICS} for n, r in rows.items()},
        "vs": {n: paired(default, r) for n, r in rows.items() if r is not default},
    }
    for name, row in rows.items():
        print(f"  {title:<44} {name:<24} nDCG@10 {row.metrics['ndcg10']:.3f}  Hit@1 {row.metrics['hit1']:.3f}")
    print(f"  {title:<44} fired {fired}", flush=True)
    return out


def report(results: dict[str, dict[str, object]]) -> str:
    m = machine("python bench/pins.py")
    lines = [
        f"`python bench/pins.py` — {m['date']}, {m['revision']}, load {m['loadavg']}. The Retriever lexical only "
        f"(analyzer `{DEFAULT_ANALYZER}`), three ways in one run: *cited first* (default: a passage the search "
        "ranks above the named provision and that cites it goes first, the provision second, unless the "
        "question names the provision and little else); *named provision first* (before); *no pins*. "
        "Δ = default − other, nDCG@10 with a paired bootstrap 95 % interval; *fired*: questions with a pin / "
        "with a citing passage put first / of those, the citing passage is gold.",
        "",
        "| set | questions | fired | cited first: nDCG@10 / Hit@1 | named first | Δ nDCG@10 [95 % CI] | "
        "no pins | Δ nDCG@10 [95 % CI] |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for title, r in results.items():
        rows, vs, f = r["rows"], r["vs"], r["fired"]
        assert isinstance(rows, dict) and isinstance(vs, dict) and isinstance(f, dict)
        cells = []
        for name in ("named provision first", "no pins"):
            d = vs[name]
            lo, hi = d["ndcg10_delta_ci95"]
            cells.append(
                f"{rows[name]['ndcg10']:.3f} / {rows[name]['hit1']:.3f} | {d['delta']['ndcg10']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
            )
        d0 = rows["cited first (default)"]
        lines.append(
            f"| {title} | {r['questions']} | {f['pinned']} / {f['cited_first']} / {f['cited_first_gold']} | "
            f"{d0['ndcg10']:.3f} / {d0['hit1']:.3f} | {' | '.join(cells)} |"
        )
    return "\n".join(lines)


def main() -> int:
    results = run_sets(compare)
    write_results(OUT, {"sets": results, "machine": machine("python bench/pins.py")})
    write_section(SECTION, report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
