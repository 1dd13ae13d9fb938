"""Train the fast tier of the answerability judge (src/citewise/judge/weights/answerability-features-v1.json):
boosted trees (training/trees_fit.py) over the zero-token features of citewise.judge.features, one row per
sentence of a question's paragraph, label 1 for the sentence holding the answer.

Data (``--data licensed``, the default: only sets whose licence allows shipped weights, as the pair classifier's
model card requires): SQuAD 2.0 dev split by article title (training/judge_pairs.py: 70/15/15 train/dev/test;
CC BY-SA 4.0) — answerable and unanswerable questions, plus each answer sentence with its answer swapped for another
span of the paragraph as a negative; the train split of the constructed Vietnamese pairs
(training/answerability_synth.py, from the Pháp điển insurance topic: public legal text), each sentence read inside
its article. The rows are read without the language feature (held at 0; ``--language-flag`` keeps it), so the trees
read English and Vietnamese alike. ``--written all|worded|vi`` adds the train splits of the hand-written
answerability questions (training/sets/answerability_{written,policies}_{en,vi}.jsonl, read against their
provision; ``worded`` without the everyday wordings, ``vi`` the Vietnamese ones): measured in session 52 and not
shipped (docs/judge-training.md). ``--data viquad`` trains as sessions before 52 did, on ViQuAD 1.0 train (research
use: not for shipped weights) instead of the constructed pairs — kept to compare, never shipped.

Thresholds per language are chosen on dev at the score that answers 80 % of answerable dev questions (passage level:
the best sentence of the paragraph): EN on the SQuAD dev split, VI on ViQuAD 1.0 dev answerable questions against
vi_answerability dev unanswerable ones (neither set has a licence for training: used to choose the threshold, never
trained on). The written and constructed pairs' dev splits are reported beside them. Test figures are printed, never
used to choose.

    .venv/bin/python training/train_answerability.py [--out PATH] [--data licensed|viquad] [--vi-questions 6000]
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


def written_questions(split: str, skip: tuple[str, ...] = ()) -> list[jp.Question]:
    """The hand-written answerability questions of ``split``, each against its provision (``training/sets``), but
    those of the kinds in ``skip``."""
    out: list[jp.Question] = []
    for r in jp.written_answerability_rows():
        if r["split"] != split or r["kind"] in skip:
            continue
        passage, sentence = r["passage"], r["sentence"]
        answer = r.get("answer") or sentence
        start = passage.find(sentence) + sentence.find(answer)
        answers = [(start, answer)] if r["label"] else []
        out.append(jp.Question(r["id"], r["question"], passage, answers, [], "written-ans", split, r["lang"], r["doc"]))
    return out


def synth_rows(split: str) -> tuple[list[list[float]], list[int]]:
    """Feature rows of the constructed Vietnamese pairs of ``split`` (``training/answerability_synth.py``), each
    sentence read inside its article (a sentence made vague in place of the one it was made from)."""
    from training.answerability_synth import articles, synth_pairs

    texts = {article: " ".join(text.split()) for article, text in articles()}
    if not texts:
        return [], []
    x: list[list[float]] = []
    y: list[int] = []
    for pair in synth_pairs():
        if pair.split != split:
            continue
        text = texts.get(pair.article, pair.sentence)
        if pair.sentence not in text:  # a vague sentence: in place of its source, the sentence sharing most words
            spans = sentences(text)
            have = set(pair.sentence.lower().split())
            best = max(spans, key=lambda t: len(have & set(t[2].lower().split())), default=None)
            text = text.replace(best[2], pair.sentence, 1) if best is not None else pair.sentence
        x.append(pair_features(pair.question, question_type(pair.question), pair.sentence, text, "vi"))
        y.append(pair.label)
    return x, y


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
    ap.add_argument("--data", choices=("licensed", "viquad"), default="licensed")
    ap.add_argument("--vi-questions", type=int, default=6000, help="ViQuAD 1.0 train questions (--data viquad)")
    ap.add_argument(
        "--language-flag", action="store_true", help="train with the language feature (default: constant 0, blind)"
    )
    ap.add_argument(
        "--written",
        choices=("all", "worded", "vi", "none"),
        default="none",
        help="hand-written questions to add (--data licensed): all, all but the everyday wordings, Vietnamese only",
    )
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(7)
    squad = jp.squad2_questions()
    viquad = jp.viquad_questions()
    vi_ans = jp.vi_answerability_questions()
    train_q = [q for q in squad if q.split == "train"]
    if args.data == "viquad":
        vi_train = [q for q in viquad if q.split == "train"]
        rng.shuffle(vi_train)
        vi_train = vi_train[: args.vi_questions]
        trained_on = {"squad2 dev (train split by title)": "CC BY-SA 4.0", "viquad1 train": "research use"}
    else:
        vi_train = []
        trained_on = {
            "squad2 dev (train split by title)": "CC BY-SA 4.0",
            "synth-ans (training/answerability_synth.py, train split)": "constructed from the Pháp điển insurance "
            "topic (public legal text)",
        }
        if args.written != "none":
            skip = ("answer_everyday",) if args.written == "worded" else ()
            train_q += [q for q in written_questions("train", skip) if args.written != "vi" or q.lang == "vi"]
            trained_on[f"training/sets answerability_{{written,policies}} (train split; {args.written})"] = (
                "written for the project: sentences of GDPR / EU AI Act (EU reuse decision), of the Pháp điển (public "
                "legal text) and of fictional policies"
            )
    answers_by_ctx: dict[str, list[str]] = {}
    for q in vi_train + train_q:
        answers_by_ctx.setdefault(q.context, []).extend(a for _, a in q.answers)
    x: list[list[float]] = []
    y: list[int] = []
    for q in train_q + vi_train:
        swap = swapped_sentence(q, answers_by_ctx.get(q.context, []), rng) if q.dataset != "written-ans" else None
        qx, qy = rows_of(q, swap)
        x += qx
        y += qy
    if args.data == "licensed":
        sx, sy = synth_rows("train")
        x += sx
        y += sy
    xa, ya = np.array(x, dtype=np.float64), np.array(y, dtype=np.float64)
    w = np.where(ya == 1, (len(ya) - ya.sum()) / max(1, ya.sum()), 1.0) ** 0.5
    vi_col = FEATURES.index("vi")
    vi_rows = xa[:, vi_col] > 0
    if not args.language_flag:
        xa[:, vi_col] = 0.0
    print(
        f"{args.data}: {len(train_q)} EN/written + {len(vi_train)} ViQuAD questions, {len(ya)} sentences "
        f"({int(ya.sum())} answer; {int(vi_rows.sum())} Vietnamese), {time.time() - t0:.0f} s",
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
    for lang in ("en", "vi"):
        labels, scores = passage_scores(model, [q for q in written_questions("dev") if q.lang == lang])
        report[f"dev_written_{lang}"] = {
            "questions": len(labels),
            "auc": round(auc(scores, labels), 4),
            "refused_unanswerable_at_threshold": round(float(np.mean(scores[labels == 0] < thresholds[lang])), 4),
            "answered_at_threshold": round(float(np.mean(scores[labels == 1] >= thresholds[lang])), 4),
        }
        print(lang, "written dev", report[f"dev_written_{lang}"], flush=True)
    sx, sy = synth_rows("dev")
    if sx:
        z = predict_log_odds(model["trees_obj"], model["base"], np.array(sx), model["rate"])
        report["dev_synth_vi_pairs"] = {"pairs": len(sy), "auc": round(auc(1 / (1 + np.exp(-z)), np.array(sy)), 4)}
        print("synth dev", report["dev_synth_vi_pairs"], flush=True)
    vi_dev_all = [q for q in vi_ans if q.split == "dev"]
    labels, scores = passage_scores(model, vi_dev_all)
    report["dev_vi_answerability"] = {"questions": len(labels), "auc": round(auc(scores, labels), 4)}
    print("vi_answerability dev file", report["dev_vi_answerability"], flush=True)
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
        "trained_on": trained_on,
        "trees": [t.to_dict() for t in trees],
        "figures": report,
    }
    args.out.write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()[:16]
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, sha256 {digest}…), {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
