"""The boosted-trees fitter behind the support scorer (training/trees_fit.py): monotone constraints hold."""

from __future__ import annotations

import numpy as np
from training.trees_fit import fit_boosted

from citewise.trees import predict_log_odds


def _data(n: int = 600) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two features: support rises with the first overall, but the labels dip in its middle (noise the free
    fit follows); the second is free."""
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, size=(n, 2))
    logit = 4 * x[:, 0] - 2 + np.where((x[:, 0] > 0.45) & (x[:, 0] < 0.6), -3.0, 0.0) + np.sin(6 * x[:, 1])
    y = (rng.uniform(0, 1, n) < 1 / (1 + np.exp(-logit))).astype(float)
    return x, y, np.ones(n)


def _sweep(trees: list, base: float, rate: float, second: float) -> np.ndarray:
    grid = np.stack([np.linspace(0, 1, 101), np.full(101, second)], axis=1)
    return predict_log_odds(trees, base, grid, rate)


def test_monotone_fit_never_falls_where_it_must_rise() -> None:
    x, y, w = _data()
    free, base_free = fit_boosted(x, y, w, rounds=60, depth=3, rate=0.1)
    mono, base_mono = fit_boosted(x, y, w, rounds=60, depth=3, rate=0.1, monotone=np.array([1, 0]))
    dips_free = 0
    for second in (0.1, 0.5, 0.9):
        curve = _sweep(mono, base_mono, 0.1, second)
        assert np.all(np.diff(curve) >= -1e-12)
        dips_free += int(np.any(np.diff(_sweep(free, base_free, 0.1, second)) < -1e-6))
    assert dips_free > 0  # the data would pull a free fit down: the constraint is what holds it


def test_falling_constraint_and_fit_quality() -> None:
    x, y, w = _data()
    x = x.copy()
    x[:, 0] = 1 - x[:, 0]  # support now falls with the first feature
    mono, base = fit_boosted(x, y, w, rounds=60, depth=3, rate=0.1, monotone=np.array([-1, 0]))
    curve = _sweep(mono, base, 0.1, 0.5)
    assert np.all(np.diff(curve) <= 1e-12)
    p = 1 / (1 + np.exp(-predict_log_odds(mono, base, x, 0.1)))
    assert np.mean((p > 0.5) == (y == 1)) > 0.7
