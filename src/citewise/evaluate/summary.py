"""The figures of a run, from its per-question results: overall, by question type and by language.

Definitions (the same in docs/evaluation.md):

- retrieval: means of Hit@1/5/10, Recall@5/10, MRR@10, nDCG@10 over answerable questions whose
  references resolved;
- answer rate: answerable questions answered / answerable questions;
- refusal correctness: probes refused / probes; refusal precision: refused probes / refusals;
- citation precision: citations overlapping a reference / citations, over answered answerable
  questions with resolved references; citation recall: mean share of a question's references
  cited, over the same questions;
- verification: the support score of every shown sentence (distribution), the answers'
  verification score and confidence;
- fabricated-figure rate: questions whose draft carried figures absent from the cited text /
  questions that reached generation (the validator removes such sentences; shown sentences with
  unsupported figures are counted apart and should be 0);
- latency: percentiles of the time of ``Assistant.ask``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from citewise.evaluate.metrics import RANKING_METRICS, mean, percentile, ratio, reliability
from citewise.evaluate.records import QuestionResult

OUTCOMES = ("answered", "no_direct_answer", "refused")

SUPPORT_BINS = 10


def _round(x: float | None, nd: int = 1) -> float | None:
    return None if x is None else round(x, nd)


def core(results: list[QuestionResult]) -> dict[str, Any]:
    """The headline figures of a group of results."""
    answerable = [r for r in results if r.answerable]
    probes = [r for r in results if not r.answerable]
    answered = [r for r in answerable if r.answered]
    refused = [r for r in results if not r.answered]
    ranked = [r.retrieval for r in answerable if r.retrieval is not None]
    cited = [r for r in answered if r.resolved]
    matched = [r.answer_match for r in answerable if r.answer_match is not None]
    generated = [r for r in results if not r.weak and r.searched]
    latencies = [r.latency_ms for r in results]
    return {
        "questions": len(results),
        "answerable": len(answerable),
        "probes": len(probes),
        "retrieval": {m: mean([x[m] for x in ranked]) for m in RANKING_METRICS} | {"n": len(ranked)},
        "answer_rate": ratio(len(answered), len(answerable)),
        "refusal_correctness": ratio(sum(not r.answered for r in probes), len(probes)),
        "outcomes": {
            o: sum((r.outcome or ("refused" if r.refused else "answered")) == o for r in results) for o in OUTCOMES
        },
        "refusal_precision": ratio(sum(not r.answerable for r in refused), len(refused)),
        "zero_token_refusals": sum(r.weak for r in results),
        "citation_precision": ratio(sum(r.relevant_citations for r in cited), sum(r.citations for r in cited)),
        "citation_recall": mean([r.refs_cited / r.resolved for r in cited]),
        "answers_citing_reference": ratio(sum(r.relevant_citations > 0 for r in cited), len(cited)),
        "answer_match": mean(matched),
        "fabricated_figure_rate": ratio(sum(r.draft_figure_failures > 0 for r in generated), len(generated)),
        "shown_sentences_with_unsupported_figures": sum("number" in s.failed for r in results for s in r.sentences),
        "latency_ms": {
            "p50": _round(percentile(latencies, 50)),
            "p90": _round(percentile(latencies, 90)),
            "p95": _round(percentile(latencies, 95)),
            "max": _round(max(latencies, default=0.0)) if latencies else None,
        },
    }


def verification(results: list[QuestionResult]) -> dict[str, Any]:
    support = [s.support for r in results for s in r.sentences]
    hist = [0] * SUPPORT_BINS
    for x in support:
        hist[min(int(x * SUPPORT_BINS), SUPPORT_BINS - 1)] += 1
    statuses: dict[str, int] = {}
    for r in results:
        for s in r.sentences:
            statuses[s.status] = statuses.get(s.status, 0) + 1
    answered = [r for r in results if r.answered]
    ref_support = [s.reference_support for r in answered for s in r.sentences if s.reference_support is not None]
    return {
        "sentences": len(support),
        "support_mean": mean(support),
        "support_p10": _round(percentile(support, 10), 4),
        "support_p50": _round(percentile(support, 50), 4),
        "support_histogram": hist,
        "statuses": statuses,
        "verification_mean": mean([r.verification for r in answered]),
        "confidence_mean": mean([r.confidence for r in answered]),
        "reference_support_mean": mean(ref_support),
    }


def baseline(results: list[QuestionResult]) -> dict[str, Any] | None:
    """The assistant against the no-context baseline on the same questions."""
    runs = [r for r in results if r.baseline is not None]
    if not runs:
        return None
    answerable = [r for r in runs if r.answerable]
    probes = [r for r in runs if not r.answerable]

    def side(
        answered: Callable[[QuestionResult], bool],
        match: Callable[[QuestionResult], float | None],
        sentences: Callable[[QuestionResult], tuple[int, int | None, int | None]],
        latency: Callable[[QuestionResult], float],
    ) -> dict[str, Any]:
        triples = [sentences(r) for r in runs if answered(r)]
        judged = [t for t in triples if t[1] is not None]
        matches = [m for r in answerable if (m := match(r)) is not None]
        return {
            "answer_rate": ratio(sum(answered(r) for r in answerable), len(answerable)),
            "refusal_correctness": ratio(sum(not answered(r) for r in probes), len(probes)),
            "answer_match": mean(matches),
            "sentences_supported_by_references": ratio(sum(t[1] or 0 for t in judged), sum(t[0] for t in judged)),
            "sentences_with_figures_not_in_references": ratio(
                sum(t[2] or 0 for t in judged), sum(t[0] for t in judged)
            ),
            "latency_p50_ms": _round(percentile([latency(r) for r in runs], 50)),
        }

    def own_sentences(r: QuestionResult) -> tuple[int, int | None, int | None]:
        judged = [s for s in r.sentences if s.reference_supported is not None]
        if not judged:
            return len(r.sentences), None, None
        return (
            len(judged),
            sum(bool(s.reference_supported) for s in judged),
            sum(bool(s.figures_not_in_references) for s in judged),
        )

    def base_sentences(r: QuestionResult) -> tuple[int, int | None, int | None]:
        b = r.baseline
        assert b is not None
        return b.sentences, b.supported, b.unsupported_figures

    ours = side(lambda r: r.answered, lambda r: r.answer_match, own_sentences, lambda r: r.latency_ms)
    theirs = side(
        lambda r: bool(r.baseline and r.baseline.answered),
        lambda r: r.baseline.answer_match if r.baseline else None,
        base_sentences,
        lambda r: r.baseline.latency_ms if r.baseline else 0.0,
    )
    delta = {
        k: round(ours[k] - theirs[k], 4) for k in ours if isinstance(ours[k], float) and isinstance(theirs[k], float)
    }
    return {"questions": len(runs), "citewise": ours, "baseline": theirs, "delta": delta}


def reliability_points(results: list[QuestionResult]) -> list[tuple[float, bool]]:
    return [(r.confidence, ok) for r in results if (ok := r.correct) is not None]


def summarize(results: list[QuestionResult]) -> dict[str, Any]:
    by_type = sorted({r.type for r in results})
    by_lang = sorted({r.lang for r in results})
    return {
        "overall": core(results),
        "verification": verification(results),
        "reliability": reliability(reliability_points(results)),
        "by_type": {t: core([r for r in results if r.type == t]) for t in by_type},
        "by_lang": {lang: core([r for r in results if r.lang == lang]) for lang in by_lang},
        "baseline": baseline(results),
    }
