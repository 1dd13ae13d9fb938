"""Claims that state a value ("The notice period is 14 days."): read against the clause of the source that gives it
(verify/values.py), through the shipped support scorer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.verify.findings import findings
from citewise.verify.scorer import TrainedScorer, get_scorer
from citewise.verify.values import read_value_statement

PROBES = Path(__file__).resolve().parents[2] / "bench" / "sets" / "value_statements.jsonl"
ROWS = [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def scorer() -> TrainedScorer:
    s = get_scorer()
    assert isinstance(s, TrainedScorer)
    return s


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_value_statements_are_read_against_the_clause_of_their_value(scorer: TrainedScorer, row: dict) -> None:
    scored = scorer.score(row["claim"], row["premise"])
    verdict = scorer.status(scored.score, scored.lang)
    if row["label"] == "supported":
        assert verdict == "supported", (scored.score, row["claim"])
        assert scored.features["value_statement"] == 1.0
    else:
        assert verdict != "supported", (scored.score, row["claim"])
        if scored.features.get("value_statement") == -1.0:  # the reading says why
            assert any("its source" in f or "bound" in f for f in findings(row["claim"], row["premise"])), row


def test_the_issues_example_is_supported() -> None:
    """The judgment issue's faithful restatement, rejected at 0.38 by word coverage."""
    s = get_scorer()
    scored = s.score("The notice period is 14 days.", "The insured must notify the company within 14 days of the loss.")
    assert s.status(scored.score, scored.lang) == "supported"


@pytest.mark.parametrize(
    ("claim", "lang"),
    [
        ("The period is 14 days.", "en"),  # nothing but the frame: the scorer decides
        ("The notice period is not 14 days.", "en"),  # a negation
        ("The limit is USD 5,000 unless you provide a valuation certificate.", "en"),  # a condition
        ("Member States may provide for a lower age, provided that it is at most 13 years.", "en"),  # a rule
        ("Thời hạn cấm huy động vốn không là từ 01 năm đến 03 năm.", "vi"),
        ("The insured must notify the company within 14 days.", "en"),  # no "is"
    ],
)
def test_what_is_not_a_value_statement_is_left_to_the_scorer(claim: str, lang: str) -> None:
    source = "The insured must notify the company within 14 days. Thời hạn cấm huy động vốn là từ 01 năm đến 03 năm."
    assert read_value_statement(claim, source, lang) is None


def test_a_range_is_one_value_and_a_prohibition_is_no_negation() -> None:
    source = "4. Thời hạn cấm huy động vốn là từ 01 năm đến 03 năm, kể từ ngày bản án có hiệu lực pháp luật."
    reading = read_value_statement("Thời hạn cấm huy động vốn là từ 01 năm đến 03 năm.", source, "vi")
    assert reading is not None and reading.holds
    wrong = read_value_statement("Thời hạn cấm huy động vốn là từ 01 năm đến 05 năm.", source, "vi")
    assert wrong is None  # no clause gives 05: left to the figure check, which rejects the claim
