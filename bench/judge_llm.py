"""The LLM tier of the answerability judge (judge/llm.py): what asking the local model "does this passage state the
answer to this exact question? Yes/No" gains inside a band around the threshold, and what it costs.

1. The shipped judge (``tiered``) scores every question of the dev sets of bench/judge.py (``dev_sets``: SQuAD 2.0
   dev titles, the Vietnamese set's dev file, the dev insurance policies EN + VI) and of its held-out sets
   (SQuAD 2.0 test titles, the Vietnamese set's test file, the legal near-misses); ``--limit`` per set.
2. The LLM reads every question whose score is within ``--width`` of its language's threshold (the judge's
   sentence with its passage around it, at most 600 characters). Answers are cached by prompt in
   ``.bench-cache/judge_llm/<model>.jsonl``, so a stopped run resumes.
3. Per language, the band (below, above the threshold) and the P(Yes) cut are chosen on the dev sets only: the most
   unanswerable questions not answered, each dev set weighing the same, with no fewer answerable ones answered
   than the judge alone answers minus 0.02 (a tie goes to the narrower band: fewer LLM calls).
4. The held-out sets are scored with the chosen band and cut, against the judge alone on the same questions.

    .venv/bin/python bench/judge_llm.py [--model qwen2.5-coder-1.5b] [--limit 120] [--test-limit N] [--width 0.5]
        [--write-docs] [--report]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import judge as bench_judge  # bench/judge.py
from citewise.answer.models import model_path
from citewise.evaluate.classification import auc
from citewise.judge.answerability import JUDGES, AnswerabilityJudge
from citewise.judge.llm import Judgement, YesNoReader, answerable_messages, banded, in_band, passage_around
from citewise.lang import folded_words
from common import command_line, loadavg, log, machine, md_table, write_results, write_section

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "judge_llm.json"
CACHE = ROOT / ".bench-cache" / "judge_llm"
STEPS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
CUTS = tuple(round(x, 2) for x in np.arange(0.2, 0.96, 0.05))
TOLERANCE = 0.02


def key(messages: list[dict[str, str]]) -> str:
    return hashlib.sha256(json.dumps(messages, ensure_ascii=False).encode("utf-8")).hexdigest()[:24]


class Cached:
    """The reader's answers by prompt, appended to a JSONL file as they come."""

    def __init__(self, reader: YesNoReader, path: Path) -> None:
        self.reader, self.path = reader, path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.seen: dict[str, dict[str, Any]] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.seen[row["key"]] = row

    def ask(self, messages: list[dict[str, str]]) -> tuple[Judgement, bool]:
        k = key(messages)
        if k in self.seen:
            r = self.seen[k]
            return Judgement(r["p_yes"], r["mass"], r["prompt_tokens"], r["seconds"]), True
        j = self.reader.ask(messages)
        row = {"key": k, "p_yes": j.p_yes, "mass": j.mass, "prompt_tokens": j.prompt_tokens, "seconds": j.seconds}
        self.seen[k] = row
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        return j, False


def score_set(
    items: list[Any], inner: AnswerabilityJudge, cached: Cached, width: float, name: str
) -> list[dict[str, Any]]:
    """The judge's score of every item, and the LLM's P(Yes) where the score is within ``width`` of the
    threshold."""
    rows = []
    for i, (question, lang, passages, answerable, gold) in enumerate(items):
        judged = inner.judge(question, passages, lang)
        thr = inner.threshold(lang)
        row: dict[str, Any] = {
            "lang": lang,
            "answerable": bool(answerable),
            "score": judged.score,
            "threshold": thr,
            "gold_in": bool(gold and judged.span and folded_words(gold) in folded_words(judged.span.text)),
        }
        if judged.span is not None and abs(judged.score - thr) <= width:
            j, hit = cached.ask(answerable_messages(question, passage_around(judged, passages), lang))
            row.update(p_yes=j.p_yes, mass=j.mass, prompt_tokens=j.prompt_tokens, seconds=j.seconds, cached=hit)
        rows.append(row)
        if (i + 1) % 20 == 0:
            asked = sum("p_yes" in r for r in rows)
            log(f"{name}: {i + 1}/{len(items)} judged, {asked} asked the LLM, load {loadavg()[0]}")
    return rows


Band = tuple[float, float, float]
"""(below, above, P(Yes) cut)."""


def asked(row: dict[str, Any], band: Band | None) -> bool:
    """Whether the LLM decides ``row`` with ``band`` (it was asked, and the judge's score is inside the band)."""
    return band is not None and "p_yes" in row and in_band(row["score"], row["threshold"], band[0], band[1])


def tiered_score(row: dict[str, Any], band: Band) -> float:
    """The row's score with the LLM deciding inside ``band`` (as ``LlmTier`` does)."""
    if not asked(row, band):
        return float(row["score"])
    return banded(float(row["p_yes"]), row["threshold"], *band)


def outcome(rows: list[dict[str, Any]], bands: dict[str, Band] | None) -> dict[str, Any]:
    """The operating point of ``rows`` with the LLM deciding inside each language's band (``None``: the judge
    alone)."""
    band = [bands.get(r["lang"]) if bands else None for r in rows]
    s = np.array([tiered_score(r, b) if b else r["score"] for r, b in zip(rows, band, strict=True)])
    y = np.array([r["answerable"] for r in rows], dtype=int)
    answered = s >= np.array([r["threshold"] for r in rows])
    calls = [r for r, b in zip(rows, band, strict=True) if asked(r, b)]
    gold = [r["gold_in"] for r, a in zip(rows, answered, strict=True) if a and r["answerable"]]
    return {
        "questions": len(rows),
        "answerable": int(y.sum()),
        "auc": round(auc(s, y), 4) if 0 < y.sum() < len(y) else None,
        "answer_rate": round(float(answered[y == 1].mean()), 4) if y.any() else None,
        "not_answered_unanswerable": round(float((~answered[y == 0]).mean()), 4) if (y == 0).any() else None,
        "gold_in_sentence": round(float(np.mean(gold)), 4) if gold else None,
        "llm_share": round(len(calls) / len(rows), 4),
        "llm_seconds_p50": round(float(np.median([r["seconds"] for r in calls])), 2) if calls else None,
    }


def choose(dev: dict[str, list[dict[str, Any]]], lang: str) -> dict[str, Any]:
    """The band and cut for ``lang`` on its dev sets (the module's rule)."""
    sets = {n: [r for r in rows if r["lang"] == lang] for n, rows in dev.items()}
    sets = {n: rows for n, rows in sets.items() if rows}
    base = {n: outcome(rows, None) for n, rows in sets.items()}
    floor = np.mean([b["answer_rate"] for b in base.values()]) - TOLERANCE
    best: tuple[float, float, Band] | None = None
    for below, above, cut in itertools.product(STEPS, STEPS, CUTS):
        outs = [outcome(rows, {lang: (below, above, cut)}) for rows in sets.values()]
        rate = float(np.mean([o["answer_rate"] for o in outs]))
        if rate < floor:
            continue
        gain = float(np.mean([o["not_answered_unanswerable"] for o in outs]))
        cost = float(np.mean([o["llm_share"] for o in outs]))
        cand = (round(gain, 4), -cost, (below, above, cut))
        if best is None or cand[:2] > best[:2]:
            best = cand
    assert best is not None  # (0, 0, any) keeps the judge's own decisions
    below, above, cut = best[2]
    return {
        "below": below,
        "above": above,
        "p_yes": cut,
        "dev_sets": list(sets),
        "dev_judge_alone": base,
        "dev_with_llm": {n: outcome(rows, {lang: best[2]}) for n, rows in sets.items()},
    }


def markdown(res: dict[str, Any]) -> list[str]:
    m = res["machine"]
    lines = [
        f"`{m['command']}` · {m['date']} · {m['cpu']}, {m['cores']} cores · {m['revision']} · load before "
        f"{res['load_before']}, after {res['load_after']}. {res['limit']} questions per dev set, "
        f"{res.get('test_limit', res['limit'])} per held-out set (taken evenly, as bench/judge.py --limit takes them). "
        f"Model {res['model']}; the LLM was asked about questions "
        f"whose `tiered` score was within {res['width']} of the threshold ({res['calls']} prompts, "
        f"{res['fresh']} run fresh, p50 {res['seconds_p50']} s each, {res['prompt_tokens_p50']} prompt tokens).",
        "",
        "Chosen on the dev sets only (per language: the most unanswerable questions not answered, with no fewer "
        f"answerable ones answered than the judge alone minus {TOLERANCE}):",
        "",
    ]
    rows = []
    for lang, c in res["chosen"].items():
        alone = c["dev_judge_alone"]
        withl = c["dev_with_llm"]
        for n in c["dev_sets"]:
            rows.append([
                lang, f"[thr − {c['below']}, thr + {c['above']}), P(Yes) ≥ {c['p_yes']}", n,
                f"{alone[n]['answer_rate']} → {withl[n]['answer_rate']}",
                f"{alone[n]['not_answered_unanswerable']} → {withl[n]['not_answered_unanswerable']}",
                str(withl[n]["llm_share"]),
            ])  # fmt: skip
    lines.append(md_table(["lang", "band, cut", "dev set", "answered", "unanswerable not answered", "LLM asked"], rows))
    lines += [
        "",
        "Held out (never tuned on): the judge alone → with the LLM tier, the same questions. *Judge alone at the same "
        "answer rate*: the judge's own curve (its thresholds moved until it answers as many answerable questions as "
        "the tier does), the fair comparison for the tier's share of unanswerable questions not answered.",
        "",
    ]
    rows = []
    for n, r in res["test"].items():
        a, b = r["judge_alone"], r["with_llm"]
        rows.append([
            n, str(a["questions"]), f"{a['auc']} → {b['auc']}", f"{a['answer_rate']} → {b['answer_rate']}",
            f"{a['not_answered_unanswerable']} → {b['not_answered_unanswerable']}",
            str(alone_at_rate(res["test_rows"][n], b["answer_rate"])),
            f"{a['gold_in_sentence']} → {b['gold_in_sentence']}", str(b["llm_share"]), str(b["llm_seconds_p50"]),
        ])  # fmt: skip
    lines.append(md_table(
        ["set", "questions", "AUC", "answered", "unanswerable not answered", "judge alone at the same answer rate",
         "gold in sentence", "LLM asked",
         "s per LLM call p50"],
        rows,
    ))  # fmt: skip
    lines += ["", "P(Yes) alone inside the widest band (AUC answerable vs not, n): " + ", ".join(
        f"{n} {r['llm_auc_in_width']} (judge {r['judge_auc_in_width']}, {r['in_width']})" for n, r in res["test"].items()
    )]  # fmt: skip
    return lines


def alone_at_rate(rows: list[dict[str, Any]], rate: float | None) -> float | None:
    """Share of unanswerable questions the judge alone leaves unanswered with its thresholds moved (by one offset
    for every language) so that it answers ``rate`` of the answerable ones: the tier against the judge's own
    curve at the same answer rate."""
    margin = np.array([r["score"] - r["threshold"] for r in rows])
    y = np.array([r["answerable"] for r in rows], dtype=bool)
    if rate is None or not y.any() or y.all():
        return None
    cut = float(np.quantile(margin[y], 1 - rate))
    return round(float(np.mean(margin[~y] < cut)), 4)


def in_width_auc(rows: list[dict[str, Any]]) -> tuple[float | None, float | None, int]:
    asked = [r for r in rows if "p_yes" in r]
    y = np.array([r["answerable"] for r in asked], dtype=int)
    if not 0 < y.sum() < len(y):
        return None, None, len(asked)
    p = np.array([r["p_yes"] for r in asked])
    s = np.array([r["score"] for r in asked])
    return round(auc(p, y), 4), round(auc(s, y), 4), len(asked)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--limit", type=int, default=120, help="questions per set (taken evenly)")
    ap.add_argument("--test-limit", type=int, default=None, help="questions per held-out set (default: --limit)")
    ap.add_argument("--width", type=float, default=0.5)
    ap.add_argument("--write-docs", action="store_true")
    ap.add_argument("--report", action="store_true", help="print (and with --write-docs write) the last results")
    args = ap.parse_args()
    if args.report:
        last = json.loads(RESULTS.read_text(encoding="utf-8"))
        print("\n".join(markdown(last)))
        if args.write_docs:
            write_section("Answerability: the LLM tier", markdown(last))
        return
    load_before = loadavg()
    reader = YesNoReader(gguf=model_path(args.model), n_ctx=2048, purpose="the LLM answerability tier")
    cached = Cached(reader, CACHE / f"{args.model}.jsonl")
    t0 = time.time()
    inner = JUDGES.create("tiered")  # loaded once: the pair classifier behind it is the slow part of loading
    dev = {n: score_set(items, inner, cached, args.width, n) for n, items in bench_judge.dev_sets(args.limit).items()}
    test_sets = {
        n: v
        for n, v in bench_judge.sets(args.test_limit or args.limit).items()
        if n in ("squad2-test", "vi-answerability-test", "legal-nearmiss")
    }
    test = {n: score_set(items, inner, cached, args.width, n) for n, items in test_sets.items()}
    chosen = {lang: choose(dev, lang) for lang in ("en", "vi")}
    bands = {lang: (c["below"], c["above"], c["p_yes"]) for lang, c in chosen.items()}
    out_test = {}
    for n, rows in test.items():
        llm_auc, judge_auc, n_in = in_width_auc(rows)
        out_test[n] = {
            "judge_alone": outcome(rows, None),
            "with_llm": outcome(rows, bands),
            "llm_auc_in_width": llm_auc,
            "judge_auc_in_width": judge_auc,
            "in_width": n_in,
        }
        log(f"{n}: {out_test[n]['judge_alone']} -> {out_test[n]['with_llm']}")
    every = [r for rows in (*dev.values(), *test.values()) for r in rows if "p_yes" in r]
    fresh = [r for r in every if not r["cached"]]
    res = {
        "machine": machine(command_line("judge_llm.py", None)),
        "model": args.model,
        "limit": args.limit,
        "test_limit": args.test_limit or args.limit,
        "width": args.width,
        "load_before": load_before,
        "load_after": loadavg(),
        "minutes": round((time.time() - t0) / 60, 1),
        "calls": len(every),
        "fresh": len(fresh),
        "seconds_p50": round(float(np.median([r["seconds"] for r in every])), 2) if every else None,
        "prompt_tokens_p50": int(np.median([r["prompt_tokens"] for r in every])) if every else None,
        "chosen": chosen,
        "test": out_test,
        "dev_rows": dev,
        "test_rows": test,
    }
    write_results(RESULTS, res)
    print(json.dumps({k: res[k] for k in ("calls", "fresh", "seconds_p50", "minutes")}), flush=True)
    print("\n".join(markdown(res)))
    if args.write_docs:
        write_section("Answerability: the LLM tier", markdown(res))


if __name__ == "__main__":
    sys.exit(main())
