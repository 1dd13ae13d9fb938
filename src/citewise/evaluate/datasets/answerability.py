"""The answerability sets (SQuAD 2.0 for English, UIT-ViQuAD 2.0 for Vietnamese; the URASys
samples in ``answerability/``): Wikipedia paragraphs with questions, about half of them
unanswerable from the paragraph (adversarial: on topic, but no answer).

Corpus: each distinct paragraph a record, ``doc`` = the Wikipedia title, ``id`` = p1, p2, ... in
order of appearance. Answerable rows: references to their paragraph, the expected answer, type
``factual``. Unanswerable rows: probes (``answerable: false``), type ``edge``. The probes also
serve against any other corpus (``probes.jsonl``, the unanswerable rows alone)."""

from __future__ import annotations

import ast
import csv
from pathlib import Path
from typing import Any

from citewise.evaluate.datasets import Converted, Dataset
from citewise.evaluate.datasets._io import write_records
from citewise.evaluate.questions import EvalQuestion, Reference, write_questions

FILES = {"en": ("Squad2_half.csv", "Squad2_1000.csv"), "vi": ("Viquad2_half.csv", "Viquad2_1000.csv")}
NO_ANSWER = {"", "no answer"}


def paragraphs(cell: str) -> list[tuple[str, str]]:
    """(title, text) of the paragraphs of a CSV cell (a Python literal list of dicts)."""
    out = []
    for p in ast.literal_eval(cell):
        text: Any = p.get("paragraph_text", "")
        if isinstance(text, str) and text.startswith("["):
            try:
                text = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                pass
        if isinstance(text, list):
            text = "\n".join(str(t) for t in text)
        out.append((str(p.get("title") or "untitled").strip(), str(text).strip()))
    return out


def _answer(raw: str) -> str:
    text = raw.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1].strip()
    return text


def unanswerable(raw: str) -> bool:
    """An answer cell that means "no answer" (empty, or the words themselves)."""
    return _answer(raw).lower() in NO_ANSWER


def convert_lang(lang: str, source: Path, out: Path, limit: int | None) -> Converted:
    path = next((source / f for f in FILES[lang] if (source / f).exists()), None)
    if path is None:
        raise FileNotFoundError(f"none of {', '.join(FILES[lang])} in {source}")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))[:limit]
    ids: dict[tuple[str, str], str] = {}
    per_title: dict[str, int] = {}
    records: list[dict[str, str]] = []
    questions: list[EvalQuestion] = []
    for n, row in enumerate(rows, start=1):
        refs = []
        for title, text in paragraphs(row.get("paragraph") or row.get("paragraphs") or "[]"):
            if not text:
                continue
            if (title, text) not in ids:
                per_title[title] = per_title.get(title, 0) + 1
                ids[(title, text)] = f"p{per_title[title]}"
                records.append({"doc": title, "id": ids[(title, text)], "text": text, "lang": lang})
            refs.append(Reference(title, unit=ids[(title, text)]))
        answer = _answer(row.get("answer") or "")
        answerable = answer.lower() not in NO_ANSWER
        questions.append(
            EvalQuestion(
                id=f"{lang}-{n}",
                question=str(row["question"]).strip(),
                answer=answer if answerable else None,
                references=refs if answerable else [],
                answerable=answerable,
                type="factual" if answerable else "edge",
                lang=lang,
            )
        )
    corpus = out / "corpus.jsonl"
    write_records(corpus, records)
    qpath = out / "questions.jsonl"
    write_questions(qpath, questions)
    probes = [q for q in questions if not q.answerable]
    write_questions(out / "probes.jsonl", probes)
    counts = {"records": len(records), "questions": len(questions), "probes": len(probes)}
    return Converted(qpath, corpus, counts, [f"probes alone: {out / 'probes.jsonl'}"])


def english() -> Dataset:
    return Dataset(
        "SQuAD 2.0 sample: English Wikipedia paragraphs, answerable and unanswerable questions",
        lambda s, o, n: convert_lang("en", s, o, n),
    )


def vietnamese() -> Dataset:
    return Dataset(
        "UIT-ViQuAD 2.0 sample: Vietnamese Wikipedia paragraphs, answerable and unanswerable questions",
        lambda s, o, n: convert_lang("vi", s, o, n),
    )
