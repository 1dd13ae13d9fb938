"""Train the fast tier of the answerability judge (src/citewise/judge/weights/answerability-features-v1.json):
boosted trees (training/trees_fit.py) over the zero-token features of citewise.judge.features, one row per
sentence of a question's paragraph, label 1 for the sentence holding the answer.

Data: SQuAD 2.0 dev split by article title (training/judge_pairs.py: 70/15/15 train/dev/test) — answerable and
unanswerable questions; ViQuAD 1.0 train (answerable; the answer sentence with its answer swapped for another
span of the paragraph is added as a negative). Thresholds per language are chosen on dev at the score that
answers 80 % of answerable dev questions (passage level: the best sentence of the paragraph): EN on the SQuAD
dev split, VI on ViQuAD 1.0 dev answerable questions against vi_answerability dev unanswerable ones (that set
has no stated licence: used to choose the threshold, never trained on). Test figures are printed, never used.

    .venv/bin/python training/train_answerability.py [--out PATH] [--vi-questions 6000]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: training/

from citewise.chunk.sentences import sentence_spans
from citewise.evaluate.classification import auc
from citewise.judge.features import FEATURES, pair_features
from citewise.judge.qtype import question_type
from citewise.trees import predict_log_odds
from training import judge_pairs as jp
from training.trees_fit import fit_boosted

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "citewise" / "judge" / "weights" / "answerability-features-v1.json"
BOOST = {"rounds": 200, "depth": 4, "rate": 0.08}
ANSWER_RATE = 0.80


def sentences(context: str) -> list[tuple[int, int, str]]:
    return [
        (s, e, " ".join(context[s:e].split())) for s, e in sentence_spans(context) if len(context[s:e].split()) >= 3
    ]


def rows_of(q: jp.Question, swap: str | None = None) -> tuple[list[list[float]], list[int]]:
    """Feature rows and labels of every sentence of the question's paragraph (plus a swapped answer sentence)."""
    qtype = question_type(q.question)
    sents = sentences(q.context)
    spans = [(q.answers[0][0], q.answers[0][0] + len(q.answers[0][1]))] if q.answers and q.answers[0][0] >= 0 else []
    x, y = [], []
    for s, e, text in sents:
        label = int(any(s <= a and b <= e for a, b in spans))
        x.append(pair_features(q.question, qtype, text, q.context, q.lang))
        y.append(label)
    if swap is not None:
        x.append(pair_features(q.question, qtype, swap, q.context, q.lang))
        y.append(0)
    return x, y


def swapped_sentence(q: jp.Question, others: list[str], rng: random.Random) -> str | None:
    if not q.answers or q.answers[0][0] < 0 or not others:
        return None
    start, text = q.answers[0]
    for s, e, sent in sentences(q.context):
        if s <= start and start + len(text) <= e and text in sent:
            alt = rng.choice(others)
            if alt != text and text not in alt and alt not in text:
                return sent.replace(text, alt, 1)
    return None


def passage_scores(model: dict[str, Any], questions: list[jp.Question]) -> tuple[np.ndarray, np.ndarray]:
    """(label answerable, best-sentence probability) per question."""
    labels, scores = [], []
    for q in questions:
        x, _ = rows_of(q)
        if not x:
            continue
        z = predict_log_odds(model["trees_obj"], model["base"], np.array(x), model["rate"])
        scores.append(float(np.max(1 / (1 + np.exp(-z)))))
        labels.append(int(q.answerable))
    return np.array(labels), np.array(scores)


def at_answer_rate(labels: np.ndarray, scores: np.ndarray, rate: float = ANSWER_RATE) -> tuple[float, float]:
    """(threshold answering ``rate`` of answerable questions, share of unanswerable ones refused there)."""
    thr = float(np.quantile(scores[labels == 1], 1 - rate))
    return thr, float(np.mean(scores[labels == 0] < thr)) if (labels == 0).any() else float("nan")


def curve(labels: np.ndarray, scores: np.ndarray) -> list[dict[str, float]]:
    out = []
    for rate in (0.6, 0.7, 0.8, 0.9, 0.95):
        thr, refused = at_answer_rate(labels, scores, rate)
        out.append({"answer_rate": rate, "threshold": round(thr, 4), "refused_unanswerable": round(refused, 4)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--vi-questions", type=int, default=6000)
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(7)
    squad = jp.squad2_questions()
    viquad = jp.viquad_questions()
    vi_ans = jp.vi_answerability_questions()
    train_q = [q for q in squad if q.split == "train"]
    vi_train = [q for q in viquad if q.split == "train"]
    rng.shuffle(vi_train)
    vi_train = vi_train[: args.vi_questions]
    answers_by_ctx: dict[str, list[str]] = {}
    for q in vi_train + train_q:
        answers_by_ctx.setdefault(q.context, []).extend(a for _, a in q.answers)
    x: list[list[float]] = []
    y: list[int] = []
    for q in train_q + vi_train:
        swap = swapped_sentence(q, answers_by_ctx.get(q.context, []), rng)
        qx, qy = rows_of(q, swap)
        x += qx
        y += qy
    xa, ya = np.array(x, dtype=np.float64), np.array(y, dtype=np.float64)
    w = np.where(ya == 1, (len(ya) - ya.sum()) / max(1, ya.sum()), 1.0) ** 0.5
    print(
        f"{len(train_q)} EN + {len(vi_train)} VI questions, {len(ya)} sentences ({int(ya.sum())} answer), "
        f"{time.time() - t0:.0f} s",
        flush=True,
    )
    trees, base = fit_boosted(xa, ya, w, **BOOST)
    model: dict[str, Any] = {"trees_obj": trees, "base": base, "rate": BOOST["rate"]}
    print(f"fitted {len(trees)} trees, {time.time() - t0:.0f} s", flush=True)
    dev_en = [q for q in squad if q.split == "dev"]
    dev_vi = [q for q in viquad if q.split == "dev"][:1500] + [
        q for q in vi_ans if q.split == "dev" and not q.answerable
    ]
    report: dict[str, Any] = {}
    thresholds: dict[str, float] = {}
    for lang, qs in (("en", dev_en), ("vi", dev_vi)):
        labels, scores = passage_scores(model, qs)
        thr, refused = at_answer_rate(labels, scores)
        thresholds[lang] = round(thr, 4)
        report[f"dev_{lang}"] = {
            "questions": len(labels),
            "auc": round(auc(scores, labels), 4),
            "threshold": round(thr, 4),
            "refused_unanswerable": round(refused, 4),
            "curve": curve(labels, scores),
        }
        print(lang, "dev", report[f"dev_{lang}"], flush=True)
    test_sets = {
        "test_squad2_en": [q for q in squad if q.split == "test"],
        "test_vi_answerability": [q for q in vi_ans if q.split == "test"],
    }
    for name, qs in test_sets.items():
        lang = qs[0].lang
        labels, scores = passage_scores(model, qs)
        thr = thresholds[lang]
        answered = float(np.mean(scores[labels == 1] >= thr))
        refused = float(np.mean(scores[labels == 0] < thr))
        report[name] = {
            "questions": len(labels),
            "auc": round(auc(scores, labels), 4),
            "answer_rate": round(answered, 4),
            "refused_unanswerable": round(refused, 4),
            "curve": curve(labels, scores),
        }
        print(name, report[name], flush=True)
    out = {
        "kind": "answerability-features",
        "version": 1,
        "features": FEATURES,
        "base": base,
        "rate": BOOST["rate"],
        "boost": BOOST,
        "thresholds": thresholds,
        "trained_on": {"squad2 dev (train split by title)": "CC BY-SA 4.0", "viquad1 train": "research use"},
        "trees": [t.to_dict() for t in trees],
        "figures": report,
    }
    args.out.write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()[:16]
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, sha256 {digest}…), {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
