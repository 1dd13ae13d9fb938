"""The written support pairs (training/sets) are what their README says: premises verbatim from their
sources, none shared with the evaluation sets in bench/sets, one split per article, labels and kinds
from the allowed lists (training/sets/check_written.py)."""

from __future__ import annotations

import pytest
from training.sets import check_written
from training.support_pairs import written_pairs

from tests.conftest import SHARED, shared


def test_written_support_pairs_validate(capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("gdpr_en", "eu_ai_act", "vn_insurance_law_phapdien", "alqac2022"):
        shared(folder)
    assert check_written.main(["--data", str(SHARED)]) == 0, capsys.readouterr().out[-2000:]


def test_written_pairs_load_with_their_splits_and_constructed_kinds() -> None:
    for lang in ("en", "vi"):
        pairs = list(written_pairs(lang))
        assert {p.split for p in pairs} == {"train", "dev"}
        kinds = {p.kind for p in pairs}
        assert {"restatement", "verbatim", "other-premise", "party_swap"} <= kinds
        # a premise is never in both splits, and it supports itself
        by_group: dict[str, set[str]] = {}
        for p in pairs:
            by_group.setdefault(p.group, set()).add(p.split)
        assert all(len(s) == 1 for s in by_group.values())
        assert all(p.label == "supported" and p.claim == p.source for p in pairs if p.kind == "verbatim")
