"""The shipped pair classifier (judge/weights/pair-*.npz, real model, numpy run time) on hand-written EN and VI
cases: the sentence that answers the question against a near-miss from the same kind of provision."""

from __future__ import annotations

import pytest

from citewise.judge.answerability import JUDGES
from citewise.judge.pair import PairClassifier, available
from citewise.judge.records import Passage

pytestmark = pytest.mark.skipif(not available(), reason="pair classifier weights not built (make judge-weights)")

CASES = [
    (
        "How many days do I have to notify the company of a loss?",
        "The insured must notify the company within 14 days of the loss.",
        "The company settles a claim within 30 days of receiving the documents.",
    ),
    (
        "Who must designate a data protection officer?",
        "The controller and the processor shall designate a data protection officer.",
        "The data protection officer shall directly report to the highest management level.",
    ),
    (
        "What is the maximum fine for infringing the regulation?",
        "Infringements shall be subject to administrative fines up to 20 000 000 EUR.",
        "Each supervisory authority shall ensure that the imposition of fines is effective and proportionate.",
    ),
    (
        "When does the cover start?",
        "Cover starts at midnight on the day the first premium is paid.",
        "Either party may cancel the policy by giving 30 days' written notice.",
    ),
    (
        "Thời hạn thông báo tổn thất là bao lâu?",
        "Người được bảo hiểm phải thông báo tổn thất cho doanh nghiệp bảo hiểm trong thời hạn 14 ngày.",
        "Doanh nghiệp bảo hiểm phải lưu giữ hồ sơ bồi thường trong thời hạn 10 năm.",
    ),
    (
        "Ai có quyền đơn phương chấm dứt hợp đồng bảo hiểm?",
        "Bên mua bảo hiểm có quyền đơn phương chấm dứt hợp đồng bảo hiểm khi doanh nghiệp tăng phí.",
        "Hợp đồng bảo hiểm phải được lập thành văn bản.",
    ),
    (
        "Mức phạt tiền tối đa đối với hành vi vi phạm là bao nhiêu?",
        "Mức phạt tiền tối đa đối với hành vi vi phạm là 200 triệu đồng.",
        "Hành vi vi phạm bị xử lý theo quy định của pháp luật về xử lý vi phạm hành chính.",
    ),
    (
        "Phí bảo hiểm được đóng khi nào?",
        "Phí bảo hiểm được đóng hằng tháng vào ngày đầu tiên của tháng.",
        "Phí bảo hiểm do doanh nghiệp bảo hiểm xác định dựa trên mức độ rủi ro.",
    ),
]


@pytest.fixture(scope="module")
def clf() -> PairClassifier:
    return PairClassifier()


@pytest.mark.parametrize(("question", "answer", "near_miss"), CASES)
def test_the_answering_sentence_ranks_above_the_near_miss(
    clf: PairClassifier, question: str, answer: str, near_miss: str
) -> None:
    yes, no = clf.score_pairs(question, [answer, near_miss])
    assert yes > no


def test_the_registered_tiered_judge_runs_on_the_shipped_weights() -> None:
    judge = JUDGES.create("tiered")
    question, answer, near_miss = CASES[0]
    judged = judge.judge(question, [Passage(f"{near_miss} {answer}")], "en")
    assert judged.span is not None and judged.span.text == answer
    assert 0.0 <= judged.score <= 1.0 and 0.0 < judge.threshold("vi") < 1.0


def test_a_value_question_is_judged_on_a_sentence_stating_a_value() -> None:
    judge = JUDGES.create("tiered")
    assert getattr(judge, "typed", False)
    definition = "6. Mức khấu trừ là số tiền Người được bảo hiểm phải tự chịu trong mỗi vụ tổn thất theo Điều 11."
    value = "1. Mức khấu trừ áp dụng cho mỗi vụ tổn thất là 2.000.000 đồng."
    judged = judge.judge("Mức khấu trừ là bao nhiêu?", [Passage(f"{definition} {value}")], "vi")
    span = judged.span
    assert span is not None and value.endswith(span.text)  # the sentence, without its "1. "
    assert span.answer_start is not None and span.text[span.answer_start : span.answer_end] == "2.000.000"


# Bộ luật Hình sự 2015, Điều 316 (public legal text): its clauses share few words with the question, so the fast tier
# scores every sentence under 0.1
ART_316 = (
    "Điều 316. Tội phá thai trái phép\n"
    "1. Người nào thực hiện việc phá thai trái phép cho người khác thuộc một trong các trường hợp sau đây, thì bị"
    " phạt cải tạo không giam giữ đến 03 năm hoặc bị phạt tù từ 01 năm đến 03 năm:\n"
    "a) Làm chết 01 người hoặc gây tổn hại cho sức khỏe của 01 người với tỷ lệ tổn thương cơ thể 61% trở lên;\n"
    "b) Gây tổn hại cho sức khỏe của 02 người với tỷ lệ tổn thương cơ thể của mỗi người từ 31% đến 60%;\n"
    "c) Gây tổn hại cho sức khỏe của 03 người trở lên mà tổng tỷ lệ tổn thương cơ thể của những người này từ 61% "
    "đến 121%;\n"
    "d) Đã bị xử lý kỷ luật, xử phạt vi phạm hành chính về hành vi này hoặc đã bị kết án về tội này, chưa được "
    "xóa án tích mà còn vi phạm.\n"
    "2. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 03 năm đến 07 năm:\n"
    "a) Làm chết 02 người;\n"
    "b) Gây tổn hại cho sức khỏe của 02 người với tỷ lệ tổn thương cơ thể của mỗi người 61% trở lên;\n"
    "c) Gây tổn hại cho sức khỏe của 03 người trở lên mà tổng tỷ lệ tổn thương cơ thể của những người này từ 122%"
    " đến 200%.\n"
    "3. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 07 năm đến 15 năm:\n"
    "a) Làm chết 03 người trở lên;\n"
    "b) Gây tổn hại cho sức khỏe của 03 người với tỷ lệ tổn thương cơ thể của mỗi người 61% trở lên;\n"
    "c) Gây tổn hại cho sức khỏe của 03 người trở lên mà tổng tỷ lệ tổn thương cơ thể của những người này 201% "
    "trở lên.\n"
    "---\n"
    "'[01/VBHN-VPQH › Điều 316. Tội phá thai trái phép › điểm g khoản 4 Điều 316]' 452836 976\n"
)
ABORTION = (
    "Người thực hiện việc phá thai trái phép cho người khác dẫn đến làm chết 03 người trở lên thì bị phạt tù từ bao lâu"
    " đến bao lâu?"
)


def test_the_pair_classifier_reads_what_the_fast_tier_scores_under_a_tenth() -> None:
    """The band starts at 0 (session 54): under 0.1 the fast tier alone refused answerable questions."""
    judge = JUDGES.create("tiered")
    passages = [Passage(ART_316, 0, "01/VBHN-VPQH › Điều 316. Tội phá thai trái phép")]
    _, cands = judge.fast.candidates(ABORTION, passages, "vi")  # type: ignore[attr-defined]
    assert cands[0].score < 0.1
    judged = judge.judge(ABORTION, passages, "vi")
    assert judged.tier == "pair" and judged.scores["pairs_read"] >= 1 and judged.score > cands[0].score
