"""Training the learned ranker (``citewise.retrieve.ranker``) with LightGBM's LambdaMART, and exporting
the trees to the JSON the numpy runtime reads. Training only: LightGBM comes from the ``train`` extra
(``pip install -e '.[train]'``) and is never imported by the package.

Feature files (``.bench-cache/ranker/<part>.npz``, written by ``bench/ranker.py --dump``) hold per
candidate ``X`` (``FEATURES`` columns), ``y`` (1 = the chunk stands for a gold unit) and ``qid``
(the question it belongs to, rows of one question contiguous)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from citewise.retrieve.ranker import FEATURES

PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    "metric": "ndcg",
    "eval_at": [10],
    "lambdarank_truncation_level": 20,
    "learning_rate": 0.05,
    "min_sum_hessian_in_leaf": 1e-3,
    "feature_fraction": 0.9,
    "bagging_fraction": 0.9,
    "bagging_freq": 1,
    "num_threads": 1,
    "verbose": -1,
    "seed": 7,
    "deterministic": True,
    "force_row_wise": True,
}
GRID: dict[str, Sequence[Any]] = {
    "num_leaves": (7, 15),
    "min_data_in_leaf": (50,),
    "rounds": (100, 200, 400),
    "balanced": (True, False),
}
"""Hyper-parameters chosen on grouped folds; ``balanced``: each training part weighs as much in total
(the 175 everyday questions as much as the 1,000 ObliQA ones), else each question weighs 1."""


@dataclass
class Part:
    """The candidates of one question set on one corpus."""

    name: str
    x: np.ndarray
    y: np.ndarray
    qid: np.ndarray
    """Question id per row."""

    def questions(self) -> list[str]:
        return list(dict.fromkeys(self.qid.tolist()))

    def subset(self, qids: set[str]) -> Part:
        mask = np.isin(self.qid, list(qids))
        return Part(self.name, self.x[mask], self.y[mask], self.qid[mask])


def grid() -> list[dict[str, Any]]:
    keys = list(GRID)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(GRID[k] for k in keys))]


def _groups(qid: np.ndarray) -> np.ndarray:
    """Sizes of the runs of equal ids (the rows of one question are contiguous)."""
    change = np.flatnonzero(qid[1:] != qid[:-1]) + 1
    bounds = np.concatenate([[0], change, [len(qid)]])
    return np.diff(bounds)


def fit(parts: Sequence[Part], hp: dict[str, Any]) -> Any:
    """A LambdaMART booster on the parts' candidates."""
    import lightgbm as lgb

    parts = [p for p in parts if len(p.y)]
    x = np.concatenate([p.x for p in parts])
    y = np.concatenate([p.y for p in parts])
    groups = np.concatenate([_groups(p.qid) for p in parts])
    weights = None
    if hp.get("balanced"):
        total = sum(len(_groups(p.qid)) for p in parts)
        per = [np.full(len(_groups(p.qid)), total / (len(parts) * len(_groups(p.qid)))) for p in parts]
        weights = np.concatenate(per)
    params = {**PARAMS, "num_leaves": hp["num_leaves"], "min_data_in_leaf": hp["min_data_in_leaf"]}
    # a question's weight repeated on its rows (LightGBM derives the query weights from them)
    row_weights = np.repeat(weights, groups) if weights is not None else None
    data = lgb.Dataset(x, y, group=groups, weight=row_weights, feature_name=list(FEATURES), free_raw_data=False)
    return lgb.train(params, data, num_boost_round=hp["rounds"])


def ndcg10(scores: np.ndarray, y: np.ndarray, qid: np.ndarray) -> list[float]:
    """Per-question nDCG@10 of candidates ordered by ``scores`` (chunk-level labels; the ideal counts
    only the gold chunks among the candidates)."""
    out: list[float] = []
    start = 0
    disc = 1.0 / np.log2(np.arange(2, 12))
    for n in _groups(qid):
        s, rel = scores[start : start + n], y[start : start + n]
        start += n
        if not rel.any():
            out.append(0.0)
            continue
        order = np.argsort(-s, kind="stable")[:10]
        dcg = float((rel[order] * disc[: len(order)]).sum())
        ideal = float(disc[: min(10, int(rel.sum()))].sum())
        out.append(dcg / ideal)
    return out


def folds(qids: Sequence[str], k: int, seed: int = 0) -> list[set[str]]:
    """``k`` disjoint sets of question ids (grouped by question: a question's candidates stay together)."""
    rng = np.random.default_rng(seed)
    order = list(qids)
    rng.shuffle(order)
    return [set(order[i::k]) for i in range(k)]


def export(booster: Any, meta: dict[str, Any]) -> dict[str, Any]:
    """The booster as the JSON ``citewise.retrieve.ranker.LearnedRanker`` reads: each tree as parallel
    lists (``citewise.trees.Tree``), thresholds kept at full precision so numpy splits as LightGBM does."""
    dump = booster.dump_model()
    if list(dump["feature_names"]) != list(FEATURES):
        raise ValueError("booster trained on other features")
    trees = [_flatten(info["tree_structure"]) for info in dump["tree_info"]]
    return {"format": "citewise-ranker-v1", "features": list(FEATURES), "base": 0.0, "trees": trees, **meta}


def _flatten(root: dict[str, Any]) -> dict[str, list[Any]]:
    """A LightGBM tree (nested nodes) as ``citewise.trees.Tree`` lists, nodes numbered depth first."""
    t: dict[str, list[Any]] = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}

    def add(node: dict[str, Any]) -> int:
        i = len(t["feature"])
        for name, empty in (("feature", -1), ("threshold", 0.0), ("left", -1), ("right", -1), ("value", 0.0)):
            t[name].append(empty)
        if "leaf_value" in node:
            t["value"][i] = float(node["leaf_value"])
            return i
        if node["decision_type"] != "<=" or node.get("missing_type", "None") not in ("None", "NaN"):
            raise ValueError(f"unsupported split {node['decision_type']} / {node.get('missing_type')}")
        t["feature"][i] = int(node["split_feature"])
        t["threshold"][i] = float(node["threshold"])
        t["left"][i] = add(node["left_child"])
        t["right"][i] = add(node["right_child"])
        return i

    add(root)
    return t
