"""What a figure is counted per, and what a question asks a figure per (``citewise.rates``)."""

from __future__ import annotations

import pytest

from citewise.rates import asked_per, counted_per, other_rate, rate_end


@pytest.mark.parametrize(
    ("question", "per"),
    [
        ("Phí bảo hiểm đi Nhật Bản mỗi ngày là bao nhiêu?", {"day"}),
        ("Phí bảo hiểm một năm là bao nhiêu?", {"year"}),
        ("Phí bảo hiểm hằng năm là bao nhiêu?", {"year"}),
        ("How much does the policy cost per year?", {"year"}),
        ("How much is paid for each night in hospital?", {"day"}),
        ("What is the annual premium?", {"year"}),
        ("Mỗi người được bồi thường tối đa bao nhiêu?", {"person"}),
        ("How long do I have to make a claim?", set()),  # "a claim" is no rate
        ("Năm người đi cùng thì phí là bao nhiêu?", set()),  # "năm" is five here
    ],
)
def test_what_a_question_asks_a_figure_per(question: str, per: set[str]) -> None:
    assert asked_per(question) == per


@pytest.mark.parametrize(
    ("text", "figure", "per"),
    [
        ("tối đa 20.000.000 đồng mỗi người mỗi chuyến.", "20.000.000", {"person", "trip"}),
        ("Phí bảo hiểm là 45.000 đồng mỗi ngày cho mỗi người được bảo hiểm.", "45.000", {"day", "person"}),
        ("4. Phí bảo hiểm tối thiểu cho mỗi chuyến đi là 150.000 đồng.", "150.000", {"trip"}),
        ("phí tối thiểu 200.000 đồng/chuyến đi", "200.000", {"trip"}),
        ("We will pay up to USD 50 a day for your pet.", "50", {"day"}),
        ("USD 4,000 for each condition in each policy year", "4,000", {"condition", "year"}),
        ("up to USD 50 a day for kennel fees, up to USD 750 for each trip", "750", {"trip"}),
        ("You must notify us within 30 days of a claim.", "30", set()),
        ("theo lãi suất 10%/năm cho thời gian chậm trả", "10", {"year"}),
    ],
)
def test_what_a_figure_is_counted_per(text: str, figure: str, per: set[str]) -> None:
    at = text.index(figure)
    assert counted_per(text, at, at + len(figure)) == per


def test_another_rate_is_told_apart_from_none() -> None:
    trip = "Phí bảo hiểm tối thiểu là 200.000 đồng mỗi chuyến đi."
    at = (trip.index("200.000"), trip.index("200.000") + 7)
    assert other_rate("Phí bảo hiểm mỗi ngày là bao nhiêu?", trip, at)
    assert not other_rate("Phí bảo hiểm mỗi chuyến đi là bao nhiêu?", trip, at)
    assert not other_rate("Phí bảo hiểm tối thiểu là bao nhiêu?", trip, at)  # no rate asked
    bare = "Phí bảo hiểm là 200.000 đồng."
    assert not other_rate("Phí bảo hiểm mỗi ngày là bao nhiêu?", bare, (16, 23))  # no rate stated


@pytest.mark.parametrize(
    ("text", "figure", "stated"),
    [
        ("theo lãi suất 10%/năm cho thời gian chậm trả", "10", "10%/năm"),
        ("3. Vùng 3 (toàn thế giới): 70.000 đồng/ngày.", "70.000", "70.000 đồng/ngày"),
        ("tối đa 20.000.000 đồng mỗi người mỗi chuyến.", "20.000.000", "20.000.000 đồng mỗi người mỗi chuyến"),
        ("We will pay up to USD 50 a day for kennel fees, up to USD 750 for each trip.", "50", "50 a day"),
        ("Người lao động được nghỉ 12 ngày mỗi năm.", "12 ngày", "12 ngày mỗi năm"),
        ("You must notify us within 30 days of a claim.", "30 days", "30 days"),  # "a claim" is no rate
        ("a hospital benefit of USD 50 for each full day you are an in-patient", "50", "50"),
        (
            "tối đa 5.000.000 đồng cho mỗi món hoặc mỗi bộ đồ và không vượt quá",
            "5.000.000",
            "5.000.000 đồng cho mỗi món hoặc mỗi bộ đồ",
        ),
        ("USD 50 a day or USD 750 for each trip", "50", "50 a day"),
    ],
)
def test_the_rate_written_with_a_figure_is_read_with_it(text: str, figure: str, stated: str) -> None:
    start = text.index(figure)
    assert text[start : rate_end(text, start + len(figure))] == stated
