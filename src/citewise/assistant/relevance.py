"""Whether a model's checked sentences answer the question, or only hold: sentences that are true to their
quotes but leave out what the question is about give way to the extractive answer (``flow.Assistant``)."""

from __future__ import annotations

from citewise.textmatch import topic_left_out
from citewise.verify.validator import CheckedSentence

OFF_TOPIC = 2
"""How many more of the question's topic words a model's answer may leave out than the extractive answer does
before the extractive answer is shown instead ("Phí bảo hiểm du lịch được hoàn lại trong trường hợp nào?" answered
"Thời hạn bảo hiểm tối đa cho mỗi chuyến đi là 180 ngày.": true, quoted, and about something else)."""


def off_topic(question: str, mine: list[str], theirs: list[str]) -> bool:
    """Whether the sentences ``mine`` leave out at least ``OFF_TOPIC`` more of what ``question`` is about than
    ``theirs`` do."""
    return topic_left_out(question, " ".join(mine)) >= topic_left_out(question, " ".join(theirs)) + OFF_TOPIC


def same_sentence(checked: list[CheckedSentence], other: CheckedSentence) -> bool:
    """Whether a sentence of ``checked`` cites text that ``other`` cites too (the same provision's sentence):
    a model that states the answer from the sentence the extractive answer quotes is not off topic, however
    it words it ("The controller shall notify the Authority ... not later than 72 hours ..." for "Within how
    many hours must a personal data breach be notified?")."""
    theirs = [(c.doc_id, c.char_start, c.char_end) for c in other.citations]
    return any(
        d == c.doc_id and a < c.char_end and c.char_start < b
        for x in checked
        for c in x.citations
        for d, a, b in theirs
    )
