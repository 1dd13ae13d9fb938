"""Whether two sentences giving different figures state one thing twice (a conflict the answer must name) or two
things: two duties, two offences, a rule and a special case of it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citewise.answer.cases import is_case_clause
from citewise.answer.openings import case_not_put
from citewise.chunk.header import header_parts
from citewise.chunk.sentences import PROVISION_WORD
from citewise.judge.headings import NAMED_PAIRS, names_heading
from citewise.textmatch import asked_keys, query_terms, short_keys, text_terms, word_jaccard
from citewise.types import Chunk

_EXCEPTION = re.compile(
    r"\b(?:except|unless|other than|save where|notwithstanding|by way of derogation|otherwise|"
    r"in (?:any|all) other cases)\b"
    r"|tr[ừu] tr[ưu][ờo]ng h[ợo]p|ngo[ạa]i tr[ừu]|kh[ôo]ng ph[ụu] thu[ộo]c v[àa]o"
    r"|tr[ưu][ờo]ng h[ợo]p(?:\s+[^\W\d_]+){0,4}?\s+kh[áa]c\b",
    re.I,
)
"""A rule and the special case it sets against another ("Notwithstanding paragraph 2, in the event of the death of
a person, ... not later than 10 days"; "... hoàn lại 100% phí bảo hiểm nếu ... bị từ chối cấp thị thực" and "Các
trường hợp hủy hợp đồng khác ... được hoàn lại 80%") are no conflict of figures."""

RIVAL_WORDS = 3
"""Topic words two differently worded sentences must share to be read as stating the same thing."""
OWN_WORDS = 2
"""Topic words one sentence holds and the other lacks that make them two statements, however alike their wording:
"... phải ngừng xử lý dữ liệu trong thời hạn 05 ngày làm việc kể từ ngày nhận được yêu cầu rút lại sự đồng ý" and
"... phải đáp ứng yêu cầu trong thời hạn 10 ngày làm việc kể từ ngày nhận được yêu cầu", asked when processing stops
after consent is withdrawn; "... thông báo cho Hiệp hội trong thời hạn 72 giờ" and "... thông báo cho khách hàng bị
ảnh hưởng trong thời hạn 07 ngày làm việc", asked how soon the Association is told (Vietnamese keys are syllables:
"Hiệp hội" is two). A sentence's words are read with the headings it sits under and the other does not: "Người phạm
tội còn có thể bị phạt tiền …" says which offence only in its article's heading."""
NARROWER_WORDS = 2
"""Words a heading adds to another, unasked, that make it a narrower provision (``_narrower``)."""

_LABEL = re.compile(rf"\b{PROVISION_WORD}\b", re.I)


@dataclass(frozen=True)
class Stated:
    """A sentence stating a figure: its text, where it starts in its document, its chunk and the figure."""

    text: str
    start: int
    end: int
    chunk: Chunk
    value: str


def same_statement(question: str, lang: str, a: Stated, b: Stated) -> bool:
    """Two sentences saying the same thing but for their figures: worded alike ("within 14 days" / "within 30
    days"), or worded otherwise but about what the question asks to the same degree (a rule and the row of a
    schedule or annex restating it: "Claim files are kept for 10 years ..." / "Claim files — 7 years from
    closure."; English only: single Vietnamese syllables such as "thời", "hạn" say too little of the topic).
    A rule and its stated exception ("..., except as provided in paragraph 2"), a rule and a case it sets apart
    that the question does not put ("trường hợp theo tuần thì … 10 giờ trong 01 ngày"), the frame a criminal code
    article sets for a case of its offence ("2. Phạm tội …", ``cases``), and two provisions under headings of which
    the question names one ("Tội đánh bạc" / "Tội tổ chức đánh bạc hoặc gá bạc") are not a conflict."""
    if _EXCEPTION.search(a.text) or _EXCEPTION.search(b.text):
        return False
    same_doc = a.chunk.doc_id == b.chunk.doc_id
    if (same_doc and a.start < b.end and b.start < a.end) or a.value in b.text:
        return False  # one sentence inside the other (a list and its item), or the figure is restated there
    if _set_apart(question, a) != _set_apart(question, b):
        return False
    if is_case_clause(a.text) or is_case_clause(b.text):
        return False  # a frame an article sets for a case of its own offence ("2. Phạm tội có tổ chức, thì …")
    title_a, title_b = _own_headings(a.chunk.header, b.chunk.header)
    head_a, head_b = short_keys(title_a), short_keys(title_b)
    if _narrower(question, head_a, head_b) or _narrower(question, head_b, head_a):
        return False
    if _named_elsewhere(question, title_a, f"{title_b} {b.text}") or _named_elsewhere(
        question, title_b, f"{title_a} {a.text}"
    ):
        return False
    if _named_alone(question, title_a, title_b) or _named_alone(question, title_b, title_a):
        return False
    topic = asked_keys(question)
    in_a, in_b = topic & (short_keys(a.text) | head_a), topic & (short_keys(b.text) | head_b)
    if len(in_a - in_b) >= OWN_WORDS or len(in_b - in_a) >= OWN_WORDS:
        return False  # one says more of what is asked: two duties of one provision, not one duty twice
    if word_jaccard(a.text.replace(a.value, " "), b.text.replace(b.value, " ")) >= 0.35:
        return True
    if lang != "en":
        return False
    in_a, in_b = topic & short_keys(a.text), topic & short_keys(b.text)
    # three topic words at least: "pay" and "medical" are shared by the medical-expenses cover and the evacuation
    # cover of one policy, which state two limits, not one limit twice
    return len(in_a & in_b) >= max(RIVAL_WORDS, 2 * len(in_a) / 3)


def _set_apart(question: str, s: Stated) -> bool:
    return case_not_put(question, s.text, max(0, s.text.find(s.value)))


def _own_headings(header_a: str, header_b: str) -> tuple[str, str]:
    """The headings each sentence sits under and the other does not (the path below their common part), without
    provision labels ("Điều 321."): "Tội đánh bạc" / "Tội tổ chức đánh bạc hoặc gá bạc"."""
    pa, pb = header_parts(header_a), header_parts(header_b)
    common = 0
    while common < min(len(pa), len(pb)) and pa[common] == pb[common]:
        common += 1
    ta, tb = (_LABEL.sub(" ", " ".join(p[common:])) for p in (pa, pb))
    return ta, tb


def _narrower(question: str, head: set[str], other: set[str]) -> bool:
    """Whether ``other`` is a heading narrower than ``head`` that the question does not ask about: every word of
    ``head`` is in ``other`` and in the question, and ``other`` adds two words or more the question does not say
    ("Tội đánh bạc" asked, "Tội tổ chức đánh bạc hoặc gá bạc" not)."""
    asked = short_keys(question)
    extra = other - head
    return bool(head) and head <= other and head <= asked and len(extra - asked) >= NARROWER_WORDS


def _named_alone(question: str, heading: str, other: str) -> bool:
    """Whether the question names ``heading`` (two word pairs of it or more) and no word pair of ``other``: "Thời gian
    làm việc bình thường trong một ngày …?" asks of "Thời giờ làm việc bình thường" (08 giờ), not of "Làm thêm giờ",
    whose "tổng số giờ làm việc bình thường và số giờ làm thêm không quá 12 giờ trong 01 ngày" is the day's hours with
    overtime, not a second figure for the same thing."""
    if not names_heading(question, heading):
        return False
    pairs = text_terms(other, marks=True)[1]  # every word pair, "thêm" included
    return bool(pairs) and not pairs & text_terms(question, marks=True)[1]


def _named_elsewhere(question: str, heading: str, other: str) -> bool:
    """Whether the question names ``heading`` (two word pairs of it or more) and ``other`` (a sentence with its own
    headings) leaves out two of the pairs named: "… cản trở người thi hành công vụ …" names "Tội chống người thi hành
    công vụ", of which "… cản trở công dân thực hiện quyền tự do ngôn luận …" says nothing. Pairs, because single
    Vietnamese syllables ("công", "hành") are found in any provision."""
    named = query_terms(heading, marks=True)[1] & text_terms(question, marks=True)[1]
    return len(named) >= NAMED_PAIRS and len(named - text_terms(other, marks=True)[1]) >= NAMED_PAIRS
