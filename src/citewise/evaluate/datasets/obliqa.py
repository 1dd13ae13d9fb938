"""ObliQA (English, ADGM financial regulations): ``StructuredRegulatoryDocuments/N.json`` passages
and ``ObliQA_dev.json`` questions with 1-6 gold passages each.

Corpus: one record per passage, ``doc`` = DocumentID, ``id`` = PassageID (a few ids occur twice in
a document: their texts are joined). With a question limit the corpus keeps only the documents the
kept questions refer to (the full corpus is ~13k passages: hours of embedding on a small machine).
References: ``{doc: DocumentID, unit: PassageID}``; type ``single-passage`` or ``multi-passage``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citewise.evaluate.datasets import Converted, Dataset
from citewise.evaluate.datasets._io import write_records
from citewise.evaluate.questions import EvalQuestion, Reference, write_questions


def passages(folder: Path, docs: set[str] | None = None, join_repeated: bool = True) -> list[dict[str, str]]:
    """One record per passage, in document order. A PassageID that occurs twice in a document (a few
    do, for passages far apart) is one record with the texts joined, or with ``join_repeated`` False
    a record at each place (both stand for the unit: as the source lays the document out)."""
    merged: dict[tuple[str, str], dict[str, str]] = {}
    records: list[dict[str, str]] = []
    for path in sorted(folder.glob("*.json"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0):
        for p in json.loads(path.read_text(encoding="utf-8")):
            text = str(p["Passage"]).strip()
            unit = (str(p["DocumentID"]), str(p["PassageID"]))
            if not text or (docs is not None and unit[0] not in docs):
                continue
            if join_repeated and unit in merged:
                merged[unit]["text"] += "\n" + text
                continue
            record = {"doc": unit[0], "id": unit[1], "text": text}
            merged.setdefault(unit, record)
            records.append(record)
    return records


def question(q: dict[str, Any]) -> EvalQuestion:
    refs = list(dict.fromkeys(Reference(str(g["DocumentID"]), unit=str(g["PassageID"])) for g in q["Passages"]))
    return EvalQuestion(
        id=str(q["QuestionID"]),
        question=str(q["Question"]).strip(),
        references=refs,
        type="single-passage" if len(refs) == 1 else "multi-passage",
        lang="en",
    )


def convert(source: Path, out: Path, limit: int | None) -> Converted:
    raw = json.loads((source / "ObliQA_dev.json").read_text(encoding="utf-8"))[:limit]
    questions = [question(q) for q in raw]
    docs = {r.doc for q in questions for r in q.references} if limit else None
    records = passages(source / "StructuredRegulatoryDocuments", docs)
    corpus = out / "corpus.jsonl"
    write_records(corpus, records)
    qpath = out / "questions.jsonl"
    write_questions(qpath, questions)
    notes = [f"corpus limited to the {len(docs)} documents the questions refer to"] if docs else []
    return Converted(qpath, corpus, {"records": len(records), "questions": len(questions)}, notes)


def dataset() -> Dataset:
    return Dataset("ObliQA dev: English regulatory questions with gold passages (ADGM)", convert)
