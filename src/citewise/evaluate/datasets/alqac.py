"""ALQAC 2022 (``law.json`` + ``question.json``: 520 questions, short answers) and ALQAC 2023
(``law.json`` + ``train.json``: 100 questions typed true/false, multiple-choice, essay).

Corpus: one record per article, ``doc`` = the law id, ``id`` = the article id, the first line of
the article as its title, label "Điều N". References: ``{doc: law id, unit: article id}``.
Multiple-choice questions are asked as posed: the stem, then each option on a line of its own ("A. …"; the stem
alone asks about "the following" without them); the expected answer is the text of the right choice.
True/false questions have no expected answer (the answer would be the single word Đúng/Sai)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citewise.evaluate.datasets import Converted, Dataset
from citewise.evaluate.datasets._io import write_records
from citewise.evaluate.questions import EvalQuestion, Reference, write_questions

TYPES_2023 = {"Đúng/Sai": "true/false", "Trắc nghiệm": "multiple-choice", "Tự luận": "essay"}


def corpus_records(laws: list[dict[str, Any]]) -> list[dict[str, str]]:
    out = []
    for law in laws:
        for art in law["articles"]:
            title, _, rest = str(art["text"]).partition("\n")
            out.append(
                {
                    "doc": str(law["id"]),
                    "id": str(art["id"]),
                    "title": title.strip(),
                    "text": rest.strip(),
                    "kind": "article",
                    "label": f"Điều {art['id']}",
                }
            )
    return out


def question(q: dict[str, Any]) -> EvalQuestion:
    refs = [Reference(str(a["law_id"]), unit=str(a["article_id"])) for a in q["relevant_articles"]]
    kind = str(q.get("question_type") or "")
    answer = q.get("answer")
    text = str(q["text"]).strip()
    if kind == "Trắc nghiệm" and isinstance(q.get("choices"), dict):
        answer = q["choices"].get(str(answer), answer)
        text += "".join(f"\n{label}. {' '.join(str(option).split())}" for label, option in q["choices"].items())
    if kind == "Đúng/Sai":
        answer = None
    return EvalQuestion(
        id=str(q.get("id") or q.get("question_id")),
        question=text,
        answer=str(answer).strip() if answer else None,
        references=refs,
        type=TYPES_2023.get(kind, "factual"),
        lang="vi",
    )


def _convert(source: Path, out: Path, limit: int | None, questions_file: str) -> Converted:
    laws = json.loads((source / "law.json").read_text(encoding="utf-8"))
    records = corpus_records(laws)
    raw = json.loads((source / questions_file).read_text(encoding="utf-8"))
    questions = [question(q) for q in raw[:limit]]
    corpus = out / "corpus.jsonl"
    write_records(corpus, records)
    qpath = out / "questions.jsonl"
    write_questions(qpath, questions)
    return Converted(qpath, corpus, {"records": len(records), "documents": len(laws), "questions": len(questions)})


def alqac2022() -> Dataset:
    return Dataset(
        "ALQAC 2022: 520 Vietnamese questions, gold articles of 4 laws (1,377 articles)",
        lambda s, o, n: _convert(s, o, n, "question.json"),
    )


def alqac2023() -> Dataset:
    return Dataset(
        "ALQAC 2023 train: 100 Vietnamese questions (true/false, multiple-choice, essay), 17 laws",
        lambda s, o, n: _convert(s, o, n, "train.json"),
    )
