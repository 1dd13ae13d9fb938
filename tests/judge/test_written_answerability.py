"""The hand-written answerability pairs (training/sets/answerability_written_{en,vi}.jsonl) are what their README
says (training/sets/check_answerability.py), and training reads them with their splits."""

from __future__ import annotations

import pytest
from training.judge_pairs import written_answerability_pairs
from training.sets import check_answerability

from tests.conftest import SHARED, shared


def test_written_answerability_pairs_validate(capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("gdpr_en", "eu_ai_act", "vn_insurance_law_phapdien"):
        shared(folder)
    assert check_answerability.main(["--data", str(SHARED)]) == 0, capsys.readouterr().out[-2000:]


def test_training_reads_both_languages_split_by_article() -> None:
    pairs = written_answerability_pairs()
    assert {p.lang for p in pairs} == {"en", "vi"}
    assert {p.split for p in pairs} == {"train", "dev"} and {p.label for p in pairs} == {0, 1}
    assert all(p.task == "ans" and p.dataset == "written-ans" for p in pairs)
    splits: dict[str, set[str]] = {}
    for p in pairs:
        splits.setdefault(p.group, set()).add(p.split)
    assert all(len(s) == 1 for s in splits.values())
    # the same sentence is asked questions it answers and near-misses it does not
    labels: dict[str, set[int]] = {}
    for p in pairs:
        labels.setdefault(p.b, set()).add(p.label)
    assert sum(ls == {0, 1} for ls in labels.values()) >= 0.9 * len(labels)
