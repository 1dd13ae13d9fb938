"""Zero-token checks on hand-made cases in both languages."""

from __future__ import annotations

import pytest

from citewise.answer.markers import split_markers
from citewise.answer.records import Draft, DraftSentence, Fragment
from citewise.figures import extract_numbers, unsupported_numbers
from citewise.retrieve.records import Evidence
from citewise.types import Chunk
from citewise.verify.validator import Validator

VI = "1. Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng. 2. Công ty thông báo trong thời hạn 15 ngày làm việc theo Điều 5 Quy tắc này."
EN = "The controller shall notify the Authority not later than 72 hours after having become aware of it, as required by Article 6(1)."


def fragment(short: str, text: str, label: str = "Điều 11", lang: str = "vi") -> Fragment:
    chunk = Chunk(
        "ab12cd34ef56ab78",
        int(short[1:]),
        1,
        label,
        [label],
        f"[Doc › {label}]",
        text,
        100,
        100 + len(text),
        lang,
        "file:///doc.pdf",
    )
    return Fragment(short, Evidence(chunk, "Doc", 1.0, char_start=100, char_end=100 + len(text), text=text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2.000.000 đồng", {"2000000"}),
        ("VND 2,000,000", {"2000000"}),
        ("tỷ lệ 0,08%/năm", {"0.08%"}),
        ("rate 0.08%", {"0.08%"}),
        ("trong 07 ngày", {"7"}),
        ("from 1 September 2024", {"date:2024-09-01"}),
        ("ngày 01 tháng 9 năm 2024", {"date:2024-09-01"}),
        ("01/9/2024", {"date:2024-09-01"}),
        ("Quyết định 125/2024/QĐ-SH", {"code:125/2024/qd-sh"}),
        ("khoản 2 Điều 17 and Article 6(1)", set()),
    ],
)
def test_numbers_are_locale_aware(text: str, expected: set[str]) -> None:
    assert extract_numbers(text) == expected


def test_changed_number_is_caught_in_both_languages() -> None:
    assert unsupported_numbers("Mức khấu trừ là 3.000.000 đồng.", [VI]) == ["3000000"]
    assert unsupported_numbers("Mức khấu trừ là 2,000,000 VND.", [VI]) == []
    assert unsupported_numbers("The Authority must be told within 48 hours.", [EN]) == ["48"]
    assert unsupported_numbers("The Authority must be told within 72 hours.", [EN]) == []


def test_markers_are_split_from_sentences() -> None:
    assert split_markers("Mức khấu trừ là 2.000.000 đồng [F1][F2].") == (
        "Mức khấu trừ là 2.000.000 đồng.",
        ["F1", "F2"],
    )
    assert split_markers("Claims are paid in 15 days [doc:ab12cd34#chunk:3, F2]") == (
        "Claims are paid in 15 days",
        ["doc:ab12cd34#chunk:3", "F2"],
    )


@pytest.mark.parametrize(
    ("sentence", "markers", "status", "failed"),
    [
        ("Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng.", ["F1"], "supported", []),
        ("Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng.", [], "unsupported", ["marker"]),
        ("Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng.", ["F9"], "unsupported", ["marker"]),
        ("Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 5.000.000 đồng.", ["F1"], "unsupported", ["number", "support"]),
        (
            "Công ty thông báo trong thời hạn 15 ngày làm việc theo Điều 7 Quy tắc này.",
            ["F1"],
            "unsupported",
            ["reference", "support"],
        ),
        ("Xem thêm tại https://example.com/fake-rules.", ["F1"], "unsupported", ["support", "url"]),
        ("Người mua bảo hiểm được hoàn phí khi hủy hợp đồng trước hạn.", ["F1"], "unsupported", ["support"]),
        (
            "The controller shall notify the Authority not later than 72 hours after becoming aware of it.",
            ["F2"],
            "supported",
            [],
        ),
        (
            "The controller shall never notify the data subject of any breach or fine.",
            ["F2"],
            "unsupported",
            ["support"],
        ),
    ],
)
def test_validator_verdicts(sentence: str, markers: list[str], status: str, failed: list[str]) -> None:
    frags = [fragment("F1", VI), fragment("F2", EN, "Article 11", "en")]
    checked = Validator().check(Draft([DraftSentence(sentence, markers)], "scripted"), frags)[0]
    assert checked.verdict.status == status, checked.verdict
    assert sorted(checked.verdict.failed) == sorted(failed)
    for c in checked.citations:
        assert c.quote and c.quote in (VI + EN)
        assert c.marker.startswith("doc:ab12cd34ef56ab78#chunk:")


def test_a_reference_is_found_behind_invisible_direction_marks() -> None:
    from citewise.verify.references import check_references

    text = (
        "The Regulator would expect a Relevant Person, in complying with Rule \u200e\u200e9.1.1(5), to fill any gaps."
    )
    frag = fragment("F3", text, "Guidance", "en")
    checks = check_references("In complying with Rule 9.1.1(5), a Relevant Person should fill any gaps.", [frag])
    assert [c.status for c in checks] == ["valid"]
    assert [c.status for c in check_references("Under Rule 9.1.2 gaps are filled.", [frag])] == ["invalid"]


def test_a_reference_hidden_behind_direction_marks_is_still_checked() -> None:
    from citewise.refs.query import provision_refs
    from citewise.verify.references import check_references, render_references

    frag = fragment(
        "F3", "A Relevant Person must fill any gaps in the CDD process under Rule 9.1.1(5).", "Guidance", "en"
    )
    sentence = "A Relevant Person must fill any gaps under Rule \u200e8.3.1."
    assert [r.key for r in provision_refs(sentence)] == ["num:8.3.1"]
    checks = check_references(sentence, [frag])
    assert [c.status for c in checks] == ["invalid"]
    assert "⚠ [invalid citation: Rule \u200e8.3.1]" in render_references(sentence, checks)


def test_the_idiom_as_a_rule_is_no_reference() -> None:
    from citewise.refs.query import provision_refs

    assert provision_refs("As a rule a person must pay the premium.") == []
    assert [r.raw for r in provision_refs("Rule A and rule (a) apply; see clause b.")] == [
        "Rule A",
        "rule (a)",
        "clause b",
    ]


def test_a_sentence_not_supported_names_what_the_checks_found() -> None:
    """The verdict says why in words the reader can check in the quote: here, the parties the other way round."""
    rule = "The processor shall notify the controller without undue delay after becoming aware of a breach."
    frags = [fragment("F2", rule, "Article 33", "en")]
    swapped = "The controller shall notify the processor without undue delay after becoming aware of a breach."
    checked = Validator().check(Draft([DraftSentence(swapped, ["F2"])], "scripted"), frags)[0]
    assert checked.verdict.status != "supported"
    assert "support check: names the controller before the processor: its source has them the other way round" in (
        checked.verdict.details
    ), checked.verdict.details
    faithful = "The processor must notify the controller without undue delay after becoming aware of a breach."
    ok = Validator().check(Draft([DraftSentence(faithful, ["F2"])], "scripted"), frags)[0]
    assert ok.verdict.status == "supported"
    assert not any(d.startswith("support check: ") for d in ok.verdict.details)
