"""Retrieval scored at the level of gold units: the unit of each chunk of a real store, a ranking of
chunks scored against hand-computed figures and against the benchmarks' earlier per-unit formula,
the paired comparison and the index coverage."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import citewise
from citewise.evaluate.benchsets import GoldQuestion, Unit
from citewise.evaluate.units import (
    METRICS,
    Row,
    by_marker,
    chunk_units,
    coverage,
    gold_count,
    grouped,
    make_row,
    paired,
    score_units,
)
from citewise.settings import Settings

G1, G2, G3 = ("law", "1"), ("law", "2"), ("law", "3")
OTHER = ("law", "9")


def test_score_units_by_hand() -> None:
    # chunks: another unit, G1, G1 again (deduplicated), a chunk of no unit, G2
    ranked = [(("d", 0), OTHER), (("d", 1), G1), (("d", 2), G1), (("d", 3), None), (("d", 4), G2)]
    m = score_units(ranked, frozenset({G1, G2, G3}))
    # deduplicated ranks: 1 OTHER, 2 G1, 3 no unit (a non-gold item), 4 G2
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    idcg = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert m["hit1"] == 0 and m["hit5"] == 1
    assert m["mrr10"] == pytest.approx(0.5)
    assert m["recall10"] == pytest.approx(2 / 3)
    assert m["ndcg10"] == pytest.approx(dcg / idcg)


def _per_unit_reference(ranked: list[Unit], gold: set[Unit]) -> dict[str, float]:
    """The formula bench/retrieval.py used before it moved to evaluate.metrics (units deduplicated,
    every gold unit in the top 10 worth 1 / log2(rank + 1))."""
    top: list[Unit] = []
    for u in ranked:
        if u not in top:
            top.append(u)
    top = top[:10]
    first = next((i for i, u in enumerate(top) if u in gold), None)
    dcg = sum(1.0 / math.log2(i + 2) for i, u in enumerate(top) if u in gold)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    return {
        "hit1": 1.0 if first == 0 else 0.0,
        "hit5": 1.0 if first is not None and first < 5 else 0.0,
        "recall10": len(set(top) & gold) / len(gold),
        "mrr10": 1.0 / (first + 1) if first is not None else 0.0,
        "ndcg10": dcg / idcg,
    }


def test_score_units_matches_the_per_unit_formula_on_unit_rankings() -> None:
    rng = random.Random(7)
    pool = [("doc", str(i)) for i in range(30)]
    for _ in range(300):
        gold = set(rng.sample(pool, rng.randint(1, 12)))
        ranked = [rng.choice(pool) for _ in range(rng.randint(0, 40))]
        got = score_units([((u[0], n), u) for n, u in enumerate(ranked)], frozenset(gold))
        want = _per_unit_reference(ranked, gold)
        assert {m: got[m] for m in METRICS} == pytest.approx(want)


def test_chunk_units_of_a_real_store(tmp_path: Path) -> None:
    corpus = tmp_path / "laws.jsonl"
    records = [
        {
            "doc": "L1",
            "id": "1",
            "title": "Phạm vi",
            "text": "Luật này quy định về kinh doanh bảo hiểm.",
            "kind": "article",
        },
        {
            "doc": "L1",
            "id": "2",
            "title": "Đối tượng",
            "text": "Luật này áp dụng đối với doanh nghiệp.",
            "kind": "article",
        },
        {"doc": "L2", "id": "7", "text": "A passage of the second document about reporting duties."},
    ]
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    with citewise.open(settings=Settings(index=tmp_path / "index"), embedder=None) as engine:
        engine.ingest([corpus])
        units = chunk_units(engine.store)
        markers = by_marker(units)
        hit = engine.search("doanh nghiệp", k=3).evidence[0]
    assert {u for u in units.values() if u is not None} == {("L1", "1"), ("L1", "2"), ("L2", "7")}
    assert units[(hit.chunk.doc_id, hit.chunk.chunk_id)] == ("L1", "2")
    assert markers[hit.chunk.ref] == ("L1", "2")


def _row(name: str, per: list[tuple[float, float]]) -> Row:
    """A row from (hit1 = reciprocal rank when 1, ndcg10) per question."""
    return make_row("g", name, [{"hit1": h, "hit5": h, "recall10": n, "mrr10": h, "ndcg10": n} for h, n in per], [1.0])


def test_paired_comparison() -> None:
    a = _row("a", [(1, 1.0), (1, 0.8), (0, 0.0), (1, 0.5)])
    b = _row("b", [(0, 0.2), (1, 0.8), (1, 0.6), (1, 0.5)])
    c = paired(a, b)
    assert c["delta"]["ndcg10"] == pytest.approx((1.0 - 0.2 + 0 - 0.6) / 4, abs=1e-4)
    assert (c["a_better"], c["a_worse"], c["a_wins_top1"], c["a_loses_top1"]) == (1, 1, 1, 1)
    lo, hi = c["ndcg10_delta_ci95"]
    assert lo <= c["delta"]["ndcg10"] <= hi
    assert paired(a, a)["ndcg10_delta_ci95"] == [0.0, 0.0]


def test_coverage_counts_findable_units() -> None:
    units = {("d", 0): G1, ("d", 1): G2, ("d", 2): None}
    qs = [GoldQuestion("q1", "?", frozenset({G1})), GoldQuestion("q2", "?", frozenset({G2, G3}))]
    cov = coverage([G1, G2, G3, OTHER], qs, units)
    assert cov == {
        "units": 4,
        "units_indexed": 2,
        "gold_units": 3,
        "gold_units_indexed": 2,
        "questions_all_gold_indexed": 1,
        "missing_gold_examples": ["law/3"],
    }


def test_measures_grouped_by_the_number_of_gold_units() -> None:
    """A question with one gold unit found first and one with two gold units of which one is found: grouped apart,
    each group's own means (the two-unit question's recall is a half)."""
    one = GoldQuestion("q1", "one", frozenset({G1}))
    two = GoldQuestion("q2", "two", frozenset({G1, G2}))
    three = GoldQuestion("q3", "three", frozenset({G1, G2, G3}))
    assert [gold_count(q) for q in (one, two, three)] == ["1", "2", "3+"]
    per = [score_units([(("d", 0), G1)], one.gold), score_units([(("d", 0), OTHER), (("d", 1), G2)], two.gold)]
    groups = grouped(make_row("fused", "defaults", per, [1.0, 1.0]), [gold_count(one), gold_count(two)])
    assert list(groups) == ["1", "2"]
    assert groups["1"] == {"questions": 1, **{m: 1.0 for m in METRICS}}
    assert groups["2"]["questions"] == 1 and groups["2"]["hit1"] == 0.0 and groups["2"]["recall10"] == 0.5
