"""The measures of an evaluation, as plain functions of plain values.

Retrieval: a ranking is the list of evidence items, each with the set of reference indices it
hits; items are deduplicated first (a reference hit twice counts at its first position; other
items by their own key), then Hit@k, Recall@k, MRR@10 and binary nDCG@10 are computed against
the question's references, as the benchmark scripts do at the level of gold units."""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Sequence

from citewise.textmatch import content_words

RANKING_METRICS = ("hit1", "hit5", "hit10", "recall5", "recall10", "mrr10", "ndcg10")


def dedupe(items: Sequence[tuple[Hashable, frozenset[int]]], k: int = 10) -> list[frozenset[int]]:
    """The first ``k`` distinct items of a ranking (key, hit references), as their hit sets.
    Items hitting references are keyed by the references they hit; others by their own key."""
    out: list[frozenset[int]] = []
    seen: set[Hashable] = set()
    for key, hits in items:
        ident: Hashable = ("refs", hits) if hits else ("other", key)
        if ident in seen:
            continue
        seen.add(ident)
        out.append(hits)
        if len(out) >= k:
            break
    return out


def score_ranking(ranked: Sequence[frozenset[int]], n_refs: int) -> dict[str, float]:
    """Ranking measures of one deduplicated ranking against ``n_refs`` references."""
    if n_refs <= 0:
        raise ValueError("a ranking is scored against at least one reference")
    top = list(ranked[:10])
    first = next((i for i, hits in enumerate(top) if hits), None)

    def found(k: int) -> set[int]:
        return set().union(*top[:k]) if top[:k] else set()

    dcg = 0.0
    counted: set[int] = set()
    for i, hits in enumerate(top):
        new = hits - counted
        if new:
            dcg += 1.0 / math.log2(i + 2)
            counted |= new
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(n_refs, 10)))
    return {
        "hit1": 1.0 if first == 0 else 0.0,
        "hit5": 1.0 if first is not None and first < 5 else 0.0,
        "hit10": 1.0 if first is not None else 0.0,
        "recall5": len(found(5)) / n_refs,
        "recall10": len(found(10)) / n_refs,
        "mrr10": 1.0 / (first + 1) if first is not None else 0.0,
        "ndcg10": dcg / idcg,
    }


def answer_match(expected: str, answer: str) -> float:
    """Share of the expected answer's content words found in the answer (0 when it has none)."""
    want = content_words(expected)
    if not want:
        return 1.0 if expected.strip().lower() in answer.lower() else 0.0
    return len(want & content_words(answer)) / len(want)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100), linear between closest ranks; None for no values."""
    if not values:
        return None
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def reliability(points: Sequence[tuple[float, bool]], bins: int = 5) -> list[dict[str, float | int]]:
    """Confidence against correctness: per equal-width confidence bin, the mean confidence, the
    share correct and the count (empty bins left out)."""
    out: list[dict[str, float | int]] = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(c, ok) for c, ok in points if lo <= c < hi or (b == bins - 1 and c == hi)]
        if inside:
            out.append(
                {
                    "lo": round(lo, 3),
                    "hi": round(hi, 3),
                    "confidence": round(statistics.fmean(c for c, _ in inside), 4),
                    "correct": round(sum(ok for _, ok in inside) / len(inside), 4),
                    "n": len(inside),
                }
            )
    return out
