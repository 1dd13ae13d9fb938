"""Counts: what a number question counts, and which numbers of a provision count it. "Đối với mỗi tội phạm, người
phạm tội chỉ bị áp dụng mấy hình phạt chính?" is answered by "một hình phạt chính", never by a list item's number
("…: 1. Cảnh cáo.") nor by the "18" of "Người dưới 18 tuổi"."""

from __future__ import annotations

import functools
import re

from citewise.judge.qtype import UNIT_WORD, WORD_LIMIT, question_type
from citewise.lang import fold
from citewise.textmatch import short_keys as _keys

_WORD = re.compile(r"[^\W_]+")

_ITEM_BEFORE = re.compile(r"(?:^|[:.;])\s*$")
_ITEM_AFTER = re.compile(r"\.\s+[^\W\d_]")


def item_number(text: str, span: tuple[int, int]) -> bool:
    """Whether the span is the number of a list item ("… đối với mỗi tội phạm: 1. Cảnh cáo. 2. Phạt tiền."): a label,
    never the count asked for ("mấy hình phạt chính?" is not answered "1")."""
    return _ITEM_BEFORE.search(text, 0, span[0]) is not None and _ITEM_AFTER.match(text, span[1]) is not None


_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")


_COUNTING = re.compile(r"\b(?:mấy|bao nhiêu|how many|number of)\s+([^?]*)", re.I)
_VERB = re.compile(
    r"\b(?:must|shall|should|can|could|may|might|will|would|are|is|was|were|do|does|did|has|have|had|được|phải|có|là)\b",
    re.I,
)


@functools.lru_cache(maxsize=256)
def _counting(question: str) -> str:
    """What a number question counts: its words after the asking word, up to its verb ("how many of the VC Fund's
    investors must …": "of the VC Fund's investors"; "mấy hình phạt chính?"); nothing for another question."""
    m = _COUNTING.search(question) if question_type(question) == "number" else None
    if m is None:
        return ""
    verb = _VERB.search(m.group(1))
    return m.group(1)[: verb.start()] if verb else m.group(1)


def _counting_words(question: str) -> set[str]:
    return _keys(_counting(question))


_ORDINAL_ASKED = re.compile(r"\bthứ\s+(?:bao nhiêu|mấy)\b", re.I)
_ORDINAL = re.compile(r"(?:[^\W\d_]+\s+)?thứ\s*$", re.I)
"""The ordinal word before a number, with the word it ranks ("tháng thứ 07")."""


def ordinal(question: str, text: str, start: int) -> int | None:
    """Where the ordinal a question asks for ("… từ tháng thứ bao nhiêu …?") begins before the number at ``start``
    ("tháng thứ 07"); None when the question asks no ordinal or ``text`` puts none there."""
    if _ORDINAL_ASKED.search(question) is None:
        return None
    m = _ORDINAL.search(text, 0, start)
    return None if m is None else m.start()


def counts_the_asked(question: str, text: str, span: tuple[int, int]) -> bool:
    """Whether the value at ``span`` counts what the question counts, when it names it: its own words ("ten years") or
    the word after its number are among that thing's. "Người dưới 18 tuổi …" counts years of age, not penalties; "ten
    years" no investors. For a question asking an ordinal ("từ tháng thứ bao nhiêu"), a number after "thứ" ("Mang thai
    từ tháng thứ 07"), not a count ("nuôi con dưới 12 tháng tuổi")."""
    if _ORDINAL_ASKED.search(question) is not None:
        return _ORDINAL.search(text, 0, span[0]) is not None
    counting = _counting_words(question)
    if not counting:
        return True
    own = _keys(re.sub(r"[\d.,]+", " ", text[span[0] : span[1]]))
    if own & counting:
        return True
    after = _NEXT_WORD.match(text, span[1])
    if after is not None and after.group(1).lower() in _CLASSIFIERS:  # "10 người lao động" counts "lao động"
        noun = _NEXT_WORD.match(text, after.end())
        after = noun if noun is not None and _keys(noun.group(1)) & counting else after
    return after is not None and bool(_keys(after.group(1)) & counting)


_CLASSIFIERS = frozenset({"người", "con", "chiếc", "cái", "bản", "căn", "tờ", "quyển", "cuốn"})
"""Vietnamese classifiers between a number and the noun it counts ("10 người lao động", "02 bản sao"): "bao nhiêu lao
động?" counts the noun after them."""


def counted(question: str, text: str, end: int) -> int:
    """Where a count ends once it takes the noun the question counts ("how many guests" -> "3 guests",
    "bao nhiêu khách" -> "3 khách"): the word after the number when the question names it."""
    m = _NEXT_WORD.match(text, end)
    if m and _keys(m.group(1)) & _keys(question):
        return m.end()
    return end


def counted_as_asked(question: str, text: str, end: int) -> int:
    """Where a count written in words ends once it takes the words the question counts with, as many of them in a row
    as ``text`` repeats ("mấy hình phạt chính?" -> "một hình phạt chính"): a number word alone says nothing."""
    for word in _WORD.findall(_counting(question)):
        after = _NEXT_WORD.match(text, end)
        if after is None or after.group(1).lower() != word.lower():
            break
        end = after.end()
    return end


_UNITS_ASKED = re.compile(rf"\b(?:how many|bao nhieu|may)\s+{UNIT_WORD.pattern}\b")
"""A question asking how many units of time ("for how many weeks", "bao nhiêu ngày"), folded."""


def word_limit(value: str) -> bool:
    """Whether ``value`` is a time limit with no number: "immediately", "without undue delay", "ngay lập tức"."""
    return WORD_LIMIT.fullmatch(" ".join(fold(value).split())) is not None


def uncounted(question: str, value: str) -> bool:
    """Whether ``value`` is a time limit with no number ("immediately") while the question asks how many units ("for
    how many weeks can we rely on temporary cover …?", "bao nhiêu ngày"): it states no count of them."""
    return word_limit(value) and bool(_UNITS_ASKED.search(fold(question).lower()))
