"""The benchmark question sets read from a small data folder laid out as the shared one: gold units,
corpus records, the ObliQA document subset, the evaluator's questions and the probes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from citewise.errors import NotFound
from citewise.evaluate import benchsets
from citewise.evaluate.datasets import obliqa as obliqa_data


@pytest.fixture
def data(tmp_path: Path) -> Path:
    alqac = tmp_path / "alqac2022"
    alqac.mkdir()
    laws = [
        {
            "id": "01/2020",
            "articles": [
                {"id": "1", "text": "Phạm vi\nLuật này quy định."},
                {"id": "2", "text": "Đối tượng\nÁp dụng."},
            ],
        }
    ]
    (alqac / "law.json").write_text(json.dumps(laws, ensure_ascii=False), encoding="utf-8")
    questions = [
        {
            "question_id": "q1",
            "text": " Luật áp dụng cho ai? ",
            "relevant_articles": [{"law_id": "01/2020", "article_id": "2"}],
        }
    ]
    (alqac / "question.json").write_text(json.dumps(questions, ensure_ascii=False), encoding="utf-8")

    docs = tmp_path / "obliqa" / "StructuredRegulatoryDocuments"
    docs.mkdir(parents=True)
    passages = {
        "1": [("1.1", "Short rule."), ("1.2", "Part one."), ("1.2", "Part two."), ("1.3", " ")],
        "2": [("2.1", "A much longer passage of the second document " * 5)],
        "3": [("3.1", "Third.")],
    }
    for doc, rows in passages.items():
        items = [{"DocumentID": int(doc), "PassageID": pid, "Passage": text} for pid, text in rows]
        (docs / f"{doc}.json").write_text(json.dumps(items), encoding="utf-8")
    dev = [
        {"QuestionID": "a", "Question": "What is rule 1.1?", "Passages": [{"DocumentID": 1, "PassageID": "1.1"}]},
        {"QuestionID": "b", "Question": "And 1.2?", "Passages": [{"DocumentID": 1, "PassageID": "1.2"}]},
        {
            "QuestionID": "c",
            "Question": "Both?",
            "Passages": [{"DocumentID": 1, "PassageID": "1.1"}, {"DocumentID": 3, "PassageID": "3.1"}],
        },
        {"QuestionID": "d", "Question": "Second?", "Passages": [{"DocumentID": 2, "PassageID": "2.1"}]},
    ]
    (tmp_path / "obliqa" / "ObliQA_dev.json").write_text(json.dumps(dev), encoding="utf-8")

    ans = tmp_path / "answerability"
    ans.mkdir()
    with (ans / "Squad2_half.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, ["question", "answer", "paragraph"])
        w.writeheader()
        w.writerow({"question": "Who?", "answer": "Someone", "paragraph": "[]"})
        w.writerow({"question": " Where is nowhere? ", "answer": "", "paragraph": "[]"})
        w.writerow({"question": "When never?", "answer": "No answer", "paragraph": "[]"})
    return tmp_path


def test_alqac_units_records_and_raw_text(data: Path) -> None:
    ds = benchsets.load("alqac2022", data)
    assert ds.lang == "vi"
    assert [(r["doc"], r["id"], r["title"], r["text"]) for r in ds.records] == [
        ("01/2020", "1", "Phạm vi", "Luật này quy định."),
        ("01/2020", "2", "Đối tượng", "Áp dụng."),
    ]
    assert ds.raw[("01/2020", "1")] == "Phạm vi\nLuật này quy định."
    assert ds.questions == [benchsets.GoldQuestion("q1", "Luật áp dụng cho ai?", frozenset({("01/2020", "2")}))]


def test_obliqa_keeps_repeated_ids_in_place_and_skips_empty_passages(data: Path) -> None:
    ds = benchsets.load("obliqa", data)
    # 1.2 occurs twice: a record at each place (document order kept), one unit with the texts joined
    assert [(r["doc"], r["id"], r["text"]) for r in ds.records[:3]] == [
        ("1", "1.1", "Short rule."),
        ("1", "1.2", "Part one."),
        ("1", "1.2", "Part two."),
    ]
    assert [(r["doc"], r["id"]) for r in ds.records[3:]] == [("2", "2.1"), ("3", "3.1")]
    assert ds.raw[("1", "1.2")] == "Part one.\nPart two." and len(ds.raw) == 4
    assert [q.qid for q in ds.questions] == ["a", "b", "c", "d"]
    assert ds.questions[2].gold == frozenset({("1", "1.1"), ("3", "3.1")})


def test_the_converter_still_joins_repeated_ids(data: Path) -> None:
    records = obliqa_data.passages(data / "obliqa" / "StructuredRegulatoryDocuments")
    assert [(r["id"], r["text"]) for r in records if r["doc"] == "1"] == [
        ("1.1", "Short rule."),
        ("1.2", "Part one.\nPart two."),
    ]


def test_document_subset_takes_the_densest_documents_within_the_budget(data: Path) -> None:
    full = benchsets.load("obliqa", data)
    # document 1 answers two questions alone in 30 characters, document 2 one in 229, document 3 none alone
    sub = benchsets.document_subset(full, budget=100)
    assert sub.documents == ["1"]
    assert [q.qid for q in sub.questions] == ["a", "b"]  # c also needs document 3
    assert {r["doc"] for r in sub.records} == {"1"} and set(sub.raw) == {("1", "1.1"), ("1", "1.2")}
    assert "documents 1 (1 of 3;" in sub.note
    assert benchsets.document_subset(full, budget=10_000).documents == ["1", "2"]


def test_eval_questions_and_probes(data: Path) -> None:
    ds = benchsets.load("obliqa", data)
    qs = benchsets.eval_questions(ds, limit=3)
    assert [str(r) for r in qs[2].references] == ["1#unit=1.1", "3#unit=3.1"]
    assert all(q.answerable and q.lang == "en" for q in qs)
    probes = benchsets.probes("en", data=data)
    assert [(p.question, p.answerable) for p in probes] == [("Where is nowhere?", False), ("When never?", False)]
    assert len(benchsets.probes("en", limit=1, data=data)) == 1


def test_unknown_set_and_missing_folder(data: Path, tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        benchsets.load("nope", data)
    with pytest.raises(NotFound):
        benchsets.load("alqac2023", tmp_path / "empty")


def test_natural_questions_go_onto_their_corpus(data: Path, tmp_path: Path) -> None:
    rows = [
        {
            "id": "n1",
            "question": "Cho em hỏi luật áp dụng cho ai ạ?",
            "gold": [["01/2020", "2"]],
            "lang": "vi",
            "source": "written",
            "corpus": "alqac2022",
            "split": "dev",
        },
    ]
    path = tmp_path / "natural_vi.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    (ds,) = benchsets.natural(path, data)
    assert ds.name == "alqac2022" and ds.lang == "vi" and len(ds.records) == 2
    assert [(q.qid, q.text, q.gold) for q in ds.questions] == [
        ("n1", "Cho em hỏi luật áp dụng cho ai ạ?", frozenset({("01/2020", "2")}))
    ]
    path.write_text(json.dumps({**rows[0], "gold": [["01/2020", "9"]]}) + "\n", encoding="utf-8")
    with pytest.raises(NotFound, match="01/2020/9"):
        benchsets.natural(path, data)


def test_shipped_natural_sets_resolve() -> None:
    """Every gold of bench/sets/natural_*.jsonl is a unit of its corpus."""
    sets = sorted((Path(__file__).resolve().parents[2] / "bench" / "sets").glob("natural_*.jsonl"))
    assert sets
    for path in sets:
        try:
            loaded = benchsets.natural(path)
        except NotFound as e:
            if "data folder not found" in str(e):
                pytest.skip(str(e))
            raise
        ids = [q.qid for ds in loaded for q in ds.questions]
        assert len(ids) == len(set(ids)), path.name
