"""Where the questions of the Vietnamese answerability sample (../shared/data/answerability/Viquad2_half.csv,
the URASys authors' UIT-ViQuAD 2.0 sample) come from, and what that says about its labels.

UIT-ViQuAD 2.0 keeps the answerable questions of UIT-ViQuAD 1.0 (../shared/data/viquad1, answerable only) and adds
unanswerable questions written over the same paragraphs, each with a "plausible answer" taken from the paragraph.
For every row of the sample this script looks up whether its question (and its paragraph) is in UIT-ViQuAD 1.0,
in which split, and whether 1.0's gold answer is inside the paragraph given. A row labelled "no answer" whose
question, paragraph and answer are all 1.0's is answerable; a row labelled answerable whose question is not in 1.0
but whose paragraph is, is most likely a 2.0 unanswerable question shipped with its plausible answer (checked by
hand on a sample: `--show N` prints N of them with the answer in context).

    .venv/bin/python bench/urasys_labels.py [--show 12] [--write-docs]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: training/

from training import judge_pairs as jp

from citewise.lang import folded_words
from common import command_line, machine, write_results, write_section  # bench/common.py

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "urasys_labels.json"
TITLE = "Labels of the Vietnamese answerability sample"


def provenance() -> list[dict[str, object]]:
    """One row per question of the Vietnamese sample: its label, and where 1.0 has its question and paragraph."""
    by_question: dict[str, jp.Question] = {}
    paragraph_split: dict[str, str] = {}
    for q in jp.viquad_questions():
        by_question[folded_words(q.question)] = q
        paragraph_split[folded_words(q.context)] = q.split
    rows = []
    for q in jp.urasys_questions():
        if q.lang != "vi":
            continue
        known = by_question.get(folded_words(q.question))
        gold_in = bool(known) and any(folded_words(a) in folded_words(q.context) for _, a in known.answers)
        rows.append(
            {
                "id": q.qid,
                "labelled_answerable": q.answerable,
                "question_in_1.0": known.split if known else None,
                "paragraph_in_1.0": paragraph_split.get(folded_words(q.context)),
                "gold_1.0_in_paragraph": gold_in,
                "question": q.question,
                "answer": q.answers[0][1] if q.answers else "",
                "gold_1.0": known.answers[0][1] if known and known.answers else "",
                "context": q.context,
            }
        )
    return rows


def relabelled(rows: list[dict[str, object]]) -> list[tuple[str, str, bool, str]]:
    """(question, context, answerable, gold answer) by provenance: answerable = a UIT-ViQuAD 1.0 question whose gold
    answer is in the paragraph given; unanswerable = a question 1.0 does not have over a paragraph it has (labelled
    answerable in the sample: a 2.0 question with its plausible answer). Other rows are left out. Both kinds come
    from 1.0's train paragraphs, which the pair classifier's training pairs were drawn from."""
    out = []
    for r in rows:
        if r["question_in_1.0"] and r["gold_1.0_in_paragraph"]:
            out.append((str(r["question"]), str(r["context"]), True, str(r["gold_1.0"])))
        elif r["labelled_answerable"] and not r["question_in_1.0"] and r["paragraph_in_1.0"]:
            out.append((str(r["question"]), str(r["context"]), False, ""))
    return out


def _cell(row: dict[str, object]) -> tuple[str, str, str, str]:
    return (
        "answerable" if row["labelled_answerable"] else "no answer",
        str(row["question_in_1.0"] or "not in 1.0"),
        str(row["paragraph_in_1.0"] or "not in 1.0"),
        "yes" if row["gold_1.0_in_paragraph"] else "no",
    )


def show(rows: list[dict[str, object]], n: int) -> None:
    pick = [r for r in rows if r["labelled_answerable"] and not r["question_in_1.0"] and r["paragraph_in_1.0"]]
    for r in random.Random(1).sample(pick, min(n, len(pick))):
        ctx, ans = str(r["context"]), str(r["answer"])
        at = ctx.find(ans)
        print(
            f"{r['id']}: {r['question']}\n  answer: {ans}\n  context: …{ctx[max(0, at - 200) : at + len(ans) + 60]}…\n"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", type=int, default=0, help="print N labelled-answerable rows not in 1.0, in context")
    ap.add_argument("--write-docs", action="store_true")
    args = ap.parse_args()
    rows = provenance()
    counts = Counter(_cell(r) for r in rows)
    for cell, n in sorted(counts.items()):
        print(
            f"{n:4}  label {cell[0]:10}  question {cell[1]:10}  paragraph {cell[2]:10}  1.0 gold in paragraph {cell[3]}"
        )
    if args.show:
        show(rows, args.show)
    result = {
        "machine": machine(command_line("urasys_labels.py", None)),
        "rows": len(rows),
        "counts": [
            {"label": c[0], "question": c[1], "paragraph": c[2], "gold_in_paragraph": c[3], "n": n}
            for c, n in sorted(counts.items())
        ],
        "ids": {
            f"{c[0]} / question {c[1]} / paragraph {c[2]}": [r["id"] for r in rows if _cell(r) == c]
            for c in sorted(counts)
        },
    }
    write_results(RESULTS, result)
    if args.write_docs:
        table = [
            "| label in the sample | question in UIT-ViQuAD 1.0 | paragraph in 1.0 | 1.0's gold answer in the paragraph | rows |",
            "|---|---|---|---|---|",
        ]
        table += [f"| {c[0]} | {c[1]} | {c[2]} | {c[3]} | {n} |" for c, n in sorted(counts.items())]
        write_section(
            TITLE, [f"`python bench/urasys_labels.py` · {result['machine']['date']} · {len(rows)} rows.", "", *table]
        )


if __name__ == "__main__":
    main()
