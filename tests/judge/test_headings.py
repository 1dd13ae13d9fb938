"""The provision a question names by its heading is the one asked of: a sentence of another provision that reads closer
to the question (same words, another offence) does not answer it."""

from __future__ import annotations

from citewise.judge.answerability import FeatureJudge
from citewise.judge.headings import heading, named_instead
from citewise.judge.records import Passage

EVADING = (
    "1. Người nào không chấp hành đúng quy định của pháp luật về đăng ký nghĩa vụ quân sự, không chấp hành lệnh gọi nhập "
    "ngũ, lệnh gọi tập trung huấn luyện, đã bị xử phạt vi phạm hành chính về hành vi này hoặc đã bị kết án về tội này, "
    "chưa được xóa án tích mà còn vi phạm, thì bị phạt cải tạo không giam giữ đến 02 năm hoặc phạt tù từ 03 tháng đến 02 "
    "năm.\n2. Phạm tội thuộc một trong các trường hợp sau đây, thì bị phạt tù từ 01 năm đến 05 năm:\na) Tự gây thương "
    "tích hoặc gây tổn hại cho sức khỏe của mình;\nb) Phạm tội trong thời chiến;\nc) Lôi kéo người khác phạm tội."
)
DESERTING = (
    "1. Người nào rời bỏ hàng ngũ quân đội nhằm trốn tránh nghĩa vụ trong thời chiến hoặc đã bị xử lý kỷ luật về hành vi "
    "này mà còn vi phạm hoặc gây hậu quả nghiêm trọng, thì bị phạt cải tạo không giam giữ đến 03 năm hoặc phạt tù từ 06 "
    "tháng đến 03 năm."
)
PASSAGES = [
    Passage(EVADING, 0, "[Bộ luật Hình sự › Điều 332. Tội trốn tránh nghĩa vụ quân sự]"),
    Passage(DESERTING, 1000, "[Bộ luật Hình sự › Điều 402. Tội đào ngũ]"),
]
ASKED = (
    "Người phạm tội trốn tránh nghĩa vụ quân sự trong thời chiến, thì bị phạt tù từ bao nhiêu năm đến bao nhiêu năm?"
)


def test_the_heading_a_question_names() -> None:
    assert heading(PASSAGES[0]) == "Tội trốn tránh nghĩa vụ quân sự"
    assert named_instead(ASKED, PASSAGES, chosen=1) == [0]
    # the chosen provision is the one named, or the question names none: nothing to ask again
    assert named_instead(ASKED, PASSAGES, chosen=0) == []
    assert named_instead("Bị phạt tù bao nhiêu năm?", PASSAGES, chosen=1) == []


def test_the_provision_named_answers_not_the_one_that_reads_closer() -> None:
    """The fast tier alone prefers the deserter's clause ("trốn tránh nghĩa vụ trong thời chiến"); the question names
    the offence of evading military service, whose article answers it."""
    judge = FeatureJudge()
    assert judge.judge(ASKED, PASSAGES, "vi").span.evidence == 1  # type: ignore[union-attr]
    named = judge._named(ASKED, PASSAGES, "vi", judge.judge(ASKED, PASSAGES, "vi"))
    assert named.span is not None and named.span.evidence == 0 and named.answers(judge.threshold("vi"))
    assert "nghĩa vụ quân sự" in named.span.text
