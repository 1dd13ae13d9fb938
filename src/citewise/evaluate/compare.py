"""Drift between two runs of the same question set (``citewise eval --compare OLD NEW``): the
change of every headline figure, marked worse or better beyond a tolerance, and the questions
whose outcome changed (matched by id)."""

from __future__ import annotations

from typing import Any

from citewise.evaluate.metrics import RANKING_METRICS
from citewise.evaluate.records import EvalRun, QuestionResult

LOWER_IS_BETTER = {"fabricated_figure_rate", "shown_sentences_with_unsupported_figures", "latency_p50", "latency_p95"}
TOLERANCE = 0.02
"""Changes smaller than this (absolute, on 0-1 figures) are not drift."""
LATENCY_TOLERANCE = 0.2
"""Latency changes under 20 % are not drift."""


def headline(summary: dict[str, Any]) -> dict[str, float | None]:
    o = summary["overall"]
    out: dict[str, float | None] = {m: o["retrieval"][m] for m in RANKING_METRICS}
    for key in (
        "answer_rate",
        "refusal_correctness",
        "refusal_precision",
        "citation_precision",
        "citation_recall",
        "answers_citing_reference",
        "answer_match",
        "fabricated_figure_rate",
        "shown_sentences_with_unsupported_figures",
    ):
        out[key] = o[key]
    out["latency_p50"] = o["latency_ms"]["p50"]
    out["latency_p95"] = o["latency_ms"]["p95"]
    return out


def _verdict(key: str, old: float, new: float) -> str:
    delta = new - old
    if key.startswith("latency"):
        moved = abs(delta) > LATENCY_TOLERANCE * max(old, 1e-9)
    else:
        moved = abs(delta) >= TOLERANCE
    if not moved:
        return "same"
    better = delta < 0 if key in LOWER_IS_BETTER else delta > 0
    return "better" if better else "worse"


def outcome(r: QuestionResult) -> str:
    if not r.answerable:
        return "refused (right)" if r.refused else "answered (wrong)"
    if r.refused:
        return "refused (wrong)"
    if r.resolved:
        return "cites a reference" if r.relevant_citations else "cites no reference"
    return "answered"


def compare(old: EvalRun, new: EvalRun) -> dict[str, Any]:
    a, b = headline(old.summary), headline(new.summary)
    metrics = []
    for key in a:
        x, y = a[key], b.get(key)
        if x is None or y is None:
            metrics.append({"metric": key, "old": x, "new": y, "delta": None, "drift": "n/a"})
            continue
        metrics.append({"metric": key, "old": x, "new": y, "delta": round(y - x, 4), "drift": _verdict(key, x, y)})
    olds = {r.id: r for r in old.results}
    changed = []
    mrr_better = mrr_worse = 0
    for r in new.results:
        o = olds.get(r.id)
        if o is None:
            continue
        if o.retrieval and r.retrieval:
            mrr_better += r.retrieval["mrr10"] > o.retrieval["mrr10"]
            mrr_worse += r.retrieval["mrr10"] < o.retrieval["mrr10"]
        if outcome(o) != outcome(r):
            changed.append({"id": r.id, "question": r.question, "old": outcome(o), "new": outcome(r)})
    shared = len(set(olds) & {r.id for r in new.results})
    return {
        "old": {"set": old.meta.get("set"), "date": old.meta.get("date"), "generator": old.meta.get("generator")},
        "new": {"set": new.meta.get("set"), "date": new.meta.get("date"), "generator": new.meta.get("generator")},
        "shared_questions": shared,
        "only_old": len(olds) - shared,
        "only_new": len(new.results) - shared,
        "metrics": metrics,
        "worse": [m["metric"] for m in metrics if m["drift"] == "worse"],
        "better": [m["metric"] for m in metrics if m["drift"] == "better"],
        "mrr_better": mrr_better,
        "mrr_worse": mrr_worse,
        "changed": changed,
    }
