"""Ranking, matching, percentile and reliability measures against numbers computed by hand."""

from __future__ import annotations

import math

import pytest

from citewise.evaluate.metrics import answer_match, dedupe, percentile, reliability, score_ranking

E: frozenset[int] = frozenset()


def test_ranking_two_references() -> None:
    # ranks: 1 other, 2 ref0, 3 ref0 again (deduplicated away), 4 other, 5 ref1, 6 other
    items = [("a", E), ("b", frozenset({0})), ("c", frozenset({0})), ("d", E), ("e", frozenset({1})), ("f", E)]
    ranked = dedupe(items)
    assert ranked == [E, frozenset({0}), E, frozenset({1}), E]
    m = score_ranking(ranked, 2)
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    idcg = 1 + 1 / math.log2(3)
    assert m == pytest.approx(
        {"hit1": 0, "hit5": 1, "hit10": 1, "recall5": 1.0, "recall10": 1.0, "mrr10": 0.5, "ndcg10": dcg / idcg}
    )


def test_ranking_miss_and_partial() -> None:
    assert score_ranking([E] * 10, 1) == {
        "hit1": 0.0,
        "hit5": 0.0,
        "hit10": 0.0,
        "recall5": 0.0,
        "recall10": 0.0,
        "mrr10": 0.0,
        "ndcg10": 0.0,
    }
    # one of three references found, at rank 6
    m = score_ranking([E] * 5 + [frozenset({2})], 3)
    assert m["hit5"] == 0 and m["hit10"] == 1 and m["recall5"] == 0 and m["recall10"] == pytest.approx(1 / 3)
    assert m["mrr10"] == pytest.approx(1 / 6)
    assert m["ndcg10"] == pytest.approx((1 / math.log2(7)) / (1 + 1 / math.log2(3) + 1 / math.log2(4)))


def test_dedupe_keeps_distinct_others_and_one_item_per_reference_set() -> None:
    items = [("x", E), ("x", E), ("y", E), ("z", frozenset({0, 1})), ("w", frozenset({0, 1}))]
    assert dedupe(items) == [E, E, frozenset({0, 1})]
    assert dedupe(items, k=1) == [E]


def test_answer_match_percentile_reliability() -> None:
    assert answer_match("72 hours", "within 72 hours of becoming aware") == 1.0
    assert answer_match("07 năm tù", "phạt tù đến 05 năm") == pytest.approx(2 / 3)
    assert answer_match("", "anything") == 1.0
    assert percentile([], 50) is None
    assert percentile([10, 20, 30, 40], 50) == 25
    assert percentile([10, 20, 30, 40], 95) == pytest.approx(38.5)
    rows = reliability([(0.1, False), (0.15, True), (0.9, True), (1.0, True), (0.95, False)], bins=2)
    assert rows == [
        {"lo": 0.0, "hi": 0.5, "confidence": 0.125, "correct": 0.5, "n": 2},
        {"lo": 0.5, "hi": 1.0, "confidence": 0.95, "correct": 0.6667, "n": 3},
    ]
