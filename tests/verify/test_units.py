"""A figure keeps its unit (judge/units.py): the word after it, the currency before it, or a table column's header."""

from __future__ import annotations

import pytest

from citewise.answer.records import Draft, DraftSentence, Quote
from citewise.judge.units import figure_units, unit_mismatches
from citewise.verify.validator import Validator
from tests.verify.test_checks import fragment

BENEFITS = (
    "Quyền lợi bảo hiểm | Số tiền bảo hiểm tối đa (đồng) | Mức khấu trừ (đồng)\n"
    "Chi phí y tế do ốm đau, tai nạn | 1.000.000.000 | 500.000\n"
    "Hủy, rút ngắn chuyến đi | 50.000.000 | 1.000.000"
)
LIMITS = "Cover | Limit (USD) | Excess (USD)\nBuildings | 500,000 | 250"


def test_a_bare_cell_takes_its_columns_unit_and_only_quoted_figures_are_read() -> None:
    row = BENEFITS.index("Hủy")
    assert figure_units(BENEFITS, [(row, len(BENEFITS))]) == {"50000000": {"VND"}, "1000000": {"VND"}}
    assert figure_units("Điều 12: trong 15 ngày làm việc, USD 250, 80% phí") == {
        "15": {"days"},
        "250": {"USD"},
        "80": {"%"},
    }  # "Điều 12" names a provision
    # a year after "năm" takes no unit from the date words after it: "ngày Tết" is no 2026 days
    assert figure_units("năm 2026 ngày Tết cổ truyền, nghỉ thêm 01 ngày") == {"2026": {""}, "1": {"days"}}
    # speeds, lengths and a wind's force ("cấp 8" before its figure) are units too
    assert figure_units("storm, meaning winds of at least 90 km/h, within 50 metres of a river") == {
        "90": {"km/h"},
        "50": {"metres"},
    }
    assert figure_units("sức gió từ cấp 8 trở lên, mực nước ngập từ 20 cm trở lên") == {
        "8": {"wind force"},
        "20": {"cm"},
    }


@pytest.mark.parametrize(
    "sentence, source, wrong",
    [
        (
            "Thời hạn bảo hiểm tối đa cho mỗi chuyến đi là 50.000.000 ngày.",
            BENEFITS,
            ["50000000 days (the source: VND)"],
        ),
        ("Quyền lợi hủy chuyến đi tối đa 50.000.000 đồng.", BENEFITS, []),
        ("The excess for a buildings claim is USD 250.", LIMITS, []),
        ("The excess for a buildings claim is 250 days.", LIMITS, ["250 days (the source: USD)"]),
        (
            "It must be notified within 72 days.",
            "not later than 72 hours after becoming aware of it",
            ["72 days (the source: hours)"],
        ),
        ("You must notify us within 14 days.", "trong thời hạn 14 ngày kể từ ngày xảy ra tổn thất", []),
        ("The 30-day period starts on delivery.", "within 30 days of delivery", []),
        ("Phí được hoàn lại 80 ngày.", "được hoàn lại 80% phí bảo hiểm", ["80 days (the source: %)"]),
        ("Mức khấu trừ là USD 2,000,000.", "Mức khấu trừ là 2.000.000 đồng", ["2000000 USD (the source: VND)"]),
        ("Mức khấu trừ là 2.000.000đ.", "Mức khấu trừ là 2.000.000 đồng", []),
        ("Hiệu lực từ ngày 01 tháng 5 năm 2024.", "có hiệu lực từ ngày 01 tháng 5 năm 2024", []),
        ("The limit is 500,000.", LIMITS, []),  # no unit written: nothing to compare
        ("It is paid within 10 days.", "paid within 10 days, or 10 working days abroad; 10 claims", []),  # bare too
    ],
)
def test_a_figure_with_another_unit_than_its_sources_is_reported(sentence: str, source: str, wrong: list[str]) -> None:
    assert unit_mismatches(sentence, [(source, None)]) == wrong


def test_the_validator_fails_a_sentence_whose_figure_is_in_its_quote_with_another_unit() -> None:
    """The 1.5B model's sentence, quoting the benefit table's row: every figure is in the quote, the support
    scorer accepted it; the figure's unit is the table's đồng, not days."""
    frag = fragment("F1", BENEFITS)
    quote = Quote("F1", "Hủy, rút ngắn chuyến đi | 50.000.000 | 1.000.000")
    wrong = DraftSentence("Thời hạn bảo hiểm tối đa cho mỗi chuyến đi là 50.000.000 ngày.", ["F1"], quotes=[quote])
    right = DraftSentence("Quyền lợi hủy, rút ngắn chuyến đi tối đa là 50.000.000 đồng.", ["F1"], quotes=[quote])
    bad, good = Validator().check(Draft([wrong, right], "scripted"), [frag])
    assert bad.verdict.status == "unsupported" and "number" in bad.verdict.failed
    assert any("50000000 days (the source: VND)" in d for d in bad.verdict.details), bad.verdict.details
    assert not any("another unit" in d for d in good.verdict.details), good.verdict.details
