"""Converters from the shared data sets (read by path; skipped when absent): exact counts and known
records, and references that resolve once the converted corpus is ingested (lexical only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.evaluate.datasets import convert, converters
from citewise.evaluate.questions import Reference, load_questions
from citewise.evaluate.targets import TargetResolver, resolve
from citewise.index.corpus import Corpus
from citewise.index.embedded import EmbeddedStore
from citewise.retrieve.choices import split_choices
from citewise.settings import Settings
from tests.conftest import shared


def _records(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_registry_names() -> None:
    assert list(converters()) == [
        "alqac2022",
        "alqac2023",
        "answerability-en",
        "answerability-vi",
        "contractnli",
        "obliqa",
    ]


def test_alqac2022_converted_and_resolved(tmp_path: Path) -> None:
    done = convert("alqac2022", shared("alqac2022"), tmp_path, limit=3)
    assert done.counts == {"records": 1377, "documents": 4, "questions": 3}
    qs = load_questions(done.questions)
    assert qs[0].id == "q-1" and qs[0].answer == "07 năm" and qs[0].lang == "vi" and qs[0].type == "factual"
    assert qs[0].references == [Reference("01/VBHN-VPQH", unit="418")]
    # ingest only the articles the three questions name (no embedding), then resolve
    wanted = {(r.doc, r.unit) for q in qs for r in q.references}
    assert done.corpus is not None
    small = tmp_path / "small.jsonl"
    small.write_text(
        "".join(
            json.dumps(r, ensure_ascii=False) + "\n" for r in _records(done.corpus) if (r["doc"], r["id"]) in wanted
        ),
        encoding="utf-8",
    )
    store = EmbeddedStore(tmp_path / "index")
    Corpus(store, None, Settings(index=tmp_path / "index")).ingest([small])
    resolver = TargetResolver(store)
    for q in qs:
        targets = resolve(resolver, q.references)
        assert targets.resolved == len(q.references), q
        span = targets.spans[0][0]
        text = store.load_document(span.doc_id).text[span.char_start : span.char_end]
        assert text.startswith(f"Điều {q.references[0].unit}")
    store.close()


def test_alqac2023_types_and_answers(tmp_path: Path) -> None:
    done = convert("alqac2023", shared("alqac2023"), tmp_path)
    qs = load_questions(done.questions)
    types = {t: sum(q.type == t for q in qs) for t in ("true/false", "multiple-choice", "essay")}
    assert types == {"true/false": 50, "multiple-choice": 40, "essay": 10}
    tn1 = next(q for q in qs if q.id == "TN-1")
    assert tn1.answer is not None and tn1.answer.startswith("Viên chức có 02 năm liên tiếp")
    # asked as posed: the stem, then its options, which the question reader tells apart
    assert tn1.question.startswith(
        "Viên chức bị đơn vị sự nghiệp đơn phương chấm dứt hợp đồng trong trường hợp nào?\nA. "
    )
    found = split_choices(tn1.question)
    assert found is not None and [label for label, _ in found.options] == ["A", "B", "C", "D"]
    assert found.options[0][1] == tn1.answer
    assert all(q.answer is None for q in qs if q.type == "true/false")


def test_obliqa_limit_keeps_the_referenced_documents(tmp_path: Path) -> None:
    done = convert("obliqa", shared("obliqa"), tmp_path, limit=5)
    qs = load_questions(done.questions)
    assert len(qs) == 5 and qs[0].references[0] == Reference("3", unit="18.8.2")
    assert done.corpus is not None
    docs = {r["doc"] for r in _records(done.corpus)}
    assert docs == {r.doc for q in qs for r in q.references}
    units = {(r["doc"], r["id"]) for r in _records(done.corpus)}
    assert all((r.doc, r.unit) in units for q in qs for r in q.references)


def test_answerability_probes(tmp_path: Path) -> None:
    done = convert("answerability-en", shared("answerability"), tmp_path)
    qs = load_questions(done.questions)
    assert done.counts == {"records": 122, "questions": 500, "probes": 254}
    assert qs[0].answer == "Vogue" and qs[0].references == [Reference("Beyoncé", unit="p1")]
    assert len(load_questions(tmp_path / "probes.jsonl")) == 254
    assert all(q.type == "edge" and not q.references for q in qs if not q.answerable)


def test_contractnli_one_contract(tmp_path: Path) -> None:
    done = convert("contractnli", shared("contractnli"), tmp_path, limit=1)
    qs = load_questions(done.questions)
    assert len(qs) == 17
    assert qs[0].id.endswith("/nda-1") and qs[0].answer == "yes" and qs[0].references[0].unit == "s18"
    nda2 = qs[1]
    assert nda2.answer == "no" and nda2.type == "reasoning"
    assert sum(not q.answerable for q in qs) == sum(q.type == "edge" for q in qs) > 0


def test_unknown_data_set(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="unknown data set 'squad9'"):
        convert("squad9", tmp_path, tmp_path / "out")
