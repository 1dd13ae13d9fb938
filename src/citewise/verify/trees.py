"""Gradient-boosted decision trees: evaluation (numpy only, used at run time) and training (used by
scripts/train_support.py; histogram splits on quantile bins, logistic loss, Newton leaf values).

A tree is stored as parallel lists: ``feature`` (-1 for a leaf), ``threshold`` (go left when
``x[feature] <= threshold``), ``left``, ``right`` (node indexes) and ``value`` (the leaf's
contribution to the log-odds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Tree:
    feature: list[int] = field(default_factory=list)
    threshold: list[float] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    right: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)

    def add(self, feature: int = -1, threshold: float = 0.0, value: float = 0.0) -> int:
        self.feature.append(feature)
        self.threshold.append(threshold)
        self.left.append(-1)
        self.right.append(-1)
        self.value.append(value)
        return len(self.feature) - 1

    def value_of(self, row: list[float]) -> float:
        """The leaf value for one row (plain Python: faster than numpy for a single row)."""
        node = 0
        feature, threshold = self.feature, self.threshold
        while feature[node] >= 0:
            node = self.left[node] if row[feature[node]] <= threshold[node] else self.right[node]
        return self.value[node]

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Leaf values for the rows of ``x``."""
        node = np.zeros(len(x), dtype=np.int64)
        feat = np.asarray(self.feature)
        thr = np.asarray(self.threshold)
        left, right, value = np.asarray(self.left), np.asarray(self.right), np.asarray(self.value)
        for _ in range(64):
            f = feat[node]
            inner = f >= 0
            if not inner.any():
                break
            rows = np.nonzero(inner)[0]
            go_left = x[rows, f[rows]] <= thr[node[rows]]
            node[rows] = np.where(go_left, left[node[rows]], right[node[rows]])
        return np.asarray(value[node], dtype=np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {
            "feature": self.feature,
            "threshold": [round(t, 6) for t in self.threshold],
            "left": self.left,
            "right": self.right,
            "value": [round(v, 6) for v in self.value],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Tree:
        return cls(
            list(d["feature"]), [float(t) for t in d["threshold"]], list(d["left"]), list(d["right"]), list(d["value"])
        )


def predict_log_odds(trees: list[Tree], base: float, x: np.ndarray, rate: float) -> np.ndarray:
    out = np.full(len(x), base, dtype=np.float64)
    for t in trees:
        out += rate * t.predict(x)
    return out


def fit_boosted(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rounds: int = 150,
    depth: int = 3,
    rate: float = 0.1,
    bins: int = 32,
    min_hess: float = 1.0,
    l2: float = 1.0,
) -> tuple[list[Tree], float]:
    """Boosted trees for P(y = 1) with sample weights ``w``; returns the trees and the base log-odds."""
    edges = [np.unique(np.quantile(x[:, j], np.linspace(0, 1, bins + 1)[1:-1])) for j in range(x.shape[1])]
    binned = np.stack([np.searchsorted(edges[j], x[:, j], side="left") for j in range(x.shape[1])], axis=1)
    prior = float(np.clip(np.sum(w * y) / np.sum(w), 1e-6, 1 - 1e-6))
    base = float(np.log(prior / (1 - prior)))
    f = np.full(len(x), base)
    trees: list[Tree] = []
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-f))
        g, h = w * (p - y), w * p * (1 - p)
        tree = Tree()
        _grow(tree, np.arange(len(x)), binned, edges, g, h, depth, min_hess, l2)
        f += rate * tree.predict(x)
        trees.append(tree)
    return trees, base


def _grow(
    tree: Tree,
    rows: np.ndarray,
    binned: np.ndarray,
    edges: list[np.ndarray],
    g: np.ndarray,
    h: np.ndarray,
    depth: int,
    min_hess: float,
    l2: float,
) -> int:
    gs, hs = g[rows].sum(), h[rows].sum()
    node = tree.add(value=float(-gs / (hs + l2)))
    if depth == 0 or len(rows) < 2:
        return node
    best = (0.0, -1, 0)
    parent = gs * gs / (hs + l2)
    for j in range(binned.shape[1]):
        nb = len(edges[j]) + 1
        gb = np.bincount(binned[rows, j], weights=g[rows], minlength=nb)
        hb = np.bincount(binned[rows, j], weights=h[rows], minlength=nb)
        gl, hl = np.cumsum(gb)[:-1], np.cumsum(hb)[:-1]
        gr, hr = gs - gl, hs - hl
        ok = (hl >= min_hess) & (hr >= min_hess)
        if not ok.any():
            continue
        gain = np.where(ok, gl * gl / (hl + l2) + gr * gr / (hr + l2) - parent, -np.inf)
        b = int(np.argmax(gain))
        if gain[b] > best[0]:
            best = (float(gain[b]), j, b)
    _, j, b = best
    if j < 0:
        return node
    go_left = binned[rows, j] <= b
    tree.feature[node] = j
    tree.threshold[node] = float(edges[j][b])
    tree.left[node] = _grow(tree, rows[go_left], binned, edges, g, h, depth - 1, min_hess, l2)
    tree.right[node] = _grow(tree, rows[~go_left], binned, edges, g, h, depth - 1, min_hess, l2)
    return node
