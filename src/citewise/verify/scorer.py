"""Support scorers: how likely a source supports a claim, in [0, 1], with the source span that
matches the claim best. One port, ``SupportScorer``; two backends registered by name:

- ``trained`` (default): gradient-boosted trees over the features of features.py, trees and
  thresholds read from the JSON file shipped in ``verify/weights/`` (trained by
  scripts/train_support.py; numpy only at run time).
- ``lexical``: the baseline, coverage of the claim's content words and word pairs by the best
  run of up to two source sentences (support.py); thresholds 0.6 / 0.4.

Thresholds belong to the scorer: a probability and a coverage are not on the same scale."""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from citewise.lang import detect_language
from citewise.registry import Registry
from citewise.trees import Tree, load_model, predict_log_odds
from citewise.verify.features import FEATURES, pair_features
from citewise.verify.support import best_window

DEFAULT_WEIGHTS = "support-gbt-v2.json"


@dataclass(frozen=True)
class SupportScore:
    score: float
    """Probability (trained) or coverage (lexical) that the source supports the claim."""
    span: tuple[int, int]
    """The best-matching run of source sentences, offsets in the source."""
    features: dict[str, float] = field(default_factory=dict)
    lang: str = "en"
    """Language of the claim: thresholds may differ per language."""


class SupportScorer(abc.ABC):
    name: str

    @abc.abstractmethod
    def score(self, claim: str, source: str) -> SupportScore: ...

    @abc.abstractmethod
    def thresholds(self, lang: str) -> tuple[float, float]:
        """(supported, partial): at or above the first, supported; at or above the second, partial."""

    def status(self, score: float, lang: str = "en") -> str:
        supported, partial = self.thresholds(lang)
        if score >= supported:
            return "supported"
        return "partial" if score >= partial else "unsupported"


class LexicalScorer(SupportScorer):
    name = "lexical"

    def __init__(self, support_threshold: float = 0.6, partial_threshold: float = 0.4) -> None:
        self.support_threshold = support_threshold
        self.partial_threshold = partial_threshold

    def score(self, claim: str, source: str) -> SupportScore:
        s, span = best_window(claim, source)
        return SupportScore(s, span, lang=detect_language(claim))

    def thresholds(self, lang: str) -> tuple[float, float]:
        return self.support_threshold, self.partial_threshold


class TrainedScorer(SupportScorer):
    """Boosted trees over pair features; the model file names its feature columns, and a file
    trained on other columns than this version computes is refused."""

    name = "trained"

    def __init__(self, weights: Path | str | None = None) -> None:
        model, self.source = load_model("citewise.verify", DEFAULT_WEIGHTS, weights, FEATURES, "support")
        self.model = model
        self.trees = [Tree.from_dict(t) for t in model["trees"]]
        self.base = float(model["base"])
        self.rate = float(model["rate"])
        self.support_thresholds: dict[str, float] = dict(model["thresholds"]["supported"])
        self.partial_thresholds: dict[str, float] = dict(model["thresholds"]["partial"])

    def thresholds(self, lang: str) -> tuple[float, float]:
        key = lang if lang in self.support_thresholds else "en"
        return self.support_thresholds[key], self.partial_thresholds[key]

    def probability(self, values: np.ndarray) -> np.ndarray:
        """P(supported) for rows of feature values."""
        z = predict_log_odds(self.trees, self.base, values, self.rate)
        return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)

    def score(self, claim: str, source: str) -> SupportScore:
        f = pair_features(claim, source)
        row = [float(v) for v in f.values]
        z = self.base + self.rate * sum(t.value_of(row) for t in self.trees)
        p = 1.0 / (1.0 + math.exp(-z))
        named = f.named()
        return SupportScore(p, f.span, named, "vi" if named["vi"] else "en")


SCORERS: Registry[SupportScorer] = Registry(
    "support scorer",
    {"trained": "citewise.verify.scorer:TrainedScorer", "lexical": "citewise.verify.scorer:LexicalScorer"},
    group="citewise.scorers",
)
"""Support scorers by name; a plugin adds one under the entry-point group ``citewise.scorers``."""


def get_scorer(name: str = "trained") -> SupportScorer:
    return SCORERS.create(name)
