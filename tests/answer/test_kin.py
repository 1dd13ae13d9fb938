"""A figure set for relatives the question does not name is another's case (``answer.kin``)."""

from __future__ import annotations

import pytest

from citewise.answer.extractive import ExtractiveGenerator
from citewise.answer.kin import others_case
from citewise.answer.records import Fragment
from citewise.retrieve.records import Evidence
from citewise.types import Chunk

UNPAID = (
    "2. Người lao động được nghỉ không hưởng lương 01 ngày và phải thông báo với người sử dụng lao động khi ông nội, "
    "bà nội, ông ngoại, bà ngoại, anh, chị, em ruột chết; cha hoặc mẹ kết hôn; anh, chị, em ruột kết hôn."
)
PAID = (
    "1. Người lao động được nghỉ việc riêng mà vẫn hưởng nguyên lương trong trường hợp sau đây: a) Kết hôn: nghỉ 03 "
    "ngày; b) Con đẻ, con nuôi kết hôn: nghỉ 01 ngày; c) Cha đẻ, mẹ đẻ, cha nuôi, mẹ nuôi; vợ hoặc chồng; con đẻ, con "
    "nuôi chết: nghỉ 03 ngày."
)


def test_a_case_listing_relatives_the_question_does_not_name() -> None:
    own = "Khi người lao động kết hôn thì sẽ được nghỉ có lương bao nhiêu ngày?"
    sibling = "Trong trường hợp anh chị chết thì người lao động được hưởng nghỉ bao nhiêu ngày?"
    assert others_case(own, UNPAID, UNPAID.index("01 ngày"))
    assert not others_case(sibling, UNPAID, UNPAID.index("01 ngày"))
    assert not others_case(own, PAID, PAID.index("03 ngày"))  # a): no relative, the worker's own wedding
    assert others_case(own, PAID, PAID.index("01 ngày"))  # b): the children's
    assert others_case(sibling, PAID, PAID.rindex("03 ngày"))  # c): parents', spouses', children's
    assert not others_case("Con tôi kết hôn thì tôi được nghỉ mấy ngày?", PAID, PAID.index("01 ngày"))


@pytest.mark.parametrize(
    "text",
    [
        "Vợ, chồng có quyền yêu cầu chia tài sản chung trong thời hạn 30 ngày.",  # spouses: family law's parties
        "Người lao động được nghỉ 03 ngày khi con đẻ chết.",  # one relative: a case the words read already
    ],
)
def test_spouses_or_one_relative_are_no_list_of_cases(text: str) -> None:
    assert not others_case("Được bao nhiêu ngày?", text, text.index("0"))


def test_the_worker_s_own_wedding_is_answered_by_its_item() -> None:
    text = f"{UNPAID}\n{PAID}"
    header = "[Bộ luật Lao động › Điều 115. Nghỉ việc riêng, nghỉ không hưởng lương]"
    chunk = Chunk("blld", 0, None, "Điều 115", ["Điều 115"], header, text, 0, len(text), "vi", "file:///p")
    frag = [Fragment("F1", Evidence(chunk, "Bộ luật Lao động", 1.0, char_start=0, char_end=len(text), text=text))]
    question = "Khi người lao động kết hôn thì sẽ được nghỉ có lương bao nhiêu ngày?"
    draft = ExtractiveGenerator().generate(question, frag, "vi")
    assert draft.sentences[0].text == "Thời hạn là 03 ngày.", [s.text for s in draft.sentences]


@pytest.mark.parametrize(
    "text",
    [
        "Trường hợp học sinh tử vong do tai nạn, công ty trả 30.000.000 đồng cho cha mẹ hoặc người giám hộ.",
        "Cha mẹ hoặc người giám hộ của học sinh gửi yêu cầu trả tiền bảo hiểm trong vòng 60 ngày.",
    ],
)
def test_relatives_who_are_a_rule_s_parties_are_no_case(text: str) -> None:
    assert not others_case("Học sinh tử vong thì được trả bao nhiêu, trong bao lâu?", text, text.index("0"))
