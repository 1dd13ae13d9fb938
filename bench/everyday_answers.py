"""Everyday questions about the bundled sample policies, answered end to end (bench/sets/everyday_answers.jsonl,
written for the project): the question a policyholder types, the outcome (answered / no direct answer / refused)
and, for an answerable question, whether the shown answer holds one of the gold strings (the figure or words that
answer it, as the policy writes them) and whether its first sentence does (the answer a reader sees first).

Split ``dev``: the questions changes are chosen on (read answer by answer). Split ``test``: written at the same
time, before any of those changes, and run only to report (``--split test``). Splits ``dev2`` and ``test2``
(Vietnamese, session 36): the same pair, written together later, before that session's changes. Splits ``dev3`` and
``test3`` (session 48): questions about the two travel policies (Bluewave in English, Sông Hồng's in Vietnamese), which
no earlier dev split asks about, written together and split alternately before any change was chosen on them. Split ``dev4``
(session 53): English and Vietnamese questions about the two home policies written as a new user would, before that
session's changes and without reading the earlier splits; run on the session's variants, so a dev split. Split ``dev5``
(session 55): English and Vietnamese questions about the two travel policies written the same way, some of them after
their answers had been read (a dev split from the start). One index of the
sample corpus (lexical + dense with its shipped vectors, shipped defaults, the default judge) for all questions.

    .venv/bin/python bench/everyday_answers.py [--split dev|test|dev2|...|dev5|all] [--out FILE] [--show]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import citewise
from citewise.lang import folded_words
from citewise.settings import Settings
from common import RESULTS, command_line, machine, write_results

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "bench" / "sets" / "everyday_answers.jsonl"
SAMPLES = ROOT / "src" / "citewise" / "samples" / "corpus"


def rows(split: str) -> list[dict[str, Any]]:
    out = [json.loads(x) for x in SET.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [r for r in out if split == "all" or r["split"] == split]


def holds_gold(answer: str, golds: list[str]) -> bool:
    """Whether the answer text holds one of the gold strings (folded words: case, accents of the matching and
    punctuation aside, as bench/answers_nearmiss.py compares)."""
    text = folded_words(answer)
    return any(folded_words(g) in text for g in golds)


def ask_all(engine: Any, items: list[dict[str, Any]], show: bool) -> list[dict[str, Any]]:
    out = []
    for r in items:
        start = time.perf_counter()
        a = engine.ask(r["question"])
        ms = (time.perf_counter() - start) * 1000
        gold = r["answerable"] and a.outcome == "answered" and holds_gold(a.text, r["answers"])
        first = a.sentences[0].text if a.sentences else ""
        opens = gold and holds_gold(first, r["answers"])
        out.append(
            {
                "id": r["id"],
                "question": r["question"],
                "answerable": r["answerable"],
                "outcome": a.outcome,
                "gold_in_answer": gold,
                "opens_with_gold": opens,
                "ms": round(ms, 1),
                "answer": a.text,
            }
        )
        if show:
            mark = (
                ("OPEN" if opens else "GOLD" if gold else "miss")
                if r["answerable"]
                else ("ok" if a.outcome != "answered" else "WRONG")
            )
            print(f"[{mark}] [{a.outcome}] {r['question']}\n    {a.text[:300]!r}", flush=True)
    return out


def share(rows: list[dict[str, Any]], holds: Callable[[dict[str, Any]], bool]) -> float | None:
    """The share of ``rows`` for which ``holds`` is true (``None`` for no rows)."""
    return round(sum(map(holds, rows)) / len(rows), 3) if rows else None


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in results if r["answerable"]]
    near = [r for r in results if not r["answerable"]]
    return {
        "questions": len(results),
        "answerable": len(answerable),
        "answerable answered": share(answerable, lambda r: r["outcome"] == "answered"),
        "answerable answered holding gold": share(answerable, lambda r: r["gold_in_answer"]),
        "answerable answered opening with gold": share(answerable, lambda r: r["opens_with_gold"]),
        "not answerable": len(near),
        "not answerable not answered": share(near, lambda r: r["outcome"] != "answered"),
        "ms p50": round(statistics.median(r["ms"] for r in results), 1) if results else None,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    splits = ["dev", "test", "dev2", "test2", "dev3", "test3", "dev4", "dev5", "all"]
    ap.add_argument("--split", default="dev", choices=splits)
    ap.add_argument(
        "--out", type=Path, default=None, help="result JSON (default bench/results/everyday_answers-SPLIT.json)"
    )
    ap.add_argument("--show", action="store_true", help="print each answer")
    args = ap.parse_args(argv)
    items = rows(args.split)
    with tempfile.TemporaryDirectory() as tmp:
        engine = citewise.open(settings=Settings(index=Path(tmp) / "index"))
        engine.ingest([SAMPLES])
        results = ask_all(engine, items, args.show)
        engine.close()
    by_lang = {
        lang: summary([r for r, i in zip(results, items, strict=True) if i["lang"] == lang])
        for lang in sorted({i["lang"] for i in items})
    }
    out = {
        "machine": machine(command_line("everyday_answers.py", argv), False),
        "split": args.split,
        "summary": summary(results),
        "by_language": by_lang,
        "rows": results,
    }
    write_results(args.out or RESULTS / f"everyday_answers-{args.split}.json", out)
    print(json.dumps({"all": out["summary"], **by_lang}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
