"""Reciprocal rank fusion: score(d) = Σ_r w_r / (k + rank_r(d))."""

from __future__ import annotations

from citewise.index.base import Hit


def rrf(
    rankings: dict[str, list[Hit]], k: int = 60, weights: dict[str, float] | None = None
) -> dict[tuple[str, int], float]:
    """Fused score per (doc_id, chunk_id) over named rankings (each ordered best first)."""
    weights = weights or {}
    fused: dict[tuple[str, int], float] = {}
    for name, hits in rankings.items():
        w = weights.get(name, 1.0)
        for h in hits:
            key = (h.doc_id, h.chunk_id)
            fused[key] = fused.get(key, 0.0) + w / (k + h.rank)
    return fused
