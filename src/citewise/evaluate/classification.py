"""Measures of a binary "supported" classifier against labels (1 = supported), as the verification
benchmarks report them: ROC AUC (ties share their mean rank), balanced accuracy with precision and
recall of each class, and the reliability curve in the benchmarks' shape."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from citewise.evaluate.metrics import reliability

Floats = npt.NDArray[np.float64] | Sequence[float]
Flags = npt.NDArray[np.bool_] | Sequence[bool]


def auc(scores: Floats, labels: Sequence[int] | npt.NDArray[np.int_]) -> float:
    """The probability that a random positive scores above a random negative (Mann-Whitney U; tied
    scores share their mean rank); NaN when one class is absent."""
    p = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels)
    n1 = int((y == 1).sum())
    n0 = len(y) - n1
    if not n1 or not n0:
        return float("nan")
    ranks = np.empty(len(p))
    ranks[np.argsort(p, kind="mergesort")] = np.arange(1, len(p) + 1)
    for v in np.unique(p):
        tied = p == v
        ranks[tied] = ranks[tied].mean()
    return float((ranks[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def binary_figures(predicted: Flags, labels: Sequence[int] | npt.NDArray[np.int_]) -> dict[str, float]:
    """Balanced accuracy, precision and recall of "supported" and of "unsupported" (an empty class or
    an empty prediction counts as one, so the figure is 0 rather than undefined)."""
    pred = np.asarray(predicted, dtype=bool)
    y = np.asarray(labels)
    tp = float((pred & (y == 1)).sum())
    tn = float((~pred & (y == 0)).sum())
    pos, neg = max(1.0, float((y == 1).sum())), max(1.0, float((y == 0).sum()))
    return {
        "balanced_accuracy": round(0.5 * tp / pos + 0.5 * tn / neg, 4),
        "precision_supported": round(tp / max(1.0, float(pred.sum())), 4),
        "recall_supported": round(tp / pos, 4),
        "precision_unsupported": round(tn / max(1.0, float((~pred).sum())), 4),
        "recall_unsupported": round(tn / neg, 4),
    }


def calibration_curve(
    scores: Floats, labels: Sequence[int] | npt.NDArray[np.int_], bins: int = 10
) -> list[dict[str, float | int | str]]:
    """Per equal-width score bin (empty bins left out): its range, count, mean score and the share
    labelled supported (``metrics.reliability`` in the benchmarks' keys)."""
    points = [(float(s), bool(v == 1)) for s, v in zip(np.asarray(scores), np.asarray(labels), strict=True)]
    return [
        {
            "bin": f"{b['lo']:.1f}-{b['hi']:.1f}",
            "n": int(b["n"]),
            "mean_p": round(float(b["confidence"]), 3),
            "supported": round(float(b["correct"]), 3),
        }
        for b in reliability(points, bins)
    ]
