"""Fusion arithmetic on hand-made rankings."""

from __future__ import annotations

import pytest

from citewise.errors import UnknownName
from citewise.index.base import Hit
from citewise.retrieve.fusion import fuse, minmax, rrf


def hits(*scores: float, doc: str = "d") -> list[Hit]:
    return [Hit(doc, i, s, i + 1) for i, s in enumerate(scores)]


def test_rrf_uses_ranks_and_weights() -> None:
    fused = rrf({"lexical": hits(9.0, 1.0), "dense": hits(0.9, 0.8)}, k=60, weights={"lexical": 2.0})
    assert fused[("d", 0)] == pytest.approx(2 / 61 + 1 / 61)
    assert fused[("d", 1)] == pytest.approx(2 / 62 + 1 / 62)


def test_minmax_keeps_the_margin_rrf_throws_away() -> None:
    # lexical is sure of chunk 0 (score 12 vs 3, 2.9); dense slightly prefers chunk 1
    lexical = [Hit("d", 0, 12.0, 1), Hit("d", 1, 3.0, 2), Hit("d", 2, 2.9, 3)]
    dense = [Hit("d", 1, 0.86, 1), Hit("d", 0, 0.85, 2), Hit("d", 2, 0.80, 3)]
    by_rrf = rrf({"lexical": lexical, "dense": dense})
    by_minmax = minmax({"lexical": lexical, "dense": dense})
    assert by_rrf[("d", 0)] == pytest.approx(by_rrf[("d", 1)])  # a tie for ranks 1+2 and 2+1
    assert by_minmax[("d", 0)] == pytest.approx(1.0 + 5 / 6)
    assert by_minmax[("d", 1)] == pytest.approx(0.1 / 9.1 + 1.0)
    assert by_minmax[("d", 2)] == pytest.approx(0.0)


def test_minmax_single_hit_and_unknown_method() -> None:
    assert minmax({"lexical": hits(4.2)}) == {("d", 0): 1.0}
    assert fuse({"lexical": hits(4.2)}, "rrf") == {("d", 0): pytest.approx(1 / 61)}
    with pytest.raises(UnknownName, match="unknown fusion method"):
        fuse({}, "borda")
