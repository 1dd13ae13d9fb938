"""A small evaluation end to end on the sample corpus (real embedder, extractive answers): the
summary's figures recomputed by hand from the per-question records, the replayed weak-evidence
rule equal to the retriever's, the report and the CLI; the no-context baseline through the
Generator port with a scripted generator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import citewise
from citewise.answer.base import Generator
from citewise.answer.records import Draft, DraftSentence, Fragment
from citewise.cli import app
from citewise.evaluate.calibrate import weak
from citewise.evaluate.questions import load_questions
from citewise.evaluate.records import EvalRun
from citewise.evaluate.report_html import render
from citewise.evaluate.runner import Evaluator
from citewise.index.embedder import Embedder
from citewise.settings import Settings

HERE = Path(__file__).parent
SET = HERE / "sample_questions.jsonl"


class ClosedBook(Generator):
    """Scripted no-context answers: the breach question right (72 hours), the erasure one with an
    invented figure, the mercury probe answered, everything else refused."""

    name = "closed-book"

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def generate(self, question: str, fragments: list[Fragment], lang: str, strict: bool = False) -> Draft:
        self.calls.append((question, len(fragments)))
        if "personal data breach" in question:
            text = "A personal data breach must be notified to the Authority within 72 hours."
        elif "erasure" in question:
            text = "Erasure must be granted within 14 days of a request."
        elif "mercury" in question:
            text = "Mercury boils at 356.7 degrees Celsius."
        else:
            return Draft([], self.name, refused=True)
        return Draft([DraftSentence(text, [])], self.name, raw=text)


@pytest.fixture(scope="module")
def index(module_index: Path) -> Path:
    return module_index


@pytest.fixture(scope="module")
def run(index: Path, embedder: Embedder) -> EvalRun:
    baseline = ClosedBook()
    with citewise.open(index=index, settings=Settings(index=index), embedder=embedder) as engine:
        out = Evaluator(engine, None, baseline).run(load_questions(SET), "sample")
    assert [n for _, n in baseline.calls] == [0] * 16  # no context given, ever
    return out


def test_every_reference_resolves_and_clear_cases_come_out_right(run: EvalRun) -> None:
    by_id = {r.id: r for r in run.results}
    assert run.meta["unresolved_references"] == []
    assert all(r.resolved == len(r.references) for r in run.results)
    assert by_id["en-probe-mercury"].refused and by_id["en-probe-mercury"].weak
    assert by_id["vi-probe-pho"].refused and by_id["vi-probe-pho"].weak
    for qid in ("en-breach", "vi-breach", "vi-home-settle"):
        r = by_id[qid]
        assert not r.refused and r.relevant_citations > 0 and r.retrieval is not None and r.retrieval["hit5"] == 1.0
    assert by_id["en-breach"].answer_match == 1.0  # "72 hours" is in the answer


def test_summary_matches_the_records_counted_by_hand(run: EvalRun) -> None:
    rs = run.results
    o = run.summary["overall"]
    answerable = [r for r in rs if r.answerable]
    probes = [r for r in rs if not r.answerable]
    assert (o["answerable"], o["probes"]) == (12, 4)
    assert o["answer_rate"] == round(sum(r.answered for r in answerable) / 12, 4)
    assert o["refusal_correctness"] == round(sum(not r.answered for r in probes) / 4, 4)
    cites = [(s.relevant.count(True), len(s.relevant)) for r in answerable if not r.refused for s in r.sentences]
    assert o["citation_precision"] == round(sum(a for a, _ in cites) / sum(b for _, b in cites), 4)
    mrr = [r.retrieval["mrr10"] for r in answerable if r.retrieval is not None]
    assert len(mrr) == 12 and o["retrieval"]["mrr10"] == round(sum(mrr) / 12, 4)
    lat = sorted(r.latency_ms for r in rs)
    assert o["latency_ms"]["p50"] == round((lat[7] + lat[8]) / 2, 1)
    assert o["latency_ms"]["max"] == round(lat[-1], 1)
    assert o["shown_sentences_with_unsupported_figures"] == 0  # the validator never shows one
    assert set(run.summary["by_type"]) == {"factual", "contextual", "reasoning", "edge"}
    assert run.summary["by_lang"]["vi"]["questions"] == 7


def test_replayed_weak_rule_equals_the_retriever(run: EvalRun) -> None:
    th = run.meta["thresholds"]
    for r in run.results:
        assert weak(r, th["weak_dense"][r.lang], th["weak_coverage"][r.lang]) == r.weak, r.id


def test_baseline_against_references(run: EvalRun) -> None:
    b = run.summary["baseline"]
    assert b["questions"] == 16
    base = b["baseline"]
    assert base["answer_rate"] == round(2 / 12, 4)  # breach, erasure
    assert base["refusal_correctness"] == 0.75  # the mercury probe answered
    assert base["answer_match"] == 1.0  # only en-breach has an expected answer
    # the breach sentence is supported by Article 11; the erasure one (14 days) has a figure absent from Article 10
    by_id = {r.id: r for r in run.results}
    erasure = by_id["en-erasure"].baseline
    assert erasure is not None and erasure.unsupported_figures == 1
    assert base["sentences_with_figures_not_in_references"] == 0.5
    assert b["citewise"]["answer_rate"] == run.summary["overall"]["answer_rate"]


def test_report_renders_the_run(run: EvalRun) -> None:
    html = render(run)
    assert html.count("data:image/png;base64,") == 4
    assert "Against the no-context baseline" in html
    assert f"{run.summary['overall']['retrieval']['mrr10']:.4f}".rstrip("0") in html


def test_cli_eval_compare_and_calibrate(index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    small = tmp_path / "small.jsonl"
    lines = SET.read_text(encoding="utf-8").splitlines()
    small.write_text("\n".join([lines[0], lines[7], lines[12], lines[14]]) + "\n", encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["eval", str(small), "--index", str(index), "--out", "run1", "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output[res.output.index("{") :])["summary"]["overall"]
    assert summary["refusal_correctness"] == 1.0 and summary["answerable"] == 2
    assert (tmp_path / "run1" / "report.html").stat().st_size > 20_000
    res = runner.invoke(app, ["eval", "--compare", "run1", "run1/result.json", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["changed"] == []
    res = runner.invoke(app, ["calibrate", "run1/result.json", "--dry-run", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["written"] is None
    res = runner.invoke(app, ["eval", str(tmp_path / "missing.jsonl"), "--index", str(index)])
    assert res.exit_code == 1 and "missing.jsonl" in res.output
