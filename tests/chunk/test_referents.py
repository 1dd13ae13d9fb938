"""Sentences that open by pointing back to the sentence before them."""

from __future__ import annotations

import pytest

from citewise.chunk.referents import refers_back


@pytest.mark.parametrize(
    "sentence",
    [
        "His or her role is to design the works.",
        "As such, the current high level of population has a large impact on this as well.",
        "Such notice must be given in writing.",
        "“These measures shall be reviewed every year.",
        "It shall notify the Authority without delay.",
        "Ông nổi tiếng với bài thơ Tống biệt hành.",
        "Theo đó, doanh nghiệp phải thông báo cho khách hàng.",
        "Trường hợp này, người được bảo hiểm không được bồi thường.",
        "Điều này áp dụng cho mọi hợp đồng.",
        "If you do not, we may reduce the amount we pay by up to 20%.",  # a condition negating the one before
        "Otherwise, the claim lapses.",
        "Nếu không, Công ty có quyền từ chối bồi thường.",
    ],
)
def test_sentences_pointing_back(sentence: str) -> None:
    assert refers_back(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The insurer shall pay within 15 days.",
        "It is prohibited to process such data.",  # impersonal: about what follows
        "That: (a) the controller; (b) the processor.",
        "Itself a tribunal, the Board decides.",
        "Ông Đậu Quang Lành là Chủ tịch.",  # names him
        "Bà Rịa là một thị xã.",
        "Họ và tên người được bảo hiểm.",  # a form's "full name"
        "Họ tên người nhận tiền bồi thường.",
        "Cô lập khu vực bị cháy để ngăn thiệt hại lan rộng.",  # "isolate"
        "Chúng tôi sẽ bồi thường trong 15 ngày.",  # a policy's "we"
        "Hetero sentences are fine.",
        "If you do not pay the premium, we may cancel the policy.",  # a condition of its own
        "Nếu không có hóa đơn thì không được bồi thường.",
    ],
)
def test_sentences_standing_alone(sentence: str) -> None:
    assert not refers_back(sentence)
