"""The rankings the retrieval benchmark scores, each reaching the index through an ``Engine``: the
store's raw lexical and dense rankers, the score-fusion experiment, ``Engine.search`` (the Retriever),
and the Retriever variants measured."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import citewise
from citewise.engine import Engine
from citewise.evaluate.benchsets import Unit
from citewise.evaluate.units import UnitMap, evidence_ranking
from citewise.index.embedder import Embedder
from citewise.retrieve.records import SearchResult
from citewise.settings import RetrieveSettings
from common import JSON

CANDIDATES = 50
"""Chunks asked from a raw ranker (deduplicated to units, the first 10 scored)."""

Ranked = list[tuple[Hashable, Unit | None]]
Search = Callable[[str], Ranked]


def lexical(engine: Engine, units: UnitMap) -> Search:
    def search(q: str) -> Ranked:
        return [
            ((h.doc_id, h.chunk_id), units.get((h.doc_id, h.chunk_id)))
            for h in engine.store.lexical_search(q, CANDIDATES)
        ]

    return search


def dense(engine: Engine, embedder: Embedder, units: UnitMap) -> Search:
    def search(q: str) -> Ranked:
        hits = engine.store.vector_search(embedder.query(q), CANDIDATES)
        return [((h.doc_id, h.chunk_id), units.get((h.doc_id, h.chunk_id))) for h in hits]

    return search


def score_fusion(engine: Engine, embedder: Embedder, units: UnitMap, alpha: float) -> Search:
    """Experiment outside the Retriever: each ranker's top-50 scores min-max normalised to [0, 1]
    (the 50th gets 0, like a chunk it did not return), summed as lexical + ``alpha`` · dense."""

    def search(q: str) -> Ranked:
        fused: dict[tuple[str, int], float] = {}
        lex = engine.store.lexical_search(q, CANDIDATES)
        den = engine.store.vector_search(embedder.query(q), CANDIDATES)
        for hits, weight in ((lex, 1.0), (den, alpha)):
            if not hits:
                continue
            lo, hi = min(h.score for h in hits), max(h.score for h in hits)
            for h in hits:
                key = (h.doc_id, h.chunk_id)
                fused[key] = fused.get(key, 0.0) + weight * (h.score - lo) / ((hi - lo) or 1.0)
        return [(key, units.get(key)) for key in sorted(fused, key=lambda key: -fused[key])]

    return search


def pipeline(engine: Engine, units: UnitMap, kept: list[SearchResult] | None = None) -> Search:
    def search(q: str) -> Ranked:
        res = engine.search(q, k=20)
        if kept is not None:
            kept.append(res)
        return evidence_ranking(res, units)

    return search


def variant(base: Engine, embedder: Embedder | None, **retrieve: Any) -> Engine:
    """An engine over ``base``'s store with another embedder (None: lexical only) and retrieve settings."""
    return citewise.open(settings=base.settings, store=base.store, embedder=embedder, retrieve=retrieve)


def _rrf(lexical: float, dense: float, **more: object) -> JSON:
    return {"fusion": "rrf", "weights": {"lexical": lexical, "dense": dense}, **more}


def _minmax(lexical: float, dense: float, **more: object) -> JSON:
    return {"fusion": "minmax", "weights": {"lexical": lexical, "dense": dense}, **more}


FUSED_VARIANTS: list[tuple[str, JSON]] = [
    ("minmax lexical 1 / dense 0.5", _minmax(1.0, 0.5)),
    ("minmax lexical 1 / dense 0.75", _minmax(1.0, 0.75)),
    ("minmax lexical 1 / dense 1", _minmax(1.0, 1.0)),
    ("minmax lexical 1 / dense 1.5", _minmax(1.0, 1.5)),
    ("rrf lexical 1 / dense 1", _rrf(1.0, 1.0)),
    ("rrf lexical 1.5 / dense 1", _rrf(1.5, 1.0)),
    ("rrf lexical 2 / dense 1", _rrf(2.0, 1.0)),
    ("rrf rrf_k 20, lexical 1.5 / dense 1", _rrf(1.5, 1.0, rrf_k=20)),
    ("rrf lexical 1.5 / dense 1, pin=False", _rrf(1.5, 1.0, pin=False)),
    ("candidates 20", {"candidates": 20}),
    ("candidates 100", {"candidates": 100}),
    ("rerank=True", {"rerank": True}),
    ("doc_boost 1 (off)", {"doc_boost": 1.0}),
    ("pin=False", {"pin": False}),
    ("doc_boost 1, pin=False", {"doc_boost": 1.0, "pin": False}),
]
LEXICAL_VARIANTS: list[tuple[str, JSON]] = [
    ("pin=False", {"pin": False}),
    ("doc_boost 1 (off)", {"doc_boost": 1.0}),
    ("doc_boost 1, pin=False", {"doc_boost": 1.0, "pin": False}),
    ("candidates 100", {"candidates": 100}),
    ("rerank=True", {"rerank": True}),
]
"""Retriever variants measured on a lexical-only store (no embedder)."""


def default_row_name() -> str:
    d = RetrieveSettings()
    rrf_k = f", rrf_k {d.rrf_k}" if d.fusion == "rrf" else ""
    weights = f"lexical {d.weights.get('lexical', 1.0):g} / dense {d.weights.get('dense', 1.0):g}"
    return f"fused defaults ({d.fusion} {weights}{rrf_k})"
