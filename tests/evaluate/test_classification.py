"""AUC, the binary figures and the calibration curve of a "supported" classifier, against numbers
worked out by hand."""

from __future__ import annotations

import math

import pytest

from citewise.evaluate.classification import auc, binary_figures, calibration_curve


def test_auc_counts_pairs_and_halves_ties() -> None:
    # positives 0.9, 0.5; negatives 0.5, 0.1: pairs (0.9>0.5) (0.9>0.1) (0.5=0.5 -> 1/2) (0.5>0.1) = 3.5 / 4
    assert auc([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0]) == pytest.approx(0.875)
    assert auc([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1]) == 1.0
    assert auc([0.3, 0.3, 0.3], [1, 0, 1]) == pytest.approx(0.5)
    assert math.isnan(auc([0.2, 0.4], [1, 1]))


def test_binary_figures() -> None:
    # labels 1 1 1 0 0; predicted supported on the first two and the first negative
    f = binary_figures([True, True, False, True, False], [1, 1, 1, 0, 0])
    assert f == {
        "balanced_accuracy": round(0.5 * 2 / 3 + 0.5 * 1 / 2, 4),
        "precision_supported": round(2 / 3, 4),
        "recall_supported": round(2 / 3, 4),
        "precision_unsupported": 0.5,
        "recall_unsupported": 0.5,
    }
    # nothing predicted supported: precision 0, not undefined
    assert binary_figures([False, False], [1, 0])["precision_supported"] == 0.0


def test_calibration_curve_bins() -> None:
    curve = calibration_curve([0.05, 0.15, 0.18, 1.0, 0.95], [0, 1, 0, 1, 1])
    assert curve == [
        {"bin": "0.0-0.1", "n": 1, "mean_p": 0.05, "supported": 0.0},
        {"bin": "0.1-0.2", "n": 2, "mean_p": 0.165, "supported": 0.5},
        {"bin": "0.9-1.0", "n": 2, "mean_p": 0.975, "supported": 1.0},
    ]
