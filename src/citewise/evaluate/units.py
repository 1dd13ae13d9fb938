"""Retrieval measured at the level of gold units (``evaluate.benchsets``): which unit each chunk of a
store stands for, a ranking of chunks scored as a ranking of units with the one implementation in
``evaluate.metrics``, the per-question paired comparison of two configurations, and how many
units (and gold units) the index can find at all."""

from __future__ import annotations

import statistics
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from citewise.evaluate.benchsets import GoldQuestion, Unit
from citewise.evaluate.metrics import dedupe, score_ranking
from citewise.index.base import Store
from citewise.retrieve.records import SearchResult

ChunkKey = tuple[str, int]
"""(doc_id, chunk_id) of a stored chunk."""
UnitMap = dict[ChunkKey, Unit | None]
METRICS = ("hit1", "hit5", "recall10", "mrr10", "ndcg10")
"""The measures the benchmarks report (``metrics.score_ranking`` gives more)."""


def chunk_units(store: Store) -> UnitMap:
    """Each chunk's unit: (the document's first alias, the record id of its node or of its nearest
    ancestor that came from a record); None when no node of its line has a record id."""
    out: UnitMap = {}
    for d in store.documents():
        nodes = store.nodes(d.doc_id)
        alias = d.aliases[0] if d.aliases else d.title
        for c in store.chunks(d.doc_id):
            node = nodes[c.node_id] if c.node_id is not None and c.node_id < len(nodes) else None
            while node is not None and not node.aliases and node.parent_id is not None:
                node = nodes[node.parent_id] if node.parent_id < len(nodes) else None
            out[(c.doc_id, c.chunk_id)] = (alias, node.aliases[0]) if node is not None and node.aliases else None
    return out


def by_marker(units: UnitMap) -> dict[str, Unit | None]:
    """The same map keyed by citation marker (``doc:ID#chunk:N``, as ``CitedSentence.citations``)."""
    return {f"doc:{doc_id}#chunk:{chunk_id}": unit for (doc_id, chunk_id), unit in units.items()}


def score_units(ranked: Iterable[tuple[Hashable, Unit | None]], gold: frozenset[Unit]) -> dict[str, float]:
    """The ranking measures of a ranking of chunks (key, unit) against the gold units: the chunks are
    deduplicated to units (first occurrence), a chunk of no unit counts as one non-gold item."""
    index = {u: i for i, u in enumerate(sorted(gold))}
    items: list[tuple[Hashable, frozenset[int]]] = [
        (unit if unit is not None else key, frozenset({index[unit]}) if unit in index else frozenset())
        for key, unit in ranked
    ]
    return score_ranking(dedupe(items), len(gold))


def evidence_ranking(result: SearchResult, units: UnitMap) -> list[tuple[ChunkKey, Unit | None]]:
    """The found (not supporting) evidence of a search, in order, as (chunk, unit)."""
    out: list[tuple[ChunkKey, Unit | None]] = []
    for e in result.evidence:
        if not e.supporting:
            key = (e.chunk.doc_id, e.chunk.chunk_id)
            out.append((key, units.get(key)))
    return out


@dataclass
class Row:
    """One configuration measured on a question set."""

    group: str
    name: str
    metrics: dict[str, float]
    ms: float
    """Mean wall time per question."""
    per_question: list[dict[str, float]] = field(default_factory=list)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"group": self.group, "name": self.name}
        out.update({m: round(self.metrics[m], 4) for m in METRICS})
        out["ms"] = round(self.ms, 2)
        if self.note:
            out["note"] = self.note
        return out


def make_row(group: str, name: str, per_question: list[dict[str, float]], times_ms: Sequence[float]) -> Row:
    metrics = {m: statistics.fmean(p[m] for p in per_question) if per_question else 0.0 for m in METRICS}
    return Row(group, name, metrics, statistics.fmean(times_ms) if times_ms else 0.0, per_question)


def paired(a: Row, b: Row, resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Per-question comparison of two rows on the same questions: the metric deltas, a paired
    bootstrap 95 % interval of the nDCG@10 delta, questions with a better / worse reciprocal rank
    and top-1 hits won / lost by ``a``."""
    pairs = list(zip(a.per_question, b.per_question, strict=True))
    diff = np.asarray([x["ndcg10"] - y["ndcg10"] for x, y in pairs])
    ci: list[float] = []
    if diff.size:
        rng = np.random.default_rng(seed)
        means = diff[rng.integers(0, diff.size, size=(resamples, diff.size))].mean(axis=1)
        ci = [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]
    return {
        "a": a.name,
        "b": b.name,
        "delta": {m: round(a.metrics[m] - b.metrics[m], 4) for m in METRICS},
        "ndcg10_delta_ci95": ci,
        "a_better": sum(x["mrr10"] > y["mrr10"] for x, y in pairs),
        "a_worse": sum(x["mrr10"] < y["mrr10"] for x, y in pairs),
        "a_wins_top1": sum(x["hit1"] > y["hit1"] for x, y in pairs),
        "a_loses_top1": sum(y["hit1"] > x["hit1"] for x, y in pairs),
    }


def grouped(row: Row, labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """The row's measures per group of its questions (``labels``: one per question, in order): questions and the
    mean of each measure, groups in sorted order."""
    out: dict[str, dict[str, float]] = {}
    for label in sorted(set(labels)):
        per = [p for p, x in zip(row.per_question, labels, strict=True) if x == label]
        out[label] = {"questions": len(per), **{m: round(statistics.fmean(p[m] for p in per), 4) for m in METRICS}}
    return out


def gold_count(q: GoldQuestion) -> str:
    """A question's group by its number of gold units: "1", "2", "3+"."""
    return str(len(q.gold)) if len(q.gold) < 3 else "3+"


def coverage(all_units: Iterable[Unit], questions: Sequence[GoldQuestion], units: UnitMap) -> dict[str, Any]:
    """How many units (and gold units) some chunk stands for: a unit no chunk maps to cannot be found."""
    every = set(all_units)
    indexed = {u for u in units.values() if u is not None}
    gold = [g for q in questions for g in q.gold]
    missing = sorted({g for g in gold if g not in indexed})
    return {
        "units": len(every),
        "units_indexed": len(indexed & every),
        "gold_units": len(gold),
        "gold_units_indexed": sum(1 for g in gold if g in indexed),
        "questions_all_gold_indexed": sum(1 for q in questions if q.gold <= indexed),
        "missing_gold_examples": ["/".join(g) for g in missing[:8]],
    }
