"""The fast tier reads a question in its own words and, where it uses spoken forms, with their legal wording
(``retrieve.synonyms``) added: a provision says "lãi suất" where people write "trả lãi"."""

from __future__ import annotations

import pytest

from citewise.judge.answerability import FeatureJudge
from citewise.judge.records import Passage
from citewise.retrieve.wording import expand

# three of the four provisions retrieval finds for the question below in the sample home policy (its text, shortened)
HEADER = "QUY TẮC BẢO HIỂM NHÀ Ở TƯ NHÂN 125/2024/QĐ-SH › Chương III. BỒI THƯỜNG › "
PASSAGES = [
    Passage(
        "Điều 12. Thời hạn giải quyết bồi thường\n"
        "1. Công ty giải quyết và thanh toán bồi thường trong thời hạn 15 ngày làm việc kể từ ngày nhận được đầy đủ hồ"
        " sơ bồi thường hợp lệ quy định tại Điều 10 Quy tắc này.\n"
        "2. Trường hợp từ chối bồi thường một phần hoặc toàn bộ, Công ty phải thông báo bằng văn bản và nêu rõ lý do"
        " trong thời hạn quy định tại khoản 1 Điều này.\n"
        "3. Đối với tổn thất ước tính từ 100.000.000 đồng trở lên, theo đề nghị của Người được bảo hiểm, Công ty tạm"
        " ứng 50% số tiền bồi thường ước tính trong thời hạn 07 ngày làm việc kể từ ngày lập biên bản giám định.\n"
        "4. Trường hợp chậm thanh toán tiền bồi thường, Công ty trả thêm tiền lãi trên số tiền chậm trả theo lãi suất"
        " 10%/năm cho thời gian chậm trả.\n",
        0,
        HEADER + "Điều 12. Thời hạn giải quyết bồi thường",
    ),
    Passage(
        "Điều 13. Phương thức và cách tính bồi thường\n"
        "1. Công ty bồi thường bằng một trong các hình thức: sửa chữa tài sản bị tổn thất; thay thế bằng tài sản cùng"
        " loại có tính năng, chất lượng tương đương; hoặc trả tiền bồi thường.\n"
        "2. Số tiền bồi thường bằng giá trị thiệt hại thực tế trừ đi mức khấu trừ theo quy định tại Điều 11 Quy tắc"
        " này, nhưng không vượt quá số tiền bảo hiểm.\n",
        1000,
        HEADER + "Điều 13. Phương thức và cách tính bồi thường",
    ),
    Passage(
        "Điều 9. Thông báo tổn thất\n"
        "2. Trong thời hạn 14 ngày kể từ ngày xảy ra tổn thất, Người được bảo hiểm phải gửi thông báo tổn thất bằng văn"
        " bản cho Công ty theo mẫu tại Phụ lục I Quy tắc này.\n"
        "5. Trường hợp Người được bảo hiểm vi phạm thời hạn quy định tại khoản 2 Điều này mà không có lý do chính đáng,"
        " Công ty có quyền giảm số tiền bồi thường tương ứng với phần thiệt hại phát sinh thêm do việc thông báo chậm"
        " trễ.\n",
        2000,
        HEADER + "Điều 9. Thông báo tổn thất",
    ),
]
LATE = "Chậm trả tiền bồi thường thì công ty có phải trả lãi không?"
INTEREST = "4. Trường hợp chậm thanh toán tiền bồi thường, Công ty trả thêm tiền lãi"


def test_the_legal_wording_of_a_spoken_form_finds_the_answering_clause(monkeypatch: pytest.MonkeyPatch) -> None:
    judge = FeatureJudge()
    assert "lãi suất" in expand(LATE, "vi")
    _, cands = judge.candidates(LATE, PASSAGES, "vi")
    ranked = [c.text for c in cands]
    assert any(t.startswith(INTEREST) for t in ranked[:3]), ranked[:4]  # among the sentences the pair classifier reads
    # read in the question's own words only, the clause is not: it says "lãi suất", the question "trả lãi"
    monkeypatch.setattr("citewise.judge.answerability.expand", lambda question, lang: [])
    _, own = judge.candidates(LATE, PASSAGES, "vi")
    assert not any(c.text.startswith(INTEREST) for c in own[:3]), [c.text for c in own[:4]]
    assert max(c.score for c in own if c.text.startswith(INTEREST)) < max(
        c.score for c in cands if c.text.startswith(INTEREST)
    )
