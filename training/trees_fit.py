"""Fitting the boosted trees the support scorer reads (``citewise.trees``): training only,
never imported at run time."""

from __future__ import annotations

import numpy as np

from citewise.trees import Tree


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
    monotone: np.ndarray | None = None,
) -> tuple[list[Tree], float]:
    """Boosted trees for P(y = 1) with sample weights ``w``; returns the trees and the base log-odds.

    ``monotone``: per feature +1 (the log-odds may only rise with it), -1 (only fall) or 0 (free). A split on a
    constrained feature is taken only when its two leaves keep the direction, and the leaves below it stay on
    their side of the split's midpoint (the bounds are passed down), so each tree, and their sum, is monotone."""
    mono = np.zeros(x.shape[1], dtype=np.int64) if monotone is None else np.asarray(monotone, dtype=np.int64)
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
        _grow(tree, np.arange(len(x)), binned, edges, g, h, depth, min_hess, l2, mono, (-np.inf, np.inf))
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
    mono: np.ndarray,
    bounds: tuple[float, float],
) -> int:
    lo, hi = bounds
    gs, hs = g[rows].sum(), h[rows].sum()
    node = tree.add(value=float(np.clip(-gs / (hs + l2), lo, hi)))
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
        if mono[j]:
            wl, wr = np.clip(-gl / (hl + l2), lo, hi), np.clip(-gr / (hr + l2), lo, hi)
            ok &= mono[j] * (wr - wl) >= 0
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
    left_bounds = right_bounds = bounds
    if mono[j]:
        gl_, hl_ = g[rows[go_left]].sum(), h[rows[go_left]].sum()
        gr_, hr_ = gs - gl_, hs - hl_
        mid = 0.5 * (float(np.clip(-gl_ / (hl_ + l2), lo, hi)) + float(np.clip(-gr_ / (hr_ + l2), lo, hi)))
        left_bounds, right_bounds = ((lo, mid), (mid, hi)) if mono[j] > 0 else ((mid, hi), (lo, mid))
    tree.left[node] = _grow(tree, rows[go_left], binned, edges, g, h, depth - 1, min_hess, l2, mono, left_bounds)
    tree.right[node] = _grow(tree, rows[~go_left], binned, edges, g, h, depth - 1, min_hess, l2, mono, right_bounds)
    return node
