"""Fusion of ranked lists into one score per chunk.

- ``rrf``: reciprocal rank fusion, score(d) = Σ_r w_r / (k + rank_r(d)); uses ranks only.
- ``minmax``: each ranker's scores min-max normalised over its own candidates (its last candidate
  gets 0, like a chunk it did not return), then summed with the ranker weights. It keeps how far
  ahead a ranker's first hit is, which RRF throws away (measured in docs/benchmarks.md).
"""

from __future__ import annotations

from citewise.errors import UnknownName
from citewise.index.base import Hit

Fused = dict[tuple[str, int], float]


def rrf(rankings: dict[str, list[Hit]], k: int = 60, weights: dict[str, float] | None = None) -> Fused:
    """Fused score per (doc_id, chunk_id) over named rankings (each ordered best first)."""
    weights = weights or {}
    fused: Fused = {}
    for name, hits in rankings.items():
        w = weights.get(name, 1.0)
        for h in hits:
            key = (h.doc_id, h.chunk_id)
            fused[key] = fused.get(key, 0.0) + w / (k + h.rank)
    return fused


def minmax(rankings: dict[str, list[Hit]], weights: dict[str, float] | None = None) -> Fused:
    """Weighted sum of per-ranker min-max normalised scores (higher is better in every ranker)."""
    weights = weights or {}
    fused: Fused = {}
    for name, hits in rankings.items():
        if not hits:
            continue
        w = weights.get(name, 1.0)
        lo = min(h.score for h in hits)
        span = max(h.score for h in hits) - lo
        for h in hits:
            key = (h.doc_id, h.chunk_id)
            fused[key] = fused.get(key, 0.0) + w * ((h.score - lo) / span if span > 0 else 1.0)
    return fused


def fuse(
    rankings: dict[str, list[Hit]], method: str = "rrf", weights: dict[str, float] | None = None, rrf_k: int = 60
) -> Fused:
    if method == "minmax":
        return minmax(rankings, weights)
    if method == "rrf":
        return rrf(rankings, rrf_k, weights)
    raise UnknownName("fusion method", method, ["minmax", "rrf"])
