"""The question-set format of ``citewise eval``: one question a line in JSONL, or one a row in CSV.

Fields (only ``question`` is required)::

    id          a stable id (default: the line number, "q1", "q2", ...)
    question    the question as a user would ask it
    answer      the expected answer, short (optional; scored by word overlap)
    references  where the answer is: a list of reference objects (JSONL) or strings (JSONL or
                CSV, ";"-separated), see ``Reference``
    answerable  false for probes: questions the corpus holds no answer to (default true)
    type        factual | contextual | reasoning | edge (free text; default "untyped")
    lang        en | vi (default: detected from the question)

Reference forms: ``{"doc": D, "provision": "Điều 12"}`` or ``"D#Điều 12"`` (a provision named as
people cite it), ``{"doc": D, "unit": "18.8.2"}`` or ``"D#unit=18.8.2"`` (a record of a JSONL-imported
corpus, by its ``id``), ``{"doc": D}`` or ``"D"`` (anywhere in the document). ``D`` is a document
id (or a prefix of 4+ characters), its number, an alias, its title, or its file name."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citewise.errors import QuestionSetError
from citewise.jsonlines import JsonLineError, json_lines

TYPES = ("factual", "contextual", "reasoning", "edge")
UNTYPED = "untyped"


@dataclass(frozen=True)
class Reference:
    doc: str
    provision: str | None = None
    unit: str | None = None

    def __str__(self) -> str:
        if self.unit is not None:
            return f"{self.doc}#unit={self.unit}"
        if self.provision is not None:
            return f"{self.doc}#{self.provision}"
        return self.doc

    def to_dict(self) -> dict[str, str]:
        out = {"doc": self.doc}
        if self.provision is not None:
            out["provision"] = self.provision
        if self.unit is not None:
            out["unit"] = self.unit
        return out

    @classmethod
    def parse(cls, value: Any) -> Reference:
        """A reference from its object or string form."""
        if isinstance(value, dict):
            doc = str(value.get("doc") or "").strip()
            if not doc:
                raise ValueError(f"reference without 'doc': {value!r}")
            provision = value.get("provision")
            unit = value.get("unit")
            return cls(
                doc,
                str(provision).strip() if provision not in (None, "") else None,
                str(unit).strip() if unit not in (None, "") else None,
            )
        text = str(value).strip()
        if not text:
            raise ValueError("empty reference")
        doc, sep, rest = text.partition("#")
        if not sep or not rest.strip():
            return cls(doc.strip())
        rest = rest.strip()
        if rest.startswith("unit="):
            return cls(doc.strip(), unit=rest[5:].strip())
        return cls(doc.strip(), provision=rest)


@dataclass
class EvalQuestion:
    id: str
    question: str
    answer: str | None = None
    references: list[Reference] = field(default_factory=list)
    answerable: bool = True
    type: str = UNTYPED
    lang: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "question": self.question}
        if self.answer is not None:
            out["answer"] = self.answer
        if self.references:
            out["references"] = [r.to_dict() for r in self.references]
        out["answerable"] = self.answerable
        out["type"] = self.type
        if self.lang:
            out["lang"] = self.lang
        return out


_TRUE = {"true", "1", "yes", "y"}
_FALSE = {"false", "0", "no", "n"}


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text == "":
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"answerable must be true or false, not {value!r}")


def _references(value: Any) -> list[Reference]:
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return [Reference.parse(v) for v in value]
    if isinstance(value, dict):
        return [Reference.parse(value)]
    return [Reference.parse(part) for part in str(value).split(";") if part.strip()]


def question_from(row: dict[str, Any], n: int) -> EvalQuestion:
    """One question from a parsed JSONL object or CSV row (``n``: its 1-based position)."""
    text = str(row.get("question") or "").strip()
    if not text:
        raise ValueError("no 'question'")
    answer = row.get("answer")
    lang = str(row.get("lang") or "").strip().lower() or None
    return EvalQuestion(
        id=str(row.get("id") or "").strip() or f"q{n}",
        question=text,
        answer=str(answer).strip() if answer not in (None, "") else None,
        references=_references(row.get("references")),
        answerable=_bool(row.get("answerable", True)),
        type=str(row.get("type") or "").strip().lower() or UNTYPED,
        lang=lang,
    )


def parse_questions(text: str, fmt: str) -> list[EvalQuestion]:
    """Questions from the text of a ``jsonl`` or ``csv`` file."""
    rows: list[tuple[int, dict[str, Any]]] = []
    if fmt == "csv":
        for n, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
            rows.append((n, dict(row)))
    else:
        try:
            for n, obj in json_lines(text.splitlines()):
                if not isinstance(obj, dict):
                    raise QuestionSetError(f"line {n}: expected an object")
                rows.append((n, obj))
        except JsonLineError as e:
            raise QuestionSetError(str(e)) from e
    out: list[EvalQuestion] = []
    seen: set[str] = set()
    for i, (n, row) in enumerate(rows, start=1):
        try:
            q = question_from(row, i)
        except ValueError as e:
            raise QuestionSetError(f"line {n}: {e}") from e
        if q.id in seen:
            raise QuestionSetError(f"line {n}: duplicate id {q.id!r}")
        seen.add(q.id)
        out.append(q)
    if not out:
        raise QuestionSetError("no questions")
    return out


def load_questions(path: Path) -> list[EvalQuestion]:
    """Questions from a ``.jsonl`` (or ``.json`` lines) or ``.csv`` file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise QuestionSetError(f"{path}: {e.strerror or e}") from e
    try:
        return parse_questions(text, "csv" if path.suffix.lower() == ".csv" else "jsonl")
    except QuestionSetError as e:
        raise QuestionSetError(f"{path}: {e}") from e


def write_questions(path: Path, questions: Iterable[EvalQuestion]) -> int:
    """Write questions as JSONL; returns how many."""
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as f:
        for q in questions:
            f.write(json.dumps(q.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n
