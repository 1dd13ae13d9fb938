"""The question-set format: JSONL and CSV, the reference forms, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.evaluate.questions import EvalQuestion, QuestionSetError, Reference, load_questions, write_questions

HERE = Path(__file__).parent


def test_reference_forms() -> None:
    assert Reference.parse("21/2024/TT-HHBH#Điều 7") == Reference("21/2024/TT-HHBH", provision="Điều 7")
    assert Reference.parse("3#unit=18.8.2") == Reference("3", unit="18.8.2")
    assert Reference.parse("GDPR") == Reference("GDPR")
    assert Reference.parse({"doc": "91/2015/QH13", "unit": 12}) == Reference("91/2015/QH13", unit="12")
    assert Reference.parse({"doc": "X", "provision": "Article 6(1)"}) == Reference("X", provision="Article 6(1)")
    for r in (Reference("A", provision="Điều 1"), Reference("A", unit="p1"), Reference("A")):
        assert Reference.parse(str(r)) == r
        assert Reference.parse(r.to_dict()) == r


def test_sample_set_loads_with_defaults() -> None:
    qs = load_questions(HERE / "sample_questions.jsonl")
    assert len(qs) == 16
    assert sum(not q.answerable for q in qs) == 4
    assert {q.type for q in qs} == {"factual", "contextual", "reasoning", "edge"}
    assert {q.lang for q in qs} == {"en", "vi"}
    assert qs[0].references == [Reference("Regulation (FR) 2024/17", provision="Article 11")]
    assert qs[0].answer == "72 hours"


def test_csv_and_jsonl_round_trip(tmp_path: Path) -> None:
    csv_file = tmp_path / "set.csv"
    csv_file.write_text(
        "id,question,answer,references,answerable,type\n"
        'a,"How long, exactly?",30 days,Doc A#Section 2; Doc B#unit=7,true,factual\n'
        ",Who painted the Mona Lisa?,,,false,edge\n",
        encoding="utf-8",
    )
    qs = load_questions(csv_file)
    assert qs[0] == EvalQuestion(
        "a",
        "How long, exactly?",
        "30 days",
        [Reference("Doc A", "Section 2"), Reference("Doc B", unit="7")],
        True,
        "factual",
    )
    assert qs[1].id == "q2" and not qs[1].answerable and qs[1].references == [] and qs[1].answer is None
    out = tmp_path / "set.jsonl"
    assert write_questions(out, qs) == 2
    assert load_questions(out) == qs


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"question": "a"}\nnot json\n', "line 2: invalid JSON"),
        ('{"id": "x"}\n', "line 1: no 'question'"),
        ('{"id": "x", "question": "a"}\n{"id": "x", "question": "b"}\n', "line 2: duplicate id 'x'"),
        ('{"question": "a", "answerable": "maybe"}\n', "line 1: answerable must be true or false"),
        ('{"question": "a", "references": [{"provision": "Điều 1"}]}\n', "line 1: reference without 'doc'"),
        ("\n", "no questions"),
    ],
)
def test_bad_sets_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(QuestionSetError, match=message):
        load_questions(path)
