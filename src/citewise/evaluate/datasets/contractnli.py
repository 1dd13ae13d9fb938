"""ContractNLI (``dev.json``): non-disclosure agreements, 17 fixed hypotheses, each Entailment,
Contradiction or NotMentioned in a contract, with evidence spans.

Corpus: each contract a document (``doc`` = its file name without extension), each span a record
(``id`` = s0, s1, ...). Questions: "Under the agreement <doc>, is it so that <hypothesis>" — the
contract is named because every contract answers the same 17 hypotheses. Entailment: expected
"yes", Contradiction: "no", both with their evidence spans as references (type ``reasoning``);
NotMentioned: a probe (type ``edge``). A limit keeps the first N contracts (17 questions each)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citewise.evaluate.datasets import Converted, Dataset
from citewise.evaluate.datasets._io import write_records
from citewise.evaluate.questions import EvalQuestion, Reference, write_questions

EXPECTED = {"Entailment": "yes", "Contradiction": "no"}


def doc_name(doc: dict[str, Any]) -> str:
    return Path(str(doc["file_name"])).stem


def span_records(doc: dict[str, Any]) -> list[dict[str, str]]:
    name, text = doc_name(doc), str(doc["text"])
    out = []
    for i, (a, b) in enumerate(doc["spans"]):
        body = " ".join(text[a:b].split())
        if body:
            out.append({"doc": name, "id": f"s{i}", "text": body, "lang": "en"})
    return out


def convert(source: Path, out: Path, limit: int | None) -> Converted:
    data = json.loads((source / "dev.json").read_text(encoding="utf-8"))
    labels: dict[str, dict[str, str]] = data["labels"]
    docs = data["documents"][:limit]
    records: list[dict[str, str]] = []
    questions: list[EvalQuestion] = []
    for doc in docs:
        name = doc_name(doc)
        records += span_records(doc)
        for key, ann in sorted(
            doc["annotation_sets"][0]["annotations"].items(), key=lambda kv: int(kv[0].split("-")[1])
        ):
            hypothesis = labels[key]["hypothesis"].rstrip(".")
            answerable = ann["choice"] in EXPECTED
            questions.append(
                EvalQuestion(
                    id=f"{name}/{key}",
                    question=f"Under the agreement {name}, is it so that {hypothesis[0].lower()}{hypothesis[1:]}?",
                    answer=EXPECTED.get(ann["choice"]),
                    references=[Reference(name, unit=f"s{i}") for i in ann["spans"]] if answerable else [],
                    answerable=answerable,
                    type="reasoning" if answerable else "edge",
                    lang="en",
                )
            )
    corpus = out / "corpus.jsonl"
    write_records(corpus, records)
    qpath = out / "questions.jsonl"
    write_questions(qpath, questions)
    counts = {"documents": len(docs), "records": len(records), "questions": len(questions)}
    return Converted(qpath, corpus, counts)


def dataset() -> Dataset:
    return Dataset("ContractNLI dev: NDAs against 17 hypotheses; NotMentioned as probes", convert)
