"""Summary, report, drift and calibration on five hand-made results, against figures worked out by
hand in the comments."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from citewise.evaluate.calibrate import calibrate
from citewise.evaluate.compare import compare
from citewise.evaluate.records import EvalRun, QuestionResult
from citewise.evaluate.report_html import render, worst
from citewise.evaluate.settings_file import update_settings_file
from citewise.evaluate.summary import summarize
from citewise.settings import Settings
from tests.evaluate.conftest import result, sentence

R1 = {"hit1": 1.0, "hit5": 1.0, "hit10": 1.0, "recall5": 1.0, "recall10": 1.0, "mrr10": 1.0, "ndcg10": 1.0}
R2 = {"hit1": 0.0, "hit5": 1.0, "hit10": 1.0, "recall5": 0.5, "recall10": 0.5, "mrr10": 0.5, "ndcg10": 0.4}
R3 = dict.fromkeys(R1, 0.0)


def five() -> list[QuestionResult]:
    return [
        # answered; 2 citations, 1 on the reference; right
        result(
            "a1",
            references=["D#Điều 1"],
            resolved=1,
            confidence=0.9,
            retrieval=R1,
            refs_cited=1,
            expected="x",
            answer_match=1.0,
            sentences=[sentence(relevant=[True, False])],
            latency_ms=100.0,
        ),
        # answered; cites no reference of the two; a draft had an invented figure
        result(
            "a2",
            lang="vi",
            references=["D#Điều 2", "D#Điều 3"],
            resolved=2,
            confidence=0.6,
            retrieval=R2,
            sentences=[sentence(0.95, relevant=[False])],
            draft_figure_failures=1,
            latency_ms=200.0,
        ),
        # answerable, refused after generation
        result(
            "a3",
            type="reasoning",
            references=["D#Điều 4"],
            resolved=1,
            refused=True,
            reason="no sentence could be supported by the sources",
            retrieval=R3,
            expected="y",
            answer_match=0.0,
            answer="",
            latency_ms=300.0,
        ),
        # probe refused with zero tokens
        result(
            "p1",
            type="edge",
            answerable=False,
            refused=True,
            weak=True,
            reason="no answer in the sources (x)",
            answer="",
            latency_ms=50.0,
        ),
        # probe answered: wrong
        result(
            "p2",
            type="edge",
            lang="vi",
            answerable=False,
            confidence=0.8,
            sentences=[sentence(relevant=[False])],
            latency_ms=400.0,
        ),
    ]


def test_overall_figures_by_hand() -> None:
    o = summarize(five())["overall"]
    assert (o["questions"], o["answerable"], o["probes"]) == (5, 3, 2)
    assert o["answer_rate"] == 0.6667  # a1, a2 of a1-a3
    assert o["refusal_correctness"] == 0.5  # p1 of p1, p2
    assert o["refusal_precision"] == 0.5  # refusals a3, p1: one probe
    assert o["zero_token_refusals"] == 1
    assert o["citation_precision"] == 0.3333  # (1 + 0) relevant of (2 + 1) citations
    assert o["citation_recall"] == 0.5  # mean(1/1, 0/2)
    assert o["answers_citing_reference"] == 0.5
    assert o["answer_match"] == 0.5  # a1 1.0, a3 refused 0.0
    assert o["fabricated_figure_rate"] == 0.25  # a2 of the four that reached generation
    assert o["latency_ms"] == {"p50": 200.0, "p90": 360.0, "p95": 380.0, "max": 400.0}
    assert o["retrieval"]["hit1"] == 0.3333 and o["retrieval"]["mrr10"] == 0.5 and o["retrieval"]["n"] == 3
    assert o["retrieval"]["recall5"] == 0.5  # (1 + 0.5 + 0) / 3


def test_breakdowns_verification_reliability() -> None:
    s = summarize(five())
    assert list(s["by_type"]) == ["edge", "factual", "reasoning"]
    assert s["by_type"]["factual"]["answer_rate"] == 1.0
    assert s["by_type"]["reasoning"]["answer_rate"] == 0.0
    assert s["by_type"]["edge"]["refusal_correctness"] == 0.5
    assert s["by_lang"]["vi"]["questions"] == 2 and s["by_lang"]["vi"]["refusal_correctness"] == 0.0
    v = s["verification"]
    assert v["sentences"] == 3 and v["support_mean"] == 0.9833
    assert v["support_histogram"] == [0] * 9 + [3]
    # correct: a1 yes (0.9), a2 no (0.6), p2 no (0.8); bins of 0.2
    assert s["reliability"] == [
        {"lo": 0.6, "hi": 0.8, "confidence": 0.6, "correct": 0.0, "n": 1},
        {"lo": 0.8, "hi": 1.0, "confidence": 0.85, "correct": 0.5, "n": 2},
    ]
    assert s["baseline"] is None


def test_report_is_self_contained_and_shows_the_figures() -> None:
    results = five()
    run = EvalRun(
        {"set": "five", "questions": 5, "generator": "extractive", "unresolved_references": []},
        results,
        summarize(results),
    )
    html = render(run)
    assert [r.id for r in worst(results)] == ["p2", "a3", "a2"]
    assert (
        len(re.findall(r"src='data:image/png;base64,", html)) == 4
    )  # distributions, reliability, per type, per language
    assert not re.search(r"(src|href)=['\"]https?:", html)
    assert '<td>answer rate (answerable answered)</td><td class="n">0.6667</td>' in html
    assert '<td>citation precision</td><td class="n">0.3333</td>' in html
    assert "The 3 worst questions" in html and "probe answered" in html


def test_compare_marks_drift_and_changed_questions() -> None:
    old = five()
    new = five()
    new[2] = result(
        "a3",
        type="reasoning",
        references=["D#Điều 4"],
        resolved=1,
        retrieval=R1,
        refs_cited=1,
        confidence=0.9,
        sentences=[sentence()],
        latency_ms=300.0,
    )
    d = compare(EvalRun({}, old, summarize(old)), EvalRun({}, new, summarize(new)))
    rows = {m["metric"]: m for m in d["metrics"]}
    assert rows["answer_rate"] == {
        "metric": "answer_rate",
        "old": 0.6667,
        "new": 1.0,
        "delta": 0.3333,
        "drift": "better",
    }
    assert rows["refusal_correctness"]["drift"] == "same"
    assert rows["refusal_precision"]["old"] == 0.5 and rows["refusal_precision"]["new"] == 1.0
    assert d["changed"] == [
        {"id": "a3", "question": "question a3?", "old": "refused (wrong)", "new": "cites a reference"}
    ]
    assert d["mrr_better"] == 1 and d["mrr_worse"] == 0 and d["shared_questions"] == 5


def calibration_run() -> EvalRun:
    """English only, thresholds in force cosine 0.79 / coverage 0.6. Answerable: cosine 0.90, 0.85,
    0.83; probes 0.84, 0.80, 0.78 (refused: weak). All coverages 0.2 or less."""
    rs = [
        result("a1", best_dense=0.90, best_coverage=0.2, sentences=[sentence(0.99)]),
        result("a2", best_dense=0.85, best_coverage=0.2, sentences=[sentence(0.97)]),
        result("a3", best_dense=0.83, best_coverage=0.2, sentences=[sentence(0.95)]),
        result("p1", answerable=False, best_dense=0.84, best_coverage=0.1, sentences=[sentence(0.93)]),
        result("p2", answerable=False, best_dense=0.80, best_coverage=0.1, sentences=[sentence(0.99)]),
        result("p3", answerable=False, best_dense=0.78, best_coverage=0.1, refused=True, weak=True),
    ]
    th = {"weak_dense": {"en": 0.79, "vi": 0.86}, "weak_coverage": {"en": 0.6, "vi": 0.7}, "support": {"en": 0.9}}
    return EvalRun({"thresholds": th}, rs, summarize(rs))


def test_calibrate_by_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cal = calibrate(calibration_run(), target=0.9)
    # cosine 0.81-0.83 refuse p2 and p3 and no answerable question (precision 1); 0.84 would refuse a3 too
    # (precision 2/3), 0.85 all probes and a3 (3/4). Nearest to 0.79: 0.81.
    assert cal.weak_dense == {"en": 0.81, "vi": 0.86}
    assert cal.weak_coverage == {"en": 0.6, "vi": 0.7}
    assert cal.per_lang["en"]["current"]["refusal_correctness"] == 0.3333
    assert cal.per_lang["en"]["picked"]["refusal_correctness"] == 0.6667
    # support 0.94 drops p1's only sentence (0.93) and none of a1-a3's (>= 0.95): all probes refused
    assert cal.support_threshold == 0.94
    assert cal.support is not None and cal.support["picked"]["refusal_correctness"] == 1.0
    assert cal.support["picked"]["answer_rate"] == 1.0
    # written to the settings file, read back by Settings; other keys of the file are kept
    monkeypatch.chdir(tmp_path)
    (tmp_path / "citewise.toml").write_text('[answer]\ngenerator = "extractive"\n', encoding="utf-8")
    update_settings_file(tmp_path / "citewise.toml", cal.settings_update())
    data = tomllib.loads((tmp_path / "citewise.toml").read_text(encoding="utf-8"))
    assert data["answer"] == {"generator": "extractive", "support_threshold": 0.94}
    s = Settings()
    assert s.retrieve.weak_dense == {"en": 0.81, "vi": 0.86}
    assert s.answer.support_threshold == 0.94


def test_calibrate_without_a_reachable_target_writes_nothing() -> None:
    run = calibration_run()
    for r in run.results:
        if r.answerable:
            r.best_dense = 0.70  # every threshold that refuses a probe refuses the answerable ones first
            r.sentences = [sentence(0.5)]
    cal = calibrate(run, target=0.99)
    assert cal.weak_dense == {} and cal.settings_update() == {}
    assert "no weak thresholds reach refusal precision 0.99" in cal.notes[0]


def test_settings_file_rejects_bad_values(tmp_path: Path) -> None:
    path = tmp_path / "citewise.toml"
    with pytest.raises(ValueError):
        update_settings_file(path, {"retrieve": {"weak_dense": "high"}})
    with pytest.raises(KeyError):
        update_settings_file(path, {"nonsense": {"a": 1}})
    assert not path.exists()
