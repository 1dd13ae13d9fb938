"""The provision a question names by its heading is the one asked of: a sentence of another provision that reads closer
to the question (same words, another offence) does not answer it."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.judge.answerability import AnswerabilityJudge
from citewise.judge.headings import heading, named_instead
from citewise.judge.records import Answerability, AnswerSpan, Passage
from citewise.textmatch import words

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


class _Overlap(AnswerabilityJudge):
    """A judge that scores each line of a passage by the share of the question's words it holds: what the fast tier
    does roughly, without its trained weights (the mechanism tested is the headings', not the tier's)."""

    name = "overlap"

    def threshold(self, lang: str) -> float:
        return 0.5

    def judge(self, question: str, passages: Sequence[Passage], lang: str) -> Answerability:
        asked = set(words(question))
        best = Answerability(0.0, None, "duration", self.name)
        for i, passage in enumerate(passages):
            at = 0
            for line in passage.text.split("\n"):
                score = len(asked & set(words(line))) / len(asked)
                if score > best.score:
                    start = passage.char_start + at
                    best = Answerability(score, AnswerSpan(i, start, start + len(line), line), "duration", self.name)
                at += len(line) + 1
        return best


def test_the_provision_named_answers_not_the_one_that_reads_closer() -> None:
    """Read alone, the deserter's clause ("trốn tránh nghĩa vụ trong thời chiến") shares the most words with the
    question; the question names the offence of evading military service, whose article answers it."""
    judge = _Overlap()
    first = judge.judge(ASKED, PASSAGES, "vi")
    assert first.span is not None and first.span.evidence == 1 and first.answers(judge.threshold("vi"))
    named = judge._named(ASKED, PASSAGES, "vi", first)
    assert named.span is not None and named.span.evidence == 0 and named.answers(judge.threshold("vi"))
    assert "nghĩa vụ quân sự" in named.span.text
