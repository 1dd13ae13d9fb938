"""Answerability: does the evidence state the answer? The shipped judge on questions written about the very
paragraph that does not answer them (SQuAD 2.0 / UIT-ViQuAD 2.0 style) and on legal near-misses we wrote.

Sets (never trained on; the SQuAD 2.0 test split is by article title, training/judge_pairs.py):
- squad2-test: SQuAD 2.0 dev, test titles (EN, about half unanswerable);
- vi-answerability-test: the Vietnamese SQuAD 2.0-format set's train file (VI; no stated licence: evaluation only);
- answerability-en / -vi: the 500-row samples of ../shared/data/answerability (several paragraphs per question);
  the Vietnamese sample's labels are mostly the wrong way round (bench/urasys_labels.py), so its rows measure
  nothing; answerability-vi-relabelled is the same sample labelled by provenance (in-sample for the pair
  classifier: its paragraphs are UIT-ViQuAD 1.0 train paragraphs);
- legal-nearmiss: bench/sets/legal_nearmiss.jsonl (EN + VI, written for this project: a provision and questions it
  answers or nearly answers).
Per set: AUC of the judge's score (answerable vs not), the operating point at the shipped thresholds (answer rate
of answerable questions, share of unanswerable ones not answered, gold answer inside the chosen sentence), the
curve of refusal vs answer rate, and milliseconds per question.

    .venv/bin/python bench/judge.py [--limit N] [--judge features,pair,tiered] [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: training/

from training import judge_pairs as jp

import urasys_labels  # bench/urasys_labels.py
from citewise.evaluate.classification import auc
from citewise.judge.answerability import JUDGES, AnswerabilityJudge
from citewise.judge.records import Passage
from citewise.lang import folded_words
from common import (  # bench/common.py
    command_line,
    machine,
    md_table,
    read_results,
    write_results,
    write_section,
)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "judge.json"
NEARMISS = ROOT / "bench" / "sets" / "legal_nearmiss.jsonl"
CONTRAST = ROOT / "bench" / "sets" / "support_contrast.jsonl"


Item = tuple[str, str, list[Passage], bool, str]
"""(question, lang, passages, answerable, gold answer)."""


def _items(qs: list[jp.Question], limit: int | None) -> list[Item]:
    out = []
    for q in spread(qs, limit):
        passages = [Passage(p) for p in q.context.split("\n") if p.strip()]
        out.append((q.question, q.lang, passages, q.answerable, q.answers[0][1] if q.answers else ""))
    return out


def dev_sets(limit: int | None) -> dict[str, list[Item]]:
    """The dev splits thresholds are chosen on: SQuAD 2.0 dev titles, the Vietnamese set's dev file, and the dev
    policies of the hand-written insurance-policy questions (``training/sets/answerability_policies_*``: two
    fictional policies per language never trained on by the shipped run, questions each provision answers and
    near-misses it does not)."""
    out = {
        "squad2-dev": _items([q for q in jp.squad2_questions() if q.split == "dev"], limit),
        "vi-answerability-dev": _items([q for q in jp.vi_answerability_questions() if q.split == "dev"], limit),
    }
    for lang in ("en", "vi"):
        path = jp.WRITTEN_ANS / f"answerability_policies_{lang}.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        out[f"policies-dev-{lang}"] = [
            (r["question"], lang, [Passage(r["passage"], 0, r["provision"])], bool(r["label"]), r.get("answer") or "")
            for r in spread([r for r in rows if r["split"] == "dev"], limit)
        ]
    return out


def sets(limit: int | None) -> dict[str, list[Item]]:
    """name -> (question, lang, passages, answerable, gold answer) items: the sets never tuned on."""

    squad = [q for q in jp.squad2_questions() if q.split == "test"]
    vi = [q for q in jp.vi_answerability_questions() if q.split == "test"]
    urasys = jp.urasys_questions()
    out = {
        "squad2-test": _items(squad, limit),
        "vi-answerability-test": _items(vi, limit),
        "answerability-en": _items([q for q in urasys if q.lang == "en"], limit),
        "answerability-vi": _items([q for q in urasys if q.lang == "vi"], limit),
        "answerability-vi-relabelled": [
            (q, "vi", [Passage(p) for p in ctx.split("\n") if p.strip()], ok, gold)
            for q, ctx, ok, gold in spread(urasys_labels.relabelled(urasys_labels.provenance()), limit)
        ],
    }
    if NEARMISS.exists():
        rows = [json.loads(line) for line in NEARMISS.read_text(encoding="utf-8").splitlines() if line.strip()]
        out["legal-nearmiss"] = [
            (r["question"], r["lang"], [Passage(r["passage"], 0, r.get("provision", ""))], bool(r["answerable"]),
             r.get("answer") or "")
            for r in spread(rows, limit)
        ]  # fmt: skip
    return out


def spread(rows: list[Any], limit: int | None) -> list[Any]:
    """At most ``limit`` rows drawn across the whole set (a fixed shuffle, seed 7, kept in file order), so a limit
    still covers every article and both labels (every k-th row can fall on one label in an interleaved file)."""
    if limit is None or len(rows) <= limit:
        return rows
    keep = sorted(random.Random(7).sample(range(len(rows)), limit))
    return [rows[i] for i in keep]


def run_set(judge: AnswerabilityJudge, items: list[tuple[str, str, list[Passage], bool, str]]) -> dict[str, Any]:
    labels, scores, answered, refused, gold_in, ms = [], [], [], [], [], []
    by_lang: dict[str, list[int]] = {}
    for i, (question, lang, passages, answerable, gold) in enumerate(items):
        t = time.perf_counter()
        judged = judge.judge(question, passages, lang)
        ms.append((time.perf_counter() - t) * 1000)
        ok = judged.answers(judge.threshold(lang))
        labels.append(int(answerable))
        scores.append(judged.score)
        by_lang.setdefault(lang, []).append(i)
        if answerable:
            answered.append(ok)
            if ok and gold and judged.span is not None:
                gold_in.append(folded_words(gold) in folded_words(judged.span.text))
        else:
            refused.append(not ok)
    y, s = np.array(labels), np.array(scores)
    curve = []
    if (y == 1).any():
        for rate in (0.5, 0.6, 0.7, 0.8, 0.9):
            thr = float(np.quantile(s[y == 1], 1 - rate))
            curve.append({"answer_rate": rate, "not_answered_unanswerable": round(float(np.mean(s[y == 0] < thr)), 4)})
    return {
        "questions": len(items),
        "answerable": int(y.sum()),
        "auc": round(auc(s, y), 4),
        "answer_rate": round(float(np.mean(answered)), 4) if answered else None,
        "not_answered_unanswerable": round(float(np.mean(refused)), 4) if refused else None,
        "gold_in_sentence": round(float(np.mean(gold_in)), 4) if gold_in else None,
        "curve": curve,
        "ms_p50": round(float(np.percentile(ms, 50)), 2),
        "ms_p95": round(float(np.percentile(ms, 95)), 2),
        "langs": {k: len(v) for k, v in by_lang.items()},
    }


def support_contrast(scorer_name: str = "trained") -> dict[str, Any]:
    """The support scorer on bench/sets/support_contrast.jsonl: restatements must pass, swapped figures,
    parties, negations, modality and exceptions must fail. AUC, precision/recall at the shipped thresholds,
    and the share judged right per kind."""
    from citewise.figures import unsupported_numbers
    from citewise.verify.scorer import get_scorer

    scorer = get_scorer(scorer_name)
    rows = [json.loads(line) for line in CONTRAST.read_text(encoding="utf-8").splitlines() if line.strip()]
    labels, scores, passed, kinds = [], [], [], {}
    for r in rows:
        # the figure check runs with the scorer in the validator (as in bench/verify.py): a missing figure fails
        sc = 0.0 if unsupported_numbers(r["claim"], [r["premise"]]) else scorer.score(r["claim"], r["premise"]).score
        ok = sc >= scorer.thresholds(r["lang"])[0]
        label = int(r["label"] == "supported")
        labels.append(label)
        scores.append(sc)
        passed.append(ok)
        k = kinds.setdefault(r["kind"], [0, 0])
        k[0] += int(ok == bool(label))
        k[1] += 1
    y, s_, p_ = np.array(labels), np.array(scores), np.array(passed)
    tp = int((p_ & (y == 1)).sum())
    return {
        "pairs": len(rows),
        "auc": round(auc(s_, y), 4),
        "precision": round(tp / max(1, int(p_.sum())), 4),
        "recall": round(tp / max(1, int(y.sum())), 4),
        "right_by_kind": {k: round(a / n, 4) for k, (a, n) in sorted(kinds.items())},
        "by_lang_auc": by_lang_auc(rows, y, s_),
    }


def by_lang_auc(rows: list[dict[str, Any]], y: np.ndarray, s: np.ndarray) -> dict[str, float]:
    return {
        lang: round(auc(s[idx], y[idx]), 4)
        for lang in ("en", "vi")
        if len(idx := np.array([i for i, r in enumerate(rows) if r["lang"] == lang])) > 0
    }


def support_contrast_pair() -> dict[str, Any] | None:
    """The pair classifier's support output (``PairClassifier.supports``) on the same contrast set: AUC only
    (it has no shipped support threshold), and ms per pair."""
    from citewise.judge.pair import PairClassifier, available

    if not available():
        return None
    clf = PairClassifier()
    rows = [json.loads(line) for line in CONTRAST.read_text(encoding="utf-8").splitlines() if line.strip()]
    t = time.perf_counter()
    s = np.array([clf.supports(r["claim"], r["premise"]) for r in rows])
    ms = (time.perf_counter() - t) * 1000 / max(1, len(rows))
    y = np.array([int(r["label"] == "supported") for r in rows])
    return {"pairs": len(rows), "auc": round(auc(s, y), 4), "by_lang_auc": by_lang_auc(rows, y, s), "ms": round(ms, 1)}


def markdown(results: dict[str, Any]) -> list[str]:
    m = results["machine"]
    judges = results.get("judges") or [results["judge"]]
    by_set = results["by_judge"] if "by_judge" in results else {judges[0]: results["sets"]}
    rows, curve = [], []
    for name in by_set[judges[0]]:
        for j in judges:
            r = by_set[j][name]
            rows.append(
                [name, j, str(r["questions"]), str(r["answerable"]), f"{r['auc']:.3f}", str(r["answer_rate"]),
                 str(r["not_answered_unanswerable"]), str(r["gold_in_sentence"]), f"{r['ms_p50']:.0f} / {r['ms_p95']:.0f}"]
            )  # fmt: skip
            curve.append([name, j, *(f"{c['not_answered_unanswerable']:.2f}" for c in r["curve"])])
    limit = results.get("limit")
    sample = f" At most {limit} questions per set, taken evenly across it (`--limit`)." if limit else ""
    return [
        "## Answerability (judge)",
        "",
        f"`{m['command']}` · judges {', '.join(f'`{j}`' for j in judges)} · {m['date']} · {m['cores']} cores, load "
        f"{m['loadavg']} · {m['revision']}. Sets never trained or tuned on (bench/judge.py names them).{sample} "
        "`features` is the fast zero-token tier; `pair` the fine-tuned e5-small pair classifier "
        "(docs/judge-model-card.md) deciding alone on the fast tier's best sentences; `tiered` the fast tier with the "
        "pair classifier in its unsure band (how, chosen on dev data: the model card). At each judge's "
        "per-language thresholds: answer rate of answerable questions, share of unanswerable ones not answered (no "
        "direct answer or refusal), and how often the gold answer is inside the sentence the judge chose.",
        "",
        md_table(
            [
                "set",
                "judge",
                "questions",
                "answerable",
                "AUC",
                "answered",
                "unanswerable not answered",
                "gold in sentence",
                "ms p50 / p95",
            ],
            rows,
        ),
        "",
        "`answerability-vi`'s labels are mostly the wrong way round (bench/urasys_labels.py), so its rows say nothing"
        " of the judge; `answerability-vi-relabelled` is the same sample labelled by provenance, in-sample for the"
        " pair classifier (its paragraphs are UIT-ViQuAD 1.0 train paragraphs).",
        "",
        "Operating curve: share of unanswerable questions not answered at a threshold answering this share of the "
        "answerable ones.",
        "",
        md_table(["set", "judge", "answer 0.5", "0.6", "0.7", "0.8", "0.9"], curve),
        "",
        *support_lines(results.get("support"), results.get("support_pair")),
    ]


def support_lines(sup: dict[str, Any] | None, pair: dict[str, Any] | None = None) -> list[str]:
    from citewise.verify.scorer import DEFAULT_WEIGHTS

    if not sup:
        return []
    kinds = [[k, f"{v:.2f}"] for k, v in sup["right_by_kind"].items()]
    pair_line = (
        [
            f"The pair classifier's support output on the same set: AUC {pair['auc']} (EN "
            f"{pair['by_lang_auc'].get('en')}, VI {pair['by_lang_auc'].get('vi')}), {pair['ms']} ms per pair.",
            "",
        ]
        if pair
        else []
    )
    return [
        f"Support (the shipped scorer, `verify/weights/{DEFAULT_WEIGHTS}`) on the constructed contrast set "
        f"bench/sets/support_contrast.jsonl ({sup['pairs']} pairs, EN + VI, written for this project): AUC "
        f"{sup['auc']} (EN {sup['by_lang_auc'].get('en')}, VI {sup['by_lang_auc'].get('vi')}); at the shipped "
        f'thresholds precision of "supported" {sup["precision"]}, recall {sup["recall"]}. Share judged right '
        "per kind (restatements should pass, every other kind should fail):",
        "",
        md_table(["kind", "right"], kinds),
        "",
        *pair_line,
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--limit", type=int, default=None, help="at most N questions per set (taken evenly)")
    ap.add_argument("--judge", default="features", help="one judge or several, comma-separated, run side by side")
    ap.add_argument("--write-docs", action="store_true", help="write the docs section even with --limit")
    ap.add_argument("--docs-only", action="store_true", help="rewrite the docs section from the last results")
    ap.add_argument("--out", default="", help="write the results here instead (docs untouched)")
    args = ap.parse_args()
    if args.docs_only:
        old = read_results(RESULTS)
        old["support"] = support_contrast()
        write_results(RESULTS, old)
        write_section("Answerability (judge)", markdown(old))
        return
    names = [n.strip() for n in args.judge.split(",") if n.strip()]
    judges = {n: JUDGES.create(n) for n in names}
    results: dict[str, Any] = {
        "machine": machine(command_line("judge.py", None)),
        "judges": names,
        "limit": args.limit,
        "by_judge": {n: {} for n in names},
    }
    for name, items in sets(args.limit).items():
        for jname, judge in judges.items():
            res = run_set(judge, items)
            results["by_judge"][jname][name] = res
            print(
                f"{name:24s} {jname:9s} n={res['questions']:5d} AUC {res['auc']:.3f} answered {res['answer_rate']} "
                f"not-answered(unanswerable) {res['not_answered_unanswerable']} gold-in {res['gold_in_sentence']} "
                f"p50 {res['ms_p50']} ms",
                flush=True,
            )
    results["support"] = support_contrast()
    print("support contrast", json.dumps(results["support"]), flush=True)
    if any(n != "features" for n in names):
        results["support_pair"] = support_contrast_pair()
        print("support contrast (pair classifier)", json.dumps(results["support_pair"]), flush=True)
    if args.out:
        write_results(Path(args.out), results)
        return
    write_results(RESULTS, results)
    if args.limit is None or args.write_docs:
        write_section("Answerability (judge)", markdown(results))


if __name__ == "__main__":
    main()
