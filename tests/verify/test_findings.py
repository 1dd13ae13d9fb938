"""The explicit checks' findings: what a verdict names when a sentence is not supported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citewise.verify.findings import findings
from citewise.verify.pairs import verify_pairs
from citewise.verify.scorer import get_scorer

NOTICE = "The insured must notify the company within 14 days of the loss."


@pytest.mark.parametrize(
    ("claim", "source", "expected"),
    [
        (
            "The company must notify the insured within 14 days of the loss.",
            NOTICE,
            "names the insurer before the insured: its source has them the other way round",
        ),
        ("The insured may notify the company within 14 days of the loss.", NOTICE, "says “may” (a permission)"),
        ("The insured need not notify the company within 14 days of the loss.", NOTICE, "says “not”, a negation"),
        ("The insured must always notify the company within 14 days of the loss.", NOTICE, "says “always”"),
        (
            "Quyền sử dụng đất có được sau khi kết hôn là tài sản chung, kể cả trường hợp được thừa kế riêng.",
            "Quyền sử dụng đất có được sau khi kết hôn là tài sản chung, trừ trường hợp được thừa kế riêng.",
            "says “kể cả” where its source says “trừ”",
        ),
        (
            "Doanh nghiệp bảo hiểm phải trả tiền bồi thường cho bên mua gian lận.",
            "Doanh nghiệp bảo hiểm không phải trả tiền bồi thường nếu bên mua gian lận.",
            "leaves out the negation of its source (“không”)",
        ),
        (
            "Doanh nghiệp bảo hiểm có thể trả tiền bồi thường trong 15 ngày.",
            "Doanh nghiệp bảo hiểm phải trả tiền bồi thường trong 15 ngày.",
            "says “có thể” (a permission) where its source says “phải” (a duty)",
        ),
    ],
)
def test_a_changed_rule_is_named(claim: str, source: str, expected: str) -> None:
    found = findings(claim, source)
    assert any(expected in f for f in found), found
    assert findings(source, source) == []


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The insured must tell the insurer within 14 days of the loss.", NOTICE),  # the insurer is "the company"
        ("There is no fee for using the Ombudsman.", "You may refer your complaint free of charge to the Ombudsman."),
        ("The insurer pays for all items in the list.", "We pay for any item in the list."),  # "all" is no sweep
    ],
)
def test_faithful_rewording_is_not_named(claim: str, source: str) -> None:
    assert findings(claim, source) == []


def test_pairs_file_reports_findings_for_what_is_not_supported(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    rows = [
        {"claim": "The company must notify the insured within 14 days of the loss.", "source": NOTICE},
        {"claim": NOTICE, "source": NOTICE},
    ]
    pairs.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    swap, same = list(verify_pairs(pairs, get_scorer()))
    assert swap.status == "unsupported" and swap.findings and "insurer before the insured" in swap.findings[0]
    assert same.status == "supported" and same.findings == []
