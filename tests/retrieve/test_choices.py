"""The options of a multiple-choice question: read apart from its stem, so that a wrong option's figure or name is not
taken as given by the question."""

from __future__ import annotations

import pytest

from citewise.judge.answerability import FeatureJudge
from citewise.judge.premise import absent_premises, names, premises
from citewise.retrieve.choices import split_choices, stem
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

RETIREMENT = (
    "Thông báo nghỉ hưu đối với viên chức được cơ quan, đơn vị, tổ chức ban hành trong thời gian bao lâu?\n"
    "A. 06 tháng\nB. 04 tháng\nC. 03 tháng\nD. 02 tháng"
)


def test_options_one_per_line_or_on_one_line() -> None:
    found = split_choices(RETIREMENT)
    assert found is not None and found.stem.endswith("trong thời gian bao lâu?")
    assert found.options == (("A", "06 tháng"), ("B", "04 tháng"), ("C", "03 tháng"), ("D", "02 tháng"))
    inline = split_choices("Which period applies to a notice of loss? A) 14 days B) 30 days C) 60 days")
    assert inline is not None and inline.options == (("A", "14 days"), ("B", "30 days"), ("C", "60 days"))
    bracketed = split_choices("Who notifies the Authority?\n(A) The processor\n(B) The controller")
    assert bracketed is not None and bracketed.options == (("A", "The processor"), ("B", "The controller"))
    # an instruction after the question mark; an option running over lines
    told = split_choices(
        "Các loại dịch vụ du lịch khác bao gồm điều nào dưới đây? Chọn câu trả lời đúng nhất.\n"
        "A. Dịch vụ thể thao.\nB. Dịch vụ ăn uống.\nC. Dịch vụ chăm sóc\nsức khỏe.\nD. Cả 3 phương án trên."
    )
    assert told is not None and told.options[2] == ("C", "Dịch vụ chăm sóc sức khỏe.")
    # no question mark: three options or more, each opening a line
    lines = split_choices(
        "Cha mẹ không có nghĩa vụ nuôi con khi nào\nA. Con chưa thành niên\nB. Con đã kết hôn\nC. Khác"
    )
    assert lines is not None and lines.stem == "Cha mẹ không có nghĩa vụ nuôi con khi nào"


@pytest.mark.parametrize(
    "question",
    [
        "Theo điểm a) khoản 1 Điều 5, ai phải đăng ký?",
        "Plan A: we pay. Plan B: you pay. Which is cheaper?",
        "Is the excess USD 250 under Section A? B. Smith says it is.",
        "What does Part A cover?\nA. Buildings",  # a single option is no choice
        "Người lao động được nghỉ bao lâu?",
    ],
)
def test_questions_without_options(question: str) -> None:
    assert split_choices(question) is None and stem(question) == question


def test_an_option_is_not_what_the_question_takes_as_given() -> None:
    """ "04 tháng", "02 tháng" are options to choose among, not figures the sources must state."""
    assert premises(RETIREMENT) == []
    notice = "Trước 06 tháng, tính đến ngày viên chức nghỉ hưu, cơ quan phải thông báo bằng văn bản."
    assert absent_premises(RETIREMENT, [notice]) == []
    assert names("Who supervises the processor?\nA. Mona Lisa\nB. The Authority\nC. Norway", "en") == []
    # the stem's own figure still is one
    assert [p.figure for p in premises("Vì sao thời hạn là 05 năm?\nA. Do luật định\nB. Do hợp đồng")] == ["5"]


def test_the_judge_reads_the_stem_of_a_multiple_choice_question() -> None:
    """Whether the evidence answers is asked of the stem: the options, four more texts to choose among, do not change
    the judge's score or the sentence it finds."""
    text = (
        "2. Trước 06 tháng, tính đến ngày viên chức nghỉ hưu, cơ quan quản lý viên chức phải thông báo bằng văn bản "
        "về thời điểm nghỉ hưu; trước 03 tháng, cơ quan quản lý viên chức ra quyết định nghỉ hưu."
    )
    chunk = Chunk(
        "d1", 0, None, "46", ["46"], "[Luật Viên chức] Điều 46", text, 0, len(text), "vi", "file:///p", None, None
    )
    evidence = [Evidence(chunk, "Luật Viên chức", 1.0, char_start=0, char_end=len(text), text=text)]
    judge = FeatureJudge()
    with_options = judge.answerable(RETIREMENT, evidence, "vi")
    alone = judge.answerable(stem(RETIREMENT), evidence, "vi")
    assert with_options.score == alone.score and with_options.span == alone.span and with_options.absent == []
