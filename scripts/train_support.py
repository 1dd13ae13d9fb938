"""Train the support scorer shipped in src/citewise/verify/weights/ (numpy only, no scikit-learn):
gradient-boosted trees (150 rounds of depth 3, citewise.trees) on the features of
citewise.verify.features; a logistic regression is fitted alongside for comparison only.

Pairs come from the shared data sets (training.support_pairs): WiCE, ContractNLI and
ALQAC 2022 ``train`` groups are trained on; ``dev`` groups and all of ALQAC 2023 are held out
for bench/verify.py. The target is "supported" against everything else (partial and unsupported).

Thresholds are chosen on out-of-fold probabilities of the training pairs (5 folds by group),
never on dev: ``supported`` is the lowest threshold whose precision on "supported" is >= 99 %,
``partial`` the lowest with >= 90 %. The run writes the weights file and
bench/results/train_support.json (data sizes, sha256 of the weights, out-of-fold figures).

    .venv/bin/python scripts/train_support.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: training/

from training.support_pairs import Pair, load_pairs
from training.support_synth import synthetic_pairs
from training.trees_fit import fit_boosted

from citewise.trees import predict_log_odds
from citewise.verify.features import FEATURES, pair_features

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = ROOT / "src" / "citewise" / "verify" / "weights" / "support-gbt-v2.json"
RESULTS = ROOT / "bench" / "results" / "train_support.json"
TRAIN_SETS = ["wice", "contractnli", "alqac2022"]
SYNTH_LANGS = ["vi", "en"]
BOOST = {"rounds": 300, "depth": 4, "rate": 0.05}
SYNTH_WEIGHT = 0.4
"""Constructed pairs weigh this much of a natural data set in training."""


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0, iters: int = 50) -> np.ndarray:
    """Weighted L2-regularised logistic regression by Newton's method; returns [intercept, coef...]
    for standardised ``x``."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], l2)
    reg[0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(xb @ beta)))
        grad = xb.T @ (w * (p - y)) + reg * beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


def predict(beta: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-(x @ beta[1:] + beta[0]))))


MIN_ADMITTED = 20


def threshold_for_precision(p: np.ndarray, y: np.ndarray, target: float, w: np.ndarray | None = None) -> float:
    """Lowest threshold at which the (weighted) precision of the pairs scoring at or above it is
    >= ``target``, over at least ``MIN_ADMITTED`` pairs (one stray pair at the very top does not
    decide it)."""
    w = np.ones(len(p)) if w is None else w
    order = np.argsort(-p, kind="stable")
    ps, ys, ws = p[order], y[order], w[order]
    prec = np.cumsum(ys * ws) / np.cumsum(ws)
    ok = prec >= target
    ok[: MIN_ADMITTED - 1] = False
    if not ok.any():
        return 1.0
    # the threshold is the score of the last admitted pair; ties with lower scores cannot be split
    return float(ps[int(np.nonzero(ok)[0].max())])


def weights_for(pairs: list[Pair], y: np.ndarray) -> np.ndarray:
    """Each data set weighs the same in total, and within it both classes weigh the same."""
    w = np.zeros(len(pairs))
    sets = sorted({p.dataset for p in pairs})
    for ds in sets:
        for cls in (0, 1):
            idx = [i for i, p in enumerate(pairs) if p.dataset == ds and y[i] == cls]
            if idx:
                w[idx] = 1.0 / (2 * len(sets) * len(idx))
    return w * len(pairs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--no-synth", action="store_true", help="natural pairs only (support_synth.py not used)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    pairs = [p for p in load_pairs(args.data, TRAIN_SETS) if p.split == "train"]
    if not args.no_synth:
        for lang in SYNTH_LANGS:
            pairs += [p for p in synthetic_pairs(args.data, lang) if p.split == "train"]
    x = np.array([pair_features(p.claim, p.source).values for p in pairs])
    feat_s = time.perf_counter() - t0
    y = np.array([1.0 if p.label == "supported" else 0.0 for p in pairs])
    w = weights_for(pairs, y) * np.array([SYNTH_WEIGHT if p.dataset.startswith("synth") else 1.0 for p in pairs])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (x - mean) / scale

    # out-of-fold probabilities, 5 folds by group
    groups = sorted({p.group for p in pairs})
    fold_of = {g: i % 5 for i, g in enumerate(np.random.default_rng(7).permutation(groups))}
    folds = np.array([fold_of[p.group] for p in pairs])
    oof = np.zeros(len(pairs))
    oof_lr = np.zeros(len(pairs))
    for k in range(5):
        tr, te = folds != k, folds == k
        trees, base = fit_boosted(x[tr], y[tr], w[tr], **BOOST)
        oof[te] = 1.0 / (1.0 + np.exp(-predict_log_odds(trees, base, x[te], BOOST["rate"])))
        oof_lr[te] = predict(fit_logistic(xs[tr], y[tr], w[tr], args.l2), xs[te])
    lang = np.array([p.dataset.startswith("alqac") or p.dataset == "synth-vi" for p in pairs])
    natural = np.array([not p.dataset.startswith("synth") for p in pairs])
    thresholds: dict[str, dict[str, float]] = {"supported": {}, "partial": {}}
    # per language, on every training pair of it weighted as in training (each data set and
    # each class alike, constructed pairs less): precision at an even share of supported claims
    for name, m in (("en", ~lang), ("vi", lang)):
        t_sup = threshold_for_precision(oof[m], y[m], 0.99, w[m])
        thresholds["supported"][name] = round(t_sup, 4)
        thresholds["partial"][name] = round(min(t_sup, threshold_for_precision(oof[m], y[m], 0.90, w[m])), 4)

    trees, base = fit_boosted(x, y, w, **BOOST)
    beta = fit_logistic(xs, y, w, args.l2)
    model = {
        "model": "boosted-trees",
        "version": 2,
        "features": list(FEATURES),
        "rate": BOOST["rate"],
        "base": round(base, 6),
        "trees": [t.to_dict() for t in trees],
        "thresholds": thresholds,
        "trained_on": {
            "sets": TRAIN_SETS + ([] if args.no_synth else [f"synth-{x}" for x in SYNTH_LANGS]),
            "pairs": len(pairs),
            "target": "supported vs partial+unsupported",
            "thresholds": "per language, out-of-fold precision on supported: >= 0.99 (supported), >= 0.90 (partial)",
        },
    }
    WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
    WEIGHTS.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    sha = hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()

    def oof_at(t: float | dict[str, float], p: np.ndarray = oof, mask: np.ndarray = natural) -> dict[str, Any]:
        """Out-of-fold figures (unweighted) on the natural pairs, or on ``mask``."""
        cut = np.where(lang, t["vi"], t["en"]) if isinstance(t, dict) else np.full(len(p), t)
        p, cut, ys = p[mask], cut[mask], y[mask]
        pred = p >= cut
        tp = float((pred & (ys == 1)).sum())
        tn = float((~pred & (ys == 0)).sum())
        return {
            "threshold": t,
            "precision_supported": round(tp / max(1, pred.sum()), 4),
            "recall_supported": round(tp / max(1, (ys == 1).sum()), 4),
            "balanced_accuracy": round(0.5 * tp / max(1, (ys == 1).sum()) + 0.5 * tn / max(1, (ys == 0).sum()), 4),
        }

    sizes = Counter(f"{p.dataset}/{p.label}" for p in pairs)
    report = {
        "weights": str(WEIGHTS.relative_to(ROOT)),
        "sha256": sha,
        "train_pairs": len(pairs),
        "sizes": dict(sorted(sizes.items())),
        "kinds": dict(sorted(Counter(f"{p.dataset}/{p.kind}" for p in pairs).items())),
        "oof_supported": oof_at(thresholds["supported"]),
        "oof_partial": oof_at(thresholds["partial"]),
        "oof_at_0.5": oof_at(0.5),
        "oof_by_set": {
            ds: {
                "supported": oof_at(thresholds["supported"], mask=np.array([p.dataset == ds for p in pairs])),
                "at_0.5": oof_at(0.5, mask=np.array([p.dataset == ds for p in pairs])),
            }
            for ds in sorted({p.dataset for p in pairs})
        },
        "oof_logistic_at_0.5": oof_at(0.5, oof_lr),
        "logistic_coef": {n: round(float(c), 3) for n, c in zip(FEATURES, beta[1:], strict=True)},
        "boost": BOOST,
        "feature_seconds": round(feat_s, 1),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
