#!/usr/bin/env python3
"""The lexical index, step by step, side by side in one run, lexical only (no vectors): the analyzer shipped
before (``syllable_bigram_folded``, BM25 k1 1.5), then English stemming (``syllable_bigram_folded_stemmed``:
the same tokens plus Snowball English stems), then BM25 k1 1.0 (the defaults now); each step against the one
before it.

    python bench/analyzers.py

Sets: ObliQA dev questions after the first 1,000 (never used to choose a retrieval setting: the held-out
read-out), the first 1,000 (the retrieval benchmark's questions), the everyday English questions
(``bench/sets/natural_en.jsonl``), the everyday Vietnamese questions (``natural_vi.jsonl``, every split,
on their ALQAC corpora), and as a control for Vietnamese ALQAC 2022 and ALQAC 2023 train, each
question set scored by the Retriever (``Engine.search``, pins, boosts, window merging) and by the store's
lexical ranking alone. ObliQA reuses the cached full-corpus index (``.bench-cache/obliqa-full``); the
ALQAC corpora are ingested without vectors into ``.bench-cache/analyzers/``. Paired bootstrap 95 %
intervals of the nDCG@10 difference.

Writes ``bench/results/analyzers.json`` and the "Lexical analyzers: English stemming, BM25 k1" section of
docs/benchmarks.md.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import BenchSet, GoldQuestion
from citewise.evaluate.units import METRICS, Row, chunk_units, make_row, paired, score_units
from citewise.settings import Settings
from common import CACHE, REPO, RESULTS, log, machine, write_results, write_section
from indexes import build_index, folder
from retrieval_rankers import Search, lexical, pipeline

OUT = RESULTS / "analyzers.json"
STEPS = (
    ("syllable_bigram_folded", 1.5),
    ("syllable_bigram_folded_stemmed", 1.5),
    ("syllable_bigram_folded_stemmed", 1.0),
)
"""(analyzer, BM25 k1), in the order they were adopted; the last is the default."""
SECTION = "Lexical analyzers: English stemming, BM25 k1"


def name(step: tuple[str, float]) -> str:
    return f"{step[0]}, k1 {step[1]:g}"


def run(questions: Sequence[GoldQuestion], search: Search) -> Row:
    per, times = [], []
    for q in questions:
        t0 = time.perf_counter()
        per.append(score_units(search(q.text), q.gold))
        times.append((time.perf_counter() - t0) * 1000)
    return make_row("", "", per, times)


def settings(ds: BenchSet, analyzer: str, k1: float | None = None) -> Settings:
    bm25 = {} if k1 is None else {"bm25_k1": k1}
    index = folder("obliqa") / "index" if ds.name == "obliqa" else CACHE / "analyzers" / ds.name / "index"
    return Settings(index=index, store={"lexical_analyzer": analyzer, **bm25})


def ingest(ds: BenchSet) -> None:
    if ds.name == "obliqa":
        build_index(ds, None)
        return
    folder = CACHE / "analyzers" / ds.name
    folder.mkdir(parents=True, exist_ok=True)
    jsonl = folder / f"{ds.name}.jsonl"
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ds.records), encoding="utf-8")
    with citewise.open(settings=settings(ds, STEPS[-1][0]), embedder=None) as engine:
        done = engine.ingest([jsonl])
        if done.errors:
            raise RuntimeError(f"{ds.name}: ingest errors: {done.errors[:3]}")


def compare(title: str, ds: BenchSet, questions: Sequence[GoldQuestion]) -> dict[str, object]:
    log(f"{title}: {len(questions)} questions")
    rows: dict[str, dict[str, Row]] = {}
    for step in STEPS:
        with citewise.open(settings=settings(ds, *step), embedder=None) as engine:
            engine.store.lexical_search("x", 1)  # builds the step's lexical index before timing
            units = chunk_units(engine.store)
            rows[name(step)] = {
                "retriever": run(questions, pipeline(engine, units)),
                "lexical": run(questions, lexical(engine, units)),
            }
    out: dict[str, object] = {"questions": len(questions), "lang": ds.lang}
    for kind in ("retriever", "lexical"):
        entry: dict[str, object] = {n: {m: round(r[kind].metrics[m], 4) for m in METRICS} for n, r in rows.items()}
        entry["ms"] = {n: round(r[kind].ms, 2) for n, r in rows.items()}
        for before, after in itertools.pairwise(STEPS):
            a, b = rows[name(before)][kind], rows[name(after)][kind]
            d = paired(b, a)
            entry[f"delta: {name(after)}"] = d
            lo, hi = d["ndcg10_delta_ci95"]
            print(
                f"  {title:<44} {kind:<9} {name(after):<40} nDCG@10 {a.metrics['ndcg10']:.3f} -> "
                f"{b.metrics['ndcg10']:.3f} ({d['delta']['ndcg10']:+.3f} [{lo:+.3f}, {hi:+.3f}])  Hit@1 "
                f"{a.metrics['hit1']:.3f} -> {b.metrics['hit1']:.3f}  R@10 {a.metrics['recall10']:.3f} -> "
                f"{b.metrics['recall10']:.3f}",
                flush=True,
            )
        out[kind] = entry
    return out


def sets() -> list[tuple[str, BenchSet, Sequence[GoldQuestion]]]:
    full = benchsets.obliqa(limit=None)
    out: list[tuple[str, BenchSet, Sequence[GoldQuestion]]] = [
        ("ObliQA dev after the first 1,000 (held out)", full, full.questions[benchsets.OBLIQA_QUESTIONS :]),
        ("ObliQA dev, first 1,000", full, full.questions[: benchsets.OBLIQA_QUESTIONS]),
    ]
    for ds in benchsets.natural(REPO / "bench" / "sets" / "natural_en.jsonl"):
        out.append((f"everyday English ({ds.name})", ds, ds.questions))
    for ds in benchsets.natural(REPO / "bench" / "sets" / "natural_vi.jsonl"):
        out.append((f"everyday Vietnamese ({ds.name}, all splits)", ds, ds.questions))
    for corpus in ("alqac2022", "alqac2023"):
        ds = benchsets.load(corpus)
        out.append((f"{corpus} (control, Vietnamese)", ds, ds.questions))
    return out


def run_sets(
    compare: Callable[[str, BenchSet, Sequence[GoldQuestion]], dict[str, object]],
) -> dict[str, dict[str, object]]:
    """``compare`` on every set of ``sets()``, each corpus ingested once; results by set title."""
    results: dict[str, dict[str, object]] = {}
    ingested: set[str] = set()
    for title, ds, questions in sets():
        if ds.name not in ingested:
            ingest(ds)
            ingested.add(ds.name)
        results[title] = compare(title, ds, questions)
    return results


def main() -> int:
    results = run_sets(compare)
    steps = [name(s) for s in STEPS]
    write_results(OUT, {"sets": results, "steps": steps, "machine": machine("python bench/analyzers.py")})
    write_section(SECTION, report(results))
    return 0


def report(results: dict[str, object]) -> str:
    m = json.loads(OUT.read_text())["machine"]
    lines = [
        f"`python bench/analyzers.py` — {m['date']}, {m['revision']}, load {m['loadavg']}. Lexical only, side by "
        "side in one run: the analyzer shipped before (`syllable_bigram_folded`, bm25s's default k1 1.5), then "
        "English stemming (`syllable_bigram_folded_stemmed`: the same tokens plus the Snowball English stem of each "
        "Latin word of 4+ letters not written in capitals, where it differs), then BM25 k1 1.0 (k1 chosen on the "
        "first 1,000 ObliQA questions among 0.6–2.0; the defaults now). Each step against the one before it, "
        "nDCG@10 with a paired bootstrap 95 % interval. The ObliQA questions after the first 1,000 were never used "
        "to choose a retrieval setting.",
        "",
        "| set | questions | ranking | step | nDCG@10 before → after | Δ [95 % CI] | Hit@1 | R@10 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for title, r in results.items():
        assert isinstance(r, dict)
        for kind in ("retriever", "lexical"):
            x = r[kind]
            for before, after in itertools.pairwise(STEPS):
                a, b = x[name(before)], x[name(after)]
                d = x[f"delta: {name(after)}"]
                lo, hi = d["ndcg10_delta_ci95"]
                step = "stemming" if before[0] != after[0] else f"k1 {before[1]:g} → {after[1]:g}"
                lines.append(
                    f"| {title} | {r['questions']} | {kind} | {step} | {a['ndcg10']:.3f} → {b['ndcg10']:.3f} | "
                    f"{d['delta']['ndcg10']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {a['hit1']:.3f} → {b['hit1']:.3f} | "
                    f"{a['recall10']:.3f} → {b['recall10']:.3f} |"
                )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
