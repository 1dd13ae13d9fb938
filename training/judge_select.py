"""Choose how the pair classifier is used, on dev data only, and write the choice into the run's manifest.

For the dev questions of SQuAD 2.0 (title split, EN) and of the Vietnamese answerability set (its dev file, VI),
every judged sentence gets the fast tier's score (``FeatureJudge.candidates``, exactly as at run time) and the
fast tier's best ``TOP_MAX`` get the pair classifier's score. Variants of ``TieredJudge`` (how many of the fast
tier's best sentences the pair classifier reads, the unsure band, the mix) are scored offline by passage-level AUC
(answerable vs not, score = best sentence) and the refusal of unanswerable questions at an 80 % answer rate; the
best by mean AUC over the two sets (the one reading the fewest sentences among those within ``AUC_TIE``) is written into ``<run>/ship/pair-judge.json`` as ``judges.tiered``, the pure
pair classifier on the fast tier's best sentences as ``judges.pair``, each with per-language thresholds at an
80 % answer rate. Support: the shipped zero-token scorer vs the pair classifier on the dev pairs.

    python training/judge_select.py --run r1 [--n-squad 200 --n-vi 150]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for _p in (str(ROOT / "src"), str(ROOT)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from citewise.evaluate.classification import auc  # noqa: E402
from citewise.judge.answerability import FeatureJudge  # noqa: E402
from citewise.judge.pair import MANIFEST, PairClassifier  # noqa: E402
from citewise.judge.qtype import question_type, states_value  # noqa: E402
from citewise.judge.records import Passage  # noqa: E402
from training import judge_pairs as jp  # noqa: E402
from training.e5_torch import RUNS  # noqa: E402
from training.train_judge import log, refusal_at_answer_rate  # noqa: E402

TOP_MAX = 8
AUC_TIE = 0.005
"""Mean dev AUCs this close are a tie (n = 200 + 150 questions: one AUC's standard error is ~0.035); the cheaper
variant is chosen."""


def sample(questions: list[jp.Question], n: int, seed: int = 5) -> list[jp.Question]:
    return sorted(questions, key=lambda q: hashlib.md5(f"{seed}:{q.qid}".encode()).hexdigest())[:n]


def score_questions(fast: FeatureJudge, clf: PairClassifier, qs: list[jp.Question]) -> list[dict[str, Any]]:
    rows = []
    t0 = time.time()
    for i, q in enumerate(qs):
        passages = [Passage(p) for p in q.context.split("\n") if p.strip()]
        _, cands = fast.candidates(q.question, passages, q.lang)
        top = cands[:TOP_MAX]
        pair = clf.score_pairs(q.question, [c.reading for c in top]) if top else []
        qtype = question_type(q.question)
        typed = [states_value(qtype, c.text) for c in top]
        rows.append(
            {"label": int(q.answerable), "lang": q.lang, "fast": [c.score for c in top], "pair": pair, "typed": typed}
        )
        if (i + 1) % 50 == 0:
            log(f"  {i + 1}/{len(qs)} ({(time.time() - t0) / (i + 1):.2f} s/question)")
    return rows


def tiered_score(row: dict[str, Any], top: int, band: tuple[float, float], mix: float, typed: bool = False) -> float:
    """``TieredJudge``'s score from the row's fast-tier and pair scores (``typed``: only the sentences stating a
    value of a value question's type, when any; ``typed`` is all true for other questions)."""
    fast, pair = row["fast"], row["pair"]
    if not fast:
        return 0.0
    if not band[0] <= fast[0] < band[1]:
        return float(fast[0])
    idx = list(range(len(fast)))
    if typed and any(row.get("typed", [])):
        idx = [i for i, t in enumerate(row["typed"]) if t]
    idx = idx[:top]
    return float(max((1 - mix) * pair[i] + mix * fast[i] for i in idx))


def figures(rows: list[dict[str, Any]], scores: list[float]) -> dict[str, float]:
    y, s = np.array([r["label"] for r in rows]), np.array(scores)
    return {"auc": auc(s, y), "refuse@ans0.8": refusal_at_answer_rate(y, s, 0.8)}


def threshold_at(rows: list[dict[str, Any]], scores: list[float], rate: float = 0.8) -> float:
    pos = np.sort(np.array([s for r, s in zip(rows, scores, strict=True) if r["label"] == 1]))
    return float(pos[int(np.floor((1 - rate) * len(pos)))]) if len(pos) else 0.5


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--n-squad", type=int, default=200)
    ap.add_argument("--n-vi", type=int, default=150)
    ap.add_argument("--n-sup", type=int, default=150, help="dev support items per data set")
    args = ap.parse_args()
    ship = RUNS / args.run / "ship"
    clf, fast = PairClassifier(ship), FeatureJudge()
    sets = {
        "squad2-dev": sample([q for q in jp.squad2_questions() if q.split == "dev"], args.n_squad),
        "vi_ans-dev": sample([q for q in jp.vi_answerability_questions() if q.split == "dev"], args.n_vi),
    }
    rows: dict[str, list[dict[str, Any]]] = {}
    for name, qs in sets.items():
        log(f"scoring {name}: {len(qs)} questions")
        rows[name] = score_questions(fast, clf, qs)
    variants: dict[str, tuple[int, tuple[float, float], float, bool]] = {"fast": (0, (2.0, 3.0), 0.0, False)}
    for top in (1, 3, 5, 8):
        for mix in (0.0, 0.25, 0.5, 0.75):
            for band in ((0.0, 1.01), (0.1, 0.9), (0.2, 0.8)):
                for typed in (False, True):
                    name = f"top{top} mix{mix} band{band[0]}-{band[1]}{' typed' if typed else ''}"
                    variants[name] = (top, band, mix, typed)
    report: dict[str, dict[str, Any]] = {}
    for vname, (top, band, mix, typed) in variants.items():
        r: dict[str, Any] = {}
        for name, rs in rows.items():
            r[name] = figures(rs, [tiered_score(x, top, band, mix, typed) for x in rs])
        r["mean_auc"] = float(np.mean([r[n]["auc"] for n in rows]))
        report[vname] = r
    ranked = sorted(report, key=lambda v: -report[v]["mean_auc"])
    # the pair classifier costs ~35 ms per sentence on 2 cores: among variants within AUC_TIE of the best mean
    # AUC, the one reading the fewest sentences (then the best)
    top_auc = max(report[v]["mean_auc"] for v in ranked if v != "fast")
    tied = [v for v in ranked if v != "fast" and report[v]["mean_auc"] >= top_auc - AUC_TIE]
    # at equal cost and AUC the typed variant: a value question is then judged on a sentence stating a value, which
    # the answer stage quotes as the direct answer (dev AUC cannot see which sentence was chosen)
    cheapest = min(tied, key=lambda v: (variants[v][0], -round(report[v]["mean_auc"], 4), not variants[v][3]))
    for v in [*ranked[:12], "fast", "top8 mix0.0 band0.0-1.01"]:
        r = report[v]
        log(
            f"{v:32} mean AUC {r['mean_auc']:.3f} "
            + " ".join(f"{n} {r[n]['auc']:.3f}/{r[n]['refuse@ans0.8']:.2f}" for n in rows)
        )
    best = cheapest
    manifest = json.loads((ship / MANIFEST).read_text())
    judges = {}
    for jname, v in (("pair", "top8 mix0.0 band0.0-1.01"), ("tiered", best)):
        top, band, mix, typed = variants[v]
        thr = {}
        for name, lang in (("squad2-dev", "en"), ("vi_ans-dev", "vi")):
            thr[lang] = threshold_at(rows[name], [tiered_score(x, top, band, mix, typed) for x in rows[name]])
        judges[jname] = {"variant": v, "top": top, "band": list(band), "mix": mix, "typed": typed, "thresholds": thr}
    manifest["judges"] = judges
    manifest["dev"] = {v: report[v] for v in ("fast", "top8 mix0.0 band0.0-1.01", best)}
    (ship / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    (RUNS / args.run / "select.json").write_text(json.dumps({"report": report, "judges": judges}, indent=1))
    log("chosen:", json.dumps(judges))
    support_dev(clf, args.n_sup, RUNS / args.run / "select-support.json")


def support_dev(clf: PairClassifier, n: int, out: Path) -> None:
    """Dev AUC per data set: the shipped zero-token support scorer vs the pair classifier (best window)."""
    from citewise.verify.scorer import get_scorer

    trees = get_scorer("trained")
    items = [it for it in jp.support_items() if it.split == "dev"]
    res: dict[str, Any] = {}
    for ds in sorted({it.dataset for it in items}):
        part = sample_items([it for it in items if it.dataset == ds], n)
        y = np.array([it.label for it in part])
        f = np.array([trees.score(it.claim, it.source).score for it in part])
        p = np.array([clf.supports(it.claim, it.source) for it in part])
        res[ds] = {"n": len(part), "pos": int(y.sum()), "fast_auc": auc(f, y), "pair_auc": auc(p, y)}
        log(f"support {ds:12} n={len(part)} fast AUC {res[ds]['fast_auc']:.3f} pair AUC {res[ds]['pair_auc']:.3f}")
    out.write_text(json.dumps(res, indent=1))


def sample_items(items: list[jp.SupportItem], n: int) -> list[jp.SupportItem]:
    return sorted(items, key=lambda it: hashlib.md5(f"5:{it.group}:{it.claim}".encode()).hexdigest())[:n]


if __name__ == "__main__":
    main()
